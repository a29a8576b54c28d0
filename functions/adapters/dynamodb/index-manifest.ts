/** Index manifests in the memory table: one item per agent (`INDEX`), versioned, written conditionally. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { IndexManifest } from '../../domain/index-segment.js';
import type { IndexManifestStore } from '../../ports/retrieval-index.js';

const INDEX_KEY = 'INDEX';

export class DynamoDbIndexManifests implements IndexManifestStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(agent: AgentKey): Promise<IndexManifest | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: INDEX_KEY }, ConsistentRead: true }));
    return output.Item ? (JSON.parse(String(output.Item.data)) as IndexManifest) : undefined;
  }

  async write(agent: AgentKey, manifest: IndexManifest): Promise<boolean> {
    const first = manifest.version === 1;
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: agentPartitionKey(agent), sk: INDEX_KEY, version: manifest.version, data: JSON.stringify(manifest) },
          ConditionExpression: first ? 'attribute_not_exists(pk)' : '#version = :previous',
          ...(first ? {} : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':previous': manifest.version - 1 } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async delete(agent: AgentKey): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: INDEX_KEY } }));
  }
}
