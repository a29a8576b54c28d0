/**
 * One current value everywhere, through the API, in phrasing of this file's
 * own: a changed employer is not shown as current anywhere (the contact's
 * line, its "Lately", the records and summaries that said the old one), and
 * the local model reads assistants' messages as the assistant's.
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

let counter = 0;
/** Posts the messages (role per message, a minute apart from `at`) as one flushed batch and waits until it is in the snapshot. */
async function consolidate(agentId: string, messages: readonly (readonly [role: 'user' | 'assistant', content: string])[], at: string) {
  const status = await api<{ lastSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`);
  const before = status.status === 200 ? (status.body.lastSequence ?? 0) : 0;
  const events = messages.map(([role, content], i) => message(`${agentId}-${(counter += 1)}`, content, { role, timestamp: new Date(Date.parse(at) + i * 60_000).toISOString() }));
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  const last = before + messages.length;
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === last, 120_000);
  await stack.eventSources.waitForIdle(60_000);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === last, 60_000);
}

const contextFor = async (agentId: string, query?: string) =>
  (await api<{ markdown: string }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=1500${query ? `&query=${encodeURIComponent(query)}` : ''}`)).body.markdown;

describe('a changed employer', () => {
  it('is shown nowhere as current: the contact line names the new one, and lines that say the old one are marked with it', async () => {
    const agentId = 'employer-moves';
    await consolidate(agentId, [['user', 'Had coffee with Marisol Vega, she is a product designer at Fernwood Labs.'], ['assistant', 'Nice, how is she doing?'], ['user', 'Great, she loves it at Fernwood Labs.']], '2026-09-01T09:00:00Z');
    await consolidate(agentId, [['user', 'Big news, Marisol Vega just joined Quillstone as head of design.'], ['assistant', 'That is a big step for her.']], '2026-10-12T09:00:00Z');

    for (const markdown of [await contextFor(agentId), await contextFor(agentId, 'Where does Marisol work?')]) {
      const lines = markdown.split('\n');
      const contact = lines.find((line) => line.includes('**Marisol Vega**'));
      expect(contact).toMatch(/Quillstone/);
      expect(contact).not.toMatch(/Fernwood/);
      // Wherever the old employer is said, the later one is named beside it.
      for (const line of lines.filter((l) => /Fernwood/.test(l))) expect(line).toMatch(/\(later: (head of design at )?Quillstone, from 2026-10-12\)/);
    }
  });
});
