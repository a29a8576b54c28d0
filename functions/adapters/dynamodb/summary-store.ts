/**
 * Summaries in the DynamoDB summaries table (stream: NEW_IMAGE), one
 * partition per agent. Sort keys:
 * - `SUM#<ladder>#<level>#<index>`: one summary; written once (conditional
 *   put), so the stream announces each summary exactly once per write;
 * - `SLOT#<ladder>#<level>#<index>`: a parent's slot, collecting the ids of
 *   its children as a string set (idempotent under duplicate deliveries);
 * - `CURSOR`: the open day and interaction, with the sweep index attributes.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { Ladder } from '../../domain/ladders.js';
import type { SummaryCursor } from '../../domain/summary-cursor.js';
import { batchGetAll } from './batch-get.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import type { StoredSummary, SummaryPage, SummaryStore } from '../../ports/summary-store.js';
import { SWEEP_INDEX, sweepBackoffMs, sweepShard } from '../../domain/table-layout.js';

/** Backoff of an agent whose sweep failed: 1 minute, doubling, at most 6 hours. */

const pad = (index: number) => String(index).padStart(10, '0');
const summaryKey = (ladder: Ladder, level: number, index: number) => `SUM#${ladder}#${level}#${pad(index)}`;
const slotKey = (ladder: Ladder, level: number, index: number) => `SLOT#${ladder}#${level}#${pad(index)}`;
/** Page sizes of `latestWithText`: small first, then the usual 64. */
const LATEST_PAGE_LIMITS = [2, 16];


