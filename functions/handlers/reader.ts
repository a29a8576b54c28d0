/** Lambda entry: the read path (snapshot and context). */
import { createReadHandler } from './http/read-route.js';
import { serviceRuntime } from '../commons/runtime.js';
import { CachedSnapshotReader } from '../use-cases/read-snapshot.js';
import { RecallReader } from '../use-cases/recall.js';
import { LocalEmbeddings } from '../adapters/embeddings/local.js';

const runtime = serviceRuntime();
// The query embedding model loads at cold start, not on the first question.
if (runtime.embeddings instanceof LocalEmbeddings) runtime.embeddings.warmUp();

export const handler = createReadHandler({
  // Lives as long as the warm function instance.
  snapshots: new CachedSnapshotReader(runtime.snapshots, runtime.config.snapshotCacheMs),
  injections: runtime.injections,
  // Segments and query embeddings cached for the life of the warm instance.
  recall: new RecallReader(runtime.index.segments, runtime.embeddings),
});
