/** Reads the local stack's real resources, so tests assert what was actually stored. */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../local/local-stack.js';
import { DynamoDbAgentLedger } from '../../functions/adapters/dynamodb/agent-ledger.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import { agentPartitionKey, rawRecordPrefix } from '../../functions/domain/agent-key.js';

export function stackReaders(stack: LocalStack) {
  const tableName = stack.resourceRef('AWS::DynamoDB::Table', 'AgentsTable');
  const bucketName = stack.resourceRef('AWS::S3::Bucket', 'RawLog');
  const queueUrl = stack.resourceRef('AWS::SQS::Queue', 'ConsolidationQueue');
  const deadLetterQueueUrl = stack.resourceRef('AWS::SQS::Queue', 'ConsolidationDeadLetterQueue');
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const ledger = new DynamoDbAgentLedger(documents, tableName);
  const rawLog = new S3RawLog(stack.clients.s3, bucketName);
  const agent = (agentId: string) => ({ tenantId: 'default', agentId });

  return {
    tableName,
    bucketName,
    queueUrl,
    deadLetterQueueUrl,
    ledger,
    rawLog,
    agent,
    /** Every raw-record key stored for an agent. */
    async rawKeys(agentId: string): Promise<string[]> {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await stack.clients.s3.send(
          new ListObjectsV2Command({ Bucket: bucketName, Prefix: rawRecordPrefix(agent(agentId)), ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    },
    /** The sequence of every raw record stored for an agent, in order (runs opened; holes left out). */
    async rawSequences(agentId: string): Promise<number[]> {
      const starts = (await this.rawKeys(agentId)).map((key) => Number(key.slice(rawRecordPrefix(agent(agentId)).length, -'.json'.length)));
      if (starts.length === 0) return [];
      const { records } = await rawLog.readRange(agent(agentId), 1, Math.max(...starts) + 100);
      return records.map((record) => record.sequence);
    },
    /** Every ledger item stored for an agent (counters, claims, batch markers). */
    async ledgerItems(agentId: string): Promise<Record<string, unknown>[]> {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await documents.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': agentPartitionKey(agent(agentId)) },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async queueDepth(url: string): Promise<number> {
      const attributes = await stack.clients.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    },
  };
}
