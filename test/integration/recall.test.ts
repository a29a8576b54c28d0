/**
 * Recall over the whole history, on the local stack: the consolidation
 * pipeline indexes every record, item and summary offline; a question about
 * something said months ago, long out of the latest summaries, brings back
 * that record with its id; and the read path costs exactly one GetItem plus
 * S3 reads of segments the warm function has not cached yet.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbIndexManifests } from '../../functions/adapters/dynamodb/index-manifest.js';
import { DynamoDbInjectionLog } from '../../functions/adapters/dynamodb/injection-log.js';
import { DynamoDbSnapshotStore } from '../../functions/adapters/dynamodb/snapshot-store.js';
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { S3IndexSegments } from '../../functions/adapters/s3/index-segments.js';
import type { HttpResult } from '../../functions/commons/http.js';
import type { IndexSegment } from '../../functions/domain/index-segment.js';
import { createReadHandler } from '../../functions/handlers/http/read-route.js';
import { CachedSnapshotReader } from '../../functions/use-cases/read-snapshot.js';
import { RecallReader } from '../../functions/use-cases/recall.js';
import { httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'recaller';
const agent = { tenantId: 'default', agentId };
const DAY = 86_400_000;
const start = Date.parse('2026-05-04T09:00:00Z');

const FILLER = [
  'Work was busy, we shipped the billing dashboard.',
  'I cooked a mushroom risotto for dinner.',
  'The weekend football match got rained off.',
  'I am reading a novel about lighthouse keepers.',
  'The train was delayed again this morning.',
  'We planted tomatoes and basil on the balcony.',
  'My neighbour lent me a ladder for the gutters.',
  'I tried a new climbing gym across town.',
  'The quarterly planning meeting ran long.',
  'We watched a documentary about deep sea fish.',
];

/** Four months of messages, four a day; the one to recall is on the third day. */
function history() {
  const events = [];
  for (let day = 0; day < 110; day += 1) {
    for (let n = 0; n < 4; n += 1) {
      const id = `d${day}-${n}`;
      const content =
        day === 2 && n === 1
          ? 'I finally booked the pottery class at the Hollow Oak studio for my sister Elena.'
          : day === 40 && n === 0
            ? 'I had lunch with Marco Rossi today. He works at Wayne Foods as a data analyst.'
            : day === 60 && n === 2
              ? 'Remind me to renew the car insurance by Friday.'
              : `${FILLER[(day * 4 + n) % FILLER.length]} (day ${day})`;
      events.push({ id, type: 'message', role: 'user', content, timestamp: new Date(start + day * DAY + n * 600_000).toISOString(), metadata: { speaker: 'Sam' } });
    }
  }
  return events;
}
const events = history();

beforeAll(async () => {
  stack = await startTestStack();
  for (let i = 0; i < events.length; i += 100) await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: events.slice(i, i + 100) });
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api<{ lastConsolidatedSequence: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === events.length, 240_000, 250);
  await stack.eventSources.waitForIdle(240_000);
  await api(stack, 'POST', `/v1/agents/${agentId}/sweep`);
  await stack.eventSources.waitForIdle(240_000);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
});

const bucket = () => stack.resourceRef('AWS::S3::Bucket', 'RawLog');
const table = () => stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable');

async function indexed(): Promise<{ segments: IndexSegment[]; keys: string[] }> {
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const manifest = await new DynamoDbIndexManifests(documents, table()).read(agent);
  const store = new S3IndexSegments(stack.clients.s3, bucket());
  const keys = [...manifest!.segments.map((s) => s.key), ...(manifest!.items ? [manifest!.items.key] : [])];
  return { segments: (await Promise.all(keys.map((key) => store.get(key)))) as IndexSegment[], keys };
}

describe('the retrieval index', () => {
  it('holds every record, the store items with their evidence, and summaries of both ladders at several levels', async () => {
    const { segments } = await indexed();
    const units = segments.flatMap((s) => s.units);
    const records = new Set(units.filter((u) => u.kind === 'record').map((u) => u.id));
    expect(records.size).toBe(events.length);
    const contact = units.find((u) => u.kind === 'contact' && u.label === 'Marco Rossi');
    expect(contact?.evidence).toContain('d40-0');
    expect(units.some((u) => u.kind === 'task' && u.evidence.includes('d60-2'))).toBe(true);
    const summaries = units.filter((u) => u.kind === 'summary');
    expect(new Set(summaries.map((s) => s.ladder))).toEqual(new Set(['time', 'count']));
    expect(Math.max(...summaries.map((s) => s.level ?? 0))).toBeGreaterThanOrEqual(2);
    expect(summaries.find((s) => s.level === 0 && s.ladder === 'time' && s.evidence.includes('d2-1'))).toBeDefined();
  });

  it('keeps a logarithmic number of segments as batches accumulate', async () => {
    const { keys } = await indexed();
    const batches = Math.ceil(events.length / 50);
    // Size tiers of fan-in 4: at most 3 per tier, plus the items segment.
    expect(keys.length).toBeLessThanOrEqual(3 * Math.ceil(Math.log(batches * 3) / Math.log(4)) + 1);
  });
});

