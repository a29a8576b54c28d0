/**
 * The note lifecycle beyond a batch, as pure functions: feedback applied to
 * an item, the inverse of a batch's patch, and the forgetting rule. The
 * verification rules themselves are in verification.ts.
 */
import { z } from 'zod';
import type { Evidence, FactItem, FieldChange, ItemStatus, MemoryItem, UpdaterName, FactTable } from './memory.js';
import type { ItemChange } from './patch.js';
import { applySignal, standingOf, type Effect, type Signal, type VerificationPolicy, DEFAULT_VERIFICATION_POLICY } from './verification.js';

export const FEEDBACK_OUTCOMES = ['helpful', 'wrong', 'outdated'] as const;
export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

/** `POST /v1/agents/{agentId}/feedback`. */
export const feedbackRequestSchema = z.strictObject({
  injectionId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, { error: 'must be a context response id (1-128 of A-Z a-z 0-9 . _ : -)' }).optional(),
  itemId: z.string().regex(/^[cft]_[0-9a-f]{16}$/, { error: 'must be a memory item id such as f_0123456789abcdef' }),
  outcome: z.enum(FEEDBACK_OUTCOMES, { error: 'must be helpful, wrong or outdated' }),
  note: z.string().trim().min(1).max(1000, { error: 'must be at most 1000 characters' }).optional(),
  evidence: z.array(z.string().min(1).max(256), { error: 'must be an array of event ids' }).min(1).max(50).optional(),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

const UPDATER_BY_PREFIX: Record<string, UpdaterName> = { c: 'contacts', f: 'facts', t: 'tasks' };

/** The store an item id belongs to (ids carry their updater's prefix). */
export function updaterOfItem(itemId: string): UpdaterName | undefined {
  const match = /^([cft])_[0-9a-f]{16}$/.exec(itemId);
  return match ? UPDATER_BY_PREFIX[match[1]!] : undefined;
}

const SIGNAL_OF: Record<FeedbackOutcome, Signal> = {
  helpful: { kind: 'confirmation' },
  wrong: { kind: 'refutation' },
  outdated: { kind: 'expiry' },
};

export interface FeedbackContext {
  readonly feedbackId: string;
  readonly now: string;
  /** The store's last applied batch: field changes are filed under it. */
  readonly batch: number;
}

/**
 * Feedback is evidence: `helpful` confirms (verified, bounded confidence
 * growth, `lastReinforcedAt`, a restore if the item was archived or refuted),
 * `wrong` refutes, `outdated` archives with `validUntil`.
 */
export function applyFeedback(
  item: MemoryItem,
  feedback: Pick<FeedbackRequest, 'outcome' | 'note' | 'evidence'>,
  context: FeedbackContext,
  policy: VerificationPolicy = DEFAULT_VERIFICATION_POLICY,
): { readonly item: MemoryItem; readonly effect: Effect } {
  const { standing, effect } = applySignal(standingOf(item), SIGNAL_OF[feedback.outcome], policy);
  const evidence = [`feedback:${context.feedbackId}`, ...(feedback.evidence ?? [])];
  const history: FieldChange[] = [...item.history];
  const record = (field: string, from: unknown, to: unknown) => {
    if (from !== to) history.push({ field, from: from ?? null, to, at: context.now, batch: context.batch, evidence });
  };
  record('status', item.status, standing.status);
  record('verification', item.verification, standing.verification);
  const base = { ...item, status: standing.status, verification: standing.verification, confidence: standing.confidence, confirmations: standing.confirmations, history, updatedAt: context.now };
  switch (feedback.outcome) {
    case 'helpful': {
      const { validUntil: _expired, ...rest } = base;
      const restored = effect === 'restored' || item.status !== 'active';
      return {
        item: { ...(restored ? { ...rest, note: undefined } : base), hitCount: item.hitCount + 1, lastReinforcedAt: context.now } as MemoryItem,
        effect,
      };
    }
    case 'wrong':
      return { item: { ...base, note: feedback.note ?? 'refuted by feedback' } as MemoryItem, effect };
    case 'outdated':
      return { item: { ...base, validUntil: item.validUntil ?? context.now, note: feedback.note ?? 'outdated, by feedback' } as MemoryItem, effect };
  }
}

// --- revert -----------------------------------------------------------------

/** JSON with sorted keys, so that equal items compare equal whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** An item without its use counters (hit count, last hit): they change offline and say nothing about content. */
function withoutUse(item: MemoryItem): Omit<MemoryItem, 'hitCount' | 'lastHitAt'> {
  const { hitCount: _hits, lastHitAt: _last, ...rest } = item;
  return rest;
}

export interface RevertConflict {
  readonly itemId: string;
  readonly reason: string;
}

export interface RevertPlan {
  readonly changes: readonly ItemChange[];
  readonly conflicts: readonly RevertConflict[];
  /** The tables to restore, when the batch changed them and nothing changed them since. */
  readonly tables?: readonly FactTable[];
}

/**
 * The inverse of one batch's patch: every item the batch changed goes back to
 * its state before the batch (an item the batch created is archived, never
 * deleted, so the audit trail stays whole). An item changed again since (by a
 * later batch, feedback or the sweep) is left as it is and reported.
 */
export function planRevert(
  batchChanges: readonly ItemChange[],
  current: ReadonlyMap<string, MemoryItem>,
  context: { readonly batch: number; readonly now: string; readonly tablesBefore?: readonly FactTable[]; readonly tablesAfter?: readonly FactTable[]; readonly currentTables: readonly FactTable[] },
): RevertPlan {
  const changes: ItemChange[] = [];
  const conflicts: RevertConflict[] = [];
  for (const change of batchChanges) {
    const now = current.get(change.after.id);
    if (!now || canonical(withoutUse(now)) !== canonical(withoutUse(change.after))) {
      conflicts.push({ itemId: change.after.id, reason: `changed after batch ${context.batch}; left as it is` });
      continue;
    }
    // Use counted since the batch is kept: it says how the item was used, not what it says.
    // (hits counted after the batch are carried over; the batch's own changes are undone).
    const since = Math.max(0, now.hitCount - change.after.hitCount);
    const lastHitAt = now.lastHitAt ? { lastHitAt: now.lastHitAt } : {};
    const after: MemoryItem = change.before
      ? ({ ...change.before, hitCount: change.before.hitCount + since, ...lastHitAt, updatedAt: context.now } as MemoryItem)
      : ({ ...change.after, hitCount: now.hitCount, ...lastHitAt, status: 'archived' as ItemStatus, note: `created by batch ${context.batch}, reverted`, updatedAt: context.now } as MemoryItem);
    changes.push({ before: now, after });
  }
  let tables: readonly FactTable[] | undefined;
  if (context.tablesBefore && context.tablesAfter) {
    if (canonical(context.currentTables) === canonical(context.tablesAfter)) tables = context.tablesBefore;
    else conflicts.push({ itemId: 'tables', reason: `fact tables changed after batch ${context.batch}; left as they are` });
  }
  return { changes, conflicts, ...(tables ? { tables } : {}) };
}

// --- forgetting ---------------------------------------------------------------

export interface ForgettingPolicy {
  /** Days without a hit or a reinforcement after which an ordinary item is archived. */
  readonly afterDays: number;
  /** The same for items that guard safety or commitments (open tasks, rules, security constraints). */
  readonly protectedAfterDays: number;
  /** Only items at or below this confidence are forgotten; verified items never are. */
  readonly maxConfidence: number;
  /** Days an item stays archived (forgotten, superseded, cancelled) before it is deleted from the store. */
  readonly purgeArchivedAfterDays?: number;
}

export const DEFAULT_FORGETTING_POLICY: ForgettingPolicy = { afterDays: 60, protectedAfterDays: 365, maxConfidence: 0.75, purgeArchivedAfterDays: 365 };

const GUARDING = /\b(rules?|polic(y|ies)|constraints?|security|safety|never|must|forbidden|prohibited|allerg\w*|password|secret|compliance|legal)\b/i;

/** Items whose loss costs more than their clutter: open tasks (commitments) and rules or security constraints. */
export function guardsSafetyOrCommitment(item: MemoryItem): boolean {
  if (item.kind === 'task') return item.state === 'open';
  if (item.kind === 'fact') {
    const fact = item as FactItem;
    return GUARDING.test(fact.table.replace(/_/g, ' ')) || GUARDING.test(fact.statement);
  }
  return false;
}

/** When the item was last useful: its last hit or reinforcement. */
export function lastUsedAt(item: MemoryItem): string {
  return [item.lastHitAt ?? '', item.lastReinforcedAt, item.createdAt].reduce((a, b) => (b > a ? b : a), '');
}

/**
 * Forget (archive) an item never hit or reinforced for the period, and of low
 * confidence. Verified items are kept (someone confirmed them); guarding
 * items wait the longer protected period.
 */
export function shouldForget(item: MemoryItem, now: string, policy: ForgettingPolicy = DEFAULT_FORGETTING_POLICY): boolean {
  if (item.status === 'archived' || item.verification === 'verified') return false;
  if (item.confidence > policy.maxConfidence && item.verification !== 'refuted') return false;
  const days = guardsSafetyOrCommitment(item) ? policy.protectedAfterDays : policy.afterDays;
  return Date.parse(now) - Date.parse(lastUsedAt(item)) >= days * 86_400_000;
}

/** When an archived item was archived: its last move to `archived`, else its last change. */
export function archivedAt(item: MemoryItem): string {
  const moved = [...item.history].reverse().find((change) => change.field === 'status' && change.to === 'archived');
  return moved?.at ?? item.updatedAt;
}

/** An item archived for longer than the retention period is deleted (its audit entries stay until erasure). */
export function shouldPurge(item: MemoryItem, now: string, policy: ForgettingPolicy = DEFAULT_FORGETTING_POLICY): boolean {
  if (item.status !== 'archived' || policy.purgeArchivedAfterDays === undefined) return false;
  return Date.parse(now) - Date.parse(archivedAt(item)) >= policy.purgeArchivedAfterDays * 86_400_000;
}

/** The archived form of a forgotten item. */
export function forget(item: MemoryItem, context: { readonly now: string; readonly batch: number }): MemoryItem {
  return {
    ...item,
    status: 'archived',
    note: `forgotten: not used since ${lastUsedAt(item).slice(0, 10)}`,
    history: [...item.history, { field: 'status', from: item.status, to: 'archived', at: context.now, batch: context.batch, evidence: ['sweep:forget'] }],
    updatedAt: context.now,
  } as MemoryItem;
}

/** Counts hits: each injected item's hit count grows by its injections, `lastHitAt` moves to the latest. */
export function countHits(item: MemoryItem, hits: { readonly count: number; readonly lastAt: string }): MemoryItem {
  return { ...item, hitCount: item.hitCount + hits.count, lastHitAt: item.lastHitAt && item.lastHitAt > hits.lastAt ? item.lastHitAt : hits.lastAt };
}

// --- outcomes of actions ---------------------------------------------------------

/** What an action record says about the context it was taken with. */
export interface ActionOutcome {
  /** The context response (its `x-request-id`) the agent acted on. */
  readonly injectionId: string;
  readonly success: boolean;
}

/**
 * An action record is evidence about the items injected into its turn when it
 * names the context response it acted on (`metadata.injectionId`) and says
 * how it went (`metadata.outcome: success | failure`, or a tool error in
 * `metadata.error`). Anything else says nothing.
 */
export function actionOutcome(record: { readonly type: string; readonly metadata?: Readonly<Record<string, unknown>> }): ActionOutcome | undefined {
  if (record.type !== 'action' || !record.metadata) return undefined;
  const { injectionId, outcome, error } = record.metadata;
  if (typeof injectionId !== 'string' || injectionId.length === 0) return undefined;
  if (outcome === 'success' || outcome === 'failure') return { injectionId, success: outcome === 'success' && !error };
  if (error !== undefined && error !== null && error !== false) return { injectionId, success: false };
  return undefined;
}

/** Applies an action's outcome to an injected item, by the verification rules, with the record as evidence. */
export function applyOutcome(item: MemoryItem, success: boolean, record: Evidence, context: { readonly now: string; readonly batch: number }): { readonly item: MemoryItem; readonly effect: Effect } {
  const { standing, effect } = applySignal(standingOf(item), { kind: 'outcome', success });
  if (effect === 'unchanged') return { item, effect };
  const history: FieldChange[] = [...item.history];
  for (const [field, from, to] of [['status', item.status, standing.status], ['verification', item.verification, standing.verification]] as const) {
    if (from !== to) history.push({ field, from, to, at: context.now, batch: context.batch, evidence: [record.recordId] });
  }
  const evidence = item.evidence.some((e) => e.recordId === record.recordId) ? item.evidence : [...item.evidence, record].slice(-50);
  return {
    item: {
      ...item,
      status: standing.status,
      verification: standing.verification,
      confidence: standing.confidence,
      confirmations: standing.confirmations,
      evidence,
      history,
      ...(success ? { lastReinforcedAt: context.now } : {}),
      ...(effect === 'challenged' ? { note: `an action taken with it failed (${record.recordId}); to verify` } : {}),
      updatedAt: context.now,
    } as MemoryItem,
    effect,
  };
}
