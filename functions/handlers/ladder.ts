/** Lambda entry: Summaries stream consumer (the ladders). */
import { createLadderHandler } from './events/ladder-handler.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { embeddingPort } from '../commons/runtime/embeddings.js';
import { modelPort } from '../commons/runtime/model.js';
import { indexDependencies, ladderConfig, snapshotDependencies } from '../commons/runtime/pipelines.js';
import { redaction } from '../commons/runtime/redaction.js';
import { summaryStore } from '../commons/runtime/stores.js';

const runtime = awsRuntime();
const [model, embeddings] = await Promise.all([modelPort(runtime), embeddingPort(runtime)]);
const index = indexDependencies(runtime, embeddings, redaction(runtime).redactedRawLog);

export const handler = createLadderHandler({ summaries: summaryStore(runtime), model, ladders: ladderConfig(runtime.config), snapshot: snapshotDependencies(runtime, index), index });
