/**
 * The in-memory fakes keep the contracts their AWS adapters keep: the same
 * specifications run against the DynamoDB and S3 adapters on the emulator and
 * against the fakes. A unit test on the fakes is only worth what this file
 * proves.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbAgentLedger } from '../../functions/adapters/dynamodb/agent-ledger.js';
import { DynamoDbMemoryStore } from '../../functions/adapters/dynamodb/memory-store.js';
import { DynamoDbSnapshotStore } from '../../functions/adapters/dynamodb/snapshot-store.js';
import { DynamoDbSummaryStore } from '../../functions/adapters/dynamodb/summary-store.js';
import { sweepShard } from '../../functions/domain/table-layout.js';
import { DynamoDbInjectionLog } from '../../functions/adapters/dynamodb/injection-log.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import type { AgentKey } from '../../functions/domain/agent-key.js';
import { SequenceConflictError, ValidationError } from '../../functions/domain/errors.js';
import { EMPTY_COUNTERS, type AgentCounters } from '../../functions/domain/sequencing.js';
import type { TaskItem } from '../../functions/domain/memory.js';
import { unpackSnapshot, type Snapshot } from '../../functions/domain/snapshot.js';
import { buildView } from '../../functions/domain/views.js';
import {
  InMemoryAgentLedger,
  InMemoryInjectionLog,
  InMemoryMemoryStore,
  InMemoryRawLog,
  InMemorySnapshotStore,
  InMemorySummaryStore,
} from '../../functions/ports/fakes/index.js';
import { StoreVersionConflictError, type MemoryStore, type UpdaterCommit } from '../../functions/ports/memory-store.js';
import { MissingRecordsError, type AgentLedger, type EventClaim, type RawLog, type RawRecord } from '../../functions/ports/pipeline.js';
import type { SnapshotStore } from '../../functions/ports/snapshot-store.js';
import type { StoredSummary, SummaryStore } from '../../functions/ports/summary-store.js';
import type { InjectionLog } from '../../functions/ports/injection-log.js';
import type { LocalStack } from '../../local/local-stack.js';
import { startTestStack } from '../support/local-stack.js';

interface Ports {
  readonly ledger: AgentLedger;
  readonly rawLog: RawLog;
  readonly memory: MemoryStore;
  readonly summaries: SummaryStore;
  readonly snapshots: SnapshotStore;
  readonly injections: InjectionLog;
}

let stack: LocalStack;
let dynamo: Ports;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.eventSources.stop();
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb, { marshallOptions: { removeUndefinedValues: true } });
  const memoryTable = stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable');
  dynamo = {
    ledger: new DynamoDbAgentLedger(documents, stack.resourceRef('AWS::DynamoDB::Table', 'AgentsTable')),
    rawLog: new S3RawLog(stack.clients.s3, stack.resourceRef('AWS::S3::Bucket', 'RawLog')),
    memory: new DynamoDbMemoryStore(documents, memoryTable),
    summaries: new DynamoDbSummaryStore(documents, stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable')),
    snapshots: new DynamoDbSnapshotStore(documents, memoryTable),
    injections: new DynamoDbInjectionLog(documents, memoryTable),
  };
});

afterAll(async () => {
  await stack?.stop();
});

const inMemory = (): Ports => ({
  ledger: new InMemoryAgentLedger(),
  rawLog: new InMemoryRawLog(),
  memory: new InMemoryMemoryStore(),
  summaries: new InMemorySummaryStore(),
  snapshots: new InMemorySnapshotStore(),
  injections: new InMemoryInjectionLog(),
});

/** Each test gets an agent of its own, so tests sharing the emulator's tables never meet. */
const freshAgent = (): AgentKey => ({ tenantId: 'default', agentId: `contract-${randomBytes(5).toString('hex')}` });

const now = '2026-11-02T09:00:00.000Z';
const counters = (lastSequence: number, extra: Partial<AgentCounters> = {}): AgentCounters => ({ ...EMPTY_COUNTERS, lastSequence, messages: lastSequence, batchMessages: lastSequence, ...extra });
const claim = (eventId: string, sequence: number): EventClaim => ({ eventId, sequence, contentHash: `h-${eventId}`, receivedAt: now, timestamp: now });

