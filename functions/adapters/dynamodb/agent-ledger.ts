/**
 * The agent ledger in the DynamoDB agents table. One partition per agent
 * (`T#tenant#A#agent`); sort keys:
 * - `COUNTERS`: last sequence, message/action counts, batches closed and queued;
 * - `EVENT#<eventId>`: the claim that makes retries safe (sequence, content hash, the run its record is written in);
 * - `BATCH#<index>`: a closed batch's range, when it was queued and when it arrived.
 */
import {
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import { SequenceConflictError } from '../../domain/errors.js';
import type { AgentCounters, BatchRange } from '../../domain/sequencing.js';
import { batchGetAll } from './batch-get.js';
import type { AgentLedger, AgentStatus, BatchMarker, EventClaim } from '../../ports/pipeline.js';

const COUNTERS = 'COUNTERS';
const eventSortKey = (eventId: string) => `EVENT#${eventId}`;
const batchSortKey = (index: number) => `BATCH#${String(index).padStart(10, '0')}`;
const COUNTER_FIELDS = ['lastSequence', 'messages', 'actions', 'batchesClosed', 'lastBatchEnd', 'batchMessages'] as const;

export class DynamoDbAgentLedger implements AgentLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async loadForIngest(agent: AgentKey, eventIds: readonly string[]) {
    const pk = agentPartitionKey(agent);
    const keys = [{ pk, sk: COUNTERS }, ...eventIds.map((id) => ({ pk, sk: eventSortKey(id) }))];
    const items = await batchGetAll(this.client, this.tableName, keys);
    let status: AgentStatus | undefined;
    const claims = new Map<string, EventClaim>();
    for (const item of items) {
      if (item.sk === COUNTERS) status = toStatus(item);
      else {
        const claim = toClaim(item);
        claims.set(claim.eventId, claim);
      }
    }
    return { status, claims };
  }

  async commitSequences(
    agent: AgentKey,
    expected: AgentCounters | undefined,
    next: AgentCounters,
    claims: readonly EventClaim[],
    closedBatches: readonly BatchRange[],
    now: string,
  ): Promise<void> {
    const pk = agentPartitionKey(agent);
    // Only the counters that changed are written: a smaller item write, and the
    // common case (one more message) is a three-clause update.
    const assignments: Record<string, string | number> = { updatedAt: now };
    for (const field of COUNTER_FIELDS) {
      if (!expected || expected[field] !== next[field]) assignments[field] = next[field];
    }
    const creating = expected
      ? {}
      : { firstSeenAt: now, batchesQueued: 0, tenantId: agent.tenantId, agentId: agent.agentId };
    const values = { ...assignments, ...creating };
    const names = Object.keys(values);
    const counterUpdate = {
      Update: {
        TableName: this.tableName,
        Key: { pk, sk: COUNTERS },
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        // Flushes move lastBatchEnd without a new sequence number, so both are checked.
        ConditionExpression: expected
          ? 'lastSequence = :expected AND lastBatchEnd = :expectedBatchEnd'
          : 'attribute_not_exists(lastSequence)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value])),
          ...(expected ? { ':expected': expected.lastSequence, ':expectedBatchEnd': expected.lastBatchEnd } : {}),
        },
      },
    };
    const claimPuts = claims.map((claim) => ({
      Put: {
        TableName: this.tableName,
        Item: { pk, sk: eventSortKey(claim.eventId), ...claim },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }));
    const batchPuts = closedBatches.map((batch) => ({
      Put: {
        TableName: this.tableName,
        Item: { pk, sk: batchSortKey(batch.index), ...batch, closedAt: now, deliveries: 0, ...(claims.length === 0 ? { flushed: true } : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }));
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: [counterUpdate, ...claimPuts, ...batchPuts] }));
    } catch (error) {
      if (error instanceof TransactionCanceledException || error instanceof TransactionConflictException) {
        throw new SequenceConflictError(`another writer advanced agent ${agent.agentId} first`, { cause: error });
      }
      throw error;
    }
  }

  async markBatchQueued(agent: AgentKey, batch: BatchRange, now: string): Promise<void> {
    const pk = agentPartitionKey(agent);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk, sk: batchSortKey(batch.index) },
                UpdateExpression: 'SET queuedAt = :now',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(queuedAt)',
                ExpressionAttributeValues: { ':now': now },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { pk, sk: COUNTERS },
                UpdateExpression: 'ADD batchesQueued :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      );
    } catch (error) {
      // Already marked by an earlier delivery or a retry: counted once.
      if (error instanceof TransactionCanceledException && isConditionFailure(error, 0)) return;
      throw error;
    }
  }

  async markBatchArrived(agent: AgentKey, batchIndex: number, now: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: agentPartitionKey(agent), sk: batchSortKey(batchIndex) },
        UpdateExpression: 'SET arrivedAt = if_not_exists(arrivedAt, :now) ADD deliveries :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now, ':one': 1 },
      }),
    );
  }

  async recordBatchFailure(agent: AgentKey, batchIndex: number, cause: string, now: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: agentPartitionKey(agent), sk: batchSortKey(batchIndex) },
        UpdateExpression: 'SET lastError = :cause, lastErrorAt = :now ADD failures :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':cause': cause.slice(0, 2_000), ':now': now, ':one': 1 },
      }),
    );
  }

  async markBatchConsolidated(agent: AgentKey, batch: BatchRange, newestRecordAt: string, now: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: agentPartitionKey(agent), sk: COUNTERS },
          UpdateExpression:
            'SET lastConsolidatedSequence = :to, lastConsolidatedBatch = :batch, lastConsolidatedRecordAt = :newest, consolidatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastConsolidatedBatch) OR lastConsolidatedBatch < :batch)',
          ExpressionAttributeValues: { ':to': batch.toSequence, ':batch': batch.index, ':newest': newestRecordAt, ':now': now },
        }),
      );
    } catch (error) {
      // Already recorded by an earlier delivery: progress only moves forward.
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return;
      throw error;
    }
  }

  async recordHoles(agent: AgentKey, sequences: readonly number[], now: string): Promise<void> {
    if (sequences.length === 0) return;
    // A number set: recording the same hole again (a retry) changes nothing.
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: agentPartitionKey(agent), sk: COUNTERS },
        UpdateExpression: 'ADD holeSequences :holes SET lastHoleAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':holes': new Set(sequences), ':now': now },
      }),
    );
  }

  async requestSweep(agent: AgentKey, now: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: agentPartitionKey(agent), sk: COUNTERS },
        UpdateExpression: 'SET sweepRequestedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  }

  async clearSweepRequest(agent: AgentKey, requestedAt: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: agentPartitionKey(agent), sk: COUNTERS },
          UpdateExpression: 'REMOVE sweepRequestedAt',
          ConditionExpression: 'sweepRequestedAt = :at',
          ExpressionAttributeValues: { ':at': requestedAt },
        }),
      );
    } catch (error) {
      // A newer request arrived meanwhile: it stays for the next batch.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async readStatus(agent: AgentKey): Promise<AgentStatus | undefined> {
    const output = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: COUNTERS }, ConsistentRead: true }),
    );
    return output.Item ? toStatus(output.Item) : undefined;
  }

  async readBatch(agent: AgentKey, batchIndex: number): Promise<BatchMarker | undefined> {
    const output = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: batchSortKey(batchIndex) }, ConsistentRead: true }),
    );
    if (!output.Item) return undefined;
    const item = output.Item;
    return {
      index: Number(item.index),
      fromSequence: Number(item.fromSequence),
      toSequence: Number(item.toSequence),
      closedAt: String(item.closedAt),
      ...(item.queuedAt ? { queuedAt: String(item.queuedAt) } : {}),
      ...(item.arrivedAt ? { arrivedAt: String(item.arrivedAt) } : {}),
      ...(item.flushed ? { flushed: true as const } : {}),
      deliveries: Number(item.deliveries ?? 0),
      failures: Number(item.failures ?? 0),
      ...(item.lastError ? { lastError: String(item.lastError) } : {}),
    };
  }
}

