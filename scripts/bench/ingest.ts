/**
 * `npm run bench -- ingest`: the ingest path (handler plus emulator) for
 * 1-event and 100-event requests, against a floor measured in the same run on
 * the same emulator: one bare S3 PutObject plus one DynamoDB UpdateItem per
 * event. Ingest and floor rounds alternate, so machine noise hits both alike.
 */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createIngestHandler } from '../../functions/handlers/http/ingest-route.js';
import { createAwsClients, type AwsClients } from '../../functions/commons/clients.js';
import { loadConfig } from '../../functions/commons/config.js';
import { IN_PROCESS_AUTHORIZER, httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import { createServiceRuntime } from '../../functions/commons/runtime/service.js';
import { AgentCounterCache } from '../../functions/use-cases/counter-cache.js';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import type { LocalStack } from '../../local/local-stack.js';
import type { BenchReport } from './report.js';
import { median, p99, round, timed } from './stats.js';

const SINGLE_ROUNDS = 300;
const BATCH_ROUNDS = 25;
const WARMUP_ROUNDS = 10;

function countCalls(clients: AwsClients): { count: number } {
  const counter = { count: 0 };
  for (const client of [clients.dynamo, clients.s3, clients.sqs]) {
    (client.middlewareStack as AwsClients['s3']['middlewareStack']).add(
      (next) => async (args) => {
        counter.count += 1;
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
  }
  return counter;
}

const content = 'I met Dana from Acme yesterday; she wants the draft contract by Friday and asked about pricing tiers.';

export async function benchIngest(stack: LocalStack): Promise<BenchReport> {
  await stack.eventSources.stop(); // measure ingest alone, not the consolidator polling beside it
  const config = loadConfig();
  const ingestClients = createAwsClients(config);
  const calls = countCalls(ingestClients);
  const runtime = await createServiceRuntime(config, ingestClients);
  const handler = createIngestHandler({
    ledger: runtime.ledger,
    rawLog: runtime.rawLog,
    queue: runtime.queue,
    batchSize: config.batchSize,
    rawWriteConcurrency: config.rawWriteConcurrency,
    counterCache: new AgentCounterCache(),
    idleChecks: runtime.idleChecks,
    idleFlushSeconds: config.idleFlushSeconds,
  });
  const floorClients = createAwsClients(config);
  const context = lambdaContext('ingest');

  let eventNumber = 0;
  const post = async (agentId: string, size: number) => {
    const events = Array.from({ length: size }, () => ({
      id: `e-${++eventNumber}`,
      type: 'message',
      role: 'user',
      content,
      timestamp: '2026-11-02T09:00:00Z',
    }));
    const event = httpApiEvent({ method: 'POST', path: `/v1/agents/${agentId}/events`, pathParameters: { agentId }, body: { events }, authorizer: { ...IN_PROCESS_AUTHORIZER, tenantId: config.tenantId } });
    const response = await handler(event, context);
    if (response.statusCode !== 202) throw new Error(`ingest answered ${response.statusCode}: ${response.body}`);
  };

  // The floor: what any durable, counted write of one event must cost at least.
  const recordBody = JSON.stringify({ tenantId: 'default', agentId: 'floor', sequence: 1, id: 'e-1', type: 'message', role: 'user', content, timestamp: '2026-11-02T09:00:00Z', receivedAt: new Date().toISOString() });
  let floorSequence = 0;
  const floorPair = async () => {
    const sequence = ++floorSequence;
    await floorClients.s3.send(
      new PutObjectCommand({ Bucket: config.rawBucketName, Key: `floor/${String(sequence).padStart(12, '0')}.json`, Body: recordBody, ContentType: 'application/json' }),
    );
    await floorClients.dynamo.send(
      new UpdateCommand({
        TableName: config.agentsTableName,
        Key: { pk: 'FLOOR', sk: 'COUNTERS' },
        UpdateExpression: 'ADD lastSequence :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  };
  const floorBatch = (size: number) =>
    mapWithConcurrency(Array.from({ length: size }), config.rawWriteConcurrency, floorPair);

  const scenario = async (size: number, rounds: number) => {
    const agentId = `bench-${size}-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < WARMUP_ROUNDS; i += 1) {
      await post(agentId, size);
      await floorBatch(size);
    }
    const ingestPerEvent: number[] = [];
    const floorPerEvent: number[] = [];
    const callsBefore = calls.count;
    let ingestTotal = 0;
    let floorTotal = 0;
    for (let i = 0; i < rounds; i += 1) {
      const ingestMs = await timed(() => post(agentId, size));
      const floorMs = await timed(() => floorBatch(size));
      ingestPerEvent.push(ingestMs / size);
      floorPerEvent.push(floorMs / size);
      ingestTotal += ingestMs;
      floorTotal += floorMs;
    }
    const events = rounds * size;
    return {
      size,
      ingestP50: median(ingestPerEvent),
      ingestP99: p99(ingestPerEvent),
      ingestRate: events / (ingestTotal / 1000),
      floorP50: median(floorPerEvent),
      floorP99: p99(floorPerEvent),
      floorRate: events / (floorTotal / 1000),
      ratio: median(ingestPerEvent) / median(floorPerEvent),
      callsPerEvent: (calls.count - callsBefore) / events,
    };
  };

  const single = await scenario(1, SINGLE_ROUNDS);
  const batch = await scenario(100, BATCH_ROUNDS);
  const results = [single, batch];
  const ratio = Math.max(single.ratio, batch.ratio);

  return {
    name: 'ingest',
    title: 'Ingest: handler plus emulator, against a bare S3 put plus DynamoDB update per event',
    command: 'npm run bench -- ingest',
    description: [
      `Per-event latency of the ingest handler (validation, conditional sequence commit, raw record to S3, batch job every 50 messages) called in-process against moto, and of the floor (one S3 PutObject plus one DynamoDB UpdateItem per event, same emulator, same clients, same write concurrency of ${config.rawWriteConcurrency}). Ingest and floor rounds alternate. ${SINGLE_ROUNDS} rounds of 1-event requests and ${BATCH_ROUNDS} rounds of 100-event requests, after ${WARMUP_ROUNDS} warm-up rounds each. For 100-event requests, per-event figures are the request's time divided by 100.`,
    ].join(''),
    table: {
      header: ['request size', 'ingest p50 ms/event', 'ingest p99 ms/event', 'ingest events/s', 'floor p50 ms/event', 'floor p99 ms/event', 'floor events/s', 'ratio (p50/p50)', 'AWS calls/event (ingest vs floor)'],
      rows: results.map((r) => [
        `${r.size} event${r.size > 1 ? 's' : ''}`,
        round(r.ingestP50, 2),
        round(r.ingestP99, 2),
        Math.round(r.ingestRate),
        round(r.floorP50, 2),
        round(r.floorP99, 2),
        Math.round(r.floorRate),
        round(r.ratio, 2),
        `${round(r.callsPerEvent, 2)} vs 2`,
      ]),
    },
    notes: [
      `\`ratio\` in the JSON line is the worse of the two request sizes (goal: at most 1.3).`,
      'The 1-event path is one conditional TransactWriteItems (counters plus the event-id claim) and one PutObject when the warm instance knows the agent\'s counters; a cold or stale instance adds a BatchGetItem (and a refused transaction when stale).',
      'Every 50th message adds a SendMessage and a marker transaction, and the first event of each batch schedules its idle check (one SendMessage); that cost is included.',
    ],
    json: {
      ratio: round(ratio, 3),
      ratio1: round(single.ratio, 3),
      ratio100: round(batch.ratio, 3),
      p50MsPerEvent1: round(single.ingestP50, 3),
      p99MsPerEvent1: round(single.ingestP99, 3),
      p50MsPerEvent100: round(batch.ingestP50, 3),
      p99MsPerEvent100: round(batch.ingestP99, 3),
      eventsPerSecond1: Math.round(single.ingestRate),
      eventsPerSecond100: Math.round(batch.ingestRate),
      floorP50MsPerEvent1: round(single.floorP50, 3),
      floorP50MsPerEvent100: round(batch.floorP50, 3),
      awsCallsPerEvent1: round(single.callsPerEvent, 3),
      awsCallsPerEvent100: round(batch.callsPerEvent, 3),
    },
  };
}
