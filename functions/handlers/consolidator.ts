/** Lambda entry: consolidation queue consumer. */
import { createConsolidateBatchHandler } from './events/consolidate-batch-handler.js';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { serviceRuntime } from '../commons/runtime.js';
import { metrics } from '../commons/powertools.js';

const runtime = serviceRuntime();

export const handler = createConsolidateBatchHandler({
  ledger: runtime.ledger,
  // Redacted on read: nothing a model, an item, the audit or a summary sees holds a secret.
  rawLog: runtime.redactedRawLog,
  memory: runtime.memory,
  model: runtime.model,
  budget: runtime.config.budget,
  holes: runtime.config.holes,
  // Oldest unconsolidated record's age, as each batch is placed: the lag the operations alarm watches.
  onLag: (lagMs) => metrics.addMetric('ConsolidationLag', MetricUnit.Milliseconds, lagMs),
  summaries: runtime.summaries,
  snapshot: runtime.snapshot,
  deadLetters: runtime.deadLetters,
  index: runtime.index,
});
