/** Lambda entry: ingest API. */
import { createIngestHandler } from './http/ingest-route.js';
import { serviceRuntime } from '../commons/runtime.js';
import { AgentCounterCache } from '../use-cases/counter-cache.js';

const runtime = serviceRuntime();

export const handler = createIngestHandler({
  ledger: runtime.ledger,
  rawLog: runtime.rawLog,
  queue: runtime.queue,
  batchSize: runtime.config.batchSize,
  rawWriteConcurrency: runtime.config.rawWriteConcurrency,
  // Lives as long as the warm function instance.
  counterCache: new AgentCounterCache(),
  idleChecks: runtime.idleChecks,
  idleFlushSeconds: runtime.config.idleFlushSeconds,
});
