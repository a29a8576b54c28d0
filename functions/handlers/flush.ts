/** Lambda entry: flush API. */
import { createFlushHandler } from './http/flush-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { agentLedger, batchQueue } from '../commons/runtime/stores.js';

const runtime = awsRuntime();

export const handler = createFlushHandler({ ledger: agentLedger(runtime), queue: batchQueue(runtime), coalesceSeconds: runtime.config.flushCoalesceSeconds });
