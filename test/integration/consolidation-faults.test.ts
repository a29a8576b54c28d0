/**
 * Failure isolation and idempotency of consolidation, on the emulator: one
 * updater failing (model error, invalid output, budget, timeout, commit
 * failure) leaves its store at the last good version and does not stop the
 * others; a redelivered job reruns only what did not commit; batches apply
 * in order even when their jobs arrive out of order.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbMemoryStore } from '../../functions/adapters/dynamodb/memory-store.js';
import { rawRecordKey } from '../../functions/domain/agent-key.js';
import type { UpdaterName } from '../../functions/domain/memory.js';
import { DEFAULT_BUDGET, type BudgetLimits } from '../../functions/use-cases/model-budget.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import type { ModelPort, ModelRequest, ModelResponse } from '../../functions/ports/model.js';
import { ModelCallError } from '../../functions/ports/model.js';
import { consolidateBatch, UpdatersFailedError, type ConsolidationDependencies } from '../../functions/use-cases/consolidate-batch.js';
import type { BatchJob } from '../../functions/ports/pipeline.js';
import type { LocalStack } from '../../local/local-stack.js';
import { injectFaults } from '../support/fault-injection.js';
import { api, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { scriptedConversation } from '../../scripts/corpus/scripted-conversation.js';

type Behaviour = 'fail' | 'invalid' | 'hang';

/** The local model, except for the updaters told to misbehave. */
class ScriptedModel implements ModelPort {
  readonly modelId = 'scripted-local';
  private readonly local = new LocalModel();
  constructor(private readonly behaviour: Partial<Record<UpdaterName, Behaviour>> = {}) {}

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    switch (request.task === 'summary' ? undefined : this.behaviour[request.task]) {
      case 'fail':
        throw new ModelCallError(`${request.task}: model unavailable`);
      case 'invalid':
        return { output: { ops: [{ op: 'explode', target: 'T1' }] }, usage: { inputTokens: 10, outputTokens: 5 }, modelId: this.modelId };
      case 'hang':
        return new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal!.reason)));
      default:
        return this.local.invoke(request);
    }
  }
}

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;
let memoryTable: string;
const conversation = scriptedConversation(300);

beforeAll(async () => {
  stack = await startTestStack();
  // Jobs stay on the queue: these tests hand them to the use case themselves.
  await stack.eventSources.stop();
  read = stackReaders(stack);
  memoryTable = stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable');
});

afterAll(async () => {
  await stack?.stop();
});

function deps(model: ModelPort, options: { budget?: Partial<BudgetLimits>; dynamodb?: DynamoDBClient } = {}): ConsolidationDependencies {
  const documents = DynamoDBDocumentClient.from(options.dynamodb ?? stack.clients.dynamodb);
  return {
    ledger: read.ledger,
    rawLog: read.rawLog,
    memory: new DynamoDbMemoryStore(documents, memoryTable),
    model,
    budget: { ...DEFAULT_BUDGET, ...options.budget },
  };
}

const memory = () => new DynamoDbMemoryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), memoryTable);

/** Posts the first `messages` scripted messages for a fresh agent and returns its batch jobs. */
async function agentWithBatches(agentId: string, messages: number): Promise<BatchJob[]> {
  for (let start = 0; start < messages; start += 50) {
    const response = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: conversation.slice(start, start + 50) });
    expect(response.status).toBe(202);
  }
  const jobs: BatchJob[] = [];
  for (let index = 1; index <= messages / 50; index += 1) {
    const batch = await read.ledger.readBatch(read.agent(agentId), index);
    jobs.push({ tenantId: 'default', agentId, index, fromSequence: batch!.fromSequence, toSequence: batch!.toSequence });
  }
  return jobs;
}

async function failure(promise: Promise<unknown>): Promise<UpdatersFailedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpdatersFailedError);
  return error as UpdatersFailedError;
}

async function snapshotOf(agentId: string) {
  const agent = read.agent(agentId);
  const [heads, contacts, facts, tasks] = await Promise.all([
    memory().loadHeads(agent, ['contacts', 'facts', 'tasks']),
    memory().load(agent, 'contacts'),
    memory().load(agent, 'facts'),
    memory().load(agent, 'tasks'),
  ]);
  return { heads, items: { contacts: contacts.items, facts: facts.items, tasks: tasks.items } };
}

