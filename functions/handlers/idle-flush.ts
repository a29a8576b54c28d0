/** Lambda entry: idle-check queue consumer. */
import { createIdleCheckHandler } from './events/idle-check-handler.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { agentLedger, batchQueue, idleCheckScheduler } from '../commons/runtime/stores.js';

const runtime = awsRuntime();

export const handler = createIdleCheckHandler({
  ledger: agentLedger(runtime),
  queue: batchQueue(runtime),
  idleChecks: idleCheckScheduler(runtime),
  idleFlushSeconds: runtime.config.idleFlushSeconds,
});
