/** The lifecycle rules beyond a batch: feedback on an item, the inverse of a batch, and forgetting. */
import { describe, expect, it } from 'vitest';
import type { FactItem, MemoryItem, TaskItem } from '../../functions/domain/memory.js';
import {
  actionOutcome,
  applyFeedback,
  applyOutcome,
  countHits,
  DEFAULT_FORGETTING_POLICY as policy,
  feedbackRequestSchema,
  forget,
  guardsSafetyOrCommitment,
  planRevert,
  shouldForget,
  shouldPurge,
  updaterOfItem,
} from '../../functions/domain/lifecycle.js';

const scope = { tenantId: 'default', agentId: 'a1' };
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + days * DAY).toISOString();

function fact(extra: Partial<FactItem> = {}): FactItem {
  return {
    id: 'f_0123456789abcdef', kind: 'fact', scope, table: 'profile', row: { subject: 'user', attribute: 'city', value: 'Lyon' }, statement: 'city is Lyon',
    status: 'active', verification: 'unverified', confidence: 0.7, hitCount: 1, createdAt: at(0), updatedAt: at(0), lastReinforcedAt: at(0),
    evidence: [{ recordId: 'r1', sequence: 1, timestamp: at(0) }], history: [], ...extra,
  };
}
function task(extra: Partial<TaskItem> = {}): TaskItem {
  return {
    id: 't_0123456789abcdef', kind: 'task', scope, title: 'send the contract', owner: 'user', state: 'open',
    status: 'active', verification: 'unverified', confidence: 0.7, hitCount: 1, createdAt: at(0), updatedAt: at(0), lastReinforcedAt: at(0),
    evidence: [{ recordId: 'r1', sequence: 1, timestamp: at(0) }], history: [], ...extra,
  };
}
const context = { feedbackId: 'fb1', now: at(10), batch: 3 };

describe('feedback requests', () => {
  it('name the offending field', () => {
    const result = feedbackRequestSchema.safeParse({ itemId: 'nope', outcome: 'meh' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['itemId', 'outcome']);
  });

  it('address an item of one store by its prefix', () => {
    expect(['c_0123456789abcdef', 'f_0123456789abcdef', 't_0123456789abcdef', 'x_0123456789abcdef'].map(updaterOfItem)).toEqual(['contacts', 'facts', 'tasks', undefined]);
  });
});

describe('feedback on an item', () => {
  it('helpful verifies, reinforces and counts a hit, with the feedback in the item history', () => {
    const { item, effect } = applyFeedback(fact(), { outcome: 'helpful', evidence: ['evt-1'] }, context);
    expect(effect).toBe('verified');
    expect(item).toMatchObject({ verification: 'verified', lastReinforcedAt: at(10), hitCount: 2 });
    expect(item.confidence).toBeGreaterThan(0.7);
    expect(item.history).toEqual([{ field: 'verification', from: 'unverified', to: 'verified', at: at(10), batch: 3, evidence: ['feedback:fb1', 'evt-1'] }]);
  });

  it('wrong refutes and keeps the item', () => {
    const { item } = applyFeedback(fact({ verification: 'verified', confirmations: 5 }), { outcome: 'wrong', note: 'moved away' }, context);
    expect(item).toMatchObject({ id: 'f_0123456789abcdef', status: 'active', verification: 'refuted', note: 'moved away' });
  });

  it('outdated archives with validUntil, and helpful restores without it', () => {
    const { item: archived } = applyFeedback(fact(), { outcome: 'outdated' }, context);
    expect(archived).toMatchObject({ status: 'archived', validUntil: at(10) });
    const { item: restored, effect } = applyFeedback(archived, { outcome: 'helpful' }, { ...context, now: at(11) });
    expect(effect).toBe('restored');
    expect(restored.status).toBe('active');
    expect(restored.validUntil).toBeUndefined();
  });
});

describe('the inverse of a batch', () => {
  const before = fact();
  const after = fact({ row: { subject: 'user', attribute: 'city', value: 'Paris' }, updatedAt: at(5), hitCount: 2 });
  const created = fact({ id: 'f_1111111111111111', createdAt: at(5), updatedAt: at(5) });
  const tables = { currentTables: [] };

  it('puts changed items back, archives created ones, and keeps hits counted since', () => {
    const current = new Map<string, MemoryItem>([[after.id, { ...after, hitCount: 5, lastHitAt: at(6) }], [created.id, created]]);
    const plan = planRevert([{ before, after }, { before: null, after: created }], current, { batch: 4, now: at(7), ...tables });
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => c.after)).toEqual([
      { ...before, hitCount: 4, lastHitAt: at(6), updatedAt: at(7) },
      { ...created, status: 'archived', note: 'created by batch 4, reverted', updatedAt: at(7) },
    ]);
  });

  it('leaves an item changed since the batch alone and reports it', () => {
    const current = new Map<string, MemoryItem>([[after.id, { ...after, verification: 'verified' }]]);
    const plan = planRevert([{ before, after }], current, { batch: 4, now: at(7), ...tables });
    expect(plan.changes).toEqual([]);
    expect(plan.conflicts).toEqual([{ itemId: after.id, reason: 'changed after batch 4; left as it is' }]);
  });

  it('is a no-op once applied: the reverted state no longer matches the batch', () => {
    const current = new Map<string, MemoryItem>([[after.id, after]]);
    const first = planRevert([{ before, after }], current, { batch: 4, now: at(7), ...tables });
    const again = planRevert([{ before, after }], new Map(first.changes.map((c) => [c.after.id, c.after])), { batch: 4, now: at(8), ...tables });
    expect(again.changes).toEqual([]);
  });
});

