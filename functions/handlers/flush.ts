/** Lambda entry: flush API. */
import { createFlushHandler } from './http/flush-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createFlushHandler({ ledger: runtime.ledger, queue: runtime.queue, coalesceSeconds: runtime.config.flushCoalesceSeconds });
