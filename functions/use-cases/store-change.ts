/**
 * Applying a change to one updater's store outside consolidation (feedback,
 * revert, usage counts, forgetting): load, compute, commit with the store's
 * version check, and retry on fresh state when another writer moved first.
 * Every change is an audited patch; the view is rebuilt in the same commit.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { MemoryServiceError } from '../domain/errors.js';
import type { FactTable, UpdaterName, UpdaterStore } from '../domain/memory.js';
import type { ItemChange } from '../domain/patch.js';
import { buildView } from '../domain/views.js';
import type { ChangeOrigin, MemoryRevisions, MemoryStore } from '../ports/memory-store.js';

export type LifecycleStore = Pick<MemoryStore, 'load' | 'readView'> & MemoryRevisions;

/** What a change computes from the loaded store; `undefined` when there is nothing to do. */
export interface PlannedChange<R> {
  readonly changes: readonly ItemChange[];
  /** Items deleted from the store (their ids only reach the audit entry, through the origin). */
  readonly deletes?: readonly string[];
  readonly tables?: readonly FactTable[];
  readonly origin: ChangeOrigin;
  readonly changeId: string;
  /** The batch the audit entry is filed under (default: the store's last applied batch). */
  readonly batch?: number;
  readonly cursor?: { readonly name: string; readonly value: string };
  readonly result: R;
}

/** The store kept moving: the change was not applied (retrying later is safe). */
export class StoreBusyError extends MemoryServiceError {
  override readonly status = 503;
  override readonly name = 'StoreBusyError';
}

const MAX_ATTEMPTS = 5;

/**
 * Runs `plan` on a freshly loaded store and commits what it returns. A plan
 * that returns `{ result }` only (no changes) commits nothing.
 */
export async function changeStore<R>(
  memory: LifecycleStore,
  agent: AgentKey,
  updater: UpdaterName,
  now: string,
  plan: (store: UpdaterStore) => PlannedChange<R> | { readonly result: R; readonly changes?: undefined },
): Promise<{ readonly committed: boolean; readonly result: R }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const store = await memory.load(agent, updater);
    const planned = plan(store);
    if (!planned.changes || (planned.changes.length === 0 && !planned.deletes?.length && !planned.tables && !planned.cursor)) return { committed: false, result: planned.result };
    // A store no batch has written yet has no head to check against, and nothing to change.
    if (store.version === 0 && planned.changes.length === 0) return { committed: false, result: planned.result };
    const byId = new Map(store.items.map((item) => [item.id, item]));
    for (const change of planned.changes) byId.set(change.after.id, change.after);
    for (const id of planned.deletes ?? []) byId.delete(id);
    const tables = planned.tables ?? store.tables;
    const previous = await memory.readView(agent, updater);
    const version = store.version + 1;
    const batch = planned.batch ?? store.lastBatch;
    try {
      await memory.commitChange(agent, {
        updater,
        expectedVersion: store.version,
        batch,
        changeId: planned.changeId,
        changes: planned.changes,
        ...(planned.deletes?.length ? { deletes: planned.deletes } : {}),
        ...(planned.tables ? { tables: planned.tables } : {}),
        ...(planned.cursor ? { cursor: planned.cursor } : {}),
        audit: {
          updater,
          batch: { index: batch, fromSequence: 0, toSequence: 0 },
          appliedAt: now,
          modelId: 'none',
          prompt: { id: planned.origin.kind, version: '1' },
          usage: { inputTokens: 0, outputTokens: 0 },
          ops: [],
          changes: planned.changes,
          quarantined: [],
          ...(planned.tables ? { tablesBefore: store.tables, tablesAfter: planned.tables } : {}),
          origin: planned.origin,
        },
        view: buildView(updater, [...byId.values()], {
          version,
          batch: store.lastBatch,
          lastSequence: previous?.lastSequence ?? 0,
          updatedAt: now,
          ...(updater === 'facts' ? { tables } : {}),
        }),
      });
      return { committed: true, result: planned.result };
    } catch (error) {
      if (error instanceof MemoryServiceError && error.name === 'StoreVersionConflictError' && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
  throw new StoreBusyError(`${updater} store of ${agent.agentId} kept changing; try again`);
}