describe('one updater failing', () => {
  it('does not stop the others, leaves its store untouched, and a redelivery reruns only it', async () => {
    const [job] = await agentWithBatches('isolation', 50);

    const error = await failure(consolidateBatch(deps(new ScriptedModel({ facts: 'fail' })), job!));

    expect(error.failures.map((f) => [f.updater, f.error.name])).toEqual([['facts', 'ModelCallError']]);
    const after = await snapshotOf('isolation');
    expect(after.heads.map((h) => [h.updater, h.lastBatch])).toEqual([['contacts', 1], ['facts', 0], ['tasks', 1]]);
    expect(after.items.facts).toEqual([]);
    expect(await memory().readView(read.agent('isolation'), 'facts')).toBeUndefined();
    expect((await read.ledger.readStatus(read.agent('isolation')))?.lastConsolidatedSequence).toBe(0);
    const contactsAudit = await memory().readAudit(read.agent('isolation'), 1, 'contacts');

    const [retry] = await consolidateBatch(deps(new ScriptedModel()), job!);

    expect(retry!.results.map((r) => [r.updater, r.outcome])).toEqual([['contacts', 'skipped'], ['facts', 'applied'], ['tasks', 'skipped']]);
    expect(await memory().readAudit(read.agent('isolation'), 1, 'contacts')).toEqual(contactsAudit);
    expect((await snapshotOf('isolation')).items.facts.length).toBeGreaterThan(0);
    expect((await read.ledger.readStatus(read.agent('isolation')))?.lastConsolidatedSequence).toBe(50);
  });

  it('rejects invalid model output for that updater only', async () => {
    const [job] = await agentWithBatches('invalid-output', 50);

    const error = await failure(consolidateBatch(deps(new ScriptedModel({ tasks: 'invalid' })), job!));

    expect(error.failures.map((f) => [f.updater, f.error.name])).toEqual([['tasks', 'InvalidModelOutputError']]);
    expect((await snapshotOf('invalid-output')).heads.map((h) => h.lastBatch)).toEqual([1, 1, 0]);
  });

  it('fails the updater that exceeds the batch’s call budget, and no other', async () => {
    const [job] = await agentWithBatches('budget', 50);

    const error = await failure(consolidateBatch(deps(new ScriptedModel(), { budget: { maxCalls: 2 } }), job!));

    expect(error.failures.map((f) => f.error.name)).toEqual(['BudgetExceededError']);
    expect((await snapshotOf('budget')).heads.filter((h) => h.lastBatch === 1)).toHaveLength(2);
  });

  it('times out a model call that hangs, within the batch’s wall-time budget', async () => {
    const [job] = await agentWithBatches('timeout', 50);
    const started = Date.now();

    const error = await failure(consolidateBatch(deps(new ScriptedModel({ contacts: 'hang' }), { budget: { maxWallMs: 500 } }), job!));

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.failures.map((f) => [f.updater, f.error.name])).toEqual([['contacts', 'TimeoutError']]);
    expect((await snapshotOf('timeout')).heads.map((h) => h.lastBatch)).toEqual([0, 1, 1]);
  });

  it('keeps the last good version when its commit fails: no half-applied patch is visible', async () => {
    const jobs = await agentWithBatches('commit-failure', 100);
    await consolidateBatch(deps(new ScriptedModel()), jobs[0]!);
    const before = await snapshotOf('commit-failure');
    const viewBefore = await memory().readView(read.agent('commit-failure'), 'facts');
    const dynamodb = new DynamoDBClient({ endpoint: stack.endpoint, region: 'us-east-1' });
    injectFaults(dynamodb, { command: 'TransactWriteItemsCommand', failCalls: [1, 2, 3] });

    const error = await failure(consolidateBatch(deps(new ScriptedModel(), { dynamodb }), jobs[1]!));

    expect(error.failures).toHaveLength(3);
    expect(await snapshotOf('commit-failure')).toEqual(before);
    expect(await memory().readView(read.agent('commit-failure'), 'facts')).toEqual(viewBefore);
  });
});

describe('redelivery and order', () => {
  it('applies nothing twice when a completed batch is delivered again', async () => {
    const [job] = await agentWithBatches('redelivery', 50);
    await consolidateBatch(deps(new ScriptedModel()), job!);
    const before = await snapshotOf('redelivery');

    const outcomes = await consolidateBatch(deps(new ScriptedModel()), job!);

    expect(outcomes).toEqual([]);
    expect(await snapshotOf('redelivery')).toEqual(before);
  });

  it('applies an earlier batch first when a later job arrives before it', async () => {
    const jobs = await agentWithBatches('out-of-order', 100);

    const outcomes = await consolidateBatch(deps(new ScriptedModel()), jobs[1]!);
    const late = await consolidateBatch(deps(new ScriptedModel()), jobs[0]!);

    expect(outcomes.map((o) => o.batch.index)).toEqual([1, 2]);
    expect(late).toEqual([]);
    expect((await snapshotOf('out-of-order')).heads.map((h) => h.lastBatch)).toEqual([2, 2, 2]);
  });

  it('fails the job without writing anything while the raw records of the batch are missing', async () => {
    const [job] = await agentWithBatches('missing-record', 50);
    // The request's fifty events are one object, under the key of its first sequence.
    await stack.clients.s3.send(new DeleteObjectCommand({ Bucket: read.bucketName, Key: rawRecordKey(read.agent('missing-record'), 1) }));

    await expect(consolidateBatch(deps(new ScriptedModel()), job!)).rejects.toThrow(/raw records missing: 1, 2, 3, .* and 40 more/);
    expect((await snapshotOf('missing-record')).heads.map((h) => h.version)).toEqual([0, 0, 0]);
  });
});
