/**
 * Project scope through the API on the local stack: events name their
 * project in `metadata.project`, items learnt from them carry it, two
 * projects' values of one key are not a conflict, and context read for one
 * project never shows another's items or records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'two-projects';

interface Fact { id: string; status: string; row: Record<string, string | null>; scope: { project?: string } }
interface Context { markdown: string; items: { id: string; kind: string }[] }

beforeAll(async () => {
  stack = await startTestStack();
  const events = [
    message('p-1', 'I live in Lyon.'),
    message('p-2', 'Our budget is 40 thousand euros.', { metadata: { project: 'apollo' } }),
    message('p-3', 'Our budget is 12 thousand euros.', { metadata: { project: 'zephyr' } }),
    message('p-4', 'The kickoff with the designers went well.', { metadata: { project: 'zephyr' } }),
  ];
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === events.length, 120_000);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const facts = async () => (await api<{ items: Fact[] }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100`)).body.items;
const context = (query: string) => api<Context & { issues?: { field: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=1500&${query}`);

describe('project scope', () => {
  it('scopes what is learnt to the project its events name, and keeps two projects’ values of one key apart', async () => {
    const all = await facts();
    const budget = (value: RegExp) => all.find((f) => Object.values(f.row).some((v) => v !== null && value.test(v)));

    expect(budget(/40 thousand/)).toMatchObject({ status: 'active', scope: { project: 'apollo' } });
    expect(budget(/12 thousand/)).toMatchObject({ status: 'active', scope: { project: 'zephyr' } });
    expect(budget(/lyon/i)?.scope.project).toBeUndefined();
  });

  it('reads context for one project: its items and agent-wide ones, never another project’s items or records', async () => {
    const all = await facts();
    const zephyrIds = all.filter((f) => f.scope.project === 'zephyr').map((f) => f.id);

    const apollo = await context('project=apollo&query=budget%20and%20where%20I%20live');
    expect(apollo.status).toBe(200);
    expect(apollo.body.markdown).toContain('40 thousand');
    expect(apollo.body.markdown).toMatch(/lyon/i);
    expect(apollo.body.markdown).not.toContain('12 thousand');
    expect(apollo.body.markdown).not.toContain('kickoff');
    const shown = apollo.body.items.map((i) => i.id);
    expect(zephyrIds.length).toBeGreaterThan(0);
    for (const id of [...zephyrIds, 'p-3', 'p-4']) expect(shown).not.toContain(id);

    const everything = await context('query=budget');
    expect(everything.body.markdown).toContain('40 thousand');
    expect(everything.body.markdown).toContain('12 thousand');
  });

  it('refuses a malformed project with 400 naming the field, and writes nothing', async () => {
    const badRead = await context('project=not%20a%20project!');
    expect(badRead.status).toBe(400);
    expect(badRead.body.issues?.map((i) => i.field)).toEqual(['project']);

    const before = await api<{ lastIngestedSequence: number }>(stack, 'GET', `/v1/agents/${agentId}/status`);
    const badWrite = await api<{ issues?: { field: string }[] }>(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('p-9', 'Hello.', { metadata: { project: ['apollo'] } })] });
    expect(badWrite.status).toBe(400);
    expect(badWrite.body.issues?.map((i) => i.field)).toEqual(['events[0].metadata.project']);
    expect((await api<{ lastIngestedSequence: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastIngestedSequence).toBe(before.body.lastIngestedSequence);
  });
});
