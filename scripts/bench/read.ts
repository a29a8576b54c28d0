/**
 * `npm run bench -- read`: the snapshot read (read handler plus emulator,
 * one GetItem) against a bare GetItem of an item of the same size on the same
 * emulator, interleaved; the cache-hit latency; context rendering for a
 * store of 10,000 items at a 2,000-token budget; and recall (`/context` with
 * a query, through the retrieval index) for agents of 1,000, 10,000 and
 * 100,000 records: p50 and p99 warm, the cold read (segments fetched and
 * loaded), and the index's size per 10,000 records.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createReadHandler } from '../../functions/handlers/http/read-route.js';
import { createAwsClients } from '../../functions/commons/clients.js';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime } from '../../functions/commons/runtime/service.js';
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
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { S3IndexSegments } from '../../functions/adapters/s3/index-segments.js';
import { buildSegment, MERGE_FAN_IN, type IndexManifest, type SegmentRef, type SegmentUnit } from '../../functions/domain/index-segment.js';
import { indexTerms } from '../../functions/domain/terms.js';
import { RecallReader } from '../../functions/use-cases/recall.js';
import { PendingRecords } from '../../functions/use-cases/pending-records.js';
import { ingestEvents } from '../../functions/use-cases/ingest-events.js';

/** Records said since the last batch, searched beside the index on every question (half a batch). */
const PENDING = 25;

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

// Records of a synthetic agent: four phrase pools, so texts vary and terms and vectors can be built per phrase.
const WHO = ['I', 'My sister', 'Marco', 'Dana', 'The team', 'My neighbour', 'Grandma', 'Our landlord', 'Priya', 'The coach', 'My cousin', 'Tom', 'The doctor'];
const DID = ['finally booked', 'cancelled', 'talked about', 'painted', 'fixed', 'planned', 'complained about', 'signed up for', 'bought', 'sold', 'photographed'];
const WHAT = ['the pottery class', 'a road trip', 'the kitchen tiles', 'a vintage bike', 'the quarterly budget', 'a birthday party', 'the garden shed', 'a violin', 'the climbing trip', 'a new laptop', 'the wedding venue', 'a rescue puppy', 'the lease renewal', 'a marathon', 'the roof repair', 'a camping stove', 'the book club'];
const WHERE = ['downtown', 'at the lake', 'near the station', 'in Lisbon', 'at work', 'online', 'at the community centre'];
const QUESTIONS = Array.from({ length: 20 }, (_, i) => `When did ${WHO[(i * 3) % WHO.length]} ${DID[(i * 5) % DID.length]!.split(' ').pop()} ${WHAT[(i * 7) % WHAT.length]}?`);
const BATCH_RECORDS = 50;

interface PhraseVectors { who: Float32Array[]; did: Float32Array[]; what: Float32Array[]; where: Float32Array[] }

function recordFor(i: number, terms: Map<string, string>, vectors: PhraseVectors, dims: number): { unit: SegmentUnit; vector: Float32Array; sentences: Float32Array[] } {
  const parts = [i % WHO.length, (i >> 2) % DID.length, (i * 7 + (i >> 4)) % WHAT.length, (i >> 3) % WHERE.length] as const;
  const text = `${WHO[parts[0]]} ${DID[parts[1]]} ${WHAT[parts[2]]} ${WHERE[parts[3]]} (note ${i}).`;
  const at = new Date(Date.parse('2024-01-01T00:00:00Z') + i * 900_000).toISOString();
  const phraseTerms = [WHO[parts[0]]!, DID[parts[1]]!, WHAT[parts[2]]!, WHERE[parts[3]]!].map((p) => {
    let t = terms.get(p);
    if (t === undefined) terms.set(p, (t = indexTerms(p).join(' ')));
    return t;
  });
  const pick = [vectors.who[parts[0]]!, vectors.did[parts[1]]!, vectors.what[parts[2]]!, vectors.where[parts[3]]!];
  const sum = (of: readonly Float32Array[]) => {
    const vector = new Float32Array(dims);
    let norm = 0;
    for (let d = 0; d < dims; d += 1) {
      for (const v of of) vector[d] = vector[d]! + v[d]!;
      vector[d] = vector[d]! + (((i * 2654435761 + d * 40503) % 1000) / 1000 - 0.5) * 0.05;
      norm += vector[d]! * vector[d]!;
    }
    for (let d = 0; d < dims; d += 1) vector[d] = vector[d]! / Math.sqrt(norm);
    return vector;
  };
  const unit: SegmentUnit = { id: `R${i}`, kind: 'record', text, at, speaker: 'Sam', session: at.slice(0, 10), evidence: [], sequence: i + 1, terms: [...phraseTerms, 'note', String(i)].filter(Boolean).join(' ') };
  // Long turns carry a vector per sentence (`recordSentences`): two for every other record here, one per record
  // on average, as many as the wordiest development corpora hold (0.35 to 1.03 per record on the four).
  const sentences = i % 2 === 0 ? [sum(pick.slice(0, 2)), sum(pick.slice(2))] : [];
  return { unit, vector: sum(pick), sentences };
}