function task(id: string, title: string): TaskItem {
  return {
    id,
    kind: 'task',
    title,
    owner: 'user',
    state: 'open',
    scope: { tenantId: 'default', agentId: 'a' },
    status: 'active',
    verification: 'unverified',
    confidence: 0.8,
    hitCount: 1,
    createdAt: now,
    updatedAt: now,
    lastReinforcedAt: now,
    evidence: [{ recordId: 'r1', sequence: 1, timestamp: now }],
    history: [],
  };
}

function tasksCommit(batch: number, expectedVersion: number, items: TaskItem[]): UpdaterCommit {
  const range = { index: batch, fromSequence: batch * 10 - 9, toSequence: batch * 10 };
  return {
    updater: 'tasks',
    expectedVersion,
    batch: range,
    changes: items.map((after) => ({ before: null, after })),
    audit: { updater: 'tasks', batch: range, appliedAt: now, modelId: 'm', prompt: { id: 'tasks', version: 'v1' }, usage: { inputTokens: 1, outputTokens: 1 }, ops: [], changes: [], quarantined: [] },
    view: buildView('tasks', items, { version: expectedVersion + 1, batch, lastSequence: range.toSequence, updatedAt: now }),
  };
}

function summary(level: number, index: number, text: string): StoredSummary {
  return {
    id: `count:${level}:${index}`,
    ladder: 'count',
    level,
    index,
    origin: 0,
    from: String(index),
    to: String(index),
    children: [],
    sources: text ? [`r${index}`] : [],
    text,
    tokens: text ? 3 : 0,
    inputTokens: 0,
    empty: text === '',
    modelId: text ? 'm' : '',
    createdAt: now,
  };
}

function rawRecord(agent: AgentKey, sequence: number): RawRecord {
  return { tenantId: agent.tenantId, agentId: agent.agentId, sequence, id: `r${sequence}`, type: 'message', role: 'user', content: `record ${sequence}`, timestamp: now, receivedAt: now };
}

const implementations: [string, () => Ports][] = [
  ['DynamoDB and S3 adapters on the emulator', () => dynamo],
  ['in-memory fakes', inMemory],
];

