/** The injection log in the memory table: `INJECT#<requestId>`, expiring after the retention period (TTL attribute `expiresAt`). */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { Injection, InjectionLog } from '../../ports/injection-log.js';

export const INJECTION_RETENTION_DAYS = 90;

export class DynamoDbInjectionLog implements InjectionLog {
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
}
