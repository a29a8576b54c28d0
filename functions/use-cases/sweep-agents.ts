/**
 * The sweep: closes days that ended and interactions that went idle for
 * agents whose records are all consolidated, so their base summaries are
 * written and their ladders complete. On a schedule, the agents the sweep
 * index lists as due are claimed (a lease on their next sweep) and handed to
 * the sweep workers as one queue message each (`enqueueDueAgents`); a worker
 * sweeps one agent (`sweepQueuedAgent`). On demand, one agent is swept at once.
 *
 * Isolation: one agent's failure is reported, counted and backed off (its
 * next sweep is pushed later in the index), and never stops the others. The
 * scheduled run only reads the index and sends messages, starting from a
 * different shard each run, so a large fleet is handed out in full and swept
 * by as many workers as the queue's concurrency allows.
 *
 * A sweep asked for while the agent's last batch is still consolidating (a
 * client's `flush` then `sweep`) is remembered on the ledger and carried out
 * by the consolidator once that batch is placed.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError } from '../domain/errors.js';
import { SWEEP_SHARDS } from '../domain/table-layout.js';
import type { AgentLedger, AgentStatus, SweepQueue } from '../ports/pipeline.js';
import type { SummaryStore } from '../ports/summary-store.js';
import { sweepAgent, type SummaryDependencies } from './summaries.js';
import { assembleSnapshot, type SnapshotDependencies } from './assemble-snapshot.js';
import { indexSummaries, type IndexDependencies } from './index-memory.js';
import { maintainMemory, type MemoryMaintenanceDependencies } from './maintain-memory.js';

export interface SweepDependencies extends SummaryDependencies {
  readonly ledger: AgentLedger;
  readonly snapshot?: SnapshotDependencies;
  /** When set, the summaries a sweep writes are added to the retrieval index. */
  readonly index?: IndexDependencies;
  /** When set, each sweep also counts item use and forgets what is never used. */
  readonly lifecycle?: MemoryMaintenanceDependencies;
}

export type SweepResult =
  | { readonly swept: true; readonly written: number }
  /** `deferred`: the consolidator sweeps the agent once its pending batch is placed. */
  | { readonly swept: false; readonly reason: 'consolidation-pending'; readonly deferred: true };

export interface SweepRunOptions {
  /** Agents read from the sweep index per page. */
  readonly pageSize?: number;
  /** Stop starting new agents after this long (the rest are still due, for the next run). */
  readonly budgetMs?: number;
}

export interface SweepRunResult {
  readonly agents: number;
  readonly written: number;
  readonly deferred: number;
  readonly failed: readonly { readonly agentId: string; readonly tenantId: string; readonly error: string; readonly failures: number }[];
  /** True when the time budget ended the run before the index was exhausted. */
  readonly truncated: boolean;
}

/** Settled: every record consolidated and placed on the summary cursor. */
async function settled(deps: SweepDependencies, agent: AgentKey, status: AgentStatus): Promise<boolean> {
  if (status.lastConsolidatedSequence < status.lastSequence) return false;
  const placed = (await deps.summaries.getCursor(agent))?.cursor.lastSequence ?? 0;
  return placed >= status.lastSequence;
}

export async function sweepIfSettled(deps: SweepDependencies, agent: AgentKey): Promise<SweepResult> {
  const status = await deps.ledger.readStatus(agent);
  if (!status) throw new NotFoundError(`agent ${agent.agentId} has no events`);
  // Closing a day before its last records are consolidated would leave them out of its summary:
  // remember the request instead, for the consolidator to carry out once they are.
  if (!(await settled(deps, agent, status))) {
    await deps.ledger.requestSweep(agent, (deps.now ?? (() => new Date()))().toISOString());
    // The batch may have been placed between the check and the request: look once more.
    const again = await deps.ledger.readStatus(agent);
    if (!again || !(await settled(deps, agent, again))) return { swept: false, reason: 'consolidation-pending', deferred: true };
    await deps.ledger.clearSweepRequest(agent, again.sweepRequestedAt ?? '');
  }
  return { swept: true, written: await sweepNow(deps, agent) };
}

/**
 * Called by the consolidator after it placed a batch: carries out a sweep
 * requested while that batch was pending, once nothing is left to place.
 * Returns the summaries written, or undefined when no sweep was due.
 */
export async function runRequestedSweep(deps: SweepDependencies, agent: AgentKey): Promise<number | undefined> {
  const status = await deps.ledger.readStatus(agent);
  if (!status?.sweepRequestedAt || !(await settled(deps, agent, status))) return undefined;
  const written = await sweepNow(deps, agent);
  await deps.ledger.clearSweepRequest(agent, status.sweepRequestedAt);
  return written;
}

