/** Lambda entry: ingest API. */
import { createIngestHandler } from './http/ingest-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { redaction } from '../commons/runtime/redaction.js';
import { agentLedger, batchQueue, idleCheckScheduler } from '../commons/runtime/stores.js';
import { AgentCounterCache } from '../use-cases/counter-cache.js';

const runtime = awsRuntime();

export const handler = createIngestHandler({
  ledger: agentLedger(runtime),
  // Redacted before it is stored when REDACT_RAW_LOG=true; as sent otherwise.
  rawLog: redaction(runtime).ingestRawLog,
  queue: batchQueue(runtime),
  batchSize: runtime.config.batchSize,
  rawWriteConcurrency: runtime.config.rawWriteConcurrency,
  // Lives as long as the warm function instance.
  counterCache: new AgentCounterCache(),
  idleChecks: idleCheckScheduler(runtime),
  idleFlushSeconds: runtime.config.idleFlushSeconds,
});
