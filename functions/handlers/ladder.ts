/** Lambda entry: Summaries stream consumer (the ladders). */
import { createLadderHandler } from './events/ladder-handler.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();
const { summaries } = runtime;

export const handler = createLadderHandler({ summaries: summaries.summaries, model: summaries.model, ladders: summaries.ladders, snapshot: runtime.snapshot, index: runtime.index });
