/** Lambda entry: agent status API. */
import { createStatusHandler } from './http/status-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { agentLedger } from '../commons/runtime/stores.js';

export const handler = createStatusHandler({ ledger: agentLedger(awsRuntime()) });
