/**
 * The memory store's changes outside consolidation, on the emulator: a change
 * is version-checked against batches and other changes, filed once per change
 * id, and listed back with the batch it refers to.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeAlreadyAppliedError, DynamoDbMemoryStore, StoreVersionConflictError } from '../../functions/adapters/dynamodb/memory-store.js';
import type { FactItem } from '../../functions/domain/memory.js';
import { buildView } from '../../functions/domain/views.js';
import type { AuditEntry, StoreChange } from '../../functions/ports/memory-store.js';
import type { LocalStack } from '../../local/local-stack.js';
import { startTestStack } from '../support/local-stack.js';

let stack: LocalStack;
let store: DynamoDbMemoryStore;
const agent = { tenantId: 'default', agentId: 'revisions' };

beforeAll(async () => {
  stack = await startTestStack();
  store = new DynamoDbMemoryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable'));
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const item = (value: string, at: string): FactItem => ({
  id: 'f_00000000000000aa', kind: 'fact', scope: agent, table: 'profile', row: { subject: 'user', attribute: 'city', value }, statement: `city is ${value}`,
  status: 'active', verification: 'unverified', confidence: 0.7, hitCount: 1, createdAt: at, updatedAt: at, lastReinforcedAt: at, evidence: [], history: [],
});
const audit = (changes: AuditEntry['changes'], extra: Partial<AuditEntry> = {}): AuditEntry => ({
  updater: 'facts', batch: { index: 1, fromSequence: 1, toSequence: 2 }, appliedAt: '2026-11-01T00:00:00Z', modelId: 'm', prompt: { id: 'p', version: '1' },
  usage: { inputTokens: 0, outputTokens: 0 }, ops: [], changes, quarantined: [], ...extra,
});
const view = (version: number, items: FactItem[]) => buildView('facts', items, { version, batch: 1, lastSequence: 2, updatedAt: 'x' });

describe('changes outside consolidation', () => {
  it('moves the store version but not the applied batch, files the entry under its batch and change id, and lists both', async () => {
    const first = item('Lyon', '2026-11-01T00:00:00Z');
    await store.commit(agent, { updater: 'facts', expectedVersion: 0, batch: { index: 1, fromSequence: 1, toSequence: 2 }, changes: [{ before: null, after: first }], audit: audit([{ before: null, after: first }]), view: view(1, [first]) });
    const changed = { ...first, verification: 'verified' as const, updatedAt: '2026-11-02T00:00:00Z' };
    const change: StoreChange = {
      updater: 'facts', expectedVersion: 1, batch: 1, changeId: 'feedback-1', changes: [{ before: first, after: changed }],
      audit: audit([{ before: first, after: changed }], { appliedAt: '2026-11-02T00:00:00Z', origin: { kind: 'feedback', feedbackId: '1', itemId: first.id, outcome: 'helpful' } }),
      view: view(2, [changed]), cursor: { name: 'test', value: 'through-1' },
    };

    await store.commitChange(agent, change);

    const loaded = await store.load(agent, 'facts');
    expect(loaded).toMatchObject({ version: 2, lastBatch: 1, items: [changed] });
    expect(await store.readCursor(agent, 'test')).toBe('through-1');
    const listed = await store.listAudit(agent, { batch: 1 });
    expect(listed.map((r) => [r.updater, r.batch, r.changeId, r.entry.origin?.kind])).toEqual([['facts', 1, undefined, undefined], ['facts', 1, 'feedback-1', 'feedback']]);
    expect(await store.listAudit(agent, { updater: 'contacts' })).toEqual([]);
    // The batch's own entry is untouched: the completion marker still reads as it was written.
    expect((await store.readAudit(agent, 1, 'facts'))?.origin).toBeUndefined();
  });

  it('refuses a change computed against an older version, and a change id used twice, writing nothing', async () => {
    const current = await store.load(agent, 'facts');
    const stale = item('Paris', '2026-11-03T00:00:00Z');
    const base: StoreChange = { updater: 'facts', expectedVersion: current.version - 1, batch: 1, changeId: 'stale', changes: [{ before: current.items[0]!, after: stale }], audit: audit([]), view: view(9, [stale]) };

    await expect(store.commitChange(agent, base)).rejects.toBeInstanceOf(StoreVersionConflictError);
    await expect(store.commitChange(agent, { ...base, expectedVersion: current.version, changeId: 'feedback-1' })).rejects.toBeInstanceOf(ChangeAlreadyAppliedError);

    expect(await store.load(agent, 'facts')).toEqual(current);
    expect((await store.listAudit(agent, {})).map((r) => r.changeId)).toEqual([undefined, 'feedback-1']);
  });
});
