/**
 * The local DynamoDB Streams source behaves as Lambda's: filter patterns,
 * bisection of a failing batch down to the poison record, bounded retries,
 * and the failure destination for what still fails.
 */
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { emulatorClients, useEmulatorEnvironment } from '../../local/local-stack.js';
import { matchesPattern, startStreamSourceRunner } from '../../local/stream-source-runner.js';
import type { LocalFunction } from '../../local/lambda-functions.js';
import { waitFor } from '../support/wait.js';

let clients: ReturnType<typeof emulatorClients>;
let runner: { stop(): Promise<void>; waitForIdle(timeoutMs?: number): Promise<void> } | undefined;

beforeAll(() => {
  useEmulatorEnvironment(inject('awsEndpoint'));
  clients = emulatorClients(inject('awsEndpoint'));
});

afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

async function streamedTable(): Promise<{ tableName: string; streamArn: string }> {
  const tableName = `streams-${randomBytes(4).toString('hex')}`;
  await clients.dynamodb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }),
  );
  const described = await clients.dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  return { tableName, streamArn: described.Table!.LatestStreamArn! };
}

const fn = (handler: (event: DynamoDBStreamEvent) => Promise<unknown>): LocalFunction => ({
  logicalId: 'StreamTarget',
  entry: 'test',
  timeoutSeconds: 5,
  memorySize: 128,
  environment: {},
  invoke: (event) => handler(event as DynamoDBStreamEvent),
});

describe('filter patterns', () => {
  it('match literals and prefixes the way Lambda filter criteria do', () => {
    const pattern = { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'SUM#' }] } } } };

    expect(matchesPattern({ eventName: 'INSERT', dynamodb: { Keys: { sk: { S: 'SUM#time#0#1' } } } }, pattern)).toBe(true);
    expect(matchesPattern({ eventName: 'MODIFY', dynamodb: { Keys: { sk: { S: 'SUM#time#0#1' } } } }, pattern)).toBe(false);
    expect(matchesPattern({ eventName: 'INSERT', dynamodb: { Keys: { sk: { S: 'SLOT#x' } } } }, pattern)).toBe(false);
  });
});

describe('local DynamoDB Streams source', () => {
  it('delivers only matching records, bisects around a poison record and sends it to the failure queue', async () => {
    const { tableName, streamArn } = await streamedTable();
    const queue = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${tableName}-failures` }));
    const documents = DynamoDBDocumentClient.from(clients.dynamodb);
    for (const sk of ['SUM#1', 'SUM#2', 'SLOT#x', 'SUM#poison', 'SUM#3']) await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'a', sk } }));
    const delivered: string[] = [];

    runner = startStreamSourceRunner(
      clients.streams,
      clients.sqs,
      [
        {
          logicalId: 'm',
          streamArn,
          startingPosition: 'TRIM_HORIZON',
          batchSize: 10,
          patterns: [{ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'SUM#' }] } } } }],
          bisectOnError: true,
          reportBatchItemFailures: false,
          maxRetries: 2,
          maxRecordAgeSeconds: 3600,
          onFailureQueueUrl: queue.QueueUrl!,
          target: fn(async (event) => {
            const keys = event.Records.map((r) => r.dynamodb!.Keys!.sk!.S!);
            if (keys.includes('SUM#poison')) throw new Error('poison');
            delivered.push(...keys);
          }),
        },
      ],
      { pollIntervalMs: 20 },
    );
    let failure: { DDBStreamBatchInfo: { batchSize: number } } | undefined;
    await waitFor(async () => {
      const received = await clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.QueueUrl }));
      if (received.Messages?.[0]) failure = JSON.parse(received.Messages[0].Body!);
      return failure !== undefined;
    }, 20_000);
    // The record after the poison one is delivered after the failure is sent: wait until the source has nothing left in hand.
    await runner.waitForIdle(20_000);

    expect(delivered.sort()).toEqual(['SUM#1', 'SUM#2', 'SUM#3']);
    expect(failure!.DDBStreamBatchInfo.batchSize).toBe(1);
  });

  it('resumes from the first record a function reports as failed, delivering the ones before it once', async () => {
    const { tableName, streamArn } = await streamedTable();
    const queue = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${tableName}-failures` }));
    const documents = DynamoDBDocumentClient.from(clients.dynamodb);
    for (const sk of ['SUM#1', 'SUM#poison', 'SUM#2']) await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'a', sk } }));
    const processed: string[] = [];

    runner = startStreamSourceRunner(
      clients.streams,
      clients.sqs,
      [
        {
          logicalId: 'm',
          streamArn,
          startingPosition: 'TRIM_HORIZON',
          batchSize: 10,
          patterns: [],
          bisectOnError: false,
          reportBatchItemFailures: true,
          maxRetries: 1,
          maxRecordAgeSeconds: 3600,
          onFailureQueueUrl: queue.QueueUrl!,
          target: fn(async (event) => {
            const failures = [];
            for (const record of event.Records) {
              const sk = record.dynamodb!.Keys!.sk!.S!;
              if (sk === 'SUM#poison') failures.push({ itemIdentifier: record.dynamodb!.SequenceNumber! });
              else processed.push(sk);
            }
            return { batchItemFailures: failures };
          }),
        },
      ],
      { pollIntervalMs: 20 },
    );
    let failure: { DDBStreamBatchInfo: { batchSize: number } } | undefined;
    await waitFor(async () => {
      const received = await clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.QueueUrl }));
      if (received.Messages?.[0]) failure = JSON.parse(received.Messages[0].Body!);
      return failure !== undefined;
    }, 20_000);

    // SUM#1 once; SUM#2 with every attempt from the poison record on (the first delivery and one retry).
    expect(processed.filter((sk) => sk === 'SUM#1')).toHaveLength(1);
    expect(processed.filter((sk) => sk === 'SUM#2')).toHaveLength(2);
    expect(failure!.DDBStreamBatchInfo.batchSize).toBe(2);
  });
});
