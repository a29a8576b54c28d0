/**
 * Ports of the retrieval index: immutable segments (S3 objects under the
 * agent's prefix) and the manifest that lists them (one versioned item).
 * The consolidation pipeline writes both; the read path reads segments only,
 * by the keys the snapshot carries.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { IndexManifest, IndexSegment } from '../domain/index-segment.js';

export interface IndexSegmentStore {
  /** Stores a new immutable segment; returns its key and stored size. */
  put(agent: AgentKey, name: string, segment: IndexSegment): Promise<{ key: string; bytes: number }>;
  /** The segment under `key`; undefined when it is gone (merged away and deleted). */
  get(key: string): Promise<IndexSegment | undefined>;
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes every segment of an agent (erasure of the whole index). */
  deleteAll(agent: AgentKey): Promise<number>;
}

export interface IndexManifestStore {
  read(agent: AgentKey): Promise<IndexManifest | undefined>;
  /** Writes `manifest.version` only if the stored version is `manifest.version - 1` (0: none); false when another writer won. */
  write(agent: AgentKey, manifest: IndexManifest): Promise<boolean>;
  delete(agent: AgentKey): Promise<void>;
}
