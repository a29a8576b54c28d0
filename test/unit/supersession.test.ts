/**
 * One current value everywhere: the values a store no longer holds as
 * current are carried with its view, and every history line that states one
 * is marked on the read path; a contact's "Lately" that states an old value
 * is left out.
 */
import { describe, expect, it } from 'vitest';
import { renderContext, renderRecall } from '../../functions/domain/context.js';
import type { SegmentUnit } from '../../functions/domain/index-segment.js';
import type { ContactItem, FactItem } from '../../functions/domain/memory.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { retiredIn, retiredMarker, retiredValues } from '../../functions/domain/supersession.js';
import { buildView } from '../../functions/domain/views.js';
import { countTokens } from '../../functions/adapters/models/local/text.js';

const scope = { tenantId: 'default', agentId: 'a' };
const common = { scope, hitCount: 1, createdAt: '2026-10-01T00:00:00Z', lastReinforcedAt: '2026-10-01T00:00:00Z', history: [] as ContactItem['history'] };

const tea = (overrides: Partial<FactItem>): FactItem => ({
  ...common,
  id: 'f_0000000000000001',
  kind: 'fact',
  status: 'active',
  verification: 'unverified',
  confidence: 0.7,
  updatedAt: '2026-11-30T10:00:00Z',
  table: 'preferences',
  row: { subject: 'user', attribute: 'favourite tea', value: 'oolong' },
  statement: 'Favourite tea is oolong',
  evidence: [{ recordId: 'm7', sequence: 7, timestamp: '2026-10-02T09:00:00Z' }],
  ...overrides,
});

const dana: ContactItem = {
  ...common,
  id: 'c_00000000000000d1',
  kind: 'contact',
  status: 'active',
  verification: 'verified',
  confidence: 0.9,
  updatedAt: '2026-10-20T10:00:00Z',
  name: 'Dana Whitfield',
  aliases: [],
  role: 'data analyst',
  organisation: 'Hooli',
  relationships: [],
  preferences: [],
  channels: [],
  biography: 'Dana Whitfield: data analyst at Hooli.',
  summary: '2026-10-03: Dana still loves working at Acme Corp.',
  lastMentionedAt: '2026-10-20T10:00:00Z',
  evidence: [{ recordId: 'm3', sequence: 3, timestamp: '2026-10-03T09:00:00Z' }],
  history: [{ field: 'organisation', from: 'Acme Corp', to: 'Hooli', at: '2026-10-20T10:00:00Z', batch: 4, evidence: ['m40'] }],
};

const meta = { version: 1, batch: 1, lastSequence: 50, updatedAt: '2026-11-30T10:00:00Z' };
const snapshotWith = (facts: FactItem[], contacts: ContactItem[] = []): Snapshot => ({
  tenantId: 'default',
  agentId: 'a',
  version: 2,
  generatedAt: '2026-11-30T10:00:00Z',
  freshness: { lastConsolidatedSequence: 50, lastIngestedSequence: 50, pendingRecords: 0 },
  facts: buildView('facts', facts, meta),
  contacts: buildView('contacts', contacts, meta),
  time: [{ id: 'time:1:20380', level: 1, name: 'week', from: '2026-09-28', to: '2026-10-04', text: 'Dana works at Acme Corp and loves it.', tokens: 9, asOf: '2026-10-05T00:00:00Z' }],
  count: [],
});

const recordUnit = (id: string, text: string): SegmentUnit => ({ id, kind: 'record', text, at: '2026-10-02T09:00:00Z', speaker: 'Sam', evidence: [], terms: 'tea oolong' });

describe('retired values', () => {
  it('are read from refuted, outdated and superseded items, and from a contact’s changed employer or role', () => {
    const refuted = tea({ verification: 'refuted' });
    const outdated = tea({ id: 'f_0000000000000002', status: 'archived', validUntil: '2026-11-02T00:00:00Z' });
    const retired = retiredValues([refuted, outdated, dana]);

    expect(retired).toContainEqual(expect.objectContaining({ itemId: refuted.id, value: 'oolong', reason: 'wrong', records: ['m7'] }));
    expect(retired).toContainEqual(expect.objectContaining({ itemId: outdated.id, reason: 'outdated', at: '2026-11-02T00:00:00Z' }));
    expect(retired).toContainEqual(expect.objectContaining({ itemId: dana.id, value: 'Acme Corp', now: 'Hooli', reason: 'changed', subject: 'Dana' }));
  });

  it('mark a record that is a refuted value’s evidence, and a line stating an old employer of the person it names, not the correction itself', () => {
    const retired = retiredValues([tea({ verification: 'refuted' }), dana]);

    expect(retiredMarker(retiredIn({ id: 'm7', kind: 'record', text: 'My favourite tea is oolong.' }, retired))).toBe('(marked wrong on 2026-11-30)');
    expect(retiredMarker(retiredIn({ id: 'm9', kind: 'summary', text: 'Dana works at Acme Corp.' }, retired))).toBe('(later: Hooli, from 2026-10-20)');
    expect(retiredIn({ id: 'm40', kind: 'record', text: 'Dana left Acme Corp, she is at Hooli now.' }, retired)).toEqual([]);
    // A name says the old value alone, even behind a pronoun.
    expect(retiredMarker(retiredIn({ id: 'm42', kind: 'record', text: 'She still loves it at Acme Corp.' }, retired))).toBe('(later: Hooli, from 2026-10-20)');
    // A common word needs whom it is about: Dana's retired diet is not Tom's.
    const diet = retiredValues([tea({ id: 'f_0000000000000003', row: { subject: 'Dana', attribute: 'diet', value: 'vegetarian' }, statement: 'Dana is vegetarian', verification: 'refuted' })]);
    expect(retiredIn({ id: 'm43', kind: 'record', text: 'Tom is vegetarian these days.' }, diet)).toEqual([]);
    expect(retiredIn({ id: 'm44', kind: 'record', text: 'Dana said she is vegetarian.' }, diet)).toHaveLength(1);
  });
});

describe('on the read path', () => {
  it('prints a refuted value’s record marked, under its date, in a recalled block', () => {
    const snapshot = snapshotWith([tea({ verification: 'refuted' })]);
    const rendered = renderRecall(snapshot, [{ unit: recordUnit('m7', 'My favourite tea is oolong.'), score: 1 }], { maxTokens: 500, countTokens, terms: ['tea'] });

    expect(rendered.markdown).toContain('- m7 Sam: My favourite tea is oolong. (marked wrong on 2026-11-30)');
  });

  it('leaves out a contact’s "Lately" that names the employer it left, and marks the week summary that says so', () => {
    const rendered = renderContext(snapshotWith([], [dana]), { maxTokens: 1500, now: '2026-11-30T10:00:00Z', countTokens });

    expect(rendered.markdown).toContain('**Dana Whitfield**: data analyst at Hooli.');
    expect(rendered.markdown).not.toContain('still loves working at Acme Corp');
    expect(rendered.markdown).toContain('Dana works at Acme Corp and loves it. (later: Hooli, from 2026-10-20)');
  });
});
