/**
 * Reads snapshots at the cost of one GetItem, behind an in-memory cache keyed
 * by agent and version: within `freshForMs` a repeated read costs no lookup at
 * all; after it, one GetItem, and the parsed snapshot is reused when the
 * version has not changed.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { unpackSnapshot, type Snapshot } from '../domain/snapshot.js';
import type { SnapshotStore } from '../ports/snapshot-store.js';

export interface SnapshotReader {
  read(agent: AgentKey): Promise<Snapshot | undefined>;
}

export class CachedSnapshotReader implements SnapshotReader {
  private readonly cache = new Map<string, { version: number; snapshot: Snapshot; fetchedAt: number }>();

  constructor(
    private readonly store: Pick<SnapshotStore, 'read'>,
    private readonly freshForMs: number,
    private readonly maxAgents = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  async read(agent: AgentKey): Promise<Snapshot | undefined> {
    const key = `${agent.tenantId}/${agent.agentId}`;
    const cached = this.cache.get(key);
    if (cached && this.clock() - cached.fetchedAt < this.freshForMs) return cached.snapshot;
    const stored = await this.store.read(agent);
    if (!stored) return undefined;
    const snapshot = cached && cached.version === stored.version ? cached.snapshot : unpackSnapshot(stored.packed);
    this.cache.delete(key);
    this.cache.set(key, { version: stored.version, snapshot, fetchedAt: this.clock() });
    if (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value!);
    return snapshot;
  }
}
