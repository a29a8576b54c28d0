/**
 * Conflict priority (functions/domain/conflict-priority.ts): the user's
 * explicit statement in the newest batch > a tool's current fact > records in
 * agreement > one observation > older memory; what cannot be decided stays
 * marked until a further record or feedback decides it.
 */
import { describe, expect, it } from 'vitest';
import { newValuePriority, supersedes } from '../../functions/domain/conflict-priority.js';
import type { Evidence, FactItem, FactOp, FactTable, MemoryItem } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch, type PatchContext } from '../../functions/domain/patch.js';

const scope = { tenantId: 'default', agentId: 'a1' };
const at = (n: number) => `2026-11-0${n}T10:00:00Z`;
const records = new Map<string, Evidence>([
  ['u1', { recordId: 'u1', sequence: 11, timestamp: at(1), role: 'user' }],
  ['u2', { recordId: 'u2', sequence: 12, timestamp: at(2), role: 'user' }],
  ['t1', { recordId: 't1', sequence: 13, timestamp: at(3), role: 'tool' }],
  ['a1', { recordId: 'a1', sequence: 14, timestamp: at(4), role: 'assistant' }],
]);
const PROFILE: FactTable = { name: 'profile', columns: ['subject', 'attribute', 'value'], key: ['subject', 'attribute'] };
const context = (items: MemoryItem[]): PatchContext => ({ updater: 'facts', batch: 9, now: '2026-11-05T00:00:00Z', scope, records, aliases: aliasItems('facts', items).idOf });
const plan = (value: string, evidence: string[], extra: Partial<Extract<FactOp, { op: 'add' }>> = {}): FactOp => ({ op: 'add', table: 'profile', row: { subject: 'user', attribute: 'plan', value }, statement: `The plan is ${value}`, evidence, ...extra });

function stored(value: string, extra: Partial<FactItem> = {}): FactItem {
  return {
    id: 'f_old',
    kind: 'fact',
    scope,
    table: 'profile',
    row: { subject: 'user', attribute: 'plan', value },
    statement: `The plan is ${value}`,
    status: 'active',
    verification: 'unverified',
    confidence: 0.7,
    hitCount: 1,
    createdAt: '2026-10-01T00:00:00Z',
    updatedAt: '2026-10-01T00:00:00Z',
    lastReinforcedAt: '2026-10-01T00:00:00Z',
    evidence: [{ recordId: 'old', sequence: 1, timestamp: '2026-10-01T00:00:00Z', role: 'user' }],
    history: [],
    ...extra,
  };
}
const wellVerified = (value: string) => stored(value, { verification: 'verified', confidence: 0.95, confirmations: 4 });

function apply(items: FactItem[], ops: FactOp[]) {
  const result = applyPatch({ updater: 'facts', version: 1, lastBatch: 8, items, tables: [PROFILE] }, ops, context(items));
  const byValue = (value: string) => result.items.find((i) => (i as FactItem).row.value === value) as FactItem;
  return { result, byValue };
}

describe('the priority of a new value', () => {
  it('ranks an explicit correction, then a tool record, then records in agreement, then one record', () => {
    const e = (...ids: string[]) => ids.map((id) => records.get(id)!);
    expect(newValuePriority({ correction: true }, e('u1'))).toBe('correction');
    expect(newValuePriority({}, e('t1'))).toBe('tool');
    expect(newValuePriority({}, e('u1', 'u2'))).toBe('consistent');
    expect(newValuePriority({}, e('u1'))).toBe('observation');
    // The agent's own words never make agreement.
    expect(newValuePriority({}, e('u1', 'a1'))).toBe('observation');
  });

  it('lets only agreement or stronger supersede, and only what ranks below it', () => {
    expect(supersedes('tool', 'memory')).toBe(true);
    expect(supersedes('consistent', 'memory')).toBe(true);
    expect(supersedes('observation', 'memory')).toBe(false);
    expect(supersedes('tool', 'correction')).toBe(false);
    expect(supersedes('consistent', 'consistent')).toBe(false);
  });
});

