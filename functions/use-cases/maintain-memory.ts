/**
 * The sweep's memory pass: use is counted, and what is never used is
 * forgotten. Hit counts and `lastHitAt` come from the injection log, offline
 * (the read path only records injections); then items with no hit and no
 * reinforcement for the configured period, and low confidence, are archived
 * (items guarding safety or commitments wait longer). Both are audited,
 * version-checked changes; archived items leave the snapshot, stay readable
 * with `?status=archived`, and come back on `helpful` feedback or a revert,
 * until the retention period deletes them.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { actionOutcome, applyOutcome, countHits, forget, shouldForget, shouldPurge, type ForgettingPolicy } from '../domain/lifecycle.js';
import type { AgentLedger, RawLog, RawRecord } from '../ports/pipeline.js';
import { UPDATERS, type MemoryItem, type UpdaterName } from '../domain/memory.js';
import type { ItemChange } from '../domain/patch.js';
import type { Injection, InjectionHistory, InjectionLog } from '../ports/injection-log.js';
import { changeStore, type LifecycleStore } from './store-change.js';

export interface MemoryMaintenanceDependencies {
  readonly memory: LifecycleStore;
  readonly injections: InjectionHistory & Pick<InjectionLog, 'read'>;
  readonly forgetting: ForgettingPolicy;
  /** When set, action records naming a context response and an outcome are evidence for its items. */
  readonly outcomes?: { readonly rawLog: Pick<RawLog, 'getRange'>; readonly ledger: Pick<AgentLedger, 'readStatus'> };
  readonly now?: () => Date;
}

export interface MaintenanceResult {
  /** Injections counted in this pass. */
  readonly injections: number;
  /** Items whose hit count moved. */
  readonly hit: number;
  /** Items archived by forgetting. */
  readonly forgotten: number;
  /** Archived items deleted after the retention period. */
  readonly purged: number;
  /** Items an action's outcome changed. */
  readonly outcomes: number;
}

/** One commit holds at most this many item changes (the rest waits for the next pass). */
const MAX_CHANGES_PER_PASS = 90;
/** Raw records read per pass for action outcomes (the rest waits for the next pass). */
const MAX_RECORDS_PER_PASS = 500;
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
  let purged = 0;
  const outcomes = deps.outcomes ? await learnFromOutcomes(deps, deps.outcomes, agent, now) : 0;
  for (const [index, updater] of UPDATERS.entries()) {
    const usage = await countUsage(deps, agent, updater, now, injections.filter((i) => cursors[index] === undefined || i.at > cursors[index]!));
    counted = Math.max(counted, usage.injections);
    hit += usage.hit;
    forgotten += await forgetUnused(deps, agent, updater, now);
    purged += await purgeArchived(deps, agent, updater, now);
  }
  return { injections: counted, hit, forgotten, outcomes, purged };
}

/**
 * Outcomes of actions: an action record naming the context response it acted
 * on, with a success or failure, applies the `outcome` rule to each item that
 * response injected. Records are read from the consolidated part of the raw
 * log, after each store's cursor, a bounded range per pass.
 */
async function learnFromOutcomes(deps: MemoryMaintenanceDependencies, sources: NonNullable<MemoryMaintenanceDependencies['outcomes']>, agent: AgentKey, now: string): Promise<number> {
  const status = await sources.ledger.readStatus(agent);
  const last = status?.lastConsolidatedSequence ?? 0;
  const cursors = await Promise.all(UPDATERS.map(async (updater) => Number((await deps.memory.readCursor(agent, `outcome#${updater}`)) ?? 0)));
  const from = Math.min(...cursors) + 1;
  if (from > last) return 0;
  const through = Math.min(last, from + MAX_RECORDS_PER_PASS - 1);
  const records = (await sources.rawLog.getRange(agent, from, through)).filter((record) => actionOutcome(record) !== undefined);
  const injections = new Map<string, Injection | undefined>();
  for (const record of records) {
    const id = actionOutcome(record)!.injectionId;
    if (!injections.has(id)) injections.set(id, await deps.injections.read(agent, id));
  }
  let changed = 0;
  for (const [index, updater] of UPDATERS.entries()) {
    if (cursors[index]! >= through) continue;
    const mine = records.filter((record) => record.sequence > cursors[index]!);
    const { result } = await changeStore(deps.memory, agent, updater, now, (store) => {
      const items = new Map(store.items.map((item) => [item.id, item]));
      const before = new Map<string, MemoryItem>();
      const used: string[] = [];
      for (const record of mine) {
        const outcome = actionOutcome(record)!;
        const injection = injections.get(outcome.injectionId);
        if (!injection) continue;
        used.push(record.id);
        for (const included of injection.items) {
          const item = items.get(included.id);
          if (!item || included.kind !== KIND_OF[updater]) continue;
          const next = applyOutcome(item, outcome.success, evidenceOf(record), { now, batch: store.lastBatch });
          if (next.effect === 'unchanged') continue;
          if (!before.has(item.id)) before.set(item.id, items.get(item.id)!);
          items.set(item.id, next.item);
        }
      }
      const changes: ItemChange[] = [...before].slice(0, MAX_CHANGES_PER_PASS).map(([id, was]) => ({ before: was, after: items.get(id)! }));
      return {
        changes,
        changeId: `outcome-${compact(now)}`,
        origin: { kind: 'outcome', records: used, through },
        cursor: { name: `outcome#${updater}`, value: String(through) },
        result: changes.length,
      };
    });
    changed += result;
  }
  return changed;
}

function evidenceOf(record: RawRecord) {
  return { recordId: record.id, sequence: record.sequence, timestamp: record.timestamp, role: record.role };
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

/**
 * Retention: items archived for longer than `purgeArchivedAfterDays` are
 * deleted from the store. The audit entry lists their ids only, no content;
 * the entries of the batches that made them keep their copies until the agent
 * is erased (docs/design/security.md).
 */
async function purgeArchived(deps: MemoryMaintenanceDependencies, agent: AgentKey, updater: UpdaterName, now: string): Promise<number> {
  const afterDays = deps.forgetting.purgeArchivedAfterDays;
  if (afterDays === undefined) return 0;
  const { result } = await changeStore(deps.memory, agent, updater, now, (store) => {
    const expired = store.items.filter((item) => shouldPurge(item, now, deps.forgetting)).slice(0, MAX_CHANGES_PER_PASS).map((item) => item.id);
    if (expired.length === 0) return { result: 0 };
    return { changes: [], deletes: expired, changeId: `purge-${compact(now)}`, origin: { kind: 'purge', items: expired, afterDays }, result: expired.length };
  });
  return result;
}
