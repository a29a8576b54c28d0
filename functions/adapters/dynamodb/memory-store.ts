/**
 * The memory stores in the DynamoDB memory table (single-table design, one
 * partition per agent `T#tenant#A#agent`). Sort keys:
 * - `HEAD#<updater>`: store version, last applied batch, fact tables;
 * - `ITEM#<updater>#<id>`: one memory item (JSON in `data`);
 * - `AUDIT#<batch>#<updater>`: the applied patch (gzip JSON), also the
 *   per-batch, per-updater completion marker;
 * - `VIEW#<updater>`: the budgeted snapshot view (gzip JSON).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import { batchGetAll } from './batch-get.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import type { FactTable, MemoryItem, UpdaterName, UpdaterStore } from '../../domain/memory.js';
import type { UpdaterView } from '../../domain/views.js';
import { PatchTooLargeError, StoreVersionConflictError, type AuditEntry, type ItemPage, type MemoryStore, type StoreHead, type UpdaterCommit } from '../../ports/memory-store.js';

// Part of the port's contract (the in-memory fake throws them too); re-exported for existing importers.
export { PatchTooLargeError, StoreVersionConflictError };

const MAX_ITEMS_PER_COMMIT = 97; // + head, audit and view = 100
const MAX_BINARY_BYTES = 350_000; // DynamoDB items are limited to 400 KB

const headKey = (updater: UpdaterName) => `HEAD#${updater}`;
const itemPrefix = (updater: UpdaterName) => `ITEM#${updater}#`;
const auditKey = (batch: number, updater: UpdaterName) => `AUDIT#${String(batch).padStart(10, '0')}#${updater}`;
const viewKey = (updater: UpdaterName) => `VIEW#${updater}`;

function pack(value: unknown, what: string): Uint8Array {
  const packed = gzipSync(JSON.stringify(value));
  if (packed.length > MAX_BINARY_BYTES) throw new PatchTooLargeError(`${what} is ${packed.length} bytes compressed; the limit is ${MAX_BINARY_BYTES}`);
  return packed;
}

function unpack<T>(value: unknown): T {
  return JSON.parse(gunzipSync(value as Uint8Array).toString('utf8')) as T;
}

export class DynamoDbMemoryStore implements MemoryStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async loadHeads(agent: AgentKey, updaters: readonly UpdaterName[]): Promise<StoreHead[]> {
    const pk = agentPartitionKey(agent);
    const items = await batchGetAll(this.client, this.tableName, updaters.map((u) => ({ pk, sk: headKey(u) })));
    const found = new Map(items.map((item) => [String(item.sk), item]));
    return updaters.map((updater) => {
      const head = found.get(headKey(updater));
      return { updater, version: Number(head?.version ?? 0), lastBatch: Number(head?.lastBatch ?? 0) };
    });
  }

  async load(agent: AgentKey, updater: UpdaterName): Promise<UpdaterStore> {
    const pk = agentPartitionKey(agent);
    const head = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: headKey(updater) }, ConsistentRead: true }));
    const items: MemoryItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': itemPrefix(updater) },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) items.push(JSON.parse(String(item.data)) as MemoryItem);
      start = page.LastEvaluatedKey;
    } while (start);
    return {
      updater,
      version: Number(head.Item?.version ?? 0),
      lastBatch: Number(head.Item?.lastBatch ?? 0),
      items,
      tables: head.Item?.tables ? (JSON.parse(String(head.Item.tables)) as FactTable[]) : [],
    };
  }

  async commit(agent: AgentKey, commit: UpdaterCommit): Promise<void> {
    if (commit.changes.length > MAX_ITEMS_PER_COMMIT) {
      throw new PatchTooLargeError(`${commit.updater} patch changes ${commit.changes.length} items; one commit holds at most ${MAX_ITEMS_PER_COMMIT}`);
    }
    const pk = agentPartitionKey(agent);
    const now = commit.audit.appliedAt;
    const headValues: Record<string, unknown> = {
      ':next': commit.expectedVersion + 1,
      ':batch': commit.batch.index,
      ':sequence': commit.batch.toSequence,
      ':now': now,
    };
    let headUpdate = 'SET version = :next, lastBatch = :batch, lastSequence = :sequence, updatedAt = :now';
    if (commit.tables) {
      headUpdate += ', tables = :tables';
      headValues[':tables'] = JSON.stringify(commit.tables);
    }
    if (commit.expectedVersion > 0) headValues[':expected'] = commit.expectedVersion;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk, sk: headKey(commit.updater) },
                UpdateExpression: headUpdate,
                ConditionExpression: commit.expectedVersion > 0 ? 'version = :expected' : 'attribute_not_exists(version)',
                ExpressionAttributeValues: headValues,
              },
            },
            ...commit.changes.map((change) => ({
              Put: {
                TableName: this.tableName,
                Item: {
                  pk,
                  sk: `${itemPrefix(commit.updater)}${change.after.id}`,
                  data: JSON.stringify(change.after),
                  status: change.after.status,
                  updatedAt: change.after.updatedAt,
                },
              },
            })),
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  pk,
                  sk: auditKey(commit.batch.index, commit.updater),
                  gz: pack(commit.audit, 'audit entry'),
                  updater: commit.updater,
                  batch: commit.batch.index,
                  changed: commit.changes.length,
                  appliedAt: now,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { pk, sk: viewKey(commit.updater), gz: pack(commit.view, 'view'), version: commit.view.version, updatedAt: now },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        throw new StoreVersionConflictError(`${commit.updater} store of ${agent.agentId} moved on, or batch ${commit.batch.index} was already applied`, { cause: error });
      }
      throw error;
    }
  }

  async listItems(agent: AgentKey, updater: UpdaterName, page: { limit: number; nextToken?: string }): Promise<ItemPage> {
    const pk = agentPartitionKey(agent);
    const start = decodePageToken(page.nextToken, pk, itemPrefix(updater));
    const output = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': itemPrefix(updater) },
        Limit: page.limit,
        ExclusiveStartKey: start,
      }),
    );
    const items = (output.Items ?? []).map((item) => JSON.parse(String(item.data)) as MemoryItem);
    return { items, ...encodePageToken(output.LastEvaluatedKey) };
  }

  async readAudit(agent: AgentKey, batchIndex: number, updater: UpdaterName): Promise<AuditEntry | undefined> {
    const output = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: auditKey(batchIndex, updater) } }),
    );
    return output.Item ? unpack<AuditEntry>(output.Item.gz) : undefined;
  }

  async readView(agent: AgentKey, updater: UpdaterName): Promise<UpdaterView | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: viewKey(updater) } }));
    return output.Item ? unpack<UpdaterView>(output.Item.gz) : undefined;
  }
}
