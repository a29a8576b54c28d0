/** Lambda entry: consolidation queue consumer. */
import { createConsolidateBatchHandler } from './events/consolidate-batch-handler.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createConsolidateBatchHandler({
  ledger: runtime.ledger,
  // Redacted on read: nothing a model, an item, the audit or a summary sees holds a secret.
  rawLog: runtime.redactedRawLog,
  memory: runtime.memory,
  model: runtime.model,
  budget: runtime.config.budget,
  summaries: runtime.summaries,
  snapshot: runtime.snapshot,
  deadLetters: runtime.deadLetters,
});
