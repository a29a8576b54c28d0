/**
 * The read side of the retrieval index. The snapshot (one GetItem) carries
 * the manifest; segments are fetched from S3 only when this warm instance
 * has not cached them yet (they are immutable, so the cache is by key and
 * never stale), and the joined index is kept per manifest. The query is
 * embedded once per distinct text (an LRU), so a repeated question costs no
 * model call. Reads never write the index.
 */
import { Lru } from '../commons/lru.js';
import { decodedBytes, type IndexManifest } from '../domain/index-segment.js';
import { loadSegment, rankPending, understand, UnitIndex, type LoadedSegment, type QueryUnderstanding, type RankedUnit } from '../domain/retrieval.js';
import type { SegmentUnit } from '../domain/index-segment.js';
import { recordUnit, searchText } from '../domain/index-units.js';
import { indexTerms } from '../domain/terms.js';
import type { RawRecord } from '../ports/pipeline.js';
import type { EmbeddingPort } from '../ports/embeddings.js';
import type { IndexSegmentStore } from '../ports/retrieval-index.js';

export interface RecallRequest {
  readonly query: string;
  readonly contact?: string;
  readonly project?: string;
  readonly allow?: (unit: SegmentUnit) => boolean;
  readonly now: string;
  /** Tokens the block will hold (the ranking spends a small one on distinct matches). */
  readonly maxTokens?: number;
}

export interface RecallResult {
  readonly ranked: readonly RankedUnit[];
  readonly understanding: QueryUnderstanding;
  /** Segments fetched from S3 for this request (0 when all were cached). */
  readonly fetched: number;
}

/**
 * The decoded form of a segment (units, postings, vectors), against its stored
 * (compressed) size, as the cache bound counts a segment whose decoded size
 * is not known (`decodedBytes`: a store that hands over segments not read
 * from their stored form): measured at 2.3 for a segment of 20,000 records
 * without sentence vectors (heap and array buffers after a full GC), rounded
 * up; 1.7 with one sentence vector per record, which does not compress. A
 * bound that overestimates evicts an index that fits, and then every
 * question fetches and decodes its segments again (stop 60's read benchmark
 * at 100,000 records with sentence vectors: 882 ms p50 before the decoded
 * size was counted, 250 ms after).
 */
export const DECODED_PER_STORED_BYTE = 3;

export class RecallReader {
  private readonly segments = new Map<string, { loaded: LoadedSegment; bytes: number }>();
  private segmentBytes = 0;
  /** Joined indexes by manifest signature, with the segment keys each holds on to. */
  private readonly indexes = new Lru<{ index: UnitIndex; keys: readonly string[] }>(64);
  private readonly queries = new Lru<Promise<Float32Array | undefined>>(2_000);

  constructor(
    private readonly store: Pick<IndexSegmentStore, 'get'>,
    private readonly embeddings: EmbeddingPort | undefined,
    /**
     * What the cached segments may take (decoded, estimated): the read
     * function gives a quarter of its memory, beside the embedding model and
     * the request. A segment evicted from the cache also leaves every joined
     * index that holds it, so nothing evicted stays reachable.
     */
    private readonly maxCachedBytes = 256 * 1024 * 1024,
  ) {}

  /** Decoded bytes the cache holds now (estimated). */
  get cachedBytes(): number {
    return this.segmentBytes;
  }

  private async segment(ref: { key: string; bytes: number }): Promise<{ loaded?: LoadedSegment; fetched: boolean }> {
    const cached = this.segments.get(ref.key);
    if (cached) return { loaded: cached.loaded, fetched: false };
    const segment = await this.store.get(ref.key);
    // Merged away and deleted after this snapshot was assembled: the next snapshot lists its replacement.
    if (!segment) return { fetched: true };
    const loaded = loadSegment(ref.key, segment);
    const bytes = decodedBytes(segment) ?? ref.bytes * DECODED_PER_STORED_BYTE;
    this.segments.set(ref.key, { loaded, bytes });
    this.segmentBytes += bytes;
    while (this.segmentBytes > this.maxCachedBytes && this.segments.size > 1) {
      const [oldest, entry] = this.segments.entries().next().value!;
      this.segments.delete(oldest);
      this.segmentBytes -= entry.bytes;
      this.indexes.deleteWhere((cached) => cached.keys.includes(oldest));
    }
    return { loaded, fetched: true };
  }

