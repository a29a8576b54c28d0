/**
 * The typed client against the local stack: it sends its key as a bearer
 * token, derives the same event ids for the same events (so a repeat is a
 * duplicate, not a second copy), pages through stores, and reads context
 * with the ids of what it included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryApiError, MemoryClient, createMemoryClient, type EventInput } from '../../clients/typescript/src/index.js';
import { openApiDocument } from '../../functions/commons/openapi.js';
import type { LocalStack } from '../../local/local-stack.js';
import { scriptedConversation } from '../../scripts/corpus/scripted-conversation.js';
import { TEST_API_KEY, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let client: MemoryClient;
const authorization: (string | null)[] = [];
const agentId = 'client-agent';
// The script's events without their ids: the client derives them.
const events: EventInput[] = scriptedConversation(100).map(({ id: _id, ...event }) => event);

beforeAll(async () => {
  stack = await startTestStack();
  client = createMemoryClient({
    baseUrl: stack.url,
    apiKey: TEST_API_KEY,
    fetch: (request) => {
      authorization.push(request.headers.get('authorization'));
      return fetch(request);
    },
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the typed client', () => {
  it('reads the OpenAPI document the server generates, without a key', async () => {
    const anonymous = createMemoryClient({ baseUrl: stack.url });
    expect(await anonymous.openapi()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('posts events in requests of at most 100 with derived ids, and a repeat is all duplicates', async () => {
    const progress: number[] = [];
    const first = await client.remember(agentId, events, (step) => progress.push(step.sent));
    expect(first).toMatchObject({ accepted: 100, duplicates: 0, total: 100 });
    expect(progress).toEqual([100]);
    const again = await client.remember(agentId, [...events, { type: 'message', role: 'user', content: 'one more', timestamp: '2026-11-20T10:00:00Z' }], (step) => progress.push(step.sent));
    expect(again).toMatchObject({ accepted: 1, duplicates: 100, total: 101 });
    expect(progress).toEqual([100, 100, 101]);
    expect((await client.status(agentId)).lastSequence).toBe(101);
  });

  it('sends the key as a bearer token on every request', () => {
    expect(authorization.length).toBeGreaterThan(0);
    expect(new Set(authorization)).toEqual(new Set([`Bearer ${TEST_API_KEY}`]));
  });

  it('pages through a store: small pages give the same items as one large page', async () => {
    await client.flush(agentId);
    await waitFor(async () => (await client.status(agentId)).lastConsolidatedSequence >= 100, 120_000, 200);
    const onePage = (await client.page(agentId, 'contacts', { limit: 100 })).items.map((item) => item.id);
    expect(onePage.length).toBeGreaterThan(1);
    const paged = (await MemoryClient.all(client.contacts(agentId, { pageSize: 1 }))).map((item) => item.id);
    expect(paged).toEqual(onePage);
    const tasks = await MemoryClient.all(client.tasks(agentId, { pageSize: 2 }));
    expect(tasks.every((task) => task.kind === 'task')).toBe(true);
  });

  it('reads budgeted context with the ids of what it included, recorded in the injection log', async () => {
    await waitFor(async () => (await client.snapshot(agentId).catch(() => undefined))?.freshness.lastConsolidatedSequence === (await client.status(agentId)).lastConsolidatedSequence, 60_000, 200);
    const context = await client.context(agentId, { query: 'Dana', maxTokens: 600 });
    expect(context.tokens).toBeLessThanOrEqual(600);
    expect(context.items.length).toBeGreaterThan(0);
    const logged = await client.injection(agentId, context.requestId);
    expect(logged.items).toEqual(context.items);
  });

  it('turns a refusal into a MemoryApiError naming the field and rule', async () => {
    const error = await client.context(agentId, { maxTokens: 5 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MemoryApiError);
    expect(error).toMatchObject({ status: 400, error: 'ValidationError' });
    expect((error as MemoryApiError).issues[0]?.field).toBe('maxTokens');
  });
});