describe('resolving a conflict by priority', () => {
  it('the user’s explicit correction wins over a well-verified value at once', () => {
    const { byValue } = apply([wellVerified('Basic')], [plan('Business', ['u1'], { correction: true })]);
    expect(byValue('Basic')).toMatchObject({ status: 'archived', supersededBy: byValue('Business').id });
    expect(byValue('Business')).toMatchObject({ status: 'active', supersedes: ['f_old'] });
  });

  it('a tool’s current fact supersedes older memory, even a well-verified one, keeping the old value archived', () => {
    const { byValue } = apply([wellVerified('Basic')], [plan('Business', ['t1'])]);
    expect(byValue('Basic')).toMatchObject({ status: 'archived', note: expect.stringContaining('a tool result') });
    expect(byValue('Business')).toMatchObject({ status: 'active' });
    expect(byValue('Business').history).toContainEqual(expect.objectContaining({ field: 'row', from: expect.objectContaining({ value: 'Basic' }) }));
  });

  it('the user’s correction in the newest batch outranks a tool record of the same batch', () => {
    const { byValue } = apply([], [plan('Business', ['u1'], { correction: true }), plan('Basic', ['t1'])]);
    expect(byValue('Business')).toMatchObject({ status: 'active' });
    expect(byValue('Basic')).toMatchObject({ status: 'draft', note: expect.stringContaining('(correction)') });
  });

  it('two records in agreement supersede older memory; one record does not', () => {
    const agreed = apply([stored('Basic')], [plan('Business', ['u1', 'u2'])]);
    expect(agreed.byValue('Basic')).toMatchObject({ status: 'archived', note: expect.stringContaining('records in agreement') });
    expect(agreed.byValue('Business')).toMatchObject({ status: 'active' });

    const single = apply([stored('Basic')], [plan('Business', ['u1'])]);
    expect(single.byValue('Basic')).toMatchObject({ status: 'conflict' });
    expect(single.byValue('Business')).toMatchObject({ status: 'conflict' });
  });

  it('keeps a conflict marked, with both evidence trails, until a further record restating one side decides it', () => {
    const first = apply([stored('Basic')], [plan('Business', ['u1'])]);
    const items = first.result.items as FactItem[];
    expect(first.byValue('Basic').evidence.map((e) => e.recordId)).toEqual(['old']);
    expect(first.byValue('Business').evidence.map((e) => e.recordId)).toEqual(['u1']);

    const decided = apply(items, [plan('Basic', ['u2'])]);
    expect(decided.byValue('Basic')).toMatchObject({ status: 'active', supersedes: [first.byValue('Business').id] });
    expect(decided.byValue('Basic').note).toBeUndefined();
    expect(decided.byValue('Business')).toMatchObject({ status: 'archived', supersededBy: 'f_old' });
  });

  it('the agent restating one side decides nothing', () => {
    const first = apply([stored('Basic')], [plan('Business', ['u1'])]);
    const again = apply(first.result.items as FactItem[], [plan('Basic', ['a1'])]);
    expect(again.byValue('Basic')).toMatchObject({ status: 'conflict' });
    expect(again.byValue('Business')).toMatchObject({ status: 'conflict' });
  });
});

describe('a draft filed behind a stronger value', () => {
  it('wins when a later record restates it, and the value it waited behind is archived, leaving one live value', () => {
    const first = apply([], [plan('Business', ['u1'], { correction: true }), plan('Basic', ['t1'])]);
    const items = first.result.items as FactItem[];
    const later = applyPatch({ updater: 'facts', version: 2, lastBatch: 9, items, tables: [PROFILE] }, [plan('Basic', ['u2'])], { ...context(items), batch: 10 });
    const live = later.items.filter((i) => i.status !== 'archived').map((i) => [(i as FactItem).row.value, i.status]);
    expect(live).toEqual([['Basic', 'active']]);
  });
});