/**
 * Segments as the pipeline's size-tiered merging leaves them: the number of
 * batches written in base MERGE_FAN_IN, one segment of 50·4^t records per unit of
 * digit t (at most three per tier).
 */
function segmentSizes(records: number): { tier: number; size: number }[] {
  const sizes: { tier: number; size: number }[] = [];
  let batches = Math.ceil(records / BATCH_RECORDS);
  let left = records;
  const digits: number[] = [];
  while (batches > 0) {
    digits.push(batches % MERGE_FAN_IN);
    batches = Math.floor(batches / MERGE_FAN_IN);
  }
  for (let tier = digits.length - 1; tier >= 0; tier -= 1) {
    for (let n = 0; n < digits[tier]!; n += 1) {
      const size = Math.min(left, BATCH_RECORDS * MERGE_FAN_IN ** tier);
      if (size > 0) sizes.push({ tier, size });
      left -= size;
    }
  }
  return sizes;
}

async function benchRecall(config: ReturnType<typeof loadConfig>, runtime: Awaited<ReturnType<typeof createServiceRuntime>>, floor: () => Promise<unknown>) {
  const embeddings = new LocalEmbeddings();
  const segments = new S3IndexSegments(runtime.clients.s3, config.rawBucketName);
  const [who, did, what, where] = await Promise.all([WHO, DID, WHAT, WHERE].map((pool) => embeddings.embed(pool)));
  const vectors: PhraseVectors = { who: who!, did: did!, what: what!, where: where! };
  const terms = new Map<string, string>();
  const rows: (string | number)[][] = [];
  const json: Record<string, number> = {};
  for (const records of [1_000, 10_000, 100_000]) {
    const agentId = `bench-recall-${records}-${randomUUID().slice(0, 6)}`;
    const agent = { tenantId: config.tenantId, agentId };
    const refs: SegmentRef[] = [];
    let next = 0;
    for (const { tier, size } of segmentSizes(records)) {
      const built = Array.from({ length: size }, (_, k) => recordFor(next + k, terms, vectors, embeddings.dimensions));
      next += size;
      const segment = buildSegment(embeddings.modelId, embeddings.dimensions, built.map((b) => b.unit), built.map((b) => b.vector), built.flatMap((b, owner) => b.sentences.map((vector) => ({ owner, vector }))));
      const stored = await segments.put(agent, `t${tier}`, segment);
      refs.push({ key: stored.key, units: size, bytes: stored.bytes, tier });
    }
    const manifest: IndexManifest = { version: 1, modelId: embeddings.modelId, dimensions: embeddings.dimensions, segments: refs, recordsThrough: records, dropped: [] };
    const snapshot: Snapshot = {
      tenantId: config.tenantId, agentId, version: 1, generatedAt: new Date().toISOString(),
      freshness: { lastConsolidatedSequence: records, lastIngestedSequence: records, pendingRecords: 0 }, time: [], count: [], index: manifest,
    };
    if (!(await runtime.snapshots.write(agent, snapshot))) throw new Error('could not write the recall benchmark snapshot');
    const bytes = refs.reduce((sum, r) => sum + r.bytes, 0);

    // Half a batch said since: the question also reads the agent's counters and (once, then cached) those records.
    await ingestEvents({ ledger: runtime.ledger, rawLog: runtime.rawLog, queue: runtime.queue, batchSize: 50, rawWriteConcurrency: 16 }, agent, Array.from({ length: PENDING }, (_, i) => ({ id: `pending-${i}`, type: 'message' as const, role: 'user' as const, content: `${WHO[i % WHO.length]} ${DID[i % DID.length]} ${WHAT[i % WHAT.length]} just now (pending ${i}).`, timestamp: new Date().toISOString() })));
    const recall = new RecallReader(segments, embeddings);
    const handler = createReadHandler({ snapshots: new CachedSnapshotReader(runtime.snapshots, 0), injections: runtime.injections, recall, pending: new PendingRecords(runtime.ledger, runtime.redactedRawLog) });
    const ask = async (query: string) => {
      const response = await handler(httpApiEvent({ method: 'GET', path: `/v1/agents/${agentId}/context`, pathParameters: { agentId }, query: { maxTokens: '1024', query }, authorizer: { ...IN_PROCESS_AUTHORIZER, tenantId: config.tenantId } }), lambdaContext('read'));
      if (response.statusCode !== 200) throw new Error(`context answered ${response.statusCode}: ${response.body}`);
    };
    // Cold: a fresh warm-function cache fetches and loads every segment, and embeds a query it has not seen.
    const coldMs = await timed(() => ask('Which camping stove did the coach buy?'));
    for (const query of QUESTIONS) await ask(query);
    const warm: number[] = [];
    const floorMs: number[] = [];
    const rounds = records >= 100_000 ? 60 : 150;
    for (let i = 0; i < rounds; i += 1) {
      warm.push(await timed(() => ask(QUESTIONS[i % QUESTIONS.length]!)));
      floorMs.push(await timed(floor));
    }
    const label = records.toLocaleString('en-US');
    rows.push([`/context with a query, ${label} records (${refs.length} segments)`, round(median(warm), 2), round(p99(warm), 2)]);
    rows.push([`  cold read (fetch + load ${Math.round(bytes / 1024)} KB of segments, new query)`, round(coldMs, 1), '']);
    json[`p50ContextMs${records}`] = round(median(warm), 2);
    json[`p99ContextMs${records}`] = round(p99(warm), 2);
    json[`coldContextMs${records}`] = round(coldMs, 1);
    json[`segments${records}`] = refs.length;
    json[`ratioContextToGetItem${records}`] = round(median(warm) / median(floorMs), 2);
    if (records === 10_000) json.indexKbPer10kRecords = round(bytes / 1024, 1);
  }
  return { rows, json };
}

