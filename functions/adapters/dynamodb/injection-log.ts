/** The injection log in the memory table: `INJECT#<requestId>`, expiring after the retention period (TTL attribute `expiresAt`). */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { Injection, InjectionHistory, InjectionLog } from '../../ports/injection-log.js';

export const INJECTION_RETENTION_DAYS = 90;

export class DynamoDbInjectionLog implements InjectionLog, InjectionHistory {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(agent: AgentKey, injection: Injection): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: agentPartitionKey(agent),
          sk: `INJECT#${injection.requestId}`,
          data: JSON.stringify(injection),
          expiresAt: Math.floor(Date.parse(injection.at) / 1000) + INJECTION_RETENTION_DAYS * 86_400,
        },
      }),
    );
  }

  async read(agent: AgentKey, requestId: string): Promise<Injection | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: `INJECT#${requestId}` } }));
    return output.Item ? (JSON.parse(String(output.Item.data)) as Injection) : undefined;
  }

  async listSince(agent: AgentKey, after: string | undefined): Promise<Injection[]> {
    // Entries are keyed by request id, not time; the expiry (time + retention, in seconds) filters
    // out what was counted already, to the second, and the exact time is checked below.
    const fromExpiry = after === undefined ? 0 : Math.floor(Date.parse(after) / 1000) + INJECTION_RETENTION_DAYS * 86_400;
    const injections: Injection[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: 'expiresAt >= :from',
          ExpressionAttributeValues: { ':pk': agentPartitionKey(agent), ':prefix': 'INJECT#', ':from': fromExpiry },
          ExclusiveStartKey: start,
        }),
      );
      for (const row of page.Items ?? []) {
        const injection = JSON.parse(String(row.data)) as Injection;
        if (after === undefined || injection.at > after) injections.push(injection);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return injections.sort((a, b) => a.at.localeCompare(b.at) || a.requestId.localeCompare(b.requestId));
  }
}
