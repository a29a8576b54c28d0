/**
 * The sweep's memory pass on the local stack: use is counted offline from the
 * injection log (once per injection), and items never used are forgotten:
 * archived, out of the snapshot, listed with ?status=archived, restorable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime, type ServiceRuntime } from '../../functions/commons/runtime/service.js';
import { sweepIfSettled } from '../../functions/use-cases/sweep-agents.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let runtime: ServiceRuntime;

beforeAll(async () => {
  stack = await startTestStack();
  // The local stack set this process's environment as Lambda would: the same wiring as the functions.
  runtime = await createServiceRuntime(loadConfig());
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Item { id: string; status: string; verification: string; confidence: number; hitCount: number; lastHitAt?: string; row?: Record<string, string | null> }

const posted = new Map<string, number>();
async function consolidate(agentId: string, contents: (string | Record<string, unknown>)[]) {
  const start = posted.get(agentId) ?? 0;
  const events = contents.map((content, i) => (typeof content === 'string' ? message(`${agentId}-${start + i}`, content) : { id: `${agentId}-${start + i}`, timestamp: '2026-11-02T09:00:00Z', ...content }));
  const last = start + contents.length;
  posted.set(agentId, last);
  await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events });
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === last, 120_000);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === last, 60_000);
  await stack.eventSources.waitForIdle(60_000);
}
const facts = async (agentId: string, status?: string) => (await api<{ items: Item[] }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100${status ? `&status=${status}` : ''}`)).body.items;
const byValue = (items: Item[], value: RegExp) => items.find((item) => Object.values(item.row ?? {}).some((v) => v !== null && value.test(v)))!;
const sweepAt = (agentId: string, now: Date) =>
  sweepIfSettled(
    {
      ...runtime.summaries,
      ledger: runtime.ledger,
      snapshot: runtime.snapshot,
      lifecycle: { memory: runtime.memory, injections: runtime.injections, forgetting: runtime.config.forgetting, outcomes: { rawLog: runtime.rawLog, ledger: runtime.ledger }, now: () => now },
    },
    { tenantId: 'default', agentId },
  );

describe('use counting', () => {
  it('adds each context response that injected an item to its hit count once, in the sweep, never on the read path', async () => {
    const agentId = 'usage';
    await consolidate(agentId, ['I live in Lyon.', 'I work at Acme.', 'ok']);
    const before = await facts(agentId);
    const injected = await Promise.all([1, 2].map(async () => {
      const response = await api(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=2000`);
      const injection = await api<{ items: { id: string }[]; at: string }>(stack, 'GET', `/v1/agents/${agentId}/injections/${response.headers.get('x-request-id')}`);
      return injection.body;
    }));
    // Reading changed nothing in the store.
    expect(await facts(agentId)).toEqual(before);

    expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).status).toBe(200);

    const after = await facts(agentId);
    for (const item of before) {
      const times = injected.filter((injection) => injection.items.some((i) => i.id === item.id)).length;
      const now = after.find((i) => i.id === item.id)!;
      expect(now.hitCount, item.id).toBe(item.hitCount + times);
      if (times > 0) expect(now.lastHitAt).toBe(injected.map((i) => i.at).sort().at(-1));
    }
    // The pass had something to count: facts were injected.
    expect(before.some((item) => injected.some((injection) => injection.items.some((i) => i.id === item.id)))).toBe(true);

    // A second sweep counts nothing twice.
    await api(stack, 'POST', `/v1/agents/${agentId}/sweep`);
    expect(await facts(agentId)).toEqual(after);
  });
});

describe('forgetting', () => {
  it('archives low-confidence items unused for the period, keeps verified ones, and restores on helpful feedback', async () => {
    const agentId = 'forgetting';
    await consolidate(agentId, ['I live in Lyon.', 'I work at Acme.', 'ok']);
    const city = byValue(await facts(agentId), /lyon/i);
    const employer = byValue(await facts(agentId), /acme/i);
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/feedback`, { itemId: employer.id, outcome: 'helpful' })).status).toBe(200);

    const soon = await sweepAt(agentId, new Date(Date.now() + (runtime.config.forgetting.afterDays - 1) * 86_400_000));
    expect(soon.swept).toBe(true);
    expect(byValue(await facts(agentId), /lyon/i).status).toBe('active');

    await sweepAt(agentId, new Date(Date.now() + (runtime.config.forgetting.afterDays + 1) * 86_400_000));

    expect((await facts(agentId, 'archived')).map((i) => i.id)).toEqual([city.id]);
    expect(byValue(await facts(agentId), /acme/i)).toMatchObject({ status: 'active', verification: 'verified' });
    await waitFor(async () => {
      const snapshot = await api<{ facts?: { items: { id: string }[] } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`);
      const ids = snapshot.body.facts?.items.map((i) => i.id) ?? [];
      return !ids.includes(city.id) && ids.includes(employer.id);
    }, 20_000);
    const versions = (await api<{ versions: { cause: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/items/${city.id}/history`)).body.versions;
    expect(versions.at(-1)!.cause).toBe('forget');

    const restored = await api(stack, 'POST', `/v1/agents/${agentId}/feedback`, { itemId: city.id, outcome: 'helpful' });
    expect(restored.body).toMatchObject({ effect: 'restored', item: { status: 'active' } });
  });

  it('deletes items archived for longer than the retention period, and audits their ids only', async () => {
    const agentId = 'retention';
    await consolidate(agentId, ['I live in Porto.', 'I work at Initech.', 'ok']);
    const city = byValue(await facts(agentId), /porto/i);
    const forgetAt = Date.now() + (runtime.config.forgetting.afterDays + 1) * 86_400_000;
    await sweepAt(agentId, new Date(forgetAt));
    const archived = (await facts(agentId, 'archived')).map((i) => i.id);
    expect(archived).toContain(city.id);

    const days = runtime.config.forgetting.purgeArchivedAfterDays!;
    await sweepAt(agentId, new Date(forgetAt + (days - 1) * 86_400_000));
    expect((await facts(agentId, 'archived')).map((i) => i.id)).toEqual(archived);

    const purgedAt = new Date(forgetAt + (days + 1) * 86_400_000);
    const result = await sweepAt(agentId, purgedAt);
    expect(result.swept).toBe(true);
    expect(await facts(agentId, 'archived')).toEqual([]);
    expect((await facts(agentId)).map((i) => i.id)).not.toContain(city.id);
    const purge = (await runtime.memory.listAudit({ tenantId: 'default', agentId }, { updater: 'facts' })).find((record) => record.entry.origin?.kind === 'purge')!;
    expect(purge.entry.origin).toEqual({ kind: 'purge', items: archived, afterDays: days });
    expect(purge.entry.changes).toEqual([]);
    expect(JSON.stringify(purge.entry)).not.toMatch(/porto/i);
  });
});

describe('outcomes of actions', () => {
  it('verifies the items a context response injected when the action taken with it succeeded, once', async () => {
    const agentId = 'outcomes';
    await consolidate(agentId, ['I live in Lyon.', 'I work at Acme.', 'ok']);
    const context = await api(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=2000`);
    const injectionId = context.headers.get('x-request-id')!;
    const injected = (await api<{ items: { id: string; kind: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/injections/${injectionId}`)).body.items.filter((i) => i.kind === 'fact').map((i) => i.id);
    expect(injected.length).toBeGreaterThan(0);
    const before = await facts(agentId);
    expect(before.filter((i) => injected.includes(i.id)).every((i) => i.verification === 'unverified')).toBe(true);
    await consolidate(agentId, [
      { type: 'action', role: 'tool', content: 'booked the train to the home city', metadata: { injectionId, outcome: 'success' } },
      // An action that names no context response says nothing about memory.
      { type: 'action', role: 'tool', content: 'checked the weather', metadata: { outcome: 'failure' } },
    ]);

    await sweepAt(agentId, new Date());

    const after = await facts(agentId);
    for (const item of after) expect(item.verification, item.id).toBe(injected.includes(item.id) ? 'verified' : before.find((b) => b.id === item.id)?.verification ?? 'unverified');
    const versions = (await api<{ versions: { cause: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/items/${injected[0]}/history`)).body.versions;
    // The same sweep counted the context response as a hit too, after the outcome.
    expect(versions.map((v) => v.cause).slice(-2)).toEqual(['outcome', 'usage']);

    // The same records are not counted twice.
    await sweepAt(agentId, new Date());
    expect((await facts(agentId)).map((i) => [i.id, i.confidence])).toEqual(after.map((i) => [i.id, i.confidence]));
  });
});
