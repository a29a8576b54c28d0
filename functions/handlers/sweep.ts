/** Lambda entry: the summary sweep (schedule and HTTP). */
import { createSweepHandler } from './http/sweep-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createSweepHandler({
  ...runtime.summaries,
  ledger: runtime.ledger,
  snapshot: runtime.snapshot,
  index: runtime.index,
  lifecycle: {
    memory: runtime.memory,
    injections: runtime.injections,
    forgetting: runtime.config.forgetting,
    outcomes: { rawLog: runtime.rawLog, ledger: runtime.ledger },
  },
});
