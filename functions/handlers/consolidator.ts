/** Lambda entry: consolidation queue consumer. */
import { createConsolidateBatchHandler } from './events/consolidate-batch-handler.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createConsolidateBatchHandler({
  ledger: runtime.ledger,
  rawLog: runtime.rawLog,
  memory: runtime.memory,
  model: runtime.model,
  budget: runtime.config.budget,
  holes: runtime.config.holes,
  summaries: runtime.summaries,
  snapshot: runtime.snapshot,
});
