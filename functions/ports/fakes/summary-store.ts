/**
 * In-memory summary store with the DynamoDB adapter's semantics: a summary
 * is written once (`putSummary` answers false for a duplicate) and each
 * first write is announced on `inserted`, standing in for the table's
 * stream; `replaceSummary` changes an existing summary without announcing
 * it; parent slots are sets (`registerChild` returns every child so far);
 * the cursor is versioned; summaries list in sort-key order with page tokens;
 * the sweep index is sparse (an agent is listed only while its cursor has a
 * `sweepAt`).
 */
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { Ladder } from '../../domain/ladders.js';
import type { SummaryCursor } from '../../domain/summary-cursor.js';
import { sweepBackoffMs, sweepShard } from '../../domain/table-layout.js';
import type { StoredSummary, SummaryPage, SummaryStore } from '../summary-store.js';
import { ConditionFailedError, page, stored } from './storage.js';

/** The adapter's sort keys, so listing and "latest" follow the same (lexical) order. */
const pad = (index: number) => String(index).padStart(10, '0');
const summaryKey = (ladder: Ladder, level: number, index: number) => `SUM#${ladder}#${level}#${pad(index)}`;
const slotKey = (ladder: Ladder, level: number, index: number) => `SLOT#${ladder}#${level}#${pad(index)}`;

interface SummaryPartition {
  readonly agent: AgentKey;
  cursor?: { readonly cursor: SummaryCursor; readonly version: number; sweepAt?: string; sweepFailures?: number };
  readonly summaries: Map<string, StoredSummary>;
  readonly slots: Map<string, Set<string>>;
}

/** One stream INSERT: the agent and the summary first written. */
export interface SummaryInserted {
  readonly agent: AgentKey;
  readonly summary: StoredSummary;
}

export class InMemorySummaryStore implements SummaryStore {
  /** Keyed by partition key; kept with the agent key so the sweep index can list agents. */
  private readonly partitions = new Map<string, SummaryPartition>();
  /** New summaries in write order, as the Summaries stream would announce them; tests drain it to drive the ladder. */
  readonly inserted: SummaryInserted[] = [];

  async getCursor(agent: AgentKey) {
    const cursor = this.partition(agent).cursor;
    return cursor ? { cursor: stored(cursor.cursor), version: cursor.version } : undefined;
  }

  async putCursor(agent: AgentKey, cursor: SummaryCursor, expectedVersion: number, sweepAt: string | undefined): Promise<boolean> {
    const partition = this.partition(agent);
    const holds = expectedVersion === 0 ? partition.cursor === undefined : partition.cursor?.version === expectedVersion;
    if (!holds) return false;
    partition.cursor = { cursor: stored(cursor), version: expectedVersion + 1, ...(sweepAt ? { sweepAt } : {}) };
    return true;
  }

  async putSummary(agent: AgentKey, summary: StoredSummary): Promise<boolean> {
    const partition = this.partition(agent);
    const key = summaryKey(summary.ladder, summary.level, summary.index);
    if (partition.summaries.has(key)) return false;
    partition.summaries.set(key, stored(summary));
    this.inserted.push({ agent: stored(agent), summary: stored(summary) });
    return true;
  }

  async replaceSummary(agent: AgentKey, summary: StoredSummary): Promise<void> {
    const partition = this.partition(agent);
    const key = summaryKey(summary.ladder, summary.level, summary.index);
    if (!partition.summaries.has(key)) throw new ConditionFailedError(`summary ${summary.id} of ${agent.agentId} does not exist`);
    partition.summaries.set(key, stored(summary));
  }

  async registerChild(agent: AgentKey, ladder: Ladder, level: number, index: number, childId: string | readonly string[]): Promise<ReadonlySet<string>> {
    const slots = this.partition(agent).slots;
    const key = slotKey(ladder, level, index);
    let children = slots.get(key);
    if (!children) slots.set(key, (children = new Set()));
    for (const id of typeof childId === 'string' ? [childId] : childId) children.add(id);
    return new Set(children);
  }

