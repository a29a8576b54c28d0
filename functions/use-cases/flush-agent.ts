/**
 * Flush: close an agent's open batch early so the stores do not lag by up to
 * 49 messages. Used by `POST /v1/agents/{agentId}/flush` and by the idle
 * flush, which only flushes once the agent has been quiet long enough.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError, SequenceConflictError } from '../domain/errors.js';
import { planFlush, type BatchRange } from '../domain/sequencing.js';
import type { AgentLedger, BatchQueue } from '../ports/pipeline.js';

export interface FlushDependencies {
  readonly ledger: AgentLedger;
  readonly queue: BatchQueue;
  readonly now?: () => Date;
}

export type FlushResult =
  | { readonly flushed: true; readonly batch: BatchRange }
  /**
   * A flush closed `batch` less than the coalescing window ago and it is still
   * consolidating. `pending`: events arrived since, and stay open until a flush
   * after `retryInSeconds` (or the idle flush); otherwise that job covers everything.
   */
  | { readonly flushed: false; readonly reason: 'coalesced'; readonly batch: BatchRange; readonly pending: boolean; readonly retryInSeconds: number }
  | { readonly flushed: false; readonly reason: 'nothing-open' | 'already-closed' }
  | { readonly flushed: false; readonly reason: 'not-idle'; readonly retryInSeconds: number };

export interface FlushConditions {
  /** Only flush the batch that started at this sequence number (idle checks). */
  readonly openFrom?: number;
  /** Only flush when nothing was ingested for this long. */
  readonly idleForSeconds?: number;
  /**
   * Coalescing window: within this many seconds of a flush whose batch is
   * still consolidating, another flush starts no new consolidation run.
   */
  readonly coalesceSeconds?: number;
}

const MAX_ATTEMPTS = 10;

export async function flushAgent(deps: FlushDependencies, agent: AgentKey, conditions: FlushConditions = {}): Promise<FlushResult> {
  const now = deps.now ?? (() => new Date());
  for (let attempt = 1; ; attempt += 1) {
    const status = await deps.ledger.readStatus(agent);
    if (!status) throw new NotFoundError(`agent ${agent.agentId} has no events`);
    if (conditions.openFrom !== undefined && status.lastBatchEnd >= conditions.openFrom) {
      await requeueIfLost(deps, agent, status.batchesClosed, now);
      return { flushed: false, reason: 'already-closed' };
    }
    if (conditions.idleForSeconds !== undefined) {
      const quietSeconds = (now().getTime() - Date.parse(status.updatedAt)) / 1000;
      if (quietSeconds < conditions.idleForSeconds) {
        return { flushed: false, reason: 'not-idle', retryInSeconds: Math.max(1, Math.ceil(conditions.idleForSeconds - quietSeconds)) };
      }
    }
    const plan = planFlush(status);
    const coalesced = conditions.coalesceSeconds ? await coalesce(deps, agent, status, conditions.coalesceSeconds, plan !== undefined, now) : undefined;
    if (coalesced) return coalesced;
    if (!plan) {
      await requeueIfLost(deps, agent, status.batchesClosed, now);
      return { flushed: false, reason: 'nothing-open' };
    }
    try {
      await deps.ledger.commitSequences(agent, status, plan.next, [], [plan.batch], now().toISOString());
    } catch (error) {
      // Ingest or another flush moved the counters: look again.
      if (error instanceof SequenceConflictError && attempt < MAX_ATTEMPTS) {
        await sleep(Math.random() * 20 * attempt);
        continue;
      }
      throw error;
    }
    await deps.queue.enqueue({ tenantId: agent.tenantId, agentId: agent.agentId, ...plan.batch });
    await deps.ledger.markBatchQueued(agent, plan.batch, now().toISOString());
    return { flushed: true, batch: plan.batch };
  }
}

async function coalesce(
  deps: FlushDependencies,
  agent: AgentKey,
  status: { batchesClosed: number; lastConsolidatedBatch: number },
  windowSeconds: number,
  pending: boolean,
  now: () => Date,
): Promise<FlushResult | undefined> {
  if (status.batchesClosed === 0 || status.lastConsolidatedBatch >= status.batchesClosed) return undefined;
  const marker = await deps.ledger.readBatch(agent, status.batchesClosed);
  // Only a flush's batch coalesces flushes; a lost enqueue is repaired below, never coalesced away.
  if (!marker?.flushed || !marker.queuedAt) return undefined;
  const age = (now().getTime() - Date.parse(marker.closedAt)) / 1000;
  if (age >= windowSeconds) return undefined;
  const batch = { index: marker.index, fromSequence: marker.fromSequence, toSequence: marker.toSequence };
  return { flushed: false, reason: 'coalesced', batch, pending, retryInSeconds: Math.max(1, Math.ceil(windowSeconds - age)) };
}

/**
 * A batch closed by a flush (or by a request) whose enqueue failed is never
 * queued again by ingest retries (a flush has no event claims): a later flush
 * or idle check finds it unqueued and queues it.
 */
async function requeueIfLost(deps: FlushDependencies, agent: AgentKey, lastBatch: number, now: () => Date): Promise<void> {
  if (lastBatch === 0) return;
  const marker = await deps.ledger.readBatch(agent, lastBatch);
  if (!marker || marker.queuedAt) return;
  const batch = { index: marker.index, fromSequence: marker.fromSequence, toSequence: marker.toSequence };
  await deps.queue.enqueue({ tenantId: agent.tenantId, agentId: agent.agentId, ...batch });
  await deps.ledger.markBatchQueued(agent, batch, now().toISOString());
}
