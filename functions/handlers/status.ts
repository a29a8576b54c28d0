/** Lambda entry: agent status API. */
import { createStatusHandler } from './http/status-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createStatusHandler({ ledger: runtime.ledger });
