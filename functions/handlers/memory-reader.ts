/** Lambda entry: store pages and audit reads. */
import { createMemoryHandler } from './http/memory-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { createPageTokens } from '../commons/runtime/page-tokens.js';
import { ladderConfig } from '../commons/runtime/pipelines.js';
import { injectionLog, memoryStore, summaryStore } from '../commons/runtime/stores.js';

const runtime = awsRuntime();

export const handler = createMemoryHandler({
  memory: memoryStore(runtime),
  injections: injectionLog(runtime),
  summaries: summaryStore(runtime),
  ladders: ladderConfig(runtime.config),
  pageTokens: createPageTokens(runtime.config),
});
