/**
 * The cost meter counts DynamoDB units from the commands the functions
 * actually send: the document clients' calls reach the base client as
 * low-level commands (PutItemCommand, TransactWriteItemsCommand, ...).
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import type { AwsClients } from '../../functions/commons/clients.js';
import { itemBytes, OUTSIDE, UsageMeter } from '../../local/metering.js';

const options = { region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };

/** A client whose requests never leave the process: the transport answers with `output`. */
function offline<T extends { middlewareStack: { add: (...args: never[]) => void } }>(client: T, output: Record<string, unknown> = {}): T {
  (client.middlewareStack.add as (mw: unknown, opts: unknown) => void)(() => async () => ({ output: { $metadata: {}, ...output }, response: {} }), { step: 'finalizeRequest', priority: 'low', name: 'offline' });
  return client;
}

function metered(output?: Record<string, unknown>) {
  const meter = new UsageMeter();
  const dynamo = offline(new DynamoDBClient(options), output);
  meter.wrapClients({ dynamo, s3: offline(new S3Client(options)), sqs: offline(new SQSClient(options)) } as unknown as AwsClients);
  return { meter, dynamo };
}

describe('the cost meter', () => {
  it('counts a document client’s put as the write units of its item', async () => {
    const { meter, dynamo } = metered();
    await DynamoDBDocumentClient.from(dynamo).send(new PutCommand({ TableName: 't', Item: { pk: 'a', text: 'x'.repeat(3000) } }));
    expect(meter.usage.aws[OUTSIDE]!.dynamoWriteUnits).toBe(3);
  });

  it('counts low-level puts, transactions (at twice the units) and reads', async () => {
    const { meter, dynamo } = metered({ Item: { pk: { S: 'a' } } });
    await dynamo.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'a' } } }));
    await dynamo.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: 't', Item: { pk: { S: 'b' } } } }, { ConditionCheck: { TableName: 't', Key: { pk: { S: 'c' } }, ConditionExpression: 'attribute_exists(pk)' } }] }));
    await dynamo.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }));
    const usage = meter.usage.aws[OUTSIDE]!;
    expect(usage.dynamoWriteUnits).toBe(1 + 2 * 2);
    expect(usage.dynamoReadUnits).toBe(0.5);
    expect(usage.operations).toMatchObject({ 'DynamoDB.PutItem': 1, 'DynamoDB.TransactWriteItems': 1, 'DynamoDB.GetItem': 1 });
  });

  it('counts a binary attribute by its bytes, as DynamoDB does, not by its JSON spelling', async () => {
    const { meter, dynamo } = metered();
    const blob = new Uint8Array(3000).fill(200);
    await dynamo.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'agent' }, sk: { S: 'VIEW#facts' }, data: { B: blob } } }));
    await DynamoDBDocumentClient.from(dynamo).send(new PutCommand({ TableName: 't', Item: { pk: 'agent', sk: 'AUDIT#1#facts', data: blob } }));
    // 3,000 bytes and a few of names and keys: three units each (the JSON of those bytes is over 16 KB).
    expect(meter.usage.aws[OUTSIDE]!.dynamoWriteUnits).toBe(3 + 3);
  });
});

describe('the size of an item', () => {
  it('adds names and values by DynamoDB\'s rules, in either form', () => {
    const plain = { pk: 'ab', n: 12345, ok: true, tags: ['x', 'yz'], meta: { k: 'v' } };
    const lowLevel = { pk: { S: 'ab' }, n: { N: '12345' }, ok: { BOOL: true }, tags: { L: [{ S: 'x' }, { S: 'yz' }] }, meta: { M: { k: { S: 'v' } } } };
    // pk 2+2; n 1+4 (five digits: three bytes and one); ok 2+1; tags 4+(3+2+3); meta 4+(3+1+1+1)
    expect(itemBytes(plain)).toBe(4 + 5 + 3 + 12 + 10);
    expect(itemBytes(lowLevel)).toBe(itemBytes(plain));
    expect(itemBytes({ data: { B: new Uint8Array(1024) } })).toBe(4 + 1024);
  });
});
