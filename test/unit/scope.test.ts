import { describe, expect, it } from 'vitest';
import { countTokens } from '../../functions/commons/tokens.js';
import { renderContext } from '../../functions/domain/context.js';
import { buildSegment } from '../../functions/domain/index-segment.js';
import { itemUnit, recordUnit, searchText, type IndexUnit } from '../../functions/domain/index-units.js';
import type { Evidence, FactItem, FactTable, MemoryItem, TaskItem, UpdaterName, UpdaterStore } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch, type PatchContext } from '../../functions/domain/patch.js';
import { loadSegment, UnitIndex } from '../../functions/domain/retrieval.js';
import { projectOf, sharedProject, visibleIn, widenedProject } from '../../functions/domain/scope.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { indexTerms } from '../../functions/domain/terms.js';
import { buildView } from '../../functions/domain/views.js';
import { parseIngestRequest } from '../../functions/domain/events.js';
import { ValidationError } from '../../functions/domain/errors.js';

const scope = { tenantId: 'default', agentId: 'a1' };
// r1, r2 in project "apollo"; r3 in "zephyr"; r4 names none.
const records = new Map<string, Evidence>([
  ['r1', { recordId: 'r1', sequence: 1, timestamp: '2026-11-01T10:00:00Z', role: 'user', project: 'apollo' }],
  ['r2', { recordId: 'r2', sequence: 2, timestamp: '2026-11-02T10:00:00Z', role: 'user', project: 'apollo' }],
  ['r3', { recordId: 'r3', sequence: 3, timestamp: '2026-11-03T10:00:00Z', role: 'user', project: 'zephyr' }],
  ['r4', { recordId: 'r4', sequence: 4, timestamp: '2026-11-04T10:00:00Z', role: 'user' }],
]);
const DEADLINES: FactTable = { name: 'deadlines', columns: ['subject', 'attribute', 'value'], key: ['subject', 'attribute'] };
const store = (updater: UpdaterName, items: MemoryItem[] = [], tables: FactTable[] = []): UpdaterStore => ({ updater, version: 1, lastBatch: 1, items, tables });
const context = (updater: UpdaterName, items: MemoryItem[] = [], batch = 2): PatchContext => ({ updater, batch, now: '2026-11-05T00:00:00Z', scope, records, aliases: aliasItems(updater, items).idOf });
const deadline = (value: string, evidence: string[]) => ({ op: 'add' as const, table: 'deadlines', row: { subject: 'launch', attribute: 'deadline', value }, statement: `The launch deadline is ${value}`, evidence });

describe('scope rules', () => {
  it('reads a valid project from metadata and ignores anything else', () => {
    expect(projectOf({ project: 'apollo' })).toBe('apollo');
    expect(projectOf({ project: 42 })).toBeUndefined();
    expect(projectOf({})).toBeUndefined();
  });

  it('gives an item the project all its evidence shares, else none', () => {
    expect(sharedProject([{ project: 'apollo' }, { project: 'apollo' }])).toBe('apollo');
    expect(sharedProject([{ project: 'apollo' }, {}])).toBeUndefined();
    expect(sharedProject([{ project: 'apollo' }, { project: 'zephyr' }])).toBeUndefined();
  });

  it('widens a project item once another project supports it, not for records that name none', () => {
    expect(widenedProject('apollo', [{}])).toBe('apollo');
    expect(widenedProject('apollo', [{ project: 'apollo' }])).toBe('apollo');
    expect(widenedProject('apollo', [{ project: 'zephyr' }])).toBeUndefined();
  });

  it('shows agent-wide items everywhere and project items only in their project', () => {
    expect(visibleIn(undefined, 'apollo')).toBe(true);
    expect(visibleIn('apollo', 'apollo')).toBe(true);
    expect(visibleIn('zephyr', 'apollo')).toBe(false);
    expect(visibleIn('zephyr', undefined)).toBe(true);
  });
});

