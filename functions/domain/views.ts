/**
 * Snapshot views: each updater keeps a budgeted, ready-made view of its store
 * (the most useful items first) that the read path serves with one lookup. A
 * view says how many items it left out; the full store is readable page by
 * page.
 */
import { isShown } from './verification.js';
import type { ContactItem, FactItem, FactTable, MemoryItem, TaskItem, UpdaterName } from './memory.js';
import { retiredValues, type RetiredValue } from './supersession.js';

export interface UpdaterView {
  readonly updater: UpdaterName;
  readonly version: number;
  readonly batch: number;
  readonly lastSequence: number;
  readonly updatedAt: string;
  readonly total: number;
  readonly omitted: number;
  readonly items: readonly Record<string, unknown>[];
  readonly tables?: readonly FactTable[];
  /** Values of this store that are no longer current, newest first (domain/supersession.ts); absent in views built before. */
  readonly retired?: readonly RetiredValue[];
}

export const VIEW_ITEM_LIMITS: Record<UpdaterName, number> = { contacts: 200, facts: 400, tasks: 200 };

const evidenceIds = (item: MemoryItem) => item.evidence.slice(-5).map((e) => e.recordId);
/** When the newest source record was written (not when it was consolidated). */
const sourceAt = (item: MemoryItem) => item.evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), '') || item.updatedAt;

function rank(updater: UpdaterName, items: readonly MemoryItem[]): MemoryItem[] {
  // Archived and refuted items stay in the store for audit, never in a view.
  const live = items.filter(isShown);
  const byRecent = (a: MemoryItem, b: MemoryItem) => b.lastReinforcedAt.localeCompare(a.lastReinforcedAt);
  if (updater === 'contacts') {
    return [...live].sort((a, b) => (b as ContactItem).lastMentionedAt.localeCompare((a as ContactItem).lastMentionedAt) || byRecent(a, b));
  }
  if (updater === 'tasks') {
    const open = (item: MemoryItem) => ((item as TaskItem).state === 'open' ? 0 : 1);
    return [...live].sort((a, b) => open(a) - open(b) || ((a as TaskItem).due ?? '9999').localeCompare((b as TaskItem).due ?? '9999') || byRecent(a, b));
  }
  const score = (item: MemoryItem) => (item.status === 'active' ? 1 : 0) + item.confidence + Math.log1p(item.hitCount) / 5;
  return [...live].sort((a, b) => score(b) - score(a) || byRecent(a, b));
}

export function compactItem(item: MemoryItem): Record<string, unknown> {
  const common = { id: item.id, status: item.status, verification: item.verification, confidence: item.confidence, updatedAt: item.updatedAt, sourceAt: sourceAt(item), evidence: evidenceIds(item), ...(item.note ? { note: item.note } : {}), ...(item.scope.project ? { project: item.scope.project } : {}), ...(item.proposedChange ? { proposed: item.proposedChange.fields } : {}) };
  switch (item.kind) {
    case 'contact': {
      const c = item as ContactItem;
      return { ...common, name: c.name, aliases: c.aliases, role: c.role, organisation: c.organisation, relationships: c.relationships, channels: c.channels, biography: c.biography, summary: c.summary, lastMentionedAt: c.lastMentionedAt };
    }
    case 'fact': {
      const f = item as FactItem;
      return { ...common, table: f.table, row: f.row, statement: f.statement };
    }
    case 'task': {
      const t = item as TaskItem;
      return { ...common, title: t.title, owner: t.owner, due: t.due, state: t.state, closedAt: t.closedAt };
    }
  }
}

export function buildView(
  updater: UpdaterName,
  items: readonly MemoryItem[],
  meta: { version: number; batch: number; lastSequence: number; updatedAt: string; tables?: readonly FactTable[] },
): UpdaterView {
  const ranked = rank(updater, items);
  const kept = ranked.slice(0, VIEW_ITEM_LIMITS[updater]);
  return {
    updater,
    ...meta,
    total: ranked.length,
    omitted: ranked.length - kept.length,
    items: kept.map(compactItem),
    retired: retiredValues(items),
  };
}
