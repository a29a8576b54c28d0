/**
 * Rollback. A batch's patches are undone by applying their inverse as a new
 * audited change, per updater, filed under the reverted batch with the change
 * id `revert`; an item a later batch (or feedback, or the sweep) changed
 * again is left alone and reported. Reverting twice is a no-op.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError } from '../domain/errors.js';
import { planRevert, type RevertConflict } from '../domain/lifecycle.js';
import type { UpdaterName } from '../domain/memory.js';
import type { ChangeOrigin } from '../ports/memory-store.js';
import { assembleSnapshot, type SnapshotDependencies } from './assemble-snapshot.js';
import { changeStore, type LifecycleStore } from './store-change.js';

export interface RevertDependencies {
  readonly memory: LifecycleStore;
  readonly snapshot?: SnapshotDependencies;
  readonly now?: () => Date;
}

export interface UpdaterRevert {
  readonly updater: UpdaterName;
  /** Items put back to their state before the batch (created ones archived). */
  readonly reverted: readonly string[];
  readonly conflicts: readonly RevertConflict[];
  readonly alreadyReverted: boolean;
}

export interface RevertResult {
  readonly batch: number;
  readonly updaters: readonly UpdaterRevert[];
}

const REVERT_CHANGE_ID = 'revert';

export async function revertBatch(deps: RevertDependencies, agent: AgentKey, batch: number): Promise<RevertResult> {
  const audit = await deps.memory.listAudit(agent, { batch });
  const applied = audit.filter((record) => record.changeId === undefined);
  if (applied.length === 0) throw new NotFoundError(`no patch applied for batch ${batch} of agent ${agent.agentId}`);
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const updaters: UpdaterRevert[] = [];
  let changed = false;
  for (const record of applied) {
    const updater = record.updater;
    if (audit.some((r) => r.updater === updater && r.changeId === REVERT_CHANGE_ID)) {
      updaters.push({ updater, reverted: [], conflicts: [], alreadyReverted: true });
      continue;
    }
    const { committed, result } = await changeStore(deps.memory, agent, updater, now, (store) => {
      const plan = planRevert(record.entry.changes, new Map(store.items.map((item) => [item.id, item])), {
        batch,
        now,
        currentTables: store.tables,
        ...(record.entry.tablesBefore ? { tablesBefore: record.entry.tablesBefore } : {}),
        ...(record.entry.tablesAfter ? { tablesAfter: record.entry.tablesAfter } : {}),
      });
      const outcome: UpdaterRevert = { updater, reverted: plan.changes.map((c) => c.after.id), conflicts: plan.conflicts, alreadyReverted: false };
      const origin: ChangeOrigin = { kind: 'revert', reverts: batch, conflicts: plan.conflicts };
      // Even a revert that changes nothing is recorded, so that the second call is a no-op.
      return { changes: plan.changes, ...(plan.tables ? { tables: plan.tables } : {}), origin, changeId: REVERT_CHANGE_ID, batch, cursor: { name: `revert#${batch}#${updater}`, value: now }, result: outcome };
    }).catch((error: unknown) => {
      // Another revert of the same batch won the race: this one is the no-op.
      if (error instanceof Error && error.name === 'ChangeAlreadyAppliedError') return { committed: false, result: { updater, reverted: [], conflicts: [], alreadyReverted: true } };
      throw error;
    });
    changed ||= committed && result.reverted.length > 0;
    updaters.push(result);
  }
  if (changed && deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
  return { batch, updaters };
}
