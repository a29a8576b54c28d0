/** Lambda entry: idle-check queue consumer. */
import { createIdleCheckHandler } from './events/idle-check-handler.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createIdleCheckHandler({
  ledger: runtime.ledger,
  queue: runtime.queue,
  idleChecks: runtime.idleChecks,
  idleFlushSeconds: runtime.config.idleFlushSeconds,
});
