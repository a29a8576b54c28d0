/**
 * The sweep: closes days that ended and interactions that went idle for
 * agents whose records are all consolidated, so their base summaries are
 * written and their ladders complete. Run on a schedule over the agents the
 * sweep index lists as due, and on demand for one agent.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError } from '../domain/errors.js';
import { SWEEP_SHARDS } from '../domain/table-layout.js';
import type { AgentLedger } from '../ports/pipeline.js';
import { sweepAgent, type SummaryDependencies } from './summaries.js';
import { assembleSnapshot, type SnapshotDependencies } from './assemble-snapshot.js';
import { maintainMemory, type MemoryMaintenanceDependencies } from './maintain-memory.js';

export interface SweepDependencies extends SummaryDependencies {
  readonly ledger: AgentLedger;
  readonly snapshot?: SnapshotDependencies;
  /** When set, each sweep also counts item use and forgets what is never used. */
  readonly lifecycle?: MemoryMaintenanceDependencies;
}

export type SweepResult = { readonly swept: true; readonly written: number } | { readonly swept: false; readonly reason: 'consolidation-pending' };

export async function sweepIfSettled(deps: SweepDependencies, agent: AgentKey): Promise<SweepResult> {
  const status = await deps.ledger.readStatus(agent);
  if (!status) throw new NotFoundError(`agent ${agent.agentId} has no events`);
  // Closing a day before its last records are consolidated would leave them out of its summary.
  if (status.lastConsolidatedSequence < status.lastSequence) return { swept: false, reason: 'consolidation-pending' };
  const placed = (await deps.summaries.getCursor(agent))?.cursor.lastSequence ?? 0;
  if (placed < status.lastSequence) return { swept: false, reason: 'consolidation-pending' };
  const written = await sweepAgent(deps, agent);
  const memory = deps.lifecycle ? await maintainMemory(deps.lifecycle, agent) : undefined;
  if ((written.length > 0 || (memory?.forgotten ?? 0) + (memory?.outcomes ?? 0) > 0) && deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
  return { swept: true, written: written.length };
}

export async function sweepDueAgents(deps: SweepDependencies, limitPerShard = 200): Promise<{ agents: number; written: number }> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  let agents = 0;
  let written = 0;
  for (let shard = 0; shard < SWEEP_SHARDS; shard += 1) {
    for (const agent of await deps.summaries.dueForSweep(`S${shard}`, now, limitPerShard)) {
      const result = await sweepIfSettled(deps, agent);
      agents += 1;
      if (result.swept) written += result.written;
    }
  }
  return { agents, written };
}