  /** The joined index of a manifest, loading what is not cached. */
  async index(manifest: IndexManifest): Promise<{ index: UnitIndex; fetched: number }> {
    const refs = [...manifest.segments, ...(manifest.items ? [manifest.items] : [])];
    const signature = `${refs.map((r) => r.key).join('|')}#${manifest.dropped.length}`;
    const known = this.indexes.get(signature);
    if (known) return { index: known.index, fetched: 0 };
    const results = await Promise.all(refs.map((ref) => this.segment(ref)));
    const loaded = results.map((r) => r.loaded).filter((s): s is LoadedSegment => s !== undefined);
    const index = new UnitIndex(loaded, new Set(manifest.dropped), manifest.modelId);
    // Kept only while all its segments are: an index over an evicted segment would keep it in memory.
    if (loaded.length === refs.length && refs.every((ref) => this.segments.has(ref.key))) this.indexes.set(signature, { index, keys: refs.map((ref) => ref.key) });
    return { index, fetched: results.filter((r) => r.fetched).length };
  }

  private queryVector(query: string, manifest: IndexManifest): Promise<Float32Array | undefined> {
    if (!this.embeddings || this.embeddings.modelId !== manifest.modelId) return Promise.resolve(undefined);
    const key = query.trim().toLowerCase();
    let vector = this.queries.get(key);
    if (!vector) {
      vector = this.embeddings.embed([query]).then(([v]) => v);
      this.queries.set(key, vector);
      // A failed embedding is not cached: the next request tries again (lexical ranking meanwhile).
      vector.catch(() => this.queries.set(key, Promise.resolve(undefined)));
    }
    return vector.catch(() => undefined);
  }

  /**
   * Recall over the index (when the agent has one) and the records not yet
   * consolidated, ranked together; a pending record the index already holds
   * (a batch placed meanwhile) is taken from the index.
   */
  async recallWithPending(manifest: IndexManifest | undefined, pending: readonly RawRecord[], request: RecallRequest): Promise<RecallResult> {
    const indexed = manifest ? await this.recall(manifest, request) : undefined;
    const seen = new Set(indexed?.ranked.map((r) => r.unit.id));
    const units: SegmentUnit[] = pending
      .map((record, i) => ({ record, previous: pending[i - 1]?.sequence === record.sequence - 1 ? pending[i - 1] : undefined }))
      .filter(({ record }) => !seen.has(record.id))
      .map(({ record, previous }) => {
        const unit = recordUnit(record, previous);
        return { ...unit, terms: indexTerms(searchText(unit)).join(' ') };
      });
    const fresh = rankPending(units, { query: request.query, now: request.now, ...(request.contact ? { contact: request.contact } : {}), ...(request.project ? { project: request.project } : {}), ...(request.allow ? { allow: request.allow } : {}) });
    const ranked = [...(indexed?.ranked ?? []), ...fresh].sort((a, b) => b.score - a.score);
    return { ranked, understanding: indexed?.understanding ?? understand(request.query, request.now, []), fetched: indexed?.fetched ?? 0 };
  }

  async recall(manifest: IndexManifest, request: RecallRequest): Promise<RecallResult> {
    const [{ index, fetched }, queryVector] = await Promise.all([this.index(manifest), this.queryVector(request.query, manifest)]);
    const { ranked, understanding } = index.search({
      query: request.query,
      ...(queryVector ? { queryVector } : {}),
      ...(request.contact ? { contact: request.contact } : {}),
      ...(request.project ? { project: request.project } : {}),
      ...(request.allow ? { allow: request.allow } : {}),
      ...(request.maxTokens !== undefined ? { budgetTokens: request.maxTokens } : {}),
      now: request.now,
    });
    return { ranked, understanding, fetched };
  }
}
