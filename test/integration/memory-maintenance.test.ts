/**
 * The sweep's memory pass on the local stack: use is counted offline from the
 * injection log (once per injection), and items never used are forgotten:
 * archived, out of the snapshot, listed with ?status=archived, restorable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime, type ServiceRuntime } from '../../functions/commons/runtime.js';
import { sweepIfSettled } from '../../functions/use-cases/sweep-agents.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let runtime: ServiceRuntime;

beforeAll(async () => {
  stack = await startTestStack();
  // The local stack set this process's environment as Lambda would: the same wiring as the functions.
  runtime = createServiceRuntime(loadConfig());
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Item { id: string; status: string; verification: string; hitCount: number; lastHitAt?: string; row?: Record<string, string | null> }

async function consolidate(agentId: string, contents: string[]) {
  const events = contents.map((content, i) => message(`${agentId}-${i}`, content));
  await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events });
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === contents.length, 120_000);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === contents.length, 60_000);
  await stack.eventSources.waitForIdle(60_000);
}
const facts = async (agentId: string, status?: string) => (await api<{ items: Item[] }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100${status ? `&status=${status}` : ''}`)).body.items;
const byValue = (items: Item[], value: RegExp) => items.find((item) => Object.values(item.row ?? {}).some((v) => v !== null && value.test(v)))!;
const sweepAt = (agentId: string, now: Date) =>
  sweepIfSettled(
    { ...runtime.summaries, ledger: runtime.ledger, snapshot: runtime.snapshot, lifecycle: { memory: runtime.memory, injections: runtime.injections, forgetting: runtime.config.forgetting, now: () => now } },
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
    }, 5_000);
    const versions = (await api<{ versions: { cause: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/items/${city.id}/history`)).body.versions;
    expect(versions.at(-1)!.cause).toBe('forget');

    const restored = await api(stack, 'POST', `/v1/agents/${agentId}/feedback`, { itemId: city.id, outcome: 'helpful' });
    expect(restored.body).toMatchObject({ effect: 'restored', item: { status: 'active' } });
  });
});
