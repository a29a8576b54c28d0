/** Lambda entry: Summaries stream consumer (the ladders). */
import { createLadderHandler } from './summaries/ladder-handler.js';
import { serviceRuntime } from './commons/runtime.js';

const { summaries } = serviceRuntime();

export const handler = createLadderHandler({ summaries: summaries.summaries, model: summaries.model, ladders: summaries.ladders });
