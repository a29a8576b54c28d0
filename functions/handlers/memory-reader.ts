/** Lambda entry: store pages and audit reads. */
import { createMemoryHandler } from './http/memory-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createMemoryHandler({
  memory: runtime.memory,
  injections: runtime.injections,
  summaries: runtime.summaries.summaries,
  ladders: runtime.summaries.ladders,
  pageTokens: runtime.pageTokens,
});
