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
import { MemoryServiceError } from '../../domain/errors.js';
import { batchGetAll } from './batch-get.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import type { FactTable, ItemStatus, MemoryItem, UpdaterName, UpdaterStore } from '../../domain/memory.js';
import { UPDATERS } from '../../domain/memory.js';
import type { UpdaterView } from '../../domain/views.js';
import type { AuditEntry, AuditRecord, ItemPage, MemoryRevisions, MemoryStore, StoreChange, StoreHead, UpdaterCommit } from '../../ports/memory-store.js';

/** Another writer moved the store head first; the updater reruns on fresh state. */
export class StoreVersionConflictError extends MemoryServiceError {
  override readonly name = 'StoreVersionConflictError';
}

/** A change id already used for that batch and updater (e.g. a batch reverted twice at once). */
export class ChangeAlreadyAppliedError extends MemoryServiceError {
  override readonly name = 'ChangeAlreadyAppliedError';
}

/** A patch that cannot be applied in one transaction (DynamoDB allows 100 items). */
export class PatchTooLargeError extends MemoryServiceError {
  override readonly name = 'PatchTooLargeError';
}

const MAX_ITEMS_PER_COMMIT = 97; // + head, audit and view = 100
const MAX_BINARY_BYTES = 350_000; // DynamoDB items are limited to 400 KB

const headKey = (updater: UpdaterName) => `HEAD#${updater}`;
const itemPrefix = (updater: UpdaterName) => `ITEM#${updater}#`;
const auditKey = (batch: number, updater: UpdaterName) => `AUDIT#${String(batch).padStart(10, '0')}#${updater}`;
const viewKey = (updater: UpdaterName) => `VIEW#${updater}`;
/** Changes outside consolidation sort right after the batch they refer to. */
const changeAuditKey = (batch: number, updater: UpdaterName, changeId: string) => `${auditKey(batch, updater)}#${changeId}`;
const cursorKey = (name: string) => `CURSOR#${name}`;

function pack(value: unknown, what: string): Uint8Array {
  const packed = gzipSync(JSON.stringify(value));
  if (packed.length > MAX_BINARY_BYTES) throw new PatchTooLargeError(`${what} is ${packed.length} bytes compressed; the limit is ${MAX_BINARY_BYTES}`);
  return packed;
}

function unpack<T>(value: unknown): T {
  return JSON.parse(gunzipSync(value as Uint8Array).toString('utf8')) as T;
}

export class DynamoDbMemoryStore implements MemoryStore, MemoryRevisions {
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

  async listItems(agent: AgentKey, updater: UpdaterName, page: { limit: number; nextToken?: string; status?: ItemStatus }): Promise<ItemPage> {
    const pk = agentPartitionKey(agent);
    const start = decodePageToken(page.nextToken, pk, itemPrefix(updater));
    const output = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': itemPrefix(updater), ...(page.status ? { ':status': page.status } : {}) },
        // A filtered page may hold fewer than `limit` items; the token still leads on.
        ...(page.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
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

  // --- changes outside consolidation, and the audit log as a whole -------------------------

  async commitChange(agent: AgentKey, change: StoreChange): Promise<void> {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(change.changeId)) throw new MemoryServiceError(`change id ${change.changeId} must be 1-80 of [A-Za-z0-9_-]`);
    if (change.changes.length > MAX_ITEMS_PER_COMMIT - 1) {
      throw new PatchTooLargeError(`${change.updater} change touches ${change.changes.length} items; one commit holds at most ${MAX_ITEMS_PER_COMMIT - 1}`);
    }
    const pk = agentPartitionKey(agent);
    const now = change.audit.appliedAt;
    const values: Record<string, unknown> = { ':next': change.expectedVersion + 1, ':expected': change.expectedVersion, ':now': now };
    let update = 'SET version = :next, updatedAt = :now';
    if (change.tables) {
      update += ', tables = :tables';
      values[':tables'] = JSON.stringify(change.tables);
    }
    const items = change.changes.map((c) => ({
      Put: {
        TableName: this.tableName,
        Item: { pk, sk: `${itemPrefix(change.updater)}${c.after.id}`, data: JSON.stringify(c.after), status: c.after.status, updatedAt: c.after.updatedAt },
      },
    }));
    const auditIndex = 1 + items.length;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              // Only an existing store can change outside a batch; the version check serialises with batches.
              Update: { TableName: this.tableName, Key: { pk, sk: headKey(change.updater) }, UpdateExpression: update, ConditionExpression: 'version = :expected', ExpressionAttributeValues: values },
            },
            ...items,
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  pk,
                  sk: changeAuditKey(change.batch, change.updater, change.changeId),
                  gz: pack(change.audit, 'audit entry'),
                  updater: change.updater,
                  batch: change.batch,
                  changeId: change.changeId,
                  changed: change.changes.length,
                  appliedAt: now,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.tableName, Item: { pk, sk: viewKey(change.updater), gz: pack(change.view, 'view'), version: change.view.version, updatedAt: now } } },
            ...(change.cursor ? [{ Put: { TableName: this.tableName, Item: { pk, sk: cursorKey(change.cursor.name), value: change.cursor.value, updatedAt: now } } }] : []),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        if (error.CancellationReasons?.[auditIndex]?.Code === 'ConditionalCheckFailed') {
          throw new ChangeAlreadyAppliedError(`${change.changeId} of batch ${change.batch} (${change.updater}) was already applied`, { cause: error });
        }
        throw new StoreVersionConflictError(`${change.updater} store of ${agent.agentId} moved on`, { cause: error });
      }
      throw error;
    }
  }

  async listAudit(agent: AgentKey, filter: { readonly updater?: UpdaterName; readonly batch?: number }): Promise<AuditRecord[]> {
    const pk = agentPartitionKey(agent);
    const prefix = filter.batch === undefined ? 'AUDIT#' : `AUDIT#${String(filter.batch).padStart(10, '0')}#`;
    const records: AuditRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...(filter.updater ? { ':updater': filter.updater } : {}) },
          ...(filter.updater ? { FilterExpression: '#updater = :updater', ExpressionAttributeNames: { '#updater': 'updater' } } : {}),
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const row of page.Items ?? []) {
        const [, batch, updater, changeId] = String(row.sk).split('#');
        if (!UPDATERS.includes(updater as UpdaterName)) continue;
        records.push({ updater: updater as UpdaterName, batch: Number(batch), ...(changeId ? { changeId } : {}), entry: unpack<AuditEntry>(row.gz) });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return records;
  }

  async readCursor(agent: AgentKey, name: string): Promise<string | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: cursorKey(name) }, ConsistentRead: true }));
    return output.Item?.value === undefined ? undefined : String(output.Item.value);
  }
}
