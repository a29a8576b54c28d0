/**
 * `DELETE /v1/agents/{agentId}`: the request is queued (202) and a consumer
 * erases, store by store, every raw record and its versions, every item of
 * the agent in every table, then writes the tenant's erasure record. Each
 * eraser deletes what is left, so a retried job finishes the work and a
 * repeated one finds nothing.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { AgentDataEraser, ErasureJob, ErasureLog, ErasureQueue, ErasureRecord } from '../ports/erasure.js';

export interface ErasureDependencies {
  readonly erasers: readonly AgentDataEraser[];
  readonly log: ErasureLog;
  readonly now?: () => Date;
}

/** Queues the erasure of an agent. */
export async function requestErasure(queue: ErasureQueue, agent: AgentKey, requestedBy: string, now: Date = new Date()): Promise<ErasureJob> {
  const job: ErasureJob = { ...agent, requestedAt: now.toISOString(), requestedBy };
  await queue.enqueue(job);
  return job;
}

/** Erases every store of the agent in turn, then records the erasure (agent, when, counts, by which key). */
export async function eraseAgent(deps: ErasureDependencies, job: ErasureJob): Promise<ErasureRecord> {
  const agent = { tenantId: job.tenantId, agentId: job.agentId };
  const counts: Record<string, number> = {};
  // In sequence: the raw log first, so nothing can be re-derived from what is left if a later step fails and retries.
  for (const eraser of deps.erasers) counts[eraser.name] = (counts[eraser.name] ?? 0) + (await eraser.erase(agent));
  const entry: ErasureRecord = {
    agentId: job.agentId,
    requestedAt: job.requestedAt,
    erasedAt: (deps.now ?? (() => new Date()))().toISOString(),
    requestedBy: job.requestedBy,
    counts,
  };
  await deps.log.record(job.tenantId, entry);
  return entry;
}
