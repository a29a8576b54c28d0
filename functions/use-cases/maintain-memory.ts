/**
 * The sweep's memory pass: use is counted, and what is never used is
 * forgotten. Hit counts and `lastHitAt` come from the injection log, offline
 * (the read path only records injections); then items with no hit and no
 * reinforcement for the configured period, and low confidence, are archived
 * (items guarding safety or commitments wait longer). Both are audited,
 * version-checked changes; archived items leave the snapshot, stay readable
 * with `?status=archived`, and come back on `helpful` feedback or a revert.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { countHits, forget, shouldForget, type ForgettingPolicy } from '../domain/lifecycle.js';
import { UPDATERS, type MemoryItem, type UpdaterName } from '../domain/memory.js';
import type { ItemChange } from '../domain/patch.js';
import type { Injection, InjectionHistory } from '../ports/injection-log.js';
import { changeStore, type LifecycleStore } from './store-change.js';

export interface MemoryMaintenanceDependencies {
  readonly memory: LifecycleStore;
  readonly injections: InjectionHistory;
  readonly forgetting: ForgettingPolicy;
  readonly now?: () => Date;
}

export interface MaintenanceResult {
  /** Injections counted in this pass. */
  readonly injections: number;
  /** Items whose hit count moved. */
  readonly hit: number;
  /** Items archived by forgetting. */
  readonly forgotten: number;
}

/** One commit holds at most this many item changes (the rest waits for the next pass). */
const MAX_CHANGES_PER_PASS = 90;
const KIND_OF: Record<UpdaterName, MemoryItem['kind']> = { contacts: 'contact', facts: 'fact', tasks: 'task' };

const compact = (iso: string) => iso.replace(/[^0-9]/g, '');

export async function maintainMemory(deps: MemoryMaintenanceDependencies, agent: AgentKey): Promise<MaintenanceResult> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const cursors = await Promise.all(UPDATERS.map((updater) => deps.memory.readCursor(agent, `usage#${updater}`)));
  const oldest = cursors.some((c) => c === undefined) ? undefined : cursors.reduce((a, b) => (b! < a! ? b : a));
  const injections = await deps.injections.listSince(agent, oldest);
  let counted = 0;
  let hit = 0;
  let forgotten = 0;
  for (const [index, updater] of UPDATERS.entries()) {
    const usage = await countUsage(deps, agent, updater, now, injections.filter((i) => cursors[index] === undefined || i.at > cursors[index]!));
    counted = Math.max(counted, usage.injections);
    hit += usage.hit;
    forgotten += await forgetUnused(deps, agent, updater, now);
  }
  return { injections: counted, hit, forgotten };
}

async function countUsage(deps: MemoryMaintenanceDependencies, agent: AgentKey, updater: UpdaterName, now: string, injections: readonly Injection[]) {
  if (injections.length === 0) return { injections: 0, hit: 0 };
  const { result } = await changeStore(deps.memory, agent, updater, now, (store) => {
    const items = new Map(store.items.map((item) => [item.id, item]));
    const hits = new Map<string, { count: number; lastAt: string }>();
    let through = '';
    let used = 0;
    for (const injection of injections) {
      const ids = injection.items.filter((i) => i.kind === KIND_OF[updater] && items.has(i.id)).map((i) => i.id);
      // Stop before an injection that would overflow one commit; the cursor stays before it.
      if ([...new Set([...hits.keys(), ...ids])].length > MAX_CHANGES_PER_PASS) break;
      for (const id of ids) {
        const seen = hits.get(id);
        hits.set(id, { count: (seen?.count ?? 0) + 1, lastAt: injection.at > (seen?.lastAt ?? '') ? injection.at : seen!.lastAt });
      }
      through = injection.at;
      used += 1;
    }
    const changes: ItemChange[] = [...hits].map(([id, h]) => ({ before: items.get(id)!, after: countHits(items.get(id)!, h) }));
    return {
      changes,
      changeId: `usage-${compact(now)}`,
      origin: { kind: 'usage', injections: used, through },
      // The cursor moves in the same transaction as the counts: an injection is counted once.
      cursor: { name: `usage#${updater}`, value: through },
      result: { injections: used, hit: changes.length },
    };
  });
  return result;
}

async function forgetUnused(deps: MemoryMaintenanceDependencies, agent: AgentKey, updater: UpdaterName, now: string): Promise<number> {
  const { result } = await changeStore(deps.memory, agent, updater, now, (store) => {
    const candidates = store.items.filter((item) => shouldForget(item, now, deps.forgetting)).slice(0, MAX_CHANGES_PER_PASS);
    if (candidates.length === 0) return { result: 0 };
    return {
      changes: candidates.map((item) => ({ before: item, after: forget(item, { now, batch: store.lastBatch }) })),
      changeId: `forget-${compact(now)}`,
      origin: { kind: 'forget', policy: { ...deps.forgetting } },
      result: candidates.length,
    };
  });
  return result;
}