export class DynamoDbSummaryStore implements SummaryStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getCursor(agent: AgentKey) {
    const output = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: agentPartitionKey(agent), sk: 'CURSOR' }, ConsistentRead: true }));
    if (!output.Item) return undefined;
    return { cursor: JSON.parse(String(output.Item.data)) as SummaryCursor, version: Number(output.Item.version) };
  }

  async putCursor(agent: AgentKey, cursor: SummaryCursor, expectedVersion: number, sweepAt: string | undefined): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: agentPartitionKey(agent),
            sk: 'CURSOR',
            data: JSON.stringify(cursor),
            version: expectedVersion + 1,
            tenantId: agent.tenantId,
            agentId: agent.agentId,
            // Sparse index: only agents with something a sweep could close are listed.
            ...(sweepAt ? { sweepShard: sweepShard(agent), sweepAt } : {}),
          },
          ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
          ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async putSummary(agent: AgentKey, summary: StoredSummary): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: agentPartitionKey(agent), sk: summaryKey(summary.ladder, summary.level, summary.index), tenantId: agent.tenantId, agentId: agent.agentId, ...summary },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async replaceSummary(agent: AgentKey, summary: StoredSummary): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: agentPartitionKey(agent), sk: summaryKey(summary.ladder, summary.level, summary.index), tenantId: agent.tenantId, agentId: agent.agentId, ...summary },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }

  async registerChild(agent: AgentKey, ladder: Ladder, level: number, index: number, childId: string | readonly string[]): Promise<ReadonlySet<string>> {
    const output = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: agentPartitionKey(agent), sk: slotKey(ladder, level, index) },
        UpdateExpression: 'ADD children :child',
        ExpressionAttributeValues: { ':child': new Set(typeof childId === 'string' ? [childId] : childId) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return new Set((output.Attributes?.children as Set<string> | undefined) ?? []);
  }

  async getSummaries(agent: AgentKey, keys: readonly { ladder: Ladder; level: number; index: number }[]): Promise<StoredSummary[]> {
    const pk = agentPartitionKey(agent);
    const items = await batchGetAll(this.client, this.tableName, keys.map((k) => ({ pk, sk: summaryKey(k.ladder, k.level, k.index) })));
    const found = new Map(items.map((item) => [String(item.id), toSummary(item)]));
    return keys.map((k) => found.get(`${k.ladder}:${k.level}:${k.index}`)).filter((s): s is StoredSummary => s !== undefined);
  }

  async findEmptyRuns(agent: AgentKey, ladder: Ladder, level: number, first: number, last: number): Promise<StoredSummary[]> {
    const pk = agentPartitionKey(agent);
    // Runs at a level never overlap each other or a summary: a run covering `first` is the item
    // at or just before it; any other overlapping run starts inside the range.
    const before = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': pk, ':low': summaryKey(ladder, level, 0), ':high': summaryKey(ladder, level, first) },
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const runs = (before.Items ?? []).map(toSummary).filter((s) => s.through !== undefined && s.through >= first);
    if (last > first) {
      let start: Record<string, unknown> | undefined;
      do {
        const inside = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
            FilterExpression: 'attribute_exists(through)',
            ExpressionAttributeValues: { ':pk': pk, ':low': summaryKey(ladder, level, first + 1), ':high': summaryKey(ladder, level, last) },
            ExclusiveStartKey: start,
          }),
        );
        runs.push(...(inside.Items ?? []).map(toSummary));
        start = inside.LastEvaluatedKey;
      } while (start);
    }
    return runs;
  }

  async listSummaries(agent: AgentKey, ladder: Ladder, level: number | undefined, page: { limit: number; nextToken?: string }): Promise<SummaryPage> {
    const pk = agentPartitionKey(agent);
    const prefix = level === undefined ? `SUM#${ladder}#` : `SUM#${ladder}#${level}#`;
    const start = decodePageToken(page.nextToken, pk, prefix);
    const output = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
        Limit: page.limit,
        ExclusiveStartKey: start,
      }),
    );
    return { items: (output.Items ?? []).map(toSummary), ...encodePageToken(output.LastEvaluatedKey) };
  }

  async latestWithText(agent: AgentKey, ladder: Ladder, level: number): Promise<StoredSummary | undefined> {
    // Newest first; Limit applies before the filter, so page past runs of empty markers. Runs of empty
    // periods are one item each, so the newest summary with text is nearly always among the first two:
    // the first pages are small (a Query reads, and is billed for, every item up to its Limit).
    let start: Record<string, unknown> | undefined;
    for (let page = 0; page < 50; page += 1) {
      const output = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: '#empty = :false',
          ExpressionAttributeNames: { '#empty': 'empty' },
          ExpressionAttributeValues: { ':pk': agentPartitionKey(agent), ':prefix': `SUM#${ladder}#${level}#`, ':false': false },
          ScanIndexForward: false,
          Limit: LATEST_PAGE_LIMITS[page] ?? 64,
          ExclusiveStartKey: start,
        }),
      );
      if (output.Items?.[0]) return toSummary(output.Items[0]);
      start = output.LastEvaluatedKey;
      if (!start) return undefined;
    }
    return undefined;
  }

  async dueForSweep(shard: string, now: string, limit: number, nextToken?: string): Promise<{ agents: AgentKey[]; nextToken?: string }> {
    const output = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: SWEEP_INDEX,
        KeyConditionExpression: 'sweepShard = :shard AND sweepAt <= :now',
        ExpressionAttributeValues: { ':shard': shard, ':now': now },
        Limit: limit,
        ...(nextToken ? { ExclusiveStartKey: JSON.parse(Buffer.from(nextToken, 'base64url').toString('utf8')) as Record<string, unknown> } : {}),
      }),
    );
    return {
      agents: (output.Items ?? []).map((item) => ({ tenantId: String(item.tenantId), agentId: String(item.agentId) })),
      ...(output.LastEvaluatedKey ? { nextToken: Buffer.from(JSON.stringify(output.LastEvaluatedKey)).toString('base64url') } : {}),
    };
  }

  async leaseSweep(agent: AgentKey, now: string, until: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: agentPartitionKey(agent), sk: 'CURSOR' },
          UpdateExpression: 'SET sweepAt = :until',
          ConditionExpression: 'sweepAt <= :now',
          ExpressionAttributeValues: { ':until': until, ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async deferSweep(agent: AgentKey, now: string): Promise<number> {
    const key = { pk: agentPartitionKey(agent), sk: 'CURSOR' };
    const counted = await this.client.send(
      new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: 'ADD sweepFailures :one', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'UPDATED_NEW' }),
    );
    const failures = Number(counted.Attributes?.sweepFailures ?? 1);
    const backoffMs = sweepBackoffMs(failures);
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'SET sweepAt = :later, sweepShard = :shard',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':later': new Date(Date.parse(now) + backoffMs).toISOString(), ':shard': sweepShard(agent) },
      }),
    );
    return failures;
  }
}

function toSummary(item: Record<string, unknown>): StoredSummary {
  return {
    id: String(item.id),
    ladder: item.ladder as Ladder,
    level: Number(item.level),
    index: Number(item.index),
    origin: Number(item.origin ?? 0),
    from: String(item.from),
    to: String(item.to),
    children: (item.children as string[] | undefined) ?? [],
    sources: (item.sources as string[] | undefined) ?? [],
    ...(item.range ? { range: item.range as { fromSequence: number; toSequence: number } } : {}),
    ...(item.through !== undefined ? { through: Number(item.through) } : {}),
    ...(item.rebuiltAt ? { rebuiltAt: String(item.rebuiltAt) } : {}),
    text: String(item.text ?? ''),
    tokens: Number(item.tokens ?? 0),
    inputTokens: Number(item.inputTokens ?? 0),
    empty: item.empty === true,
    modelId: String(item.modelId ?? ''),
    createdAt: String(item.createdAt),
  };
}
