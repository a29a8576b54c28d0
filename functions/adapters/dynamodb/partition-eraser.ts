/** Erases an agent's partition in one table (`pk = T#<tenant>#A#<agent>`): every item, whatever its sort key. */
import { BatchWriteCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { AgentDataEraser, ErasureLog, ErasureRecord } from '../../ports/erasure.js';

export class DynamoDbPartitionEraser implements AgentDataEraser {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    readonly name: string,
  ) {}

  async erase(agent: AgentKey): Promise<number> {
    const pk = agentPartitionKey(agent);
    let deleted = 0;
    for (;;) {
      const page = await this.client.send(
        new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: 'pk, sk', Limit: 100, ConsistentRead: true }),
      );
      const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
      if (keys.length === 0) break;
      for (let start = 0; start < keys.length; start += 25) {
        let pending = keys.slice(start, start + 25).map((Key) => ({ DeleteRequest: { Key } }));
        for (let attempt = 0; pending.length > 0; attempt += 1) {
          if (attempt >= 8) throw new Error(`erasure of ${this.name}: items left unprocessed`);
          const result = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
          pending = (result.UnprocessedItems?.[this.tableName] ?? []) as typeof pending;
        }
      }
      deleted += keys.length;
    }
    return deleted;
  }
}

/** Erasure records in the agents table, under the tenant's own partition (no agent partition, so erasing never erases them). */
export class DynamoDbErasureLog implements ErasureLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(tenantId: string, entry: ErasureRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { pk: `T#${tenantId}#ERASURES`, sk: `${entry.agentId}#${entry.erasedAt}`, ...entry } }));
  }

  async list(tenantId: string): Promise<ErasureRecord[]> {
    const page = await this.client.send(new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `T#${tenantId}#ERASURES` } }));
    return (page.Items ?? []).map(({ pk: _pk, sk: _sk, ...entry }) => entry as ErasureRecord);
  }
}
