/**
 * `npm run bench -- read`: the snapshot read (read handler plus emulator,
 * one GetItem) against a bare GetItem of an item of the same size on the same
 * emulator, interleaved; the cache-hit latency; and context rendering for a
 * store of 10,000 items at a 2,000-token budget.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createReadHandler } from '../../functions/handlers/http/read-route.js';
import { createAwsClients } from '../../functions/commons/clients.js';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime } from '../../functions/commons/runtime.js';
import { IN_PROCESS_AUTHORIZER, httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import { renderContext } from '../../functions/domain/context.js';
import type { ContactItem, FactItem, TaskItem } from '../../functions/domain/memory.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { buildView } from '../../functions/domain/views.js';
import { countTokens } from '../../functions/adapters/models/local/text.js';
import { CachedSnapshotReader } from '../../functions/use-cases/read-snapshot.js';
import type { LocalStack } from '../../local/local-stack.js';
import type { BenchReport } from './report.js';
import { median, p99, round, timed } from './stats.js';

const ROUNDS = 300;
const WARMUP = 20;

/** A store of 10,000 items: 2,000 contacts, 5,000 fact rows, 3,000 tasks. */
function largeSnapshot(agentId: string): Snapshot {
  const scope = { tenantId: 'default', agentId };
  const base = (id: string, i: number) => ({
    id, scope, status: 'active' as const, verification: 'unverified' as const, confidence: 0.6 + (i % 4) / 10, hitCount: 1 + (i % 7),
    createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z', lastReinforcedAt: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString(),
    evidence: [{ recordId: `D${i}:${i % 40}`, sequence: i, timestamp: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 3_600_000).toISOString() }], history: [],
  });
  const topics = ['pricing', 'hiring', 'the launch', 'the offsite', 'contracts', 'the roadmap', 'security review', 'the budget'];
  const contacts: ContactItem[] = Array.from({ length: 2_000 }, (_, i) => ({
    ...base(`c_${i}`, i), kind: 'contact', name: `Person ${i}`, aliases: [], role: 'manager', organisation: `Company ${i % 97}`, relationships: [], preferences: [],
    channels: [{ type: 'email', value: `p${i}@example.com` }], biography: `Person ${i}: manager at Company ${i % 97}.`,
    summary: `2026-10-0${1 + (i % 9)}: Talked with Person ${i} about ${topics[i % topics.length]}.`, lastMentionedAt: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 3_600_000).toISOString(),
  }));
  const facts: FactItem[] = Array.from({ length: 5_000 }, (_, i) => ({
    ...base(`f_${i}`, i), kind: 'fact', table: 'profile', row: { subject: `Person ${i % 2_000}`, attribute: topics[i % topics.length]!, value: `note ${i}` },
    statement: `Person ${i % 2_000} on ${topics[i % topics.length]}: note ${i}`,
  }));
  const tasks: TaskItem[] = Array.from({ length: 3_000 }, (_, i) => ({
    ...base(`t_${i}`, i), kind: 'task', title: `Follow up with Person ${i % 2_000} on ${topics[i % topics.length]}`, owner: 'user', state: i % 4 === 0 ? 'done' : 'open', due: '2026-12-15',
  }));
  const meta = { version: 1, batch: 1, lastSequence: 9_000, updatedAt: '2026-11-01T00:00:00Z' };
  return {
    tenantId: 'default', agentId, version: 1, generatedAt: new Date().toISOString(),
    freshness: { lastConsolidatedSequence: 9_000, lastIngestedSequence: 9_020, pendingRecords: 20, newestConsolidatedRecordAt: '2026-10-31T18:00:00Z' },
    contacts: buildView('contacts', contacts, meta), facts: buildView('facts', facts, meta), tasks: buildView('tasks', tasks, meta), time: [], count: [],
  };
}

