/**
 * In-memory agent ledger with the DynamoDB adapter's semantics:
 * `commitSequences` is all-or-nothing and conditional (counters at the
 * expected last sequence and batch end, or absent for a new agent; no claim
 * or batch marker already there), failing with SequenceConflictError; the
 * batch markers only ever move forward and count each fact once.
 */
import type { AgentKey } from '../../domain/agent-key.js';
import { SequenceConflictError } from '../../domain/errors.js';
import type { AgentCounters, BatchRange } from '../../domain/sequencing.js';
import type { AgentLedger, AgentStatus, BatchMarker, EventClaim } from '../pipeline.js';
import { AgentPartitions, ConditionFailedError, stored } from './storage.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface LedgerPartition {
  counters?: Mutable<AgentStatus>;
  readonly claims: Map<string, EventClaim>;
  readonly batches: Map<number, Mutable<BatchMarker>>;
}

export class InMemoryAgentLedger implements AgentLedger {
  private readonly agents = new AgentPartitions<LedgerPartition>(() => ({ claims: new Map(), batches: new Map() }));
  /** Successful `commitSequences` calls, for tests that count transactions. */
  commits = 0;

  async loadForIngest(agent: AgentKey, eventIds: readonly string[]) {
    const partition = this.agents.of(agent);
    const claims = new Map<string, EventClaim>();
    for (const id of eventIds) {
      const claim = partition.claims.get(id);
      if (claim) claims.set(id, stored(claim));
    }
    return { status: stored(partition.counters), claims };
  }

  async commitSequences(
    agent: AgentKey,
    expected: AgentCounters | undefined,
    next: AgentCounters,
    claims: readonly EventClaim[],
    closedBatches: readonly BatchRange[],
    now: string,
  ): Promise<void> {
    const partition = this.agents.of(agent);
    const current = partition.counters;
    // Flushes move lastBatchEnd without a new sequence number, so both are checked.
    const countersHold = expected
      ? current !== undefined && current.lastSequence === expected.lastSequence && current.lastBatchEnd === expected.lastBatchEnd
      : current === undefined;
    const claimTaken = claims.some((claim) => partition.claims.has(claim.eventId));
    const batchTaken = closedBatches.some((batch) => partition.batches.has(batch.index));
    if (!countersHold || claimTaken || batchTaken) throw new SequenceConflictError(`another writer advanced agent ${agent.agentId} first`);

    partition.counters = {
      holes: 0,
      holeSequences: [],
      batchesQueued: 0,
      lastConsolidatedSequence: 0,
      lastConsolidatedBatch: 0,
      firstSeenAt: now,
      ...current,
      ...pickCounters(next),
      updatedAt: now,
    };
    for (const claim of claims) partition.claims.set(claim.eventId, stored(claim));
    for (const batch of closedBatches) {
      partition.batches.set(batch.index, { index: batch.index, fromSequence: batch.fromSequence, toSequence: batch.toSequence, closedAt: now, deliveries: 0, failures: 0 });
    }
    this.commits += 1;
  }

  async markBatchQueued(agent: AgentKey, batch: BatchRange, now: string): Promise<void> {
    const partition = this.agents.of(agent);
    const marker = partition.batches.get(batch.index);
    // Missing or already marked: the adapter's condition fails and it counts nothing.
    if (!marker || marker.queuedAt) return;
    marker.queuedAt = now;
    if (partition.counters) partition.counters.batchesQueued += 1;
  }

  async markBatchArrived(agent: AgentKey, batchIndex: number, now: string): Promise<void> {
    const marker = this.marker(agent, batchIndex);
    marker.arrivedAt ??= now;
    marker.deliveries += 1;
  }

  async recordBatchFailure(agent: AgentKey, batchIndex: number, cause: string, _now: string): Promise<void> {
    const marker = this.marker(agent, batchIndex);
    marker.lastError = cause.slice(0, 2_000);
    marker.failures += 1;
  }

  async markBatchConsolidated(agent: AgentKey, batch: BatchRange, newestRecordAt: string, _now: string): Promise<void> {
    const counters = this.agents.of(agent).counters;
    // Progress only moves forward; an earlier delivery already recorded it.
    if (!counters || counters.lastConsolidatedBatch >= batch.index) return;
    counters.lastConsolidatedSequence = batch.toSequence;
    counters.lastConsolidatedBatch = batch.index;
    counters.lastConsolidatedRecordAt = newestRecordAt;
  }

  async recordHoles(agent: AgentKey, sequences: readonly number[], _now: string): Promise<void> {
    if (sequences.length === 0) return;
    const counters = this.counters(agent);
    // A set: recording the same hole again (a retry) changes nothing.
    const all = [...new Set([...counters.holeSequences, ...sequences])].sort((a, b) => a - b);
    counters.holeSequences = all.slice(0, 100);
    counters.holes = all.length;
  }

  async requestSweep(agent: AgentKey, now: string): Promise<void> {
    this.counters(agent).sweepRequestedAt = now;
  }

  async clearSweepRequest(agent: AgentKey, requestedAt: string): Promise<void> {
    const counters = this.counters(agent);
    // A newer request stays for the next batch.
    if (counters.sweepRequestedAt === requestedAt) delete counters.sweepRequestedAt;
  }

  async readStatus(agent: AgentKey): Promise<AgentStatus | undefined> {
    return stored(this.agents.of(agent).counters);
  }

  async readBatch(agent: AgentKey, batchIndex: number): Promise<BatchMarker | undefined> {
    return stored(this.agents.of(agent).batches.get(batchIndex));
  }

  private counters(agent: AgentKey): Mutable<AgentStatus> {
    const counters = this.agents.of(agent).counters;
    if (!counters) throw new ConditionFailedError(`agent ${agent.agentId} has no counters`);
    return counters;
  }

  private marker(agent: AgentKey, batchIndex: number): Mutable<BatchMarker> {
    const marker = this.agents.of(agent).batches.get(batchIndex);
    if (!marker) throw new ConditionFailedError(`batch ${batchIndex} of ${agent.agentId} has no marker`);
    return marker;
  }
}

function pickCounters(counters: AgentCounters): AgentCounters {
  const { lastSequence, messages, actions, batchesClosed, lastBatchEnd, batchMessages } = counters;
  return { lastSequence, messages, actions, batchesClosed, lastBatchEnd, batchMessages };
}
