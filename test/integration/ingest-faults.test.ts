/**
 * A dependency that fails midway gives the client a 5xx, and a retry of the
 * same events completes the work: nothing acknowledged is lost, nothing is
 * counted or queued twice.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { createIngestHandler } from '../../functions/handlers/http/ingest-route.js';
import { DynamoDbAgentLedger } from '../../functions/adapters/dynamodb/agent-ledger.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import { SqsBatchQueue } from '../../functions/adapters/sqs/batch-queue.js';
import type { HttpResult } from '../../functions/commons/http.js';
import { httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { injectFaults, type FaultPlan } from '../support/fault-injection.js';
import { AgentCounterCache } from '../../functions/use-cases/counter-cache.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack();
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

/** The ingest handler wired to the emulator, with one client failing as planned. */
function faultyIngest(faults: { s3?: FaultPlan; sqs?: FaultPlan; dynamodb?: FaultPlan }, counterCache?: AgentCounterCache) {
  const common = { endpoint: stack.endpoint, region: 'us-east-1' };
  const s3 = new S3Client({ ...common, forcePathStyle: true });
  const sqs = new SQSClient({ ...common, useQueueUrlAsEndpoint: false });
  const dynamodb = new DynamoDBClient(common);
  const injected = [
    faults.s3 && injectFaults(s3, faults.s3),
    faults.sqs && injectFaults(sqs, faults.sqs),
    faults.dynamodb && injectFaults(dynamodb, faults.dynamodb),
  ].filter(Boolean) as { failures: number }[];
  const handler = createIngestHandler({
    ledger: new DynamoDbAgentLedger(DynamoDBDocumentClient.from(dynamodb), read.tableName),
    rawLog: new S3RawLog(s3, read.bucketName),
    queue: new SqsBatchQueue(sqs, read.queueUrl),
    batchSize: 50,
    rawWriteConcurrency: 1,
    ...(counterCache ? { counterCache } : {}),
  });
  return {
    injected,
    post: (agentId: string, events: unknown[]): Promise<HttpResult> =>
      handler(httpApiEvent({ method: 'POST', path: `/v1/agents/${agentId}/events`, pathParameters: { agentId }, body: { events } }), lambdaContext('ingest')),
  };
}

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(`${prefix}${from + i}`));

describe('an S3 failure midway through a request', () => {
  const agentId = 's3-outage';
  let failed: HttpResult;

  beforeAll(async () => {
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('m', 1, 48) });
    const ingest = faultyIngest({ s3: { command: 'PutObjectCommand', failCalls: [2] } });
    // Messages 49..53: message 50 closes batch 1, so the request writes two runs, 49-50 and 51-53; the second write fails.
    failed = await ingest.post(agentId, range('m', 49, 53));
    expect(ingest.injected[0]!.failures).toBe(1);
  });

  it('answers 503 and enqueues nothing', async () => {
    expect(failed.statusCode).toBe(503);
    expect(JSON.parse(failed.body!)).toMatchObject({ error: 'DependencyError' });
    expect(await read.rawSequences(agentId)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({
      lastSequence: 53,
      batchesClosed: 1,
      batchesQueued: 0,
    });
  });

  it('completes on retry with nothing lost, doubled or queued twice', async () => {
    const retry = await api<{ accepted: number; duplicates: number; sequence: number[] }>(
      stack,
      'POST',
      `/v1/agents/${agentId}/events`,
      { events: range('m', 49, 53) },
    );
    await stack.eventSources.waitForIdle();

    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ accepted: 0, duplicates: 5, sequence: [49, 50, 51, 52, 53] });
    expect(await read.rawSequences(agentId)).toHaveLength(53);
    expect(await read.rawLog.get(read.agent(agentId), 51)).toMatchObject({ id: 'm51', sequence: 51 });
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({
      lastSequence: 53,
      messages: 53,
      batchesClosed: 1,
      batchesQueued: 1,
    });
    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({ fromSequence: 1, toSequence: 50, deliveries: 1 });
  });

  it('does not enqueue the batch again on a later retry', async () => {
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('m', 49, 53) });
    await stack.eventSources.waitForIdle();

    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({ deliveries: 1 });
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({ batchesQueued: 1 });
  });
});

describe('an SQS failure when enqueuing a batch', () => {
  it('answers 503 with the records durable, and a retry enqueues the batch once', async () => {
    const agentId = 'sqs-outage';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('m', 1, 45) });
    const ingest = faultyIngest({ sqs: { command: 'SendMessageCommand', failCalls: [1] } });

    const failed = await ingest.post(agentId, range('m', 46, 55));
    const retry = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('m', 46, 55) });
    await stack.eventSources.waitForIdle();

    expect(failed.statusCode).toBe(503);
    expect(retry.status).toBe(202);
    expect(await read.rawSequences(agentId)).toHaveLength(55);
    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({ fromSequence: 1, toSequence: 50, deliveries: 1 });
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({
      messages: 55,
      batchesQueued: 1,
    });
  });
});

describe('a DynamoDB failure when committing sequence numbers', () => {
  it('answers 503 and writes nothing, and a retry then succeeds from sequence 1', async () => {
    const agentId = 'dynamodb-outage';
    const ingest = faultyIngest({ dynamodb: { command: 'TransactWriteItemsCommand', failCalls: [1] } });

    const failed = await ingest.post(agentId, range('m', 1, 3));

    expect(failed.statusCode).toBe(503);
    expect(await read.rawKeys(agentId)).toEqual([]);
    expect(await read.ledgerItems(agentId)).toEqual([]);

    const retry = await ingest.post(agentId, range('m', 1, 3));
    expect(retry.statusCode).toBe(202);
    expect(JSON.parse(retry.body!)).toEqual({ accepted: 3, duplicates: 0, sequence: [1, 2, 3] });
  });
});

describe('warm instances with stale counter caches', () => {
  it('still give consecutive sequence numbers when two instances alternate for one agent', async () => {
    const agentId = 'two-instances';
    const first = faultyIngest({}, new AgentCounterCache());
    const second = faultyIngest({}, new AgentCounterCache());
    const sequences: number[] = [];

    for (let i = 1; i <= 6; i += 1) {
      const instance = i % 2 === 0 ? second : first;
      const response = await instance.post(agentId, [message(`w${i}`)]);
      expect(response.statusCode).toBe(202);
      sequences.push(...(JSON.parse(response.body!) as { sequence: number[] }).sequence);
    }

    expect(sequences).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await read.rawKeys(agentId)).toHaveLength(6);
  });
});

describe('a large request with an id reused for other content', () => {
  it('is refused before anything is committed, even when the instance has the agent’s counters cached', async () => {
    const agentId = 'late-conflict';
    const ingest = faultyIngest({}, new AgentCounterCache());
    expect((await ingest.post(agentId, [message('taken', 'original')])).statusCode).toBe(202);
    const events = range('n', 1, 95);
    events[92] = message('taken', 'something else');

    const response = await ingest.post(agentId, events);

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body!).issues).toEqual([{ field: 'events[92].id', rule: expect.stringContaining('different content') }]);
    expect(await read.rawKeys(agentId)).toHaveLength(1);
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({ lastSequence: 1, messages: 1 });
  });
});