describe.each(implementations)('%s', (_name, ports) => {
  describe('agent ledger', () => {
    it('refuses a second first commit for the same agent with SequenceConflictError, keeping the first', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      await ledger.commitSequences(agent, undefined, counters(1), [claim('e1', 1)], [], now);

      await expect(ledger.commitSequences(agent, undefined, counters(1), [claim('e2', 1)], [], now)).rejects.toBeInstanceOf(SequenceConflictError);
      const loaded = await ledger.loadForIngest(agent, ['e1', 'e2']);
      expect(loaded.status?.lastSequence).toBe(1);
      expect([...loaded.claims.keys()]).toEqual(['e1']);
    });

    it('refuses a commit expecting counters that moved on, writing none of its claims', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      await ledger.commitSequences(agent, undefined, counters(1), [claim('e1', 1)], [], now);
      await ledger.commitSequences(agent, counters(1), counters(2), [claim('e2', 2)], [], now);

      await expect(ledger.commitSequences(agent, counters(1), counters(2), [claim('e3', 2)], [], now)).rejects.toBeInstanceOf(SequenceConflictError);
      expect((await ledger.loadForIngest(agent, ['e3'])).claims.size).toBe(0);
    });

    it('refuses a commit whose claim already exists, leaving the counters as they were', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      await ledger.commitSequences(agent, undefined, counters(1), [claim('e1', 1)], [], now);

      await expect(ledger.commitSequences(agent, counters(1), counters(2), [claim('e1', 2)], [], now)).rejects.toBeInstanceOf(SequenceConflictError);
      expect((await ledger.readStatus(agent))?.lastSequence).toBe(1);
    });

    it('creates the batch markers a commit closes, and counts a queued batch once however often it is marked', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      const batch = { index: 1, fromSequence: 1, toSequence: 2 };
      await ledger.commitSequences(agent, undefined, counters(2, { batchesClosed: 1, lastBatchEnd: 2, batchMessages: 0 }), [claim('e1', 1), claim('e2', 2)], [batch], now);

      await ledger.markBatchQueued(agent, batch, now);
      await ledger.markBatchQueued(agent, batch, '2026-11-02T10:00:00.000Z');

      expect(await ledger.readBatch(agent, 1)).toEqual({ ...batch, closedAt: now, queuedAt: now, deliveries: 0, failures: 0 });
      expect((await ledger.readStatus(agent))?.batchesQueued).toBe(1);
    });

    it('ignores marking a batch queued that was never closed', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      await ledger.commitSequences(agent, undefined, counters(1), [claim('e1', 1)], [], now);

      await ledger.markBatchQueued(agent, { index: 7, fromSequence: 1, toSequence: 1 }, now);

      expect(await ledger.readBatch(agent, 7)).toBeUndefined();
      expect((await ledger.readStatus(agent))?.batchesQueued).toBe(0);
    });

    it('counts deliveries and failures of a batch, keeping its first arrival and latest cause', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      const batch = { index: 1, fromSequence: 1, toSequence: 1 };
      await ledger.commitSequences(agent, undefined, counters(1, { batchesClosed: 1, lastBatchEnd: 1, batchMessages: 0 }), [claim('e1', 1)], [batch], now);

      await ledger.markBatchArrived(agent, 1, now);
      await ledger.markBatchArrived(agent, 1, '2026-11-02T09:05:00.000Z');
      await ledger.recordBatchFailure(agent, 1, 'first cause', now);
      await ledger.recordBatchFailure(agent, 1, 'second cause', now);

      expect(await ledger.readBatch(agent, 1)).toMatchObject({ arrivedAt: now, deliveries: 2, failures: 2, lastError: 'second cause' });
      await expect(ledger.markBatchArrived(agent, 9, now)).rejects.toThrow();
    });

    it('only ever moves consolidation progress forward', async () => {
      const { ledger } = ports();
      const agent = freshAgent();
      await ledger.commitSequences(agent, undefined, counters(4), [claim('e1', 1)], [], now);

      await ledger.markBatchConsolidated(agent, { index: 2, fromSequence: 3, toSequence: 4 }, '2026-11-02T08:00:00Z', now);
      await ledger.markBatchConsolidated(agent, { index: 1, fromSequence: 1, toSequence: 2 }, '2026-11-02T07:00:00Z', now);

      expect(await ledger.readStatus(agent)).toMatchObject({ lastConsolidatedBatch: 2, lastConsolidatedSequence: 4, lastConsolidatedRecordAt: '2026-11-02T08:00:00Z' });
    });
  });

  describe('raw log', () => {
    it('returns a range in order, and names every missing record', async () => {
      const { rawLog } = ports();
      const agent = freshAgent();
      for (const sequence of [1, 2, 4]) await rawLog.putRun(agent, { from: sequence, to: sequence, records: [rawRecord(agent, sequence)] });

      expect((await rawLog.getRange(agent, 1, 2)).map((record) => record.id)).toEqual(['r1', 'r2']);
      const failure = await rawLog.getRange(agent, 1, 5).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MissingRecordsError);
      expect((failure as MissingRecordsError).missing).toEqual([3, 5]);
    });

    it('reads a run of records from any sequence inside it, and stores each run once', async () => {
      const { rawLog } = ports();
      const agent = freshAgent();
      const run = (from: number, to: number) => ({ from, to, records: Array.from({ length: to - from + 1 }, (_, i) => rawRecord(agent, from + i)) });
      expect(await rawLog.putRun(agent, run(1, 3))).toEqual([]);
      expect(await rawLog.putRun(agent, run(4, 13))).toEqual([]);
      expect(await rawLog.putRun(agent, run(4, 13))).toEqual([]);

      expect((await rawLog.getRange(agent, 1, 13)).map((record) => record.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      // A range that starts inside a run, and one record inside a run, are found from the run's key.
      expect((await rawLog.getRange(agent, 7, 9)).map((record) => record.id)).toEqual(['r7', 'r8', 'r9']);
      expect((await rawLog.get(agent, 12))?.id).toBe('r12');
      expect(await rawLog.get(agent, 14)).toBeUndefined();
      expect(await rawLog.readRange(agent, 12, 15)).toMatchObject({ missing: [14, 15], holes: [] });
    });

    it('keeps a run written in part by a retry, reads the rest of its range as holes, and refuses what it lacks', async () => {
      const { rawLog } = ports();
      const agent = freshAgent();
      expect(await rawLog.putRun(agent, { from: 1, to: 4, records: [rawRecord(agent, 2), rawRecord(agent, 3)] })).toEqual([]);

      expect(await rawLog.putRun(agent, { from: 1, to: 4, records: [1, 2, 3, 4].map((sequence) => rawRecord(agent, sequence)) })).toEqual([1, 4]);
      expect(await rawLog.readRange(agent, 1, 5)).toMatchObject({ records: [{ id: 'r2' }, { id: 'r3' }], holes: [1, 4], missing: [5] });
    });

    it('refuses a run whose key holds a hole, and a hole over a stored run', async () => {
      const { rawLog } = ports();
      const agent = freshAgent();
      const hole = (sequence: number) => ({ sequence, batch: 1, declaredAt: '2026-11-02T09:00:00Z', reason: 'never arrived' });
      expect(await rawLog.putHole(agent, hole(1))).toBe(true);
      expect(await rawLog.putRun(agent, { from: 1, to: 2, records: [rawRecord(agent, 1), rawRecord(agent, 2)] })).toEqual([1, 2]);
      expect(await rawLog.putRun(agent, { from: 3, to: 4, records: [rawRecord(agent, 3), rawRecord(agent, 4)] })).toEqual([]);
      expect(await rawLog.putHole(agent, hole(3))).toBe(false);

      expect(await rawLog.readRange(agent, 1, 4)).toMatchObject({ records: [{ id: 'r3' }, { id: 'r4' }], holes: [1], missing: [2] });
    });
  });

  describe('memory store', () => {
    it('commits version 1, then refuses a commit computed against version 0, keeping version 1', async () => {
      const { memory } = ports();
      const agent = freshAgent();
      await memory.commit(agent, tasksCommit(1, 0, [task('t1', 'First')]));

      await expect(memory.commit(agent, tasksCommit(2, 0, [task('t2', 'Second')]))).rejects.toBeInstanceOf(StoreVersionConflictError);
      const store = await memory.load(agent, 'tasks');
      expect(store).toMatchObject({ version: 1, lastBatch: 1 });
      expect(store.items.map((item) => item.id)).toEqual(['t1']);
    });

    it('refuses to apply a batch twice even at the current version (the audit entry is the marker)', async () => {
      const { memory } = ports();
      const agent = freshAgent();
      await memory.commit(agent, tasksCommit(1, 0, [task('t1', 'First')]));

      await expect(memory.commit(agent, tasksCommit(1, 1, [task('t1', 'Again')]))).rejects.toBeInstanceOf(StoreVersionConflictError);
      expect((await memory.load(agent, 'tasks')).items).toEqual([expect.objectContaining({ title: 'First' })]);
    });

    it('reports version 0 and batch 0 for stores that never committed', async () => {
      const { memory } = ports();

      expect(await memory.loadHeads(freshAgent(), ['contacts', 'tasks'])).toEqual([
        { updater: 'contacts', version: 0, lastBatch: 0 },
        { updater: 'tasks', version: 0, lastBatch: 0 },
      ]);
    });

    it('stores the audit entry and view with the commit', async () => {
      const { memory } = ports();
      const agent = freshAgent();
      const commit = tasksCommit(1, 0, [task('t1', 'First')]);

      await memory.commit(agent, commit);

      expect(await memory.readAudit(agent, 1, 'tasks')).toEqual(commit.audit);
      expect(await memory.readView(agent, 'tasks')).toEqual(commit.view);
      expect(await memory.readAudit(agent, 2, 'tasks')).toBeUndefined();
    });

    it('lists items in pages by id, and refuses a token from another list', async () => {
      const { memory } = ports();
      const agent = freshAgent();
      await memory.commit(agent, tasksCommit(1, 0, ['t5', 't1', 't4', 't2', 't3'].map((id) => task(id, id))));

      const first = await memory.listItems(agent, 'tasks', { limit: 2 });
      const second = await memory.listItems(agent, 'tasks', { limit: 2, nextToken: first.nextToken! });
      const third = await memory.listItems(agent, 'tasks', { limit: 2, nextToken: second.nextToken! });

      expect([first, second, third].map((page) => page.items.map((item) => item.id))).toEqual([['t1', 't2'], ['t3', 't4'], ['t5']]);
      expect(third.nextToken).toBeUndefined();
      await expect(memory.listItems(agent, 'contacts', { limit: 2, nextToken: first.nextToken! })).rejects.toBeInstanceOf(ValidationError);
      await expect(memory.listItems(agent, 'tasks', { limit: 2, nextToken: 'garbage!' })).rejects.toBeInstanceOf(ValidationError);
    });
  });

  describe('summary store', () => {
    it('writes a summary once: a duplicate put answers false and changes nothing', async () => {
      const { summaries } = ports();
      const agent = freshAgent();

      expect(await summaries.putSummary(agent, summary(0, 1, 'Original.'))).toBe(true);
      expect(await summaries.putSummary(agent, summary(0, 1, 'Duplicate.'))).toBe(false);
      expect((await summaries.getSummaries(agent, [{ ladder: 'count', level: 0, index: 1 }]))[0]?.text).toBe('Original.');
    });

    it('replaces an existing summary, and refuses to replace one that does not exist', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      await summaries.putSummary(agent, summary(0, 1, 'Original.'));

      await summaries.replaceSummary(agent, { ...summary(0, 1, 'Rebuilt.'), rebuiltAt: now });

      expect((await summaries.getSummaries(agent, [{ ladder: 'count', level: 0, index: 1 }]))[0]).toMatchObject({ text: 'Rebuilt.', rebuiltAt: now });
      await expect(summaries.replaceSummary(agent, summary(0, 2, 'Nothing there.'))).rejects.toThrow();
    });

    it('collects a parent slot’s children as a set and returns all of them so far', async () => {
      const { summaries } = ports();
      const agent = freshAgent();

      await summaries.registerChild(agent, 'count', 1, 0, 'count:0:1');
      await summaries.registerChild(agent, 'count', 1, 0, 'count:0:1');
      const registered = await summaries.registerChild(agent, 'count', 1, 0, 'count:0:2');

      expect([...registered].sort()).toEqual(['count:0:1', 'count:0:2']);
    });

    it('adds several children to a slot in one call', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      await summaries.registerChild(agent, 'count', 1, 0, 'count:0:1');

      const registered = await summaries.registerChild(agent, 'count', 1, 0, ['count:0:2', 'count:0:3', 'count:0:1']);

      expect([...registered].sort()).toEqual(['count:0:1', 'count:0:2', 'count:0:3']);
    });

    it('finds the empty runs that overlap a range, and no summary without `through`', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      const run = (index: number, through: number) => ({ ...summary(0, index, ''), empty: true, through });
      await summaries.putSummary(agent, summary(0, 1, 'Day 1.'));
      await summaries.putSummary(agent, run(2, 400));
      await summaries.putSummary(agent, summary(0, 401, 'Day 401.'));
      await summaries.putSummary(agent, run(402, 403));
      await summaries.putSummary(agent, summary(1, 5, ''));

      const ids = async (first: number, last: number) => (await summaries.findEmptyRuns(agent, 'count', 0, first, last)).map((s) => [s.id, s.through]);

      expect(await ids(300, 300)).toEqual([['count:0:2', 400]]);
      expect(await ids(2, 2)).toEqual([['count:0:2', 400]]);
      expect(await ids(350, 450)).toEqual([['count:0:2', 400], ['count:0:402', 403]]);
      expect(await ids(401, 401)).toEqual([]);
      expect(await ids(1, 1)).toEqual([]);
      expect(await ids(404, 900)).toEqual([]);
    });

    it('returns requested summaries in the order asked, leaving out missing ones', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      for (const index of [1, 2, 3]) await summaries.putSummary(agent, summary(0, index, `Day ${index}.`));

      const found = await summaries.getSummaries(agent, [3, 9, 1].map((index) => ({ ladder: 'count' as const, level: 0, index })));

      expect(found.map((s) => s.id)).toEqual(['count:0:3', 'count:0:1']);
    });

    it('versions the cursor: the first write expects 0, a stale version answers false', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      const cursor = { lastSequence: 3, interaction: 1 };

      expect(await summaries.putCursor(agent, cursor, 0, undefined)).toBe(true);
      expect(await summaries.putCursor(agent, { ...cursor, lastSequence: 5 }, 0, undefined)).toBe(false);
      expect(await summaries.putCursor(agent, { ...cursor, lastSequence: 6 }, 1, undefined)).toBe(true);
      expect(await summaries.getCursor(agent)).toEqual({ cursor: { ...cursor, lastSequence: 6 }, version: 2 });
    });

    it('lists an agent as due for a sweep only while its cursor has a sweep time that has passed', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      await summaries.putCursor(agent, { lastSequence: 1, interaction: 1 }, 0, '2026-11-02T10:00:00.000Z');

      const { agents: notYet } = await summaries.dueForSweep(sweepShard(agent), '2026-11-02T09:59:00.000Z', 1000);
      const { agents: due } = await summaries.dueForSweep(sweepShard(agent), '2026-11-02T10:00:00.000Z', 1000);
      await summaries.putCursor(agent, { lastSequence: 2, interaction: 1 }, 1, undefined);
      const { agents: afterClearing } = await summaries.dueForSweep(sweepShard(agent), '2026-11-02T11:00:00.000Z', 1000);

      expect(notYet).not.toContainEqual(agent);
      expect(due).toContainEqual(agent);
      expect(afterClearing).not.toContainEqual(agent);
    });

    it('finds the newest summary with text at a level, past empty markers', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      await summaries.putSummary(agent, summary(0, 1, 'Older.'));
      await summaries.putSummary(agent, summary(0, 2, 'Newest with text.'));
      await summaries.putSummary(agent, summary(0, 3, ''));
      await summaries.putSummary(agent, summary(1, 0, 'A level above.'));

      expect((await summaries.latestWithText(agent, 'count', 0))?.id).toBe('count:0:2');
      expect(await summaries.latestWithText(agent, 'time', 0)).toBeUndefined();
    });

    it('finds it past more empty markers than one page reads', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      await summaries.putSummary(agent, summary(0, 1, 'Behind a long silence.'));
      for (let index = 2; index <= 40; index += 1) await summaries.putSummary(agent, summary(0, index, ''));

      expect((await summaries.latestWithText(agent, 'count', 0))?.id).toBe('count:0:1');
    });

    it('lists a ladder’s summaries in pages, level by level', async () => {
      const { summaries } = ports();
      const agent = freshAgent();
      for (const index of [1, 2, 3]) await summaries.putSummary(agent, summary(0, index, `Base ${index}.`));
      await summaries.putSummary(agent, summary(1, 0, 'Parent.'));

      const first = await summaries.listSummaries(agent, 'count', undefined, { limit: 3 });
      const second = await summaries.listSummaries(agent, 'count', undefined, { limit: 3, nextToken: first.nextToken! });
      const levelOne = await summaries.listSummaries(agent, 'count', 1, { limit: 10 });

      expect(first.items.map((s) => s.id)).toEqual(['count:0:1', 'count:0:2', 'count:0:3']);
      expect(second.items.map((s) => s.id)).toEqual(['count:1:0']);
      expect(levelOne.items.map((s) => s.id)).toEqual(['count:1:0']);
    });
  });

  describe('snapshot store', () => {
    const snapshotOf = (agent: AgentKey, version: number): Snapshot => ({ ...agent, version, generatedAt: now, freshness: { lastConsolidatedSequence: 0, lastIngestedSequence: 0, pendingRecords: 0 }, time: [], count: [] });

    it('writes each version only over the one before it', async () => {
      const { snapshots } = ports();
      const agent = freshAgent();

      expect(await snapshots.write(agent, snapshotOf(agent, 1))).toBe(true);
      expect(await snapshots.write(agent, snapshotOf(agent, 1))).toBe(false);
      expect(await snapshots.write(agent, snapshotOf(agent, 3))).toBe(false);
      expect(await snapshots.write(agent, snapshotOf(agent, 2))).toBe(true);
      expect(await snapshots.readVersion(agent)).toBe(2);
    });

    it('reads back the packed snapshot with its version, and nothing for an unknown agent', async () => {
      const { snapshots } = ports();
      const agent = freshAgent();
      await snapshots.write(agent, snapshotOf(agent, 1));

      const stored = await snapshots.read(agent);

      expect(stored?.version).toBe(1);
      expect(unpackSnapshot(stored!.packed)).toEqual(snapshotOf(agent, 1));
      expect(await snapshots.read(freshAgent())).toBeUndefined();
      expect(await snapshots.readVersion(freshAgent())).toBe(0);
    });
  });

  describe('injection log', () => {
    it('reads back what it recorded, per agent and request id', async () => {
      const { injections } = ports();
      const agent = freshAgent();
      const injection = { requestId: 'req-1', at: now, snapshotVersion: 3, maxTokens: 512, query: 'lease', tokens: 120, items: [] };

      await injections.record(agent, injection);

      expect(await injections.read(agent, 'req-1')).toEqual(injection);
      expect(await injections.read(freshAgent(), 'req-1')).toBeUndefined();
    });
  });
});