async function sweepNow(deps: SweepDependencies, agent: AgentKey): Promise<number> {
  const written = await sweepAgent(deps, agent);
  if (written.length > 0 && deps.index) await indexSummaries(deps.index, agent, written);
  // Use counting and forgetting ride on the sweep (offline, never on the read path).
  const memory = deps.lifecycle ? await maintainMemory(deps.lifecycle, agent) : undefined;
  if ((written.length > 0 || (memory?.forgotten ?? 0) + (memory?.outcomes ?? 0) + (memory?.purged ?? 0) > 0) && deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
  return written.length;
}

export type AgentSweepOutcome =
  | { readonly ok: true; readonly result: SweepResult }
  | { readonly ok: false; readonly error: string; readonly failures: number };

/** Sweeps one agent; a failure backs the agent off in the sweep index and is returned, never thrown. */
export async function sweepQueuedAgent(deps: SweepDependencies, agent: AgentKey): Promise<AgentSweepOutcome> {
  try {
    return { ok: true, result: await sweepIfSettled(deps, agent) };
  } catch (error) {
    // This agent only: back it off so it stops taking the workers' time, and go on.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const failures = await deps.summaries.deferSweep(agent, (deps.now ?? (() => new Date()))().toISOString()).catch(() => 0);
    return { ok: false, error: message, failures };
  }
}

export interface EnqueueDependencies {
  readonly summaries: Pick<SummaryStore, 'dueForSweep' | 'leaseSweep'>;
  readonly queue: SweepQueue;
  readonly now?: () => Date;
}

export interface EnqueueOptions extends SweepRunOptions {
  /** The shard the run starts from (the others follow in order), so no shard always comes last. @default 0 */
  readonly startShard?: number;
  /** How long a handed-out agent is not handed out again (it is swept well before, or its sweep failed). */
  readonly leaseMs: number;
}

/** Hands every due agent to the sweep workers, one message each; returns how many, and whether time ran out first. */
export async function enqueueDueAgents(deps: EnqueueDependencies, options: EnqueueOptions): Promise<{ readonly enqueued: number; readonly truncated: boolean }> {
  const now = (deps.now ?? (() => new Date()))();
  const started = Date.now();
  const budgetMs = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  let enqueued = 0;
  for (let n = 0; n < SWEEP_SHARDS; n += 1) {
    const shard = ((options.startShard ?? 0) + n) % SWEEP_SHARDS;
    let token: string | undefined;
    do {
      if (Date.now() - started > budgetMs) return { enqueued, truncated: true };
      const page = await deps.summaries.dueForSweep(`S${shard}`, now.toISOString(), options.pageSize ?? 100, token);
      token = page.nextToken;
      const claimed: AgentKey[] = [];
      for (const agent of page.agents) if (await deps.summaries.leaseSweep(agent, now.toISOString(), until)) claimed.push(agent);
      await deps.queue.enqueue(claimed.map((agent) => ({ kind: 'sweep', tenantId: agent.tenantId, agentId: agent.agentId })));
      enqueued += claimed.length;
    } while (token);
  }
  return { enqueued, truncated: false };
}

/** Every due agent swept in this process, one after another (scripts and tests; the service uses the queue). */
export async function sweepDueAgents(deps: SweepDependencies, options: SweepRunOptions = {}): Promise<SweepRunResult> {
  const clock = deps.now ?? (() => new Date());
  const now = clock().toISOString();
  const started = Date.now();
  const budgetMs = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const pageSize = options.pageSize ?? 100;
  let agents = 0;
  let written = 0;
  let deferred = 0;
  let truncated = false;
  const failed: { agentId: string; tenantId: string; error: string; failures: number }[] = [];
  for (let shard = 0; shard < SWEEP_SHARDS && !truncated; shard += 1) {
    let token: string | undefined;
    do {
      const page = await deps.summaries.dueForSweep(`S${shard}`, now, pageSize, token);
      token = page.nextToken;
      for (const agent of page.agents) {
        if (Date.now() - started > budgetMs) {
          truncated = true;
          break;
        }
        agents += 1;
        const outcome = await sweepQueuedAgent(deps, agent);
        if (!outcome.ok) failed.push({ ...agent, error: outcome.error, failures: outcome.failures });
        else if (outcome.result.swept) written += outcome.result.written;
        else deferred += 1;
      }
    } while (token && !truncated);
  }
  return { agents, written, deferred, failed, truncated };
}
