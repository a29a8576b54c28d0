/**
 * Oversized work is split, never fatal: a message whose facts patch is larger
 * than one DynamoDB transaction consolidates in several resumable steps, and
 * the agent's next batch consolidates after it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbMemoryStore } from '../../functions/adapters/dynamodb/memory-store.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import type { ModelPort, ModelRequest, ModelResponse } from '../../functions/ports/model.js';
import { consolidateBatch, UpdatersFailedError } from '../../functions/use-cases/consolidate-batch.js';
import { DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';
import { countTokens } from '../../functions/commons/tokens.js';
import { injectFaults } from '../support/fault-injection.js';
import { stackReaders } from '../support/stack-readers.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

const status = async (agentId: string) => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body;
const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** Two-letter attribute names aa, ab, ... so each sentence states a distinct fact. */
const attribute = (i: number) => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));

async function allFacts(agentId: string): Promise<string[]> {
  const statements: string[] = [];
  let token: string | undefined;
  do {
    const page = await api<{ items: { statement: string }[]; nextToken?: string }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
    statements.push(...page.body.items.map((item) => item.statement));
    token = page.body.nextToken;
  } while (token);
  return statements;
}

describe('a patch larger than one transaction', () => {
  it('consolidates a 98-fact message and the message after it', async () => {
    const agentId = 'ninety-eight-facts';
    const sentences = Array.from({ length: 98 }, (_, i) => `My attr ${attribute(i)} is ${words[i % words.length]}.`);
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('big', sentences.join(' '))] });
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 1, 60_000);

    const statements = await allFacts(agentId);
    // Every stated attribute is remembered: more changed items than one transaction holds.
    expect(statements.length).toBeGreaterThan(97);

    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('after', 'My favourite colour is green.')] });
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 2, 60_000);
    expect(await stack.eventSources.waitForIdle().then(() => stack.eventSources.stats.recordsFailed)).toBe(0);
  });
});

describe('a batch whose input is larger than the model budget', () => {
  // Its own limit: it ingests 1.5 MB and waits up to 120 s for the batch and 60 s for the next one.
  it('is read in chunks and cut to fit, not failed, and the short messages in it are remembered', { timeout: 240_000 }, async () => {
    const agentId = 'oversized-input';
    // 48 pasted logs of 32,000 characters (563,841 tokens with the two short statements among
    // them: 4.7 times the batch's input budget).
    const paste = (i: number) => `Here is log ${i}: ${Array.from({ length: 4_000 }, (_, j) => `step${(i + j) % 97} ok`).join('; ')}`.slice(0, 32_000);
    const contents = Array.from({ length: 50 }, (_, i) => (i === 7 ? 'My favourite colour is teal.' : i === 41 ? 'I work at Northwind Traders.' : paste(i)));
    const started = Date.now();
    for (let from = 0; from < 50; from += 10) {
      const response = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: contents.slice(from, from + 10).map((content, i) => message(`paste-${from + i}`, content)) });
      expect(response.status).toBe(202);
    }
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 50, 120_000);
    const drainedMs = Date.now() - started;

    const statements = await allFacts(agentId);
    expect(statements).toEqual(expect.arrayContaining([expect.stringMatching(/favourite colour.*teal/i)]));
    const audit = await api<{ entries: { updater: string; usage: { inputTokens: number }; reading?: { chunks?: number; cut?: unknown[]; unread?: unknown } }[] }>(stack, 'GET', `/v1/agents/${agentId}/audit?batch=1`);
    const facts = audit.body.entries.find((entry) => entry.updater === 'facts');
    expect(facts?.reading?.chunks).toBeGreaterThan(1);
    expect(facts?.reading?.cut?.length).toBe(48);
    // What was read against what the batch holds and what the budget allows (same run).
    const batchTokens = contents.reduce((sum, content) => sum + countTokens(content), 0);
    const modelInputTokens = audit.body.entries.reduce((sum, entry) => sum + entry.usage.inputTokens, 0);
    expect(modelInputTokens).toBeLessThanOrEqual(DEFAULT_BUDGET.maxInputTokens * 1.05);
    process.stderr.write(`${JSON.stringify({
      bench: 'oversized-batch',
      records: contents.length,
      batchTokens,
      budgetInputTokens: DEFAULT_BUDGET.maxInputTokens,
      modelInputTokens,
      calls: audit.body.entries.reduce((sum, entry) => sum + (entry.reading?.chunks ?? 1), 0),
      cutPerUpdater: audit.body.entries.map((entry) => entry.reading?.cut?.length ?? 0),
      unread: audit.body.entries.filter((entry) => entry.reading?.unread).length,
      drainedMs,
    })}\n`);

    // The agent's next batch is not held up.
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('after-paste', 'My favourite drink is mint tea.')] });
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 51, 60_000);
  });
});

