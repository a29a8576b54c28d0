/**
 * The export on the local stack: every record (redacted), item, summary and
 * audit entry of the agent as NDJSON, counted by its end line; admin only;
 * a bad token is a 400; an unknown agent a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack, TEST_API_KEY } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'exported';
const events = [
  message('x1', 'I met Dana Whitfield today; she works at Initech as head of design.'),
  message('x2', 'Remind me to send Dana the Q3 deck by Friday.'),
  message('x3', 'My password is hunter2xyz, please keep it.'),
  message('x4', 'I live in Lyon.'),
];

beforeAll(async () => {
  stack = await startTestStack();
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === events.length, 120_000);
  await api(stack, 'POST', `/v1/agents/${agentId}/sweep`);
  await stack.eventSources.waitForIdle(120_000);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

async function exportOf(id: string, key: string = TEST_API_KEY, query = '') {
  const response = await fetch(`${stack.url}/v1/agents/${id}/export${query}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text, lines: response.ok ? text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>) : [] };
}

describe('GET /v1/agents/{agentId}/export', () => {
  it('holds every record (redacted), item, summary and audit entry of the agent, counted by its end line', async () => {
    const exported = await exportOf(agentId);
    expect(exported.status).toBe(200);
    expect(exported.type).toBe('application/x-ndjson');
    const { lines } = exported;
    expect(lines[0]).toMatchObject({ type: 'agent', agentId, status: { lastSequence: 4 } });
    expect(lines.filter((l) => l.type === 'record').map((l) => l.record.id)).toEqual(['x1', 'x2', 'x3', 'x4']);
    expect(exported.text).not.toContain('hunter2xyz');
    expect(exported.text).toContain('[secret:password]');

    const stores = await Promise.all(['contacts', 'facts', 'tasks'].map(async (store) => (await api<{ items: { id: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/${store}?limit=100`)).body.items.map((i) => i.id)));
    expect(lines.filter((l) => l.type === 'item').map((l) => l.item.id).sort()).toEqual(stores.flat().sort());
    const summaries = await Promise.all(['time', 'count'].map(async (ladder) => (await api<{ items: { id: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/summaries?ladder=${ladder}&limit=100`)).body.items.length));
    expect(lines.filter((l) => l.type === 'summary')).toHaveLength(summaries[0]! + summaries[1]!);
    // The batch's consolidation entries (one per updater), and any change the sweep's memory pass made after it.
    const audit = lines.filter((l) => l.type === 'audit');
    expect(audit.filter((l) => l.audit.changeId === undefined).map((l) => [l.audit.updater, l.audit.batch]).sort()).toEqual([['contacts', 1], ['facts', 1], ['tasks', 1]]);
    const end = lines.at(-1)!;
    expect(end.type).toBe('end');
    expect(end.counts).toEqual({ record: 4, hole: 0, item: stores.flat().length, summary: summaries[0]! + summaries[1]!, audit: audit.length });
  });

  it('is for admin keys only; a bad token is a 400 and an unknown agent a 404', async () => {
    const reader = await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write'] });
    expect((await exportOf(agentId, reader.key)).status).toBe(403);
    expect((await exportOf(agentId, TEST_API_KEY, '?nextToken=tampered')).status).toBe(400);
    expect((await exportOf('nobody-here')).status).toBe(404);
  });
});
