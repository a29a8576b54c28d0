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
import { PatchTooLargeError, StoreVersionConflictError, type AuditEntry, type AuditRecord, type ItemPage, type MemoryRevisions, type MemoryStore, type StoreChange, type StoreHead, type UpdaterCommit } from '../../ports/memory-store.js';

// Part of the port's contract (the in-memory fake throws them too); re-exported for existing importers.
export { PatchTooLargeError, StoreVersionConflictError };

/** DynamoDB transactions hold at most 100 items and 4 MB. */
const MAX_TRANSACTION_ITEMS = 100;
const MAX_TRANSACTION_BYTES = 3_000_000; // below the 4 MB limit, with room for keys and expressions

/** A change id already used for that batch and updater (e.g. a batch reverted twice at once). */
export class ChangeAlreadyAppliedError extends MemoryServiceError {
  override readonly name = 'ChangeAlreadyAppliedError';
}

const MAX_ITEMS_PER_COMMIT = 97; // + head, audit and view = 100
const MAX_BINARY_BYTES = 350_000; // DynamoDB items are limited to 400 KB
/** A compressed value larger than this many parts is refused: the documented hard cap. */
const MAX_BLOB_PARTS = 40;

const headKey = (updater: UpdaterName) => `HEAD#${updater}`;
const itemPrefix = (updater: UpdaterName) => `ITEM#${updater}#`;
const auditKey = (batch: number, updater: UpdaterName) => `AUDIT#${String(batch).padStart(10, '0')}#${updater}`;
const viewKey = (updater: UpdaterName) => `VIEW#${updater}`;
const pendingKey = (updater: UpdaterName) => `PENDING#${updater}`;
/** Extra parts of a value too large for one item; outside every prefix the readers query. */
const partKey = (sk: string, part: number) => `PART#${sk}#${String(part).padStart(4, '0')}`;

/** Compresses a value into one or more parts, each small enough for one item. */
function packParts(value: unknown, what: string): Uint8Array[] {
  const packed = gzipSync(JSON.stringify(value));
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < packed.length || parts.length === 0; offset += MAX_BINARY_BYTES) parts.push(packed.subarray(offset, offset + MAX_BINARY_BYTES));
  if (parts.length > MAX_BLOB_PARTS) throw new PatchTooLargeError(`${what} is ${packed.length} bytes compressed; the limit is ${MAX_BLOB_PARTS * MAX_BINARY_BYTES}`);
  return parts;
}
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

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Puts of a value stored in parts: the first under `sk` (with the part count), the rest under part keys. */
function blobPuts(tableName: string, pk: string, sk: string, parts: readonly Uint8Array[], attributes: Record<string, unknown>, condition?: string): TransactItem[] {
  return parts.map((gz, part) => ({
    Put: {
      TableName: tableName,
      Item: part === 0 ? { pk, sk, gz, parts: parts.length, ...attributes } : { pk, sk: partKey(sk, part), gz },
      ...(part === 0 && condition ? { ConditionExpression: condition } : {}),
    },
  }));
}

const bytesOf = (item: TransactItem) => JSON.stringify(item, (_key, value: unknown) => (value instanceof Uint8Array ? 'x'.repeat(value.length) : value)).length;

