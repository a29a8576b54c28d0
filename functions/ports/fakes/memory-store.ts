/**
 * In-memory memory stores with the DynamoDB adapter's semantics: a commit is
 * atomic and conditional on the head version (absent for version 0) and on
 * the batch's audit entry not existing yet, failing with
 * StoreVersionConflictError and writing nothing; a patch of any size becomes
 * visible at once (the adapter stages one too large for a transaction, and
 * readers see the same); items list in sort-key order with page tokens.
 */
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { FactTable, MemoryItem, UpdaterName, UpdaterStore } from '../../domain/memory.js';
import type { UpdaterView } from '../../domain/views.js';
import { StoreVersionConflictError, type AuditEntry, type ItemPage, type MemoryStore, type StoreHead, type UpdaterCommit } from '../memory-store.js';
import { AgentPartitions, page, stored } from './storage.js';


interface Head {
  readonly version: number;
  readonly lastBatch: number;
  readonly tables?: readonly FactTable[];
}

interface MemoryPartition {
  readonly heads: Map<UpdaterName, Head>;
  readonly items: Map<UpdaterName, Map<string, MemoryItem>>;
  readonly audits: Map<string, AuditEntry>;
  readonly views: Map<UpdaterName, UpdaterView>;
}

const auditKey = (batch: number, updater: UpdaterName) => `${batch}#${updater}`;

export class InMemoryMemoryStore implements MemoryStore {
  private readonly agents = new AgentPartitions<MemoryPartition>(() => ({ heads: new Map(), items: new Map(), audits: new Map(), views: new Map() }));
  /** Successful commits, for tests that count writes. */
  readonly commits: { readonly agent: AgentKey; readonly updater: UpdaterName; readonly batch: number }[] = [];

  async loadHeads(agent: AgentKey, updaters: readonly UpdaterName[]): Promise<StoreHead[]> {
    const heads = this.agents.of(agent).heads;
    return updaters.map((updater) => ({ updater, version: heads.get(updater)?.version ?? 0, lastBatch: heads.get(updater)?.lastBatch ?? 0 }));
  }

  async load(agent: AgentKey, updater: UpdaterName): Promise<UpdaterStore> {
    const partition = this.agents.of(agent);
    const head = partition.heads.get(updater);
    return {
      updater,
      version: head?.version ?? 0,
      lastBatch: head?.lastBatch ?? 0,
      items: this.sortedItems(partition, updater).map(([, item]) => stored(item)),
      tables: stored(head?.tables ?? []),
    };
  }

  /** Nothing is ever pending here: the fake applies a patch of any size at once, which is what readers of the staged adapter observe. */
  async resume(_agent: AgentKey, _updater: UpdaterName, _batchIndex: number): Promise<UpdaterCommit | undefined> {
    return undefined;
  }

  async commit(agent: AgentKey, commit: UpdaterCommit): Promise<void> {
    const partition = this.agents.of(agent);
    const head = partition.heads.get(commit.updater);
    const headHolds = commit.expectedVersion > 0 ? head?.version === commit.expectedVersion : head === undefined;
    if (!headHolds || partition.audits.has(auditKey(commit.batch.index, commit.updater))) {
      throw new StoreVersionConflictError(`${commit.updater} store of ${agent.agentId} moved on, or batch ${commit.batch.index} was already applied`);
    }
    const tables = commit.tables ?? head?.tables;
    partition.heads.set(commit.updater, { version: commit.expectedVersion + 1, lastBatch: commit.batch.index, ...(tables ? { tables: stored(tables) } : {}) });
    let items = partition.items.get(commit.updater);
    if (!items) partition.items.set(commit.updater, (items = new Map()));
    for (const change of commit.changes) items.set(change.after.id, stored(change.after));
    partition.audits.set(auditKey(commit.batch.index, commit.updater), stored(commit.audit));
    partition.views.set(commit.updater, stored(commit.view));
    this.commits.push({ agent: stored(agent), updater: commit.updater, batch: commit.batch.index });
  }

  async listItems(agent: AgentKey, updater: UpdaterName, request: { limit: number; nextToken?: string }): Promise<ItemPage> {
    const entries = this.sortedItems(this.agents.of(agent), updater);
    const result = page(entries, `${agentPartitionKey(agent)}#ITEM#${updater}`, request.limit, request.nextToken);
    return { items: result.items.map((item) => stored(item)), ...(result.nextToken ? { nextToken: result.nextToken } : {}) };
  }

  async readAudit(agent: AgentKey, batchIndex: number, updater: UpdaterName): Promise<AuditEntry | undefined> {
    return stored(this.agents.of(agent).audits.get(auditKey(batchIndex, updater)));
  }

  async readView(agent: AgentKey, updater: UpdaterName): Promise<UpdaterView | undefined> {
    return stored(this.agents.of(agent).views.get(updater));
  }

  /** Items in the adapter's sort-key order (by id). */
  private sortedItems(partition: MemoryPartition, updater: UpdaterName): [string, MemoryItem][] {
    return [...(partition.items.get(updater) ?? new Map<string, MemoryItem>()).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
