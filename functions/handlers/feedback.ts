/** Lambda entry: feedback on items and batch reverts (the note lifecycle's write side). */
import { createFeedbackHandler } from './http/feedback-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { embeddingPort } from '../commons/runtime/embeddings.js';
import { indexDependencies, snapshotDependencies } from '../commons/runtime/pipelines.js';
import { redaction } from '../commons/runtime/redaction.js';
import { injectionLog, memoryStore } from '../commons/runtime/stores.js';

const runtime = awsRuntime();
// Reassembling the snapshot after a change refreshes the index's items segment.
const index = indexDependencies(runtime, await embeddingPort(runtime), redaction(runtime).redactedRawLog);

export const handler = createFeedbackHandler({
  memory: memoryStore(runtime),
  injections: injectionLog(runtime),
  snapshot: snapshotDependencies(runtime, index),
});
