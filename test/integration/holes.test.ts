/**
 * Holes heal: a request that fails after its sequence numbers are committed,
 * and is never retried, leaves numbers without raw records. After the grace
 * period the consolidator records them as holes and consolidates around them,
 * so later events of the agent are not blocked; GET /status reports the holes.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Duration } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbAgentLedger } from '../../functions/adapters/dynamodb/agent-ledger.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import { SqsBatchQueue } from '../../functions/adapters/sqs/batch-queue.js';
import { createIngestHandler } from '../../functions/handlers/http/ingest-route.js';
import { httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import type { LocalStack } from '../../local/local-stack.js';
import { injectFaults } from '../support/fault-injection.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack({ stackProps: { holeGracePeriod: Duration.seconds(1) } });
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

const status = async (agentId: string) => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body;
const range = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(`${prefix}${from + i}`, i === 0 ? 'I met Lena Fischer at the station.' : 'ok'));

/** The ingest route on the emulator, with the first raw-record write failing: the request dies after its sequence commit. */
function ingestWithLostWrite() {
  const common = { endpoint: stack.endpoint, region: 'us-east-1' };
  const s3 = new S3Client({ ...common, forcePathStyle: true });
  const injected = injectFaults(s3, { command: 'PutObjectCommand', failCalls: [1] });
  const handler = createIngestHandler({
    ledger: new DynamoDbAgentLedger(DynamoDBDocumentClient.from(stack.clients.dynamodb), read.tableName),
    rawLog: new S3RawLog(s3, read.bucketName),
    queue: new SqsBatchQueue(new SQSClient({ ...common, useQueueUrlAsEndpoint: false }), read.queueUrl),
    batchSize: 50,
    rawWriteConcurrency: 1,
  });
  return {
    injected,
    post: (agentId: string, events: unknown[]) =>
      handler(httpApiEvent({ method: 'POST', path: `/v1/agents/${agentId}/events`, pathParameters: { agentId }, body: { events } }), lambdaContext('ingest')),
  };
}

describe('a request that fails after its sequence commit and is never retried', () => {
  const agentId = 'abandoned-request';
  const lostEvent = message('lost-1', 'I will call the plumber tomorrow.');

  it('does not block later events: the batch consolidates around the hole, and status reports it', async () => {
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('a', 1, 10) })).status).toBe(202);
    const ingest = ingestWithLostWrite();
    const failed = await ingest.post(agentId, [lostEvent]);
    expect(failed.statusCode).toBe(503);
    expect(ingest.injected.failures).toBe(1);

    // Later requests of the same agent, acknowledged normally: 12..51 closes batch 1 and opens batch 2.
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: range('b', 12, 51) })).status).toBe(202);
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 50, 30_000);
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 51, 30_000);

    expect(await status(agentId)).toMatchObject({ lastSequence: 51, holes: 1, holeSequences: [11] });
    const contacts = await api<{ items: { name: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/contacts`);
    expect(contacts.body.items.map((c) => c.name)).toEqual(['Lena Fischer']);
    expect(await read.rawLog.get(read.agent(agentId), 11)).toBeUndefined();
  });

  it('refuses a retry that comes after the hole was recorded with 409 naming the event', async () => {
    const retry = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [lostEvent] });

    expect(retry.status).toBe(409);
    expect(retry.body.issues).toEqual([{ field: 'events[0].id', rule: expect.stringContaining('hole') }]);
    expect(await read.rawLog.get(read.agent(agentId), 11)).toBeUndefined();
  });
});

describe('a retry with only the server-filled timestamp changed', () => {
  it('is recognised as the same event and keeps the first timestamp', async () => {
    const agentId = 'restamped-retry';
    const first = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('e1', 'hello', { timestamp: '2026-11-02T09:00:00Z' })] });
    const retry = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('e1', 'hello', { timestamp: '2026-11-02T09:00:07Z' })] });

    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ accepted: 0, duplicates: 1, sequence: [1] });
    expect((await read.rawLog.get(read.agent(agentId), 1))?.timestamp).toBe('2026-11-02T09:00:00Z');
  });
});
