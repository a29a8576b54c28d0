/**
 * What `cdk deploy` uploads is what runs here: the stack is synthesised with
 * bundling, and every function runs from its asset directory in a process of
 * its own (local/bundled-functions.ts). Each function gets an event of its
 * kind through its own trigger (API route and authorizer, queue, stream,
 * schedule), and the bundled consolidator embeds and indexes a batch with the
 * model files shipped in its asset.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbIndexManifests } from '../../functions/adapters/dynamodb/index-manifest.js';
import { S3IndexSegments } from '../../functions/adapters/s3/index-segments.js';
import { sqsRecord } from '../../local/lambda-events.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack, TEST_API_KEY } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'bundled';
const DAY = 86_400_000;
const start = Date.parse('2026-10-05T09:00:00Z');

/** Two days of messages, so the first day closes and its summary climbs the stream. */
const events = Array.from({ length: 60 }, (_, i) =>
  message(`b${i}`, i === 7 ? 'My sister Elena started a pottery class at the Hollow Oak studio.' : i === 30 ? 'Remind me to renew the car insurance by Friday.' : `Ordinary day, note ${i}.`, {
    timestamp: new Date(start + (i < 40 ? 0 : DAY) + i * 60_000).toISOString(),
  }),
);

const fn = (prefix: string) => {
  const found = [...stack.bundles!.values()].find((bundle) => bundle.logicalId.startsWith(prefix));
  if (!found) throw new Error(`no bundled function ${prefix}`);
  return found;
};

beforeAll(async () => {
  stack = await startTestStack({ functions: 'bundles', scheduleIntervalMs: 2_000 });
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBeLessThan(300);
  await waitFor(async () => (await api<{ lastConsolidatedSequence: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === events.length, 120_000, 250);
  await stack.eventSources.waitForIdle(120_000);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the bundled functions', () => {
  it('ship the local embedding model and TF.js WebAssembly only in the functions that embed', () => {
    const embedding = ['Consolidator', 'Ladder', 'Sweep', 'Reader', 'Feedback'];
    for (const bundle of stack.bundles!.values()) {
      const files = readdirSync(bundle.assetDirectory);
      const embeds = embedding.some((name) => bundle.logicalId.startsWith(`${name}Function`));
      expect(files.includes('model.json') && files.includes('vocab.json') && files.some((f) => f.endsWith('.wasm')), bundle.logicalId).toBe(embeds);
      expect(files, bundle.logicalId).toContain('index.mjs');
    }
  });

  it('embed and index a batch in the bundled consolidator', async () => {
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
    const manifest = await new DynamoDbIndexManifests(documents, stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable')).read({ tenantId: 'default', agentId });
    expect(manifest?.modelId).toBe('use-lite-512');
    const segments = new S3IndexSegments(stack.clients.s3, stack.resourceRef('AWS::S3::Bucket', 'RawLog'));
    const segment = await segments.get(manifest!.segments[0]!.key);
    const pottery = segment!.units.findIndex((unit) => unit.kind === 'record' && unit.id === 'b7');
    expect(pottery).toBeGreaterThanOrEqual(0);
    const vector = segment!.vectors.subarray(pottery * segment!.dimensions, (pottery + 1) * segment!.dimensions);
    // A real sentence embedding: many non-zero components, not a zero-filled fallback.
    expect(vector.filter((x) => x !== 0).length).toBeGreaterThan(segment!.dimensions / 2);
    expect(fn('Consolidator').errors).toBe(0);
  });

  it('answer a question by meaning through the bundled reader, with the query embedded there', async () => {
    const response = await api<{ markdown: string }>(stack, 'GET', `/v1/agents/${agentId}/context?query=${encodeURIComponent('what hobby did her sibling take up?')}`);
    expect(response.status).toBe(200);
    expect(response.body.markdown).toContain('b7');
  });

  it('serve the store pages, feedback, export and status from their own bundles', async () => {
    const tasks = await api<{ items: { id: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/tasks`);
    expect(tasks.status).toBe(200);
    expect(tasks.body.items.length).toBeGreaterThan(0);
    const feedback = await api(stack, 'POST', `/v1/agents/${agentId}/feedback`, { itemId: tasks.body.items[0]!.id, outcome: 'helpful' });
    expect(feedback.status).toBeLessThan(300);
    const exported = await fetch(`${stack.url}/v1/agents/${agentId}/export`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    expect(exported.status).toBe(200);
    // NDJSON: the agent's raw records are in it.
    expect(await exported.text()).toContain('Hollow Oak');
    // A client's mistake is a clear 4xx from the bundle, not a 500.
    const bad = await api<{ error?: unknown }>(stack, 'POST', `/v1/agents/${agentId}/feedback`, { itemId: tasks.body.items[0]!.id, outcome: 'maybe' });
    expect(bad.status).toBe(400);
  });

  it('close the first day by schedule and write its parent levels from the stream', async () => {
    await waitFor(() => fn('Sweep').invocations > 0, 30_000, 100);
    await waitFor(() => fn('Ladder').invocations > 0, 60_000, 100);
    await stack.eventSources.waitForIdle(60_000);
    const summaries = await api<{ items: { level: number }[] }>(stack, 'GET', `/v1/agents/${agentId}/summaries?ladder=time`);
    expect(summaries.status).toBe(200);
    expect(summaries.body.items.length).toBeGreaterThan(0);
  });

  it('flush an idle agent from the idle-check queue', async () => {
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('late-1', 'One more thing.', { timestamp: new Date(start + 2 * DAY).toISOString() })] });
    const result = (await fn('IdleFlush').invoke({ Records: [sqsRecord({ body: JSON.stringify({ tenantId: 'default', agentId, openFrom: events.length + 1 }) })] })) as { batchItemFailures: unknown[] };
    expect(result.batchItemFailures).toEqual([]);
  });

  it('erase the agent from the erasure queue', async () => {
    expect((await api(stack, 'DELETE', `/v1/agents/${agentId}`)).status).toBe(202);
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).status === 404, 60_000, 250);
  });

  it('ran every function of the template from its bundle, each started cold once at least, none failing', () => {
    for (const bundle of stack.bundles!.values()) {
      expect(bundle.invocations, bundle.logicalId).toBeGreaterThan(0);
      expect(bundle.errors, bundle.logicalId).toBe(0);
      expect(bundle.coldStarts.length, bundle.logicalId).toBeGreaterThan(0);
      expect(bundle.maxMemoryUsedMb, bundle.logicalId).toBeLessThanOrEqual(bundle.memorySize);
      expect(join(bundle.assetDirectory, 'index.mjs')).toMatch(/asset\.[0-9a-f]+\/index\.mjs$/);
    }
  });
});
