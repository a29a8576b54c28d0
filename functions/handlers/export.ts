/** Lambda entry: the agent's export (raw records, stores, summaries, audit) as NDJSON parts. */
import { createExportHandler } from './http/export-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createExportHandler({
  ledger: runtime.ledger,
  // Records as every derived output shows them: redacted (the originals stay in the raw log, for operators with bucket access).
  rawLog: runtime.redactedRawLog,
  memory: runtime.memory,
  summaries: runtime.summaries.summaries,
  pageTokens: runtime.pageTokens,
});
