/** Lambda entry: the agent's export (raw records, stores, summaries, audit) as NDJSON parts. */
import { createExportHandler } from './http/export-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { createPageTokens } from '../commons/runtime/page-tokens.js';
import { redaction } from '../commons/runtime/redaction.js';
import { agentLedger, memoryStore, summaryStore } from '../commons/runtime/stores.js';

const runtime = awsRuntime();

export const handler = createExportHandler({
  ledger: agentLedger(runtime),
  // Records as every derived output shows them: redacted (the originals stay in the raw log, for operators with bucket access).
  rawLog: redaction(runtime).redactedRawLog,
  memory: memoryStore(runtime),
  summaries: summaryStore(runtime),
  pageTokens: createPageTokens(runtime.config),
});
