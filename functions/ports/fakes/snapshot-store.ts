/**
 * In-memory snapshot store with the DynamoDB adapter's semantics: version 1
 * is written only if there is no snapshot, version n only over version n-1
 * (false otherwise); the snapshot is stored packed, as the read path gets it;
 * one larger than a DynamoDB item can hold fails with PatchTooLargeError.
 */
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import { packSnapshot, unpackSnapshot, type Snapshot } from '../../domain/snapshot.js';
import { PatchTooLargeError } from '../memory-store.js';
import type { SnapshotStore, StoredSnapshot } from '../snapshot-store.js';

const MAX_SNAPSHOT_BYTES = 380_000;

export class InMemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, StoredSnapshot>();
  /** `read` calls: the read path promises one per uncached request. */
  reads = 0;

  async read(agent: AgentKey): Promise<StoredSnapshot | undefined> {
    this.reads += 1;
    const found = this.snapshots.get(agentPartitionKey(agent));
    return found ? { version: found.version, packed: new Uint8Array(found.packed) } : undefined;
  }

  async readVersion(agent: AgentKey): Promise<number> {
    return this.snapshots.get(agentPartitionKey(agent))?.version ?? 0;
  }

  async write(agent: AgentKey, snapshot: Snapshot): Promise<boolean> {
    const packed = packSnapshot(snapshot);
    if (packed.length > MAX_SNAPSHOT_BYTES) throw new PatchTooLargeError(`snapshot of ${agent.agentId} is ${packed.length} bytes compressed; the limit is ${MAX_SNAPSHOT_BYTES}`);
    const key = agentPartitionKey(agent);
    const current = this.snapshots.get(key)?.version ?? 0;
    if (current !== snapshot.version - 1) return false;
    this.snapshots.set(key, { version: snapshot.version, packed });
    return true;
  }

  /** The stored snapshot, unpacked (for assertions). */
  latest(agent: AgentKey): Snapshot | undefined {
    const found = this.snapshots.get(agentPartitionKey(agent));
    return found ? unpackSnapshot(found.packed) : undefined;
  }
}
