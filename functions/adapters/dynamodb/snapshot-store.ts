/**
 * Snapshots in the memory table: one item per agent (`SNAPSHOT`), the whole
 * snapshot gzip-compressed, with its version beside it. Reading it is one
 * GetItem; writing it is conditional on the version the assembler read.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import { packSnapshot, type Snapshot } from '../../domain/snapshot.js';
import type { SnapshotStore, StoredSnapshot } from '../../ports/snapshot-store.js';
import { PatchTooLargeError } from './memory-store.js';

const SNAPSHOT_KEY = 'SNAPSHOT';
const MAX_SNAPSHOT_BYTES = 380_000; // DynamoDB items are limited to 400 KB

export class DynamoDbSnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The read path: exactly one GetItem. */
  async read(agent: AgentKey): Promise<StoredSnapshot | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: SNAPSHOT_KEY } }));
    return output.Item ? { version: Number(output.Item.version), packed: output.Item.gz as Uint8Array } : undefined;
  }

  async readVersion(agent: AgentKey): Promise<number> {
    const output = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: SNAPSHOT_KEY }, ProjectionExpression: '#version', ExpressionAttributeNames: { '#version': 'version' }, ConsistentRead: true }),
    );
    return Number(output.Item?.version ?? 0);
  }

  /** Writes the next version; false when another assembler wrote first. */
  async write(agent: AgentKey, snapshot: Snapshot): Promise<boolean> {
    const packed = packSnapshot(snapshot);
    if (packed.length > MAX_SNAPSHOT_BYTES) throw new PatchTooLargeError(`snapshot of ${agent.agentId} is ${packed.length} bytes compressed; the limit is ${MAX_SNAPSHOT_BYTES}`);
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: agentPartitionKey(agent), sk: SNAPSHOT_KEY, version: snapshot.version, generatedAt: snapshot.generatedAt, gz: packed },
          ConditionExpression: snapshot.version === 1 ? 'attribute_not_exists(pk)' : '#version = :previous',
          ...(snapshot.version === 1 ? {} : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':previous': snapshot.version - 1 } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