/** What a staged (multi-step) commit keeps while its items are written. */
interface PendingCommit {
  readonly commit: UpdaterCommit;
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
    const pendingBatch = head.Item?.pendingBatch === undefined ? undefined : Number(head.Item.pendingBatch);
    return {
      updater,
      version: Number(head.Item?.version ?? 0),
      lastBatch: Number(head.Item?.lastBatch ?? 0),
      items: pendingBatch === undefined ? items : await this.withoutPending(agent, updater, items),
      tables: head.Item?.tables ? (JSON.parse(String(head.Item.tables)) as FactTable[]) : [],
      ...(pendingBatch !== undefined ? { pendingBatch } : {}),
    };
  }

  /**
   * Applies a patch. One that fits a transaction (with its head, audit and
   * view) is written atomically. A larger one is staged: the whole commit is
   * recorded first (with a `pendingBatch` mark on the head, conditional on the
   * head version), then the items in transactions of at most 100, then head,
   * audit and view together, clearing the mark. A retry finds the mark and
   * calls `resume`, which replays the recorded commit (no new model call);
   * readers see the items' previous state until the head moves.
   */
  async commit(agent: AgentKey, commit: UpdaterCommit): Promise<void> {
    const pk = agentPartitionKey(agent);
    const auditParts = packParts(commit.audit, 'audit entry');
    const view = pack(commit.view, 'view');
    const itemPuts = commit.changes.map((change) => this.itemPut(pk, commit.updater, change.after));
    const final = this.finalItems(pk, commit, auditParts, view, false);
    const all = [...final, ...itemPuts];
    if (all.length <= MAX_TRANSACTION_ITEMS && all.reduce((sum, item) => sum + bytesOf(item), 0) <= MAX_TRANSACTION_BYTES) {
      await this.transact(agent, commit, all);
      return;
    }
    const pendingParts = packParts({ commit: { ...commit, audit: { ...commit.audit, changes: [] } } } satisfies PendingCommit, 'pending commit');
    const headValues: Record<string, unknown> = { ':batch': commit.batch.index };
    if (commit.expectedVersion > 0) headValues[':expected'] = commit.expectedVersion;
    await this.transact(agent, commit, [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: headKey(commit.updater) },
          UpdateExpression: 'SET pendingBatch = :batch',
          ConditionExpression: `${commit.expectedVersion > 0 ? 'version = :expected' : 'attribute_not_exists(version)'} AND attribute_not_exists(pendingBatch)`,
          ExpressionAttributeValues: headValues,
        },
      },
      ...blobPuts(this.tableName, pk, pendingKey(commit.updater), pendingParts, { batch: commit.batch.index }),
    ]);
    await this.finishStaged(agent, commit, pendingParts.length);
  }

  async resume(agent: AgentKey, updater: UpdaterName, batchIndex: number): Promise<UpdaterCommit | undefined> {
    const pending = await this.readPending(agent, updater);
    if (!pending || pending.commit.batch.index !== batchIndex) return undefined;
    const commit: UpdaterCommit = { ...pending.commit, audit: { ...pending.commit.audit, changes: pending.commit.changes } };
    await this.finishStaged(agent, commit, pending.parts);
    return commit;
  }

  private async finishStaged(agent: AgentKey, commit: UpdaterCommit, pendingParts: number): Promise<void> {
    const pk = agentPartitionKey(agent);
    // Item puts are idempotent (the same after-state every time), so a retry rewrites them all.
    let group: TransactItem[] = [];
    let bytes = 0;
    for (const put of commit.changes.map((change) => this.itemPut(pk, commit.updater, change.after))) {
      const size = bytesOf(put);
      if (group.length > 0 && (group.length === MAX_TRANSACTION_ITEMS || bytes + size > MAX_TRANSACTION_BYTES)) {
        await this.client.send(new TransactWriteCommand({ TransactItems: group }));
        group = [];
        bytes = 0;
      }
      group.push(put);
      bytes += size;
    }
    if (group.length > 0) await this.client.send(new TransactWriteCommand({ TransactItems: group }));
    const final = this.finalItems(pk, commit, packParts(commit.audit, 'audit entry'), pack(commit.view, 'view'), true);
    const deletes: TransactItem[] = Array.from({ length: pendingParts }, (_, part) => ({
      Delete: { TableName: this.tableName, Key: { pk, sk: part === 0 ? pendingKey(commit.updater) : partKey(pendingKey(commit.updater), part) } },
    }));
    await this.transact(agent, commit, [...final, ...deletes]);
  }

  /** Head update, audit entry and view: the writes that make a patch visible. */
  private finalItems(pk: string, commit: UpdaterCommit, auditParts: readonly Uint8Array[], view: Uint8Array, staged: boolean): TransactItem[] {
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
    if (staged) headUpdate += ' REMOVE pendingBatch';
    if (commit.expectedVersion > 0) headValues[':expected'] = commit.expectedVersion;
    const versionCondition = commit.expectedVersion > 0 ? 'version = :expected' : 'attribute_not_exists(version)';
    return [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: headKey(commit.updater) },
          UpdateExpression: headUpdate,
          // A staged commit owns the head until it finishes; nothing else may move it meanwhile.
          ConditionExpression: staged ? `${versionCondition} AND pendingBatch = :batch` : `${versionCondition} AND attribute_not_exists(pendingBatch)`,
          ExpressionAttributeValues: headValues,
        },
      },
      ...blobPuts(
        this.tableName,
        pk,
        auditKey(commit.batch.index, commit.updater),
        auditParts,
        { updater: commit.updater, batch: commit.batch.index, changed: commit.changes.length, appliedAt: now },
        'attribute_not_exists(pk)',
      ),
      { Put: { TableName: this.tableName, Item: { pk, sk: viewKey(commit.updater), gz: view, version: commit.view.version, updatedAt: now } } },
    ];
  }

  private itemPut(pk: string, updater: UpdaterName, item: MemoryItem): TransactItem {
    return { Put: { TableName: this.tableName, Item: { pk, sk: `${itemPrefix(updater)}${item.id}`, data: JSON.stringify(item), status: item.status, updatedAt: item.updatedAt } } };
  }

  private async transact(agent: AgentKey, commit: UpdaterCommit, items: TransactItem[]): Promise<void> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        throw new StoreVersionConflictError(`${commit.updater} store of ${agent.agentId} moved on, or batch ${commit.batch.index} was already applied`, { cause: error });
      }
      throw error;
    }
  }

  private async readBlob<T>(pk: string, sk: string): Promise<{ value: T; parts: number } | undefined> {
    const first = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    if (!first.Item) return undefined;
    const parts = Number(first.Item.parts ?? 1);
    if (parts === 1) return { value: unpack<T>(first.Item.gz), parts };
    const rest = await batchGetAll(this.client, this.tableName, Array.from({ length: parts - 1 }, (_, i) => ({ pk, sk: partKey(sk, i + 1) })));
    const bySk = new Map(rest.map((item) => [String(item.sk), item.gz as Uint8Array]));
    const chunks = [first.Item.gz as Uint8Array, ...Array.from({ length: parts - 1 }, (_, i) => bySk.get(partKey(sk, i + 1)))];
    if (chunks.some((chunk) => chunk === undefined)) throw new MemoryServiceError(`${sk} of ${pk} is missing a part`);
    return { value: unpack<T>(Buffer.concat(chunks as Uint8Array[])), parts };
  }

  private async readPending(agent: AgentKey, updater: UpdaterName): Promise<{ commit: UpdaterCommit; parts: number } | undefined> {
    const blob = await this.readBlob<PendingCommit>(agentPartitionKey(agent), pendingKey(updater));
    return blob ? { commit: blob.value.commit, parts: blob.parts } : undefined;
  }

  /** Items as they were before a staged commit that has not finished: written items show their previous state. */
  private async withoutPending(agent: AgentKey, updater: UpdaterName, items: readonly MemoryItem[]): Promise<MemoryItem[]> {
    const pending = await this.readPending(agent, updater);
    if (!pending) return [...items];
    const before = new Map(pending.commit.changes.map((change) => [change.after.id, change.before]));
    return items.flatMap((item) => {
      if (!before.has(item.id)) return [item];
      const previous = before.get(item.id);
      return previous ? [previous] : [];
    });
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
    const raw = (output.Items ?? []).map((item) => JSON.parse(String(item.data)) as MemoryItem);
    // A staged commit in progress: its items stay hidden (shown as before) until its head moves.
    const head = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: headKey(updater) }, ProjectionExpression: 'pendingBatch' }));
    const items = head.Item?.pendingBatch === undefined ? raw : await this.withoutPending(agent, updater, raw);
    return { items, ...encodePageToken(output.LastEvaluatedKey) };
  }

  async readAudit(agent: AgentKey, batchIndex: number, updater: UpdaterName): Promise<AuditEntry | undefined> {
    return (await this.readBlob<AuditEntry>(agentPartitionKey(agent), auditKey(batchIndex, updater)))?.value;
  }

  async readView(agent: AgentKey, updater: UpdaterName): Promise<UpdaterView | undefined> {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: viewKey(updater) } }));
    return output.Item ? unpack<UpdaterView>(output.Item.gz) : undefined;
  }

  // --- changes outside consolidation, and the audit log as a whole -------------------------

  async commitChange(agent: AgentKey, change: StoreChange): Promise<void> {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(change.changeId)) throw new MemoryServiceError(`change id ${change.changeId} must be 1-80 of [A-Za-z0-9_-]`);
    const deletes = change.deletes ?? [];
    if (change.changes.length + deletes.length > MAX_ITEMS_PER_COMMIT - 1) {
      throw new PatchTooLargeError(`${change.updater} change touches ${change.changes.length + deletes.length} items; one commit holds at most ${MAX_ITEMS_PER_COMMIT - 1}`);
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
    const removed = deletes.map((id) => ({ Delete: { TableName: this.tableName, Key: { pk, sk: `${itemPrefix(change.updater)}${id}` } } }));
    const auditIndex = 1 + items.length + removed.length;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              // Only an existing store can change outside a batch; the version check serialises with batches.
              Update: { TableName: this.tableName, Key: { pk, sk: headKey(change.updater) }, UpdateExpression: update, ConditionExpression: 'version = :expected', ExpressionAttributeValues: values },
            },
            ...items,
            ...removed,
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