describe('forgetting', () => {
  it('forgets a low-confidence item neither hit nor reinforced for the period', () => {
    expect(shouldForget(fact(), at(policy.afterDays), policy)).toBe(true);
    expect(shouldForget(fact(), at(policy.afterDays - 1), policy)).toBe(false);
  });

  it('counts a recent hit or reinforcement as use', () => {
    expect(shouldForget(fact({ lastHitAt: at(policy.afterDays - 1) }), at(policy.afterDays), policy)).toBe(false);
    expect(shouldForget(fact({ lastReinforcedAt: at(policy.afterDays - 1) }), at(policy.afterDays), policy)).toBe(false);
  });

  it('keeps verified and confident items', () => {
    expect(shouldForget(fact({ verification: 'verified' }), at(1000), policy)).toBe(false);
    expect(shouldForget(fact({ confidence: 0.9 }), at(1000), policy)).toBe(false);
  });

  it('gives open tasks, rules and security constraints the longer protected period', () => {
    const rule = fact({ table: 'rules', statement: 'never share the door code' });
    expect(guardsSafetyOrCommitment(rule)).toBe(true);
    expect(guardsSafetyOrCommitment(task())).toBe(true);
    expect(guardsSafetyOrCommitment(task({ state: 'done' }))).toBe(false);
    expect(guardsSafetyOrCommitment(fact({ table: 'security_constraints', statement: 'x' }))).toBe(true);
    for (const item of [rule, task()]) {
      expect(shouldForget(item, at(policy.afterDays), policy)).toBe(false);
      expect(shouldForget(item, at(policy.protectedAfterDays), policy)).toBe(true);
    }
    expect(shouldForget(task({ state: 'done' }), at(policy.afterDays), policy)).toBe(true);
  });

  it('deletes an item only once it has been archived for the retention period, counted from when it was archived', () => {
    const forgotten = forget(fact(), { now: at(90), batch: 7 });
    const days = policy.purgeArchivedAfterDays!;
    expect(shouldPurge(fact(), at(90 + days + 1), policy)).toBe(false);
    expect(shouldPurge(forgotten, at(90 + days - 1), policy)).toBe(false);
    expect(shouldPurge(forgotten, at(90 + days), policy)).toBe(true);
    // Archived by a later change (superseded, cancelled) without a status entry: its last change counts.
    expect(shouldPurge(fact({ status: 'archived', updatedAt: at(20) }), at(20 + days), policy)).toBe(true);
    expect(shouldPurge(forgotten, at(90 + days), { ...policy, purgeArchivedAfterDays: undefined })).toBe(false);
  });

  it('archives with a note and a history entry, and never touches what is archived already', () => {
    const forgotten = forget(fact(), { now: at(90), batch: 7 });
    expect(forgotten).toMatchObject({ status: 'archived', note: expect.stringContaining('2026-01-01') });
    expect(forgotten.history.at(-1)).toMatchObject({ field: 'status', from: 'active', to: 'archived', batch: 7 });
    expect(shouldForget(forgotten, at(1000), policy)).toBe(false);
  });

  it('counts hits onto the item', () => {
    expect(countHits(fact({ lastHitAt: at(3) }), { count: 2, lastAt: at(5) })).toMatchObject({ hitCount: 3, lastHitAt: at(5) });
    expect(countHits(fact({ lastHitAt: at(9) }), { count: 1, lastAt: at(5) })).toMatchObject({ hitCount: 2, lastHitAt: at(9) });
  });
});

describe('outcomes of actions', () => {
  it('are read from action records that name the context response they acted on', () => {
    expect(actionOutcome({ type: 'action', metadata: { injectionId: 'r1', outcome: 'success' } })).toEqual({ injectionId: 'r1', success: true });
    expect(actionOutcome({ type: 'action', metadata: { injectionId: 'r1', outcome: 'failure' } })).toEqual({ injectionId: 'r1', success: false });
    expect(actionOutcome({ type: 'action', metadata: { injectionId: 'r1', error: 'timeout' } })).toEqual({ injectionId: 'r1', success: false });
    expect(actionOutcome({ type: 'action', metadata: { outcome: 'success' } })).toBeUndefined();
    expect(actionOutcome({ type: 'message', metadata: { injectionId: 'r1', outcome: 'success' } })).toBeUndefined();
    expect(actionOutcome({ type: 'action', metadata: { injectionId: 'r1' } })).toBeUndefined();
  });

  const record = { recordId: 'act-1', sequence: 9, timestamp: at(9), role: 'tool' };

  it('verify an item on success, with the action record as evidence', () => {
    const { item, effect } = applyOutcome(fact(), true, record, { now: at(10), batch: 2 });
    expect(effect).toBe('verified');
    expect(item).toMatchObject({ verification: 'verified', lastReinforcedAt: at(10) });
    expect(item.evidence.map((e) => e.recordId)).toEqual(['r1', 'act-1']);
    expect(item.history.at(-1)).toMatchObject({ field: 'verification', to: 'verified', evidence: ['act-1'] });
  });

  it('mark a verified item as a conflict to verify on failure, and weaken an unverified one', () => {
    expect(applyOutcome(fact({ verification: 'verified', confidence: 0.9 }), false, record, { now: at(10), batch: 2 }).item).toMatchObject({ status: 'conflict', verification: 'verified', note: expect.stringContaining('act-1') });
    const weakened = applyOutcome(fact(), false, record, { now: at(10), batch: 2 });
    expect(weakened.effect).toBe('weakened');
    expect(weakened.item.confidence).toBeLessThan(0.7);
  });
});
