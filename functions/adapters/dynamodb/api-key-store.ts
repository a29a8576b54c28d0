/** API keys in their own table, partition key `keyHash` (hex SHA-256 of the key). */
import { DeleteCommand, GetCommand, PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyStore, StoredApiKey } from '../../ports/api-keys.js';
import type { Scope } from '../../domain/auth.js';

export class DynamoDbApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<StoredApiKey | undefined> {
    // A strongly consistent read: a key created a moment ago works at once.
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return output.Item ? fromItem(output.Item) : undefined;
  }

  async put(key: StoredApiKey): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          keyHash: key.keyHash,
          keyId: key.keyId,
          tenantId: key.tenantId,
          scopes: [...key.scopes],
          agents: key.agents === '*' ? '*' : [...key.agents],
          createdAt: key.createdAt,
          ...(key.description ? { description: key.description } : {}),
        },
      }),
    );
  }

  async list(tenantId?: string): Promise<StoredApiKey[]> {
    const keys: StoredApiKey[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          ...(tenantId ? { FilterExpression: 'tenantId = :t', ExpressionAttributeValues: { ':t': tenantId } } : {}),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      keys.push(...(page.Items ?? []).map(fromItem));
      start = page.LastEvaluatedKey;
    } while (start);
    return keys.sort((a, b) => a.tenantId.localeCompare(b.tenantId) || a.createdAt.localeCompare(b.createdAt));
  }

  async revoke(keyId: string): Promise<boolean> {
    const match = (await this.list()).find((key) => key.keyId === keyId);
    if (!match) return false;
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { keyHash: match.keyHash } }));
    return true;
  }
}

function fromItem(item: Record<string, unknown>): StoredApiKey {
  return {
    keyHash: String(item.keyHash),
    keyId: String(item.keyId),
    tenantId: String(item.tenantId),
    scopes: (item.scopes as Scope[]) ?? [],
    agents: item.agents === '*' ? '*' : ((item.agents as string[]) ?? []),
    createdAt: String(item.createdAt),
    ...(item.description ? { description: String(item.description) } : {}),
  };
}
