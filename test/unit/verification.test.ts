/**
 * The verification rules, one by one, and how patch application follows them.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence, FactItem, FactOp, FactTable, UpdaterStore } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch } from '../../functions/domain/patch.js';
import { buildView } from '../../functions/domain/views.js';
import {
  applySignal,
  DEFAULT_VERIFICATION_POLICY as policy,
  growConfidence,
  initialStanding,
  isIndependentRecord,
  type Signal,
  type Standing,
} from '../../functions/domain/verification.js';

const fresh: Standing = initialStanding(0.7);
const verifiedOnce: Standing = { status: 'active', verification: 'verified', confidence: 0.85, confirmations: 2 };
const verifiedOften: Standing = { status: 'active', verification: 'verified', confidence: 0.95, confirmations: 5 };
const apply = (standing: Standing, ...signals: Signal[]) => signals.reduce((s, signal) => applySignal(s, signal).standing, standing);

describe('a new item', () => {
  it('starts unverified, and its confidence is bounded by the unverified cap whatever the model claimed', () => {
    expect(initialStanding(0.99)).toEqual({ status: 'active', verification: 'unverified', confidence: policy.unverifiedCap, confirmations: 1 });
    expect(initialStanding(0.5).confidence).toBe(0.5);
  });
});

describe('becoming verified', () => {
  it('takes two consistent independent records', () => {
    const second = applySignal(fresh, { kind: 'record', independent: true });
    expect(second.effect).toBe('verified');
    expect(second.standing).toMatchObject({ verification: 'verified', confirmations: 2 });
  });

  it('takes one confirmation by the user', () => {
    expect(applySignal(fresh, { kind: 'confirmation' })).toMatchObject({ effect: 'verified', standing: { verification: 'verified', status: 'active' } });
  });

  it('takes one successful outcome of an action taken with the item in context', () => {
    expect(applySignal(fresh, { kind: 'outcome', success: true })).toMatchObject({ effect: 'verified', standing: { verification: 'verified' } });
  });

  it('is never reached by restatements: a record already known, or written by the agent itself, changes nothing', () => {
    const restated = apply(fresh, { kind: 'record', independent: false }, { kind: 'record', independent: false }, { kind: 'record', independent: false });
    expect(restated).toEqual(fresh);
  });
});

describe('confidence', () => {
  it('grows with diminishing steps and never passes the cap of its verification state', () => {
    let confidence = 0.5;
    const steps: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const next = growConfidence(confidence, policy.recordStep, policy.verifiedCap);
      steps.push(next - confidence);
      confidence = next;
    }
    expect(confidence).toBeLessThanOrEqual(policy.verifiedCap);
    expect(steps[1]!).toBeLessThan(steps[0]!);
    // However many records restate it, an unverified item stays at or below the unverified cap.
    expect(growConfidence(0.79, 0.9, policy.unverifiedCap)).toBeLessThanOrEqual(policy.unverifiedCap);
  });

  it('stays bounded after any number of confirmations', () => {
    const confirmed = apply(fresh, ...Array.from({ length: 50 }, () => ({ kind: 'confirmation' }) as const));
    expect(confirmed.confidence).toBeLessThanOrEqual(policy.verifiedCap);
  });
});

describe('contradiction and correction', () => {
  it('marks an unverified item as a conflict when a record disagrees', () => {
    expect(applySignal(fresh, { kind: 'contradiction' })).toMatchObject({ effect: 'conflict', standing: { status: 'conflict' } });
  });

  it('marks an item verified only once as a conflict too', () => {
    expect(applySignal(verifiedOnce, { kind: 'contradiction' }).effect).toBe('conflict');
  });

  it('treats one contradicting remark against a fact verified several times as something to verify, not an overwrite', () => {
    const result = applySignal(verifiedOften, { kind: 'contradiction' });
    expect(result.effect).toBe('challenged');
    // Marked, but its value, verification, confidence and confirmations are kept.
    expect(result.standing).toEqual({ ...verifiedOften, status: 'conflict' });
  });

  it('lets an explicit correction win at once, even against a fact verified several times', () => {
    expect(applySignal(verifiedOften, { kind: 'correction' })).toMatchObject({ effect: 'superseded', standing: { status: 'archived' } });
  });
});

describe('refutation, expiry and restoration', () => {
  it('refutes on wrong feedback, keeping the item for audit with a minimal confidence', () => {
    expect(applySignal(verifiedOften, { kind: 'refutation' })).toMatchObject({ effect: 'refuted', standing: { verification: 'refuted', status: 'active', confidence: policy.refutedConfidence } });
  });

  it('does not let records revive a refuted item', () => {
    const refuted = apply(fresh, { kind: 'refutation' });
    expect(applySignal(refuted, { kind: 'record', independent: true })).toMatchObject({ effect: 'unchanged', standing: refuted });
  });

  it('restores a refuted or archived item on a confirmation', () => {
    const refuted = apply(fresh, { kind: 'refutation' });
    expect(applySignal(refuted, { kind: 'confirmation' })).toMatchObject({ effect: 'restored', standing: { verification: 'verified', status: 'active' } });
    const archived = apply(fresh, { kind: 'expiry' });
    expect(archived.status).toBe('archived');
    expect(applySignal(archived, { kind: 'confirmation' })).toMatchObject({ effect: 'restored', standing: { status: 'active' } });
  });

  it('weakens an unverified item on a failed outcome and refutes it when confidence falls below the floor', () => {
    const once = applySignal(fresh, { kind: 'outcome', success: false });
    expect(once.effect).toBe('weakened');
    expect(once.standing.confidence).toBeLessThan(fresh.confidence);
    expect(apply(fresh, ...Array.from({ length: 5 }, () => ({ kind: 'outcome', success: false }) as const)).verification).toBe('refuted');
  });

  it('turns a failed outcome against a verified item into a conflict to verify', () => {
    expect(applySignal(verifiedOften, { kind: 'outcome', success: false })).toMatchObject({ effect: 'challenged', standing: { verification: 'verified', status: 'conflict' } });
  });
});

describe('independent records', () => {
  const item = { evidence: [{ recordId: 'r1', sequence: 1, timestamp: '2026-11-01T00:00:00Z' }] as Evidence[] };
  it('are new to the item and not written by the agent', () => {
    expect(isIndependentRecord(item, { recordId: 'r2', sequence: 2, timestamp: '2026-11-02T00:00:00Z', role: 'user' })).toBe(true);
    expect(isIndependentRecord(item, { recordId: 'r1', sequence: 1, timestamp: '2026-11-01T00:00:00Z', role: 'user' })).toBe(false);
    expect(isIndependentRecord(item, { recordId: 'r3', sequence: 3, timestamp: '2026-11-03T00:00:00Z', role: 'assistant' })).toBe(false);
  });
});

// --- as patch application applies them -------------------------------------------------

const scope = { tenantId: 'default', agentId: 'a1' };
const PROFILE: FactTable = { name: 'profile', columns: ['subject', 'attribute', 'value'], key: ['subject', 'attribute'] };
const records = new Map<string, Evidence>([
  ['u1', { recordId: 'u1', sequence: 11, timestamp: '2026-11-05T10:00:00Z', role: 'user' }],
  ['a1', { recordId: 'a1', sequence: 12, timestamp: '2026-11-05T10:01:00Z', role: 'assistant' }],
]);

function fact(id: string, value: string, extra: Partial<FactItem> = {}): FactItem {
  return {
    id, kind: 'fact', scope, table: 'profile', row: { subject: 'user', attribute: 'city', value }, statement: `city is ${value}`,
    status: 'active', verification: 'unverified', confidence: 0.7, hitCount: 1,
    createdAt: '2026-10-01T00:00:00Z', updatedAt: '2026-10-01T00:00:00Z', lastReinforcedAt: '2026-10-01T00:00:00Z',
    evidence: [{ recordId: 'old', sequence: 1, timestamp: '2026-10-01T00:00:00Z' }], history: [], ...extra,
  };
}
const addCity = (value: string, evidence: string[], extra: Partial<Extract<FactOp, { op: 'add' }>> = {}): FactOp => ({
  op: 'add', table: 'profile', row: { subject: 'user', attribute: 'city', value }, statement: `city is ${value}`, evidence, ...extra,
});
function patch(items: FactItem[], ops: FactOp[]) {
  const store: UpdaterStore = { updater: 'facts', version: 1, lastBatch: 1, items, tables: [PROFILE] };
  return applyPatch(store, ops, { updater: 'facts', batch: 2, now: '2026-11-06T00:00:00Z', scope, records, aliases: aliasItems('facts', items).idOf });
}

describe('patch application follows the rules', () => {
  it('never raises confidence when the agent restates an item', () => {
    const city = fact('f_city', 'Lyon');
    const [after] = patch([city], [addCity('Lyon', ['a1'])]).items;
    expect(after).toMatchObject({ confidence: 0.7, verification: 'unverified', lastReinforcedAt: city.lastReinforcedAt });
  });

  it('caps the confidence a model proposes for a new fact', () => {
    const created = patch([], [addCity('Lyon', ['u1'], { confidence: 1 })]).items[0]!;
    expect(created).toMatchObject({ verification: 'unverified', confidence: policy.unverifiedCap });
  });

  it('keeps a fact verified several times (marked, still verified), and files one contradicting remark as a draft to verify', () => {
    const city = fact('f_city', 'Lyon', { verification: 'verified', confidence: 0.95, confirmations: 4 });
    const result = patch([city], [addCity('Paris', ['u1'])]);
    expect(result.items.find((i) => i.id === 'f_city')).toMatchObject({ status: 'conflict', verification: 'verified', confidence: 0.95, row: city.row });
    const newcomer = result.items.find((i) => i.id !== 'f_city')!;
    expect(newcomer).toMatchObject({ status: 'draft', verification: 'unverified', note: expect.stringContaining('f_city') });
  });

  it('lets an explicit correction supersede a fact verified several times at once', () => {
    const city = fact('f_city', 'Lyon', { verification: 'verified', confidence: 0.95, confirmations: 4 });
    const result = patch([city], [addCity('Paris', ['u1'], { correction: true })]);
    expect(result.items.find((i) => i.id === 'f_city')).toMatchObject({ status: 'archived' });
    expect(result.items.find((i) => i.id !== 'f_city')).toMatchObject({ status: 'active', supersedes: ['f_city'] });
  });

  it('lets a new value replace a refuted one without a conflict', () => {
    const city = fact('f_city', 'Lyon', { verification: 'refuted', confidence: 0.05 });
    const result = patch([city], [addCity('Paris', ['u1'])]);
    const newcomer = result.items.find((i) => i.id !== 'f_city')!;
    expect(newcomer).toMatchObject({ status: 'active' });
    expect(result.items.find((i) => i.id === 'f_city')).toMatchObject({ status: 'archived', supersededBy: newcomer.id, verification: 'refuted' });
  });

  it('keeps refuted items out of snapshot views', () => {
    const view = buildView('facts', [fact('f_ok', 'Lyon'), fact('f_bad', 'Paris', { verification: 'refuted' })], { version: 1, batch: 1, lastSequence: 1, updatedAt: 'x' });
    expect(view.items.map((i) => i.id)).toEqual(['f_ok']);
    expect(view.items[0]).toMatchObject({ verification: 'unverified' });
  });
});
