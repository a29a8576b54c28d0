/** Lambda entry: consolidation queue consumer. */
import { createConsolidateBatchHandler } from './events/consolidate-batch-handler.js';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { awsRuntime } from '../commons/runtime/aws.js';
import { embeddingPort } from '../commons/runtime/embeddings.js';
import { modelPort } from '../commons/runtime/model.js';
import { indexDependencies, snapshotDependencies, summaryDependencies } from '../commons/runtime/pipelines.js';
import { redaction } from '../commons/runtime/redaction.js';
import { agentLedger, deadLetterQueue, memoryStore } from '../commons/runtime/stores.js';
import { metrics } from '../commons/powertools.js';

const runtime = awsRuntime();
// Redacted on read: nothing a model, an item, the audit or a summary sees holds a secret.
const { redactedRawLog } = redaction(runtime);
const [model, embeddings] = await Promise.all([modelPort(runtime), embeddingPort(runtime)]);
const index = indexDependencies(runtime, embeddings, redactedRawLog);

export const handler = createConsolidateBatchHandler({
  ledger: agentLedger(runtime),
  rawLog: redactedRawLog,
  memory: memoryStore(runtime),
  model,
  budget: runtime.config.budget,
  holes: runtime.config.holes,
  // Oldest unconsolidated record's age, as each batch is placed: the lag the operations alarm watches.
  onLag: (lagMs) => metrics.addMetric('ConsolidationLag', MetricUnit.Milliseconds, lagMs),
  summaries: summaryDependencies(runtime, model, redactedRawLog),
  snapshot: snapshotDependencies(runtime, index),
  deadLetters: deadLetterQueue(runtime),
  index,
});
