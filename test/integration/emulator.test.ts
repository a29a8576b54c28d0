/**
 * The emulator keeps the guarantees our design relies on (see
 * local/moto_locked_server.py): transactions are all or nothing, and
 * concurrent conditional writes cannot both succeed.
 */
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { emulatorClients, useEmulatorEnvironment } from '../../local/local-stack.js';

let documents: DynamoDBDocumentClient;
let tableName: string;

beforeAll(async () => {
  useEmulatorEnvironment(inject('awsEndpoint'));
  const { dynamodb } = emulatorClients(inject('awsEndpoint'));
  documents = DynamoDBDocumentClient.from(dynamodb);
  tableName = `emulator-${randomBytes(4).toString('hex')}`;
  await dynamodb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
    }),
  );
});

describe('emulated DynamoDB', () => {
  it('rolls back every applied item of a transaction that is cancelled by a later condition', async () => {
    await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'a', sk: 'counter', n: 1 } }));
    await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'a', sk: 'taken', n: 0 } }));

    const attempt = documents.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: tableName, Key: { pk: 'a', sk: 'counter' }, UpdateExpression: 'SET n = :two', ExpressionAttributeValues: { ':two': 2 } } },
          { Put: { TableName: tableName, Item: { pk: 'a', sk: 'fresh' } } },
          { Put: { TableName: tableName, Item: { pk: 'a', sk: 'taken', n: 9 }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );

    await expect(attempt).rejects.toBeInstanceOf(TransactionCanceledException);
    const item = (sk: string) => documents.send(new GetCommand({ TableName: tableName, Key: { pk: 'a', sk } })).then((r) => r.Item);
    expect(await item('counter')).toEqual({ pk: 'a', sk: 'counter', n: 1 });
    expect(await item('fresh')).toBeUndefined();
    expect(await item('taken')).toEqual({ pk: 'a', sk: 'taken', n: 0 });
  });

  it('lets exactly one of many concurrent conditional increments of the same version win', async () => {
    await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'race', sk: 'counter', version: 0 } }));

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        documents.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: 'race', sk: 'counter' },
            UpdateExpression: 'SET version = :next',
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': 0, ':next': 1 },
          }),
        ),
      ),
    );

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });
});