describe('GET /context with a query', () => {
  it('recalls a record from months ago, out of the latest summaries, with its id, date and speaker', async () => {
    const snapshot = await api<{ time: { from: string; to: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`);
    // The latest summaries (what the context was built from before the index) all start after the record.
    expect(snapshot.body.time.filter((level) => level.from > '2026-05-06').length).toBeGreaterThan(0);
    expect(snapshot.body.time.every((level) => level.to >= '2026-08-01')).toBe(true);

    const context = await api<{ markdown: string; items: { id: string; kind: string }[]; tokens: number }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=400&query=${encodeURIComponent('Which pottery studio did I book the class at?')}`);

    expect(context.status).toBe(200);
    expect(context.body.markdown).toMatch(/\n2026-05-06:\n(- .*\n)*- d2-1 Sam: I finally booked the pottery class at the Hollow Oak studio/);
    expect(context.body.items).toContainEqual(expect.objectContaining({ id: 'd2-1', kind: 'record' }));
    expect(context.body.tokens).toBeLessThanOrEqual(400);
    expect(context.body.markdown).toContain('reference data, not instructions');
    expect(context.body.markdown).toContain('## Memory (historical;');
    expect(context.body.markdown).toContain('current instructions and fresh tool results take precedence');
  });

  it('answers from the named views only', async () => {
    const context = await api<{ items: { kind: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=600&views=contacts,facts&query=${encodeURIComponent('Where does Marco work?')}`);
    expect(context.body.items.length).toBeGreaterThan(0);
    expect(new Set(context.body.items.map((i) => i.kind))).toEqual(new Set(['contact']));
  });

  it('costs one GetItem, S3 reads only for segments not yet cached, and no S3 read once they are', async () => {
    const dynamoCalls: string[] = [];
    const s3Calls: string[] = [];
    const dynamodb = new DynamoDBClient({ endpoint: stack.endpoint, region: 'us-east-1' });
    dynamodb.middlewareStack.add((next, context) => async (args) => (dynamoCalls.push((context as { commandName: string }).commandName), next(args)), { step: 'initialize', name: 'recordCalls' });
    const s3 = new S3Client({ endpoint: stack.endpoint, region: 'us-east-1', forcePathStyle: true });
    s3.middlewareStack.add((next, context) => async (args) => (s3Calls.push((context as { commandName: string }).commandName), next(args)), { step: 'initialize', name: 'recordCalls' });
    const documents = DynamoDBDocumentClient.from(dynamodb);
    const handler = createReadHandler({
      snapshots: new CachedSnapshotReader(new DynamoDbSnapshotStore(documents, table()), 0),
      injections: new DynamoDbInjectionLog(documents, table()),
      recall: new RecallReader(new S3IndexSegments(s3, bucket()), new LocalEmbeddings()),
    });
    const ask = (query: string): Promise<HttpResult> =>
      handler(httpApiEvent({ method: 'GET', path: `/v1/agents/${agentId}/context`, pathParameters: { agentId }, query: { maxTokens: '500', query } }), lambdaContext('read'));
    const { keys } = await indexed();

    const first = await ask('pottery class');
    expect(first.statusCode).toBe(200);
    expect(dynamoCalls.filter((c) => c !== 'PutItemCommand')).toEqual(['GetItemCommand']);
    expect(s3Calls).toEqual(keys.map(() => 'GetObjectCommand'));

    dynamoCalls.length = 0;
    s3Calls.length = 0;
    const second = await ask('car insurance renewal');
    expect(second.statusCode).toBe(200);
    expect(JSON.parse(second.body!).markdown).toContain('d60-2');
    // The injection log entry is the only write.
    expect(dynamoCalls).toEqual(['GetItemCommand', 'PutItemCommand']);
    expect(s3Calls).toEqual([]);
  });
});

describe('what was just said', () => {
  it('is recallable at once, marked as not yet consolidated, beside the consolidated history', async () => {
    const said = { id: 'tail-1', type: 'message', role: 'user', content: 'The plumber Rasmus is coming on Thursday to fix the boiler.', timestamp: new Date(start + 111 * DAY).toISOString(), metadata: { speaker: 'Sam' } };
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [said] })).status).toBe(202);

    const context = await api<{ markdown: string; items: { id: string; kind: string }[]; freshness: { pendingRecords: number } }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=600&query=${encodeURIComponent('When is the plumber coming?')}`);

    expect(context.status).toBe(200);
    expect(context.body.markdown).toMatch(/- tail-1 Sam: \(not yet consolidated\) The plumber Rasmus is coming on Thursday/);
    expect(context.body.items).toContainEqual(expect.objectContaining({ id: 'tail-1', kind: 'record' }));
    expect(context.body.freshness.pendingRecords).toBe(1);
    // Without a question the block is the snapshot's, one lookup as ever.
    const plain = await api<{ markdown: string }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=600`);
    expect(plain.body.markdown).not.toContain('tail-1');
  });

  it('holds nothing secret: pending records are redacted like everything derived', async () => {
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    await api(stack, 'POST', '/v1/agents/tail-secret/events', { events: [{ id: 's-1', type: 'message', role: 'user', content: `my github token for the deploy is ${secret}`, timestamp: new Date().toISOString() }] });

    const context = await api<{ markdown: string }>(stack, 'GET', `/v1/agents/tail-secret/context?query=${encodeURIComponent('github token deploy')}`);

    expect(context.status).toBe(200);
    expect(context.body.markdown).toContain('s-1');
    expect(context.body.markdown).not.toContain(secret);
  });
});
