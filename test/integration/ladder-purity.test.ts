/**
 * Raw records are read once per batch for the stores and once for the base
 * summaries they close (a day and its interactions share the read), and
 * never by a higher level: records read counted per level, and no S3 call
 * at all above the base.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbMemoryStore } from '../../functions/adapters/dynamodb/memory-store.js';
import { DynamoDbSummaryStore } from '../../functions/adapters/dynamodb/summary-store.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import { DEFAULT_LADDERS } from '../../functions/domain/ladders.js';
import { DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import { consolidateBatch } from '../../functions/use-cases/consolidate-batch.js';
import { ladderStep, sweepAgent, type SummaryDependencies } from '../../functions/use-cases/summaries.js';
import type { StoredSummary } from '../../functions/ports/summary-store.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;
const agentId = 'purity';
const agent = { tenantId: 'default', agentId };
let s3Calls = 0;

/** The S3 raw log, counting the records its reads return (a run of records is one object, read for any of them). */
class CountingRawLog extends S3RawLog {
  records = 0;
  override async readRange(...args: Parameters<S3RawLog['readRange']>) {
    const range = await super.readRange(...args);
    this.records += range.records.length;
    return range;
  }
  override async get(...args: Parameters<S3RawLog['get']>) {
    const record = await super.get(...args);
    if (record) this.records += 1;
    return record;
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  await stack.eventSources.stop(); // this test drives consolidation and the ladder itself, and counts
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('purity of the ladders', () => {
  it('reads each raw record once for the stores, once for the base summaries, and never above the base', async () => {
    // One week, Monday to Sunday (2025-03-03 is a Monday), 5 messages a day in one interaction each.
    const events = Array.from({ length: 35 }, (_, i) => ({
      id: `p${i + 1}`,
      type: 'message',
      role: 'user',
      content: `Day ${Math.floor(i / 5) + 1}: I met Dana Whitfield about the launch.`,
      timestamp: new Date(Date.parse('2025-03-03T09:00:00Z') + Math.floor(i / 5) * 86_400_000 + (i % 5) * 60_000).toISOString(),
      interactionId: `day-${Math.floor(i / 5)}`,
    }));
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events });
    await api(stack, 'POST', `/v1/agents/${agentId}/flush`);

    const s3 = new S3Client({ endpoint: stack.endpoint, region: 'us-east-1', forcePathStyle: true });
    s3.middlewareStack.add(
      (next, context) => async (args) => {
        s3Calls += 1;
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    const rawLog = new CountingRawLog(s3, read.bucketName);
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
    const summaryStore = new DynamoDbSummaryStore(documents, stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable'));
    const summaries: SummaryDependencies = {
      summaries: summaryStore,
      rawLog,
      model: new LocalModel(),
      ladders: DEFAULT_LADDERS,
      cursor: { timeZone: 'UTC', idleGapMs: 30 * 60_000 },
      // The sweep runs on the Monday after the simulated week.
      now: () => new Date('2025-03-10T12:00:00Z'),
    };
    const batch = await read.ledger.readBatch(agent, 1);

    await consolidateBatch(
      { ledger: read.ledger, rawLog: summaries.rawLog, memory: new DynamoDbMemoryStore(documents, stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable')), model: new LocalModel(), budget: DEFAULT_BUDGET, summaries },
      { ...agent, index: 1, fromSequence: batch!.fromSequence, toSequence: batch!.toSequence },
    );
    // Stores: 35 records once. Base summaries: days 1-6 and interactions 1-6 closed, over the same 30 records.
    expect(rawLog.records).toBe(35 + 30);
    const swept = await sweepAgent(summaries, agent);
    // Sweep: day 7 and interaction 7, over the same 5 records.
    expect(rawLog.records).toBe(35 + 30 + 5);
    expect(swept.map((s) => s.id).sort()).toEqual(['count:0:7', `time:0:${Math.floor(Date.parse('2025-03-09T00:00:00Z') / 86_400_000)}`]);

    const callsAtBase = s3Calls;
    const base = [...(await summaryStore.listSummaries(agent, 'time', 0, { limit: 100 })).items, ...(await summaryStore.listSummaries(agent, 'count', 0, { limit: 100 })).items];
    const parents: StoredSummary[] = [];
    for (const summary of base) {
      const parent = await ladderStep({ summaries: summaryStore, model: summaries.model, ladders: DEFAULT_LADDERS }, agent, summary);
      if (parent) parents.push(parent);
    }

    expect(parents.map((p) => p.id)).toEqual([`time:1:${Math.floor((Math.floor(Date.parse('2025-03-03T00:00:00Z') / 86_400_000) + 3) / 7)}`]);
    expect(parents[0]!.children).toHaveLength(7);
    expect(s3Calls).toBe(callsAtBase);
    expect(rawLog.records).toBe(35 + 30 + 5);
  });
});