describe('events', () => {
  const event = (metadata: Record<string, unknown>) => ({ events: [{ id: 'e1', type: 'message', role: 'user', content: 'hello', metadata }] });

  it('accept a project in metadata and refuse a malformed one, naming the field', () => {
    expect(() => parseIngestRequest(event({ project: 'apollo/web-2' }))).not.toThrow();
    try {
      parseIngestRequest(event({ project: 'not a project!' }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toContainEqual({ field: 'events[0].metadata.project', rule: expect.stringContaining('1 to 64 characters') });
    }
  });
});

describe('patches', () => {
  it('scope a fact to the project its records name, and a fact from unscoped records agent-wide', () => {
    const result = applyPatch(store('facts', [], [DEADLINES]), [deadline('Friday', ['r1', 'r2']), { ...deadline('Monday', ['r4']), row: { subject: 'team', attribute: 'standup', value: 'Monday' } }], context('facts'));

    const byValue = Object.fromEntries(result.items.map((i) => [(i as FactItem).row.value, i]));
    expect(byValue.Friday!.scope).toEqual({ ...scope, project: 'apollo' });
    expect(byValue.Monday!.scope).toEqual(scope);
  });

  it('do not treat the same key in two projects as a conflict', () => {
    const first = applyPatch(store('facts', [], [DEADLINES]), [deadline('Friday', ['r1'])], context('facts'));
    const items = [...first.items];
    const second = applyPatch(store('facts', items, [...first.tables]), [deadline('Monday', ['r3'])], context('facts', items, 3));

    expect(second.items.map((i) => [(i as FactItem).row.value, i.status, i.scope.project])).toEqual(
      expect.arrayContaining([
        ['Friday', 'active', 'apollo'],
        ['Monday', 'active', 'zephyr'],
      ]),
    );
  });

  it('widen a project fact to agent-wide when another project restates it, with the change in its history', () => {
    const first = applyPatch(store('facts', [], [DEADLINES]), [deadline('Friday', ['r1'])], context('facts'));
    const items = [...first.items];
    const second = applyPatch(store('facts', items, [...first.tables]), [deadline('Friday', ['r3'])], context('facts', items, 3));

    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.scope).toEqual(scope);
    expect(second.items[0]!.history).toContainEqual(expect.objectContaining({ field: 'scope.project', from: 'apollo', to: null }));
  });

  it('keep two projects’ tasks of the same title apart', () => {
    const first = applyPatch(store('tasks'), [{ op: 'add', task: { title: 'Send the weekly report', owner: 'user' }, evidence: ['r1'] }], context('tasks'));
    const items = [...first.items];
    const second = applyPatch(store('tasks', items), [{ op: 'add', task: { title: 'Send the weekly report', owner: 'user' }, evidence: ['r3'] }], context('tasks', items, 3));

    expect(second.items.map((t) => [(t as TaskItem).title, t.scope.project]).sort()).toEqual([
      ['Send the weekly report', 'apollo'],
      ['Send the weekly report', 'zephyr'],
    ]);
  });
});

describe('reading with a project', () => {
  const now = '2026-11-06T00:00:00Z';
  const fact = (id: string, statement: string, project?: string): FactItem => ({
    id,
    kind: 'fact',
    scope: { ...scope, ...(project ? { project } : {}) },
    table: 'deadlines',
    row: { subject: 'launch', attribute: 'deadline', value: statement },
    statement,
    status: 'active',
    verification: 'unverified',
    confidence: 0.7,
    hitCount: 1,
    createdAt: now,
    updatedAt: now,
    lastReinforcedAt: now,
    evidence: [{ recordId: `r_${id}`, sequence: 1, timestamp: now }],
    history: [],
  });
  const items = [fact('f_a', 'The launch deadline is Friday', 'apollo'), fact('f_z', 'The launch deadline is Monday', 'zephyr'), fact('f_w', 'Launch reviews happen on Thursdays')];
  const meta = { version: 1, batch: 1, lastSequence: 1, updatedAt: now };
  const snapshot: Snapshot = {
    tenantId: 'default',
    agentId: 'a1',
    version: 1,
    generatedAt: now,
    freshness: { lastConsolidatedSequence: 3, lastIngestedSequence: 3, pendingRecords: 0 },
    facts: buildView('facts', items, meta),
    time: [],
    count: [],
  };

  it('renders the project’s items first, agent-wide ones after, and never another project’s', () => {
    const ids = renderContext(snapshot, { maxTokens: 1_000, query: 'launch deadline', project: 'apollo', now, countTokens }).included.map((i) => i.id);
    expect(ids).toEqual(['f_a', 'f_w']);
    expect(renderContext(snapshot, { maxTokens: 1_000, query: 'launch deadline', now, countTokens }).included.map((i) => i.id).sort()).toEqual(['f_a', 'f_w', 'f_z']);
  });

  it('recalls the project’s records and items, never another project’s', () => {
    const units: IndexUnit[] = [
      ...snapshot.facts!.items.map((item) => itemUnit('fact', item)),
      recordUnit({ id: 'e9', sequence: 9, timestamp: now, role: 'user', content: 'Zephyr launch deadline slipped to Monday', metadata: { project: 'zephyr' } }),
      recordUnit({ id: 'e8', sequence: 8, timestamp: now, role: 'user', content: 'Apollo launch deadline is still Friday', metadata: { project: 'apollo' } }),
    ];
    const segment = buildSegment('m', 2, units.map((u) => ({ ...u, terms: indexTerms(searchText(u)).join(' ') })), units.map(() => Float32Array.from([1, 0])));
    const index = new UnitIndex([loadSegment('s', segment)], new Set(), 'm');

    const found = index.search({ query: 'launch deadline', project: 'apollo', now }).ranked.map((r) => r.unit.id);
    expect(found).toEqual(expect.arrayContaining(['f_a', 'f_w', 'e8']));
    expect(found).not.toContain('f_z');
    expect(found).not.toContain('e9');
    expect(index.search({ query: 'launch deadline', now }).ranked.map((r) => r.unit.id)).toEqual(expect.arrayContaining(['f_z', 'e9']));
  });
});