function isConditionFailure(error: TransactionCanceledException, itemIndex: number): boolean {
  return error.CancellationReasons?.[itemIndex]?.Code === 'ConditionalCheckFailed';
}

const MAX_HOLES_REPORTED = 100;

function toStatus(item: Record<string, unknown>): AgentStatus {
  const holes = [...((item.holeSequences as Set<number> | undefined) ?? [])].map(Number).sort((a, b) => a - b);
  return {
    holes: holes.length,
    holeSequences: holes.slice(0, MAX_HOLES_REPORTED),
    lastSequence: Number(item.lastSequence ?? 0),
    messages: Number(item.messages ?? 0),
    actions: Number(item.actions ?? 0),
    batchesClosed: Number(item.batchesClosed ?? 0),
    lastBatchEnd: Number(item.lastBatchEnd ?? 0),
    batchMessages: Number(item.batchMessages ?? 0),
    batchesQueued: Number(item.batchesQueued ?? 0),
    lastConsolidatedSequence: Number(item.lastConsolidatedSequence ?? 0),
    lastConsolidatedBatch: Number(item.lastConsolidatedBatch ?? 0),
    ...(item.lastConsolidatedRecordAt ? { lastConsolidatedRecordAt: String(item.lastConsolidatedRecordAt) } : {}),
    firstSeenAt: String(item.firstSeenAt),
    updatedAt: String(item.updatedAt),
    ...(item.sweepRequestedAt ? { sweepRequestedAt: String(item.sweepRequestedAt) } : {}),
  };
}

function toClaim(item: Record<string, unknown>): EventClaim {
  const batch = item.closesBatch as Record<string, unknown> | undefined;
  const run = item.run as Record<string, unknown> | undefined;
  return {
    eventId: String(item.eventId),
    sequence: Number(item.sequence),
    contentHash: String(item.contentHash),
    receivedAt: String(item.receivedAt),
    timestamp: String(item.timestamp),
    ...(item.opensBatch ? { opensBatch: true as const } : {}),
    ...(batch
      ? { closesBatch: { index: Number(batch.index), fromSequence: Number(batch.fromSequence), toSequence: Number(batch.toSequence) } }
      : {}),
    ...(run ? { run: { from: Number(run.from), to: Number(run.to) } } : {}),
  };
}