export async function benchRead(stack: LocalStack): Promise<BenchReport> {
  await stack.eventSources.stop();
  const config = loadConfig();
  const runtime = createServiceRuntime(config);
  const agentId = `bench-read-${randomUUID().slice(0, 6)}`;
  const agent = { tenantId: config.tenantId, agentId };
  const snapshot = largeSnapshot(agentId);
  if (!(await runtime.snapshots.write(agent, snapshot))) throw new Error('could not write the benchmark snapshot');
  const packedBytes = gzipSync(JSON.stringify(snapshot)).length;

  // The floor: a bare item of the same size in the same table, read by a client built the same way.
  const floorClients = createAwsClients(config);
  await floorClients.dynamo.send(new PutCommand({ TableName: config.memoryTableName, Item: { pk: 'FLOOR', sk: 'ITEM', gz: randomBytes(packedBytes) } }));
  const bareGet = () => floorClients.dynamo.send(new GetCommand({ TableName: config.memoryTableName, Key: { pk: 'FLOOR', sk: 'ITEM' } }));

  const handlerWith = (cacheMs: number) =>
    createReadHandler({ snapshots: new CachedSnapshotReader(runtime.snapshots, cacheMs), injections: runtime.injections });
  const event = (path: string) => httpApiEvent({ method: 'GET', path, pathParameters: { agentId }, authorizer: { ...IN_PROCESS_AUTHORIZER, tenantId: config.tenantId } });
  const context = lambdaContext('read');
  const lookupEveryTime = handlerWith(0);
  const cached = handlerWith(60_000);
  const read = async (handler: ReturnType<typeof handlerWith>) => {
    const response = await handler(event(`/v1/agents/${agentId}/snapshot`), context);
    if (response.statusCode !== 200) throw new Error(`snapshot read answered ${response.statusCode}`);
  };

  for (let i = 0; i < WARMUP; i += 1) {
    await read(lookupEveryTime);
    await bareGet();
    await read(cached);
  }
  const snapshotMs: number[] = [];
  const floorMs: number[] = [];
  const cacheHitMs: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    snapshotMs.push(await timed(() => read(lookupEveryTime)));
    floorMs.push(await timed(bareGet));
    cacheHitMs.push(await timed(() => read(cached)));
  }
  const renderMs: number[] = [];
  const queries = ['pricing with Person 12', 'what is open on the launch?', 'Company 7 contracts', ''];
  for (let i = 0; i < 100; i += 1) {
    const query = queries[i % queries.length]!;
    renderMs.push(await timed(async () => renderContext(snapshot, { maxTokens: 2_000, ...(query ? { query } : {}), now: new Date().toISOString(), countTokens })));
  }
  const rendered = renderContext(snapshot, { maxTokens: 2_000, query: 'pricing with Person 12', now: new Date().toISOString(), countTokens });
  const ratio = median(snapshotMs) / median(floorMs);

  return {
    name: 'read',
    title: 'Reads: snapshot (one GetItem) against a bare GetItem of an item of the same size',
    command: 'npm run bench -- read',
    description: `A snapshot for a store of 10,000 items (2,000 contacts, 5,000 fact rows, 3,000 tasks; the snapshot keeps the most useful 800 and says what it left out) is ${Math.round(packedBytes / 1024)} KB compressed. Snapshot reads go through the read handler on the emulator with a cache window of 0 (one GetItem every time; an unchanged version is not parsed or serialised again); the floor is a bare GetItem of a same-size item in the same table, interleaved with them; cache hits use a 60 s window (no GetItem). ${ROUNDS} rounds after ${WARMUP} warm-up rounds. Context rendering is timed in-process on the same snapshot at a 2,000-token budget.`,
    table: {
      header: ['measure', 'p50 ms', 'p99 ms'],
      rows: [
        ['snapshot read (handler + one GetItem)', round(median(snapshotMs), 2), round(p99(snapshotMs), 2)],
        ['bare GetItem, same size (floor)', round(median(floorMs), 2), round(p99(floorMs), 2)],
        ['snapshot read, cache hit', round(median(cacheHitMs), 3), round(p99(cacheHitMs), 3)],
        ['context render, 10,000-item store, 2,000 tokens', round(median(renderMs), 2), round(p99(renderMs), 2)],
      ],
    },
    notes: [
      `ratio (snapshot read p50 / bare GetItem p50) = ${round(ratio, 3)} (goal: at most 1.2).`,
      `A 2,000-token context block held ${rendered.included.length} items (${rendered.tokens} tokens by the o200k tokenizer).`,
    ],
    json: {
      ratio: round(ratio, 3),
      p50SnapshotMs: round(median(snapshotMs), 3),
      p99SnapshotMs: round(p99(snapshotMs), 3),
      p50GetItemMs: round(median(floorMs), 3),
      p50CacheHitMs: round(median(cacheHitMs), 4),
      p50RenderMs: round(median(renderMs), 2),
      p99RenderMs: round(p99(renderMs), 2),
      snapshotKb: Math.round(packedBytes / 1024),
    },
  };
}