/** The local model, counting its calls per task. */
class CountingModel implements ModelPort {
  readonly modelId = 'counting-local';
  readonly calls = new Map<string, number>();
  private readonly local = new LocalModel();
  async invoke(request: ModelRequest): Promise<ModelResponse> {
    this.calls.set(request.task, (this.calls.get(request.task) ?? 0) + 1);
    return this.local.invoke(request);
  }
}

describe('a staged commit interrupted midway', () => {
  it('shows readers the state before it, and a retry finishes it without a second model call', async () => {
    await stack.eventSources.stop();
    const read = stackReaders(stack);
    const agentId = 'interrupted-staged';
    const agent = read.agent(agentId);
    const sentences = Array.from({ length: 110 }, (_, i) => `My attr ${attribute(i)} is ${words[i % words.length]}.`);
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('big', sentences.join(' '))] });
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    const marker = await read.ledger.readBatch(agent, 1);
    const job = { tenantId: 'default', agentId, index: 1, fromSequence: marker!.fromSequence, toSequence: marker!.toSequence };
    const memoryTable = stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable');
    const faulty = new DynamoDBClient({ endpoint: stack.endpoint, region: 'us-east-1' });
    // Call 1 records the staged commit; calls 2 and 3 write the items, 100 at a time: the second fails midway.
    injectFaults(faulty, { command: 'TransactWriteItemsCommand', failCalls: [3] });
    const deps = (client: DynamoDBClient, model: ModelPort) => ({
      ledger: read.ledger,
      rawLog: read.rawLog,
      memory: new DynamoDbMemoryStore(DynamoDBDocumentClient.from(client), memoryTable),
      model,
      budget: DEFAULT_BUDGET,
      updaters: ['facts'] as const,
    });
    const first = new CountingModel();

    const error = await consolidateBatch(deps(faulty, first), job).then(() => undefined, (e: unknown) => e);

    expect(error).toBeInstanceOf(UpdatersFailedError);
    expect(first.calls.get('facts')).toBe(1);
    const store = new DynamoDbMemoryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), memoryTable);
    expect((await store.load(agent, 'facts')).items).toEqual([]);
    expect(await allFacts(agentId)).toEqual([]);
    expect(await store.readView(agent, 'facts')).toBeUndefined();

    const retry = new CountingModel();
    const [outcome] = await consolidateBatch(deps(stack.clients.dynamodb, retry), job);

    expect(retry.calls.get('facts')).toBeUndefined();
    expect(outcome!.results).toEqual([expect.objectContaining({ updater: 'facts', outcome: 'applied' })]);
    const applied = outcome!.results[0] as { changed: number };
    expect(applied.changed).toBeGreaterThan(100);
    expect((await allFacts(agentId)).length).toBe(applied.changed);
    expect((await store.readView(agent, 'facts'))?.batch).toBe(1);
    expect((await store.readAudit(agent, 1, 'facts'))?.changes).toHaveLength(applied.changed);
  });
});
