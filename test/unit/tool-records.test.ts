/**
 * Memory as inert data, by source: a tool record's text cannot close or
 * cancel a task, nor change who a contact is or where they work, on its own.
 * The change is kept as a proposal to verify until a user or assistant record
 * states it.
 */
import { describe, expect, it } from 'vitest';
import { renderContext } from '../../functions/domain/context.js';
import type { ContactItem, Evidence, MemoryItem, TaskItem, UpdaterName } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch } from '../../functions/domain/patch.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { buildView } from '../../functions/domain/views.js';
import { countTokens } from '../../functions/commons/tokens.js';

const scope = { tenantId: 'default', agentId: 'a1' };
const records = new Map<string, Evidence>([
  ['tool1', { recordId: 'tool1', sequence: 5, timestamp: '2026-11-03T10:00:00Z', role: 'tool' }],
  ['user1', { recordId: 'user1', sequence: 6, timestamp: '2026-11-04T10:00:00Z', role: 'user' }],
]);
const context = (updater: UpdaterName, items: MemoryItem[]) => ({ updater, batch: 3, now: '2026-11-05T00:00:00Z', scope, records, aliases: aliasItems(updater, items).idOf });
const standing = { status: 'active' as const, verification: 'unverified' as const, confidence: 0.7, hitCount: 1, createdAt: '2026-10-01T00:00:00Z', updatedAt: '2026-10-01T00:00:00Z', lastReinforcedAt: '2026-10-01T00:00:00Z', history: [] };
const task: TaskItem = { ...standing, id: 't_1', kind: 'task', scope, title: 'Pay the electricity bill', owner: 'user', state: 'open', evidence: [{ recordId: 'r0', sequence: 1, timestamp: '2026-10-01T00:00:00Z', role: 'user' }] };
const dana: ContactItem = {
  ...standing,
  id: 'c_1',
  kind: 'contact',
  scope: { ...scope, contactId: 'c_1' },
  name: 'Dana Whitfield',
  aliases: [],
  organisation: 'Initech',
  relationships: [],
  preferences: [],
  channels: [],
  biography: 'Dana Whitfield: at Initech.',
  summary: '',
  lastMentionedAt: '2026-10-01T00:00:00Z',
  evidence: [{ recordId: 'r0', sequence: 1, timestamp: '2026-10-01T00:00:00Z', role: 'user' }],
};

describe('a tool record alone', () => {
  it('does not close a task: the change waits as a proposal to verify, and context shows it as one', () => {
    const result = applyPatch({ updater: 'tasks', version: 1, lastBatch: 2, items: [task], tables: [] }, [{ op: 'update', target: 'T1', changes: { state: 'done' }, evidence: ['tool1'] }], context('tasks', [task]));
    const after = result.items[0] as TaskItem;
    expect(after).toMatchObject({ state: 'open', proposedChange: { fields: { state: 'done' }, evidence: ['tool1'] }, note: expect.stringContaining('to verify') });
    expect(after.closedAt).toBeUndefined();

    const snapshot: Snapshot = { tenantId: 'default', agentId: 'a1', version: 1, generatedAt: '2026-11-05T00:00:00Z', freshness: { lastConsolidatedSequence: 6, lastIngestedSequence: 6, pendingRecords: 0 }, tasks: buildView('tasks', [after], { version: 1, batch: 3, lastSequence: 6, updatedAt: '2026-11-05T00:00:00Z' }), time: [], count: [] };
    expect(renderContext(snapshot, { maxTokens: 1_000, now: '2026-11-05T00:00:00Z', countTokens }).markdown).toContain('[open] Pay the electricity bill (owner: user) (to verify: a tool record says state done)');
  });

  it('does not change where a contact works, while a user record does, and settles the proposal', () => {
    const proposed = applyPatch({ updater: 'contacts', version: 1, lastBatch: 2, items: [dana], tables: [] }, [{ op: 'update', target: 'C1', changes: { organisation: 'Globex' }, evidence: ['tool1'] }], context('contacts', [dana]));
    const held = proposed.items[0] as ContactItem;
    expect(held).toMatchObject({ organisation: 'Initech', proposedChange: { fields: { organisation: 'Globex' } } });

    const confirmed = applyPatch({ updater: 'contacts', version: 2, lastBatch: 3, items: [held], tables: [] }, [{ op: 'update', target: 'C1', changes: { organisation: 'Globex' }, evidence: ['user1'] }], context('contacts', [held]));
    const settled = confirmed.items[0] as ContactItem;
    expect(settled).toMatchObject({ organisation: 'Globex' });
    expect(settled.proposedChange).toBeUndefined();
    expect(settled.note).toBeUndefined();
  });

  it('still adds what it tells: a new task or contact from a tool record is recorded', () => {
    const result = applyPatch({ updater: 'tasks', version: 1, lastBatch: 2, items: [], tables: [] }, [{ op: 'add', task: { title: 'Renew the TLS certificate', owner: 'user' }, evidence: ['tool1'] }], context('tasks', []));
    expect(result.items).toEqual([expect.objectContaining({ title: 'Renew the TLS certificate', state: 'open' })]);
  });
});
