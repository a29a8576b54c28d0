/** Lambda entry: the read path (snapshot and context). */
import { createReadHandler } from './http/read-route.js';
import { S3IndexSegments } from '../adapters/s3/index-segments.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { embeddingPort } from '../commons/runtime/embeddings.js';
import { redaction } from '../commons/runtime/redaction.js';
import { agentLedger, injectionLog, snapshotStore } from '../commons/runtime/stores.js';
import { PendingRecords } from '../use-cases/pending-records.js';
import { CachedSnapshotReader } from '../use-cases/read-snapshot.js';
import { RecallReader } from '../use-cases/recall.js';

const runtime = awsRuntime();
const ledger = agentLedger(runtime);
const { redactedRawLog } = redaction(runtime);
// The query embedding model starts loading at cold start, not on the first question.
const embeddings = await embeddingPort(runtime, { warm: true });

export const handler = createReadHandler({
  // Lives as long as the warm function instance.
  snapshots: new CachedSnapshotReader(snapshotStore(runtime), runtime.config.snapshotCacheMs),
  injections: injectionLog(runtime),
  // Segments and query embeddings cached for the life of the warm instance, the segments in a quarter of its memory.
  recall: new RecallReader(new S3IndexSegments(runtime.clients.s3, runtime.config.rawBucketName), embeddings, (runtime.config.functionMemoryMb * 1024 * 1024) / 4),
  // What was said since the last batch, recallable at once: redacted like every derived output, cached by sequence.
  pending: new PendingRecords(ledger, redactedRawLog),
  // What a cited record id stands for.
  records: { ledger, rawLog: redactedRawLog },
});
