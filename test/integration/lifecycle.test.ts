/**
 * The note lifecycle through the API on the local stack: feedback (helpful,
 * wrong, outdated) as audited changes that reach the snapshot, every version
 * of an item with the patch that made it, and the revert round trip, item by
 * item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Item {
  id: string;
  kind: string;
  status: string;
  verification: string;
  confidence: number;
  row?: Record<string, string | null>;
  lastReinforcedAt: string;
  updatedAt: string;
  validUntil?: string;
  hitCount: number;
}
interface AuditChange { before: Item | null; after: Item }

let sequence = 0;
const nextIds = new Map<string, number>();

/** Posts the messages as one batch (flushed) and waits until it is consolidated and in the snapshot. */
async function consolidate(agentId: string, contents: string[]) {
  const start = nextIds.get(agentId) ?? 0;
  const events = contents.map((content, i) => message(`${agentId}-${start + i}-${(sequence += 1)}`, content));
  nextIds.set(agentId, start + contents.length);
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  const last = start + contents.length;
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === last, 120_000);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === last, 60_000);
}

const facts = async (agentId: string, status?: string) =>
  (await api<{ items: Item[] }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100${status ? `&status=${status}` : ''}`)).body.items;
const snapshotFactIds = async (agentId: string) =>
  ((await api<{ facts?: { items: { id: string; verification: string }[] } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.facts?.items ?? []).map((i) => i.id);
/** The read path serves a cached snapshot for up to SNAPSHOT_CACHE_MS (1 s): a change shows within a few seconds (20 s allowed for a busy shared machine). */
const snapshotSoon = (agentId: string, holds: (ids: string[]) => boolean) => waitFor(async () => holds(await snapshotFactIds(agentId)), 20_000);
const history = (agentId: string, itemId: string) => api<{ versions: { cause: string; batch: number; patch: { updater: string; batch: number; changeId?: string }; after: Item }[] }>(stack, 'GET', `/v1/agents/${agentId}/items/${itemId}/history`);
const feedback = (agentId: string, body: unknown) => api<Record<string, unknown> & { issues?: { field: string }[]; item?: Item; effect?: string }>(stack, 'POST', `/v1/agents/${agentId}/feedback`, body);
const findFact = (items: Item[], value: RegExp) => {
  const found = items.find((item) => Object.values(item.row ?? {}).some((v) => v !== null && value.test(v)));
  if (!found) throw new Error(`no fact matching ${value} among ${JSON.stringify(items.map((i) => i.row))}`);
  return found;
};

describe('POST /v1/agents/{agentId}/feedback', () => {
  it('refuses a malformed request with 400 naming the field, and writes nothing', async () => {
    const agentId = 'feedback-refused';
    await consolidate(agentId, ['I live in Lyon.', 'ok']);
    const city = findFact(await facts(agentId), /lyon/i);
    const before = await history(agentId, city.id);

    const wrongOutcome = await feedback(agentId, { itemId: city.id, outcome: 'great' });
    const missingItem = await feedback(agentId, { outcome: 'helpful' });
    const extraField = await feedback(agentId, { itemId: city.id, outcome: 'helpful', score: 3 });

    expect(wrongOutcome.status).toBe(400);
    expect(wrongOutcome.body.issues?.map((i) => i.field)).toContain('outcome');
    expect(missingItem.status).toBe(400);
    expect(missingItem.body.issues?.map((i) => i.field)).toContain('itemId');
    expect(extraField.status).toBe(400);
    expect((await history(agentId, city.id)).body).toEqual(before.body);
    expect(findFact(await facts(agentId), /lyon/i)).toEqual(city);
  });

  it('answers 404 for an item or a context response the agent does not have, and writes nothing', async () => {
    const agentId = 'feedback-unknown';
    await consolidate(agentId, ['I work at Acme.', 'ok']);
    const employer = findFact(await facts(agentId), /acme/i);

    expect((await feedback(agentId, { itemId: 'f_0000000000000000', outcome: 'wrong' })).status).toBe(404);
    expect((await feedback(agentId, { itemId: employer.id, outcome: 'wrong', injectionId: 'never-served' })).status).toBe(404);
    expect((await feedback('nobody-here', { itemId: employer.id, outcome: 'wrong' })).status).toBe(404);
    expect(findFact(await facts(agentId), /acme/i)).toEqual(employer);
    expect((await history(agentId, employer.id)).body.versions).toHaveLength(1);
  });

  it('verifies an item on helpful feedback, with bounded confidence, as an audited change the snapshot reflects', async () => {
    const agentId = 'feedback-helpful';
    await consolidate(agentId, ['I live in Lyon.', 'ok']);
    const city = findFact(await facts(agentId), /lyon/i);
    expect(city.verification).toBe('unverified');

    const response = await feedback(agentId, { itemId: city.id, outcome: 'helpful', note: 'used it to book a train', evidence: ['evt-42'] });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ itemId: city.id, outcome: 'helpful', effect: 'verified' });
    const after = findFact(await facts(agentId), /lyon/i);
    expect(after).toMatchObject({ verification: 'verified', hitCount: city.hitCount + 1 });
    expect(after.confidence).toBeGreaterThan(city.confidence);
    expect(after.confidence).toBeLessThan(1);
    expect(after.lastReinforcedAt > city.lastReinforcedAt).toBe(true);
    const versions = (await history(agentId, city.id)).body.versions;
    expect(versions.map((v) => v.cause)).toEqual(['consolidation', 'feedback']);
    await waitFor(async () => {
      const snapshot = await api<{ facts: { items: { id: string; verification: string }[] } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`);
      return snapshot.body.facts.items.find((i) => i.id === city.id)?.verification === 'verified';
    }, 20_000);
  });

  it('refutes an item on wrong feedback: gone from the snapshot and context, kept in the store for audit', async () => {
    const agentId = 'feedback-wrong';
    await consolidate(agentId, ['I live in Lyon.', 'I work at Acme.', 'ok']);
    const city = findFact(await facts(agentId), /lyon/i);
    const context = await api<{ markdown?: string }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=2000`);
    const injectionId = context.headers.get('x-request-id');
    expect(injectionId).toBeTruthy();
    expect(await snapshotFactIds(agentId)).toContain(city.id);

    const response = await feedback(agentId, { itemId: city.id, outcome: 'wrong', injectionId });

    expect(response.status).toBe(200);
    expect(response.body.effect).toBe('refuted');
    await snapshotSoon(agentId, (ids) => !ids.includes(city.id));
    const contextAfter = await api<{ markdown?: string }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=2000`);
    expect(JSON.stringify(contextAfter.body)).not.toMatch(/lyon/i);
    expect(findFact(await facts(agentId), /lyon/i)).toMatchObject({ id: city.id, verification: 'refuted' });
  });

  it('marks the record a refuted value was read from wherever a question recalls it, so the agent never reads it as true', async () => {
    const agentId = 'feedback-wrong-evidence';
    await consolidate(agentId, ['Honestly my favourite tea is oolong, nothing else comes close.', 'ok', 'The weather is grim today.']);
    const tea = findFact(await facts(agentId), /oolong/i);
    const question = `/v1/agents/${agentId}/context?maxTokens=600&query=${encodeURIComponent('what tea do I like best?')}`;
    expect((await api<{ markdown: string }>(stack, 'GET', question)).body.markdown).toMatch(/favourite tea is oolong(?! \(marked)/);

    expect((await feedback(agentId, { itemId: tea.id, outcome: 'wrong' })).body.effect).toBe('refuted');
    await snapshotSoon(agentId, (ids) => !ids.includes(tea.id));

    const after = await api<{ markdown: string }>(stack, 'GET', question);
    const line = after.body.markdown.split('\n').find((l) => /oolong/i.test(l));
    expect(line).toMatch(/\(marked wrong on \d{4}-\d{2}-\d{2}\)$/);
  });

  it('archives an item on outdated feedback with validUntil, lists it with ?status=archived, and restores it on helpful', async () => {
    const agentId = 'feedback-outdated';
    await consolidate(agentId, ['I work at Acme.', 'ok']);
    const employer = findFact(await facts(agentId), /acme/i);

    const response = await feedback(agentId, { itemId: employer.id, outcome: 'outdated' });

    expect(response.status).toBe(200);
    expect(response.body.item).toMatchObject({ status: 'archived', validUntil: expect.any(String) });
    await snapshotSoon(agentId, (ids) => !ids.includes(employer.id));
    expect((await facts(agentId, 'archived')).map((i) => i.id)).toEqual([employer.id]);
    expect((await facts(agentId, 'active')).map((i) => i.id)).not.toContain(employer.id);
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/facts?status=gone`)).status).toBe(400);

    const restored = await feedback(agentId, { itemId: employer.id, outcome: 'helpful' });
    expect(restored.body).toMatchObject({ effect: 'restored', item: { status: 'active' } });
    await snapshotSoon(agentId, (ids) => ids.includes(employer.id));
  });
});

describe('GET /v1/agents/{agentId}/items/{itemId}/history', () => {
  it('lists every version with the batch and patch that made it, and 404 for an unknown item', async () => {
    const agentId = 'history';
    await consolidate(agentId, ['I live in Lyon.', 'ok']);
    await consolidate(agentId, ['I live in Lyon.', 'fine']);
    const city = findFact(await facts(agentId), /lyon/i);

    const versions = (await history(agentId, city.id)).body.versions;

    expect(versions.map((v) => [v.cause, v.batch, v.patch.updater])).toEqual([['consolidation', 1, 'facts'], ['consolidation', 2, 'facts']]);
    expect(versions.at(-1)!.after).toEqual(city);
    expect((await history(agentId, 'f_0000000000000000')).status).toBe(404);
  });
});

describe('POST /v1/agents/{agentId}/audit/{batch}/revert', () => {
  it("restores every item a batch changed to its state before the batch, archives what it created, and is a no-op the second time", async () => {
    const agentId = 'revert-round-trip';
    await consolidate(agentId, ['I live in Lyon.', 'I work at Acme.', 'ok']);
    await consolidate(agentId, ['I live in Lyon.', 'My favourite colour is green.', 'Actually, I work at Globex now.', 'ok']);
    const audit = await api<{ entries: { updater: string; changes: AuditChange[] }[] }>(stack, 'GET', `/v1/agents/${agentId}/audit?batch=2`);
    const changes = audit.body.entries.filter((e) => e.updater === 'facts').flatMap((e) => e.changes);
    expect(changes.some((c) => c.before === null)).toBe(true);
    expect(changes.some((c) => c.before !== null)).toBe(true);

    const reverted = await api<{ updaters: { updater: string; reverted: string[]; conflicts: unknown[]; alreadyReverted: boolean }[] }>(stack, 'POST', `/v1/agents/${agentId}/audit/2/revert`);

    expect(reverted.status).toBe(200);
    const factsRevert = reverted.body.updaters.find((u) => u.updater === 'facts')!;
    expect(factsRevert).toMatchObject({ alreadyReverted: false, conflicts: [] });
    expect([...factsRevert.reverted].sort()).toEqual(changes.map((c) => c.after.id).sort());
    const now = new Map((await facts(agentId)).map((item) => [item.id, item]));
    const created = changes.filter((c) => c.before === null).map((c) => c.after.id);
    await snapshotSoon(agentId, (ids) => created.every((id) => !ids.includes(id)));
    for (const change of changes) {
      const item = now.get(change.after.id)!;
      if (change.before === null) {
        expect(item.status, `${item.id} was created by batch 2`).toBe('archived');
      } else {
        const { updatedAt: _a, ...restored } = item;
        const { updatedAt: _b, ...before } = change.before;
        expect(restored, `${item.id} is back to its state before batch 2`).toEqual(before);
      }
    }
    const revertVersion = (await history(agentId, changes[0]!.after.id)).body.versions.at(-1)!;
    expect(revertVersion).toMatchObject({ cause: 'revert', batch: 2, patch: { changeId: 'revert' } });

    const again = await api<{ updaters: { updater: string; reverted: string[]; alreadyReverted: boolean }[] }>(stack, 'POST', `/v1/agents/${agentId}/audit/2/revert`);
    expect(again.status).toBe(200);
    expect(again.body.updaters.find((u) => u.updater === 'facts')).toMatchObject({ alreadyReverted: true, reverted: [] });
    expect(new Map((await facts(agentId)).map((item) => [item.id, item]))).toEqual(now);
  });

  it('leaves an item changed after the batch as it is, and reports it as a conflict', async () => {
    const agentId = 'revert-conflict';
    await consolidate(agentId, ['I live in Lyon.', 'ok']);
    await consolidate(agentId, ['My favourite colour is green.', 'ok']);
    const colour = findFact(await facts(agentId), /green/i);
    await feedback(agentId, { itemId: colour.id, outcome: 'helpful' });
    const changedSince = findFact(await facts(agentId), /green/i);

    const reverted = await api<{ updaters: { updater: string; conflicts: { itemId: string; reason: string }[] }[] }>(stack, 'POST', `/v1/agents/${agentId}/audit/2/revert`);

    expect(reverted.body.updaters.find((u) => u.updater === 'facts')!.conflicts).toEqual([{ itemId: colour.id, reason: expect.stringContaining('changed after batch 2') }]);
    expect(findFact(await facts(agentId), /green/i)).toEqual(changedSince);
  });

  it('answers 404 for a batch never applied and 400 for a batch that is not a number', async () => {
    const agentId = 'revert-missing';
    await consolidate(agentId, ['I live in Lyon.']);
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/audit/9/revert`)).status).toBe(404);
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/audit/two/revert`)).status).toBe(400);
  });
});

describe('pitfalls and procedures from actions', () => {
  it('files a failed action followed by a successful one as an unverified pitfall citing both, and verifies a procedure when it is reused', async () => {
    const agentId = 'actions-learnt';
    const action = (id: string, content: string, interactionId: string, metadata: Record<string, unknown>) => ({ id, type: 'action', role: 'tool', content, timestamp: '2026-11-02T09:00:00Z', interactionId, metadata });
    const post = async (events: unknown[], last: number) => {
      expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
      await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
      await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === last, 120_000);
    };
    await post(
      [
        action('a1', 'create invoice for ACME without a currency', 's1', { tool: 'billing', error: 'HTTP 422: currency is required' }),
        action('a2', 'create invoice for ACME with currency EUR', 's1', { tool: 'billing', outcome: 'success' }),
        action('a3', 'pull the monthly report', 's2', { tool: 'reports', outcome: 'success' }),
        action('a4', 'email the report to finance', 's2', { tool: 'email', outcome: 'success' }),
        action('a5', 'pull the monthly report', 's3', { tool: 'reports', outcome: 'success' }),
        action('a6', 'email the report to finance', 's3', { tool: 'email', outcome: 'success' }),
      ],
      6,
    );
    const learnt = await facts(agentId);
    const pitfall = learnt.find((f) => f.row?.tool === 'billing');
    expect(pitfall).toMatchObject({ verification: 'unverified', row: { actual: 'HTTP 422: currency is required', avoid: 'create invoice for ACME with currency EUR' } });
    const procedure = learnt.find((f) => f.row?.task === 'reports → email');
    expect(procedure).toMatchObject({ verification: 'unverified' });

    // The same procedure run again, successfully, in a later batch: a reuse.
    await post([action('a7', 'pull the monthly report', 's4', { tool: 'reports', outcome: 'success' }), action('a8', 'email the report to finance', 's4', { tool: 'email', outcome: 'success' })], 8);
    expect((await facts(agentId)).find((f) => f.id === procedure!.id)).toMatchObject({ verification: 'verified' });
  });
});
