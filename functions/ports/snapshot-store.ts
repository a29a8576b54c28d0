/** Port of the snapshot store: one ready-made, versioned snapshot per agent. */
import type { AgentKey } from '../domain/agent-key.js';
import type { Snapshot } from '../domain/snapshot.js';

/** A stored snapshot as read: its version and its packed (compressed) body, unpacked only when needed. */
export interface StoredSnapshot {
  readonly version: number;
  readonly packed: Uint8Array;
}

/**
 * Snapshots, one per agent. `read` is the read path's single lookup;
 * `write` stores the next version only if no other assembler wrote it first.
 */
export interface SnapshotStore {
  read(agent: AgentKey): Promise<StoredSnapshot | undefined>;
  readVersion(agent: AgentKey): Promise<number>;
  /** Writes `snapshot.version`; false when another assembler wrote that version first. */
  write(agent: AgentKey, snapshot: Snapshot): Promise<boolean>;
}