  async getSummaries(agent: AgentKey, keys: readonly { ladder: Ladder; level: number; index: number }[]): Promise<StoredSummary[]> {
    const summaries = this.partition(agent).summaries;
    return keys.map((k) => summaries.get(summaryKey(k.ladder, k.level, k.index))).filter((s): s is StoredSummary => s !== undefined).map((s) => stored(s));
  }

  async findEmptyRuns(agent: AgentKey, ladder: Ladder, level: number, first: number, last: number): Promise<StoredSummary[]> {
    const prefix = `SUM#${ladder}#${level}#`;
    return this.sorted(agent)
      .filter(([key, summary]) => key.startsWith(prefix) && summary.through !== undefined && summary.index <= last && summary.through >= first)
      .map(([, summary]) => stored(summary));
  }

  async listSummaries(agent: AgentKey, ladder: Ladder, level: number | undefined, request: { limit: number; nextToken?: string }): Promise<SummaryPage> {
    const prefix = level === undefined ? `SUM#${ladder}#` : `SUM#${ladder}#${level}#`;
    const entries = this.sorted(agent).filter(([key]) => key.startsWith(prefix));
    const result = page(entries, `${agentPartitionKey(agent)}#${prefix}`, request.limit, request.nextToken);
    return { items: result.items.map((s) => stored(s)), ...(result.nextToken ? { nextToken: result.nextToken } : {}) };
  }

  async dueForSweep(shard: string, now: string, limit: number, nextToken?: string): Promise<{ agents: AgentKey[]; nextToken?: string }> {
    const due = [...this.partitions.values()]
      .filter((p) => p.cursor?.sweepAt !== undefined && p.cursor.sweepAt <= now && sweepShard(p.agent) === shard)
      .sort((a, b) => a.cursor!.sweepAt!.localeCompare(b.cursor!.sweepAt!));
    const start = nextToken ? Number(nextToken) : 0;
    const page = due.slice(start, start + limit).map((p) => stored(p.agent));
    return { agents: page, ...(start + limit < due.length ? { nextToken: String(start + limit) } : {}) };
  }

  async leaseSweep(agent: AgentKey, now: string, until: string): Promise<boolean> {
    const cursor = this.partition(agent).cursor;
    if (cursor?.sweepAt === undefined || cursor.sweepAt > now) return false;
    cursor.sweepAt = until;
    return true;
  }

  async deferSweep(agent: AgentKey, now: string): Promise<number> {
    const cursor = this.partition(agent).cursor;
    if (!cursor) throw new ConditionFailedError(`agent ${agent.agentId} has no cursor`);
    cursor.sweepFailures = (cursor.sweepFailures ?? 0) + 1;
    cursor.sweepAt = new Date(Date.parse(now) + sweepBackoffMs(cursor.sweepFailures)).toISOString();
    return cursor.sweepFailures;
  }

  async latestWithText(agent: AgentKey, ladder: Ladder, level: number): Promise<StoredSummary | undefined> {
    const prefix = `SUM#${ladder}#${level}#`;
    const newest = this.sorted(agent)
      .filter(([key, summary]) => key.startsWith(prefix) && !summary.empty)
      .at(-1);
    return newest ? stored(newest[1]) : undefined;
  }

  /** Takes (and removes) every announced insert, oldest first. */
  takeInserted(): SummaryInserted[] {
    return this.inserted.splice(0, this.inserted.length);
  }

  private partition(agent: AgentKey): SummaryPartition {
    const key = agentPartitionKey(agent);
    let partition = this.partitions.get(key);
    if (!partition) {
      partition = { agent: stored(agent), summaries: new Map(), slots: new Map() };
      this.partitions.set(key, partition);
    }
    return partition;
  }

  private sorted(agent: AgentKey): [string, StoredSummary][] {
    return [...this.partition(agent).summaries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

