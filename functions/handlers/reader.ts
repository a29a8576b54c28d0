/** Lambda entry: the read path (snapshot and context). */
import { createReadHandler } from './http/read-route.js';
import { serviceRuntime } from '../commons/runtime.js';
import { CachedSnapshotReader } from '../use-cases/read-snapshot.js';

const runtime = serviceRuntime();

export const handler = createReadHandler({
  // Lives as long as the warm function instance.
  snapshots: new CachedSnapshotReader(runtime.snapshots, runtime.config.snapshotCacheMs),
  injections: runtime.injections,
});