export async function benchRead(stack: LocalStack): Promise<BenchReport> {
  await stack.eventSources.stop();
  const config = loadConfig();
  const runtime = await createServiceRuntime(config);
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
  const recall = await benchRecall(config, runtime, bareGet);

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
        ...recall.rows,
      ],
    },
    notes: [
      `ratio (snapshot read p50 / bare GetItem p50) = ${round(ratio, 3)} (goal: at most 1.2).`,
      `A 2,000-token context block held ${rendered.included.length} items (${rendered.tokens} tokens by the o200k tokenizer).`,
      `Recall: agents of 1,000 / 10,000 / 100,000 records, their index segments written directly (tiers as the pipeline's merging leaves them; vectors from USE-lite phrase embeddings), plus ${PENDING} records ingested and not consolidated, read through the read handler with a snapshot lookup every time (one GetItem) and the agent's counters (one GetItem; the pending records are read once, then cached by sequence), segments cached by key, query embeddings cached, 1,024-token budget; interleaved with the bare GetItem. /context p50 / bare GetItem p50 at 10,000 records = ${recall.json.ratioContextToGetItem10000} (goal: at most 10). Index size: ${recall.json.indexKbPer10kRecords} KB per 10,000 records (int8 vectors, gzip). The fastest published peer's retrieval p50 is 87 ms.`,
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
      ...recall.json,
    },
  };
}
