/**
 * `npm run bench -- bundles`: what each function costs as deployed. The stack
 * is synthesised with bundling (the assets `cdk deploy` uploads) and every
 * function runs from its asset in processes of its own. Per function: the
 * asset's size (code, source map, other files), and over several rounds of a
 * workload that reaches every function through its own trigger, each started
 * cold: the bundle's import (Lambda's Init Duration), the first invocation
 * after it, and the most memory an instance used, beside the function's
 * configured memory size.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES } from '../../functions/domain/auth.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { sqsRecord } from '../../local/lambda-events.js';
import type { LocalStack } from '../../local/local-stack.js';
import type { BenchReport } from './report.js';
import { median, round } from './stats.js';

const ROUNDS = Number(process.env.BENCH_BUNDLE_ROUNDS ?? 5);
const DAY = 86_400_000;

interface AssetSize {
  readonly codeBytes: number;
  readonly mapBytes: number;
  readonly otherBytes: number;
}

function assetSize(directory: string): AssetSize {
  let codeBytes = 0;
  let mapBytes = 0;
  let otherBytes = 0;
  for (const name of readdirSync(directory)) {
    const bytes = statSync(join(directory, name)).size;
    if (name.endsWith('.map')) mapBytes += bytes;
    else if (/\.(mjs|js|cjs)$/.test(name)) codeBytes += bytes;
    else otherBytes += bytes;
  }
  return { codeBytes, mapBytes, otherBytes };
}

async function call(stack: LocalStack, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One round: every function reached once through its own trigger, each instance started cold. */
async function coldRound(stack: LocalStack, n: number): Promise<void> {
  // A new key per round: the API's authorizer cache would otherwise spare the authorizer its cold start.
  const { key } = await createApiKey(stack.keys, { tenantId: 'default', scopes: [...SCOPES], description: `bench round ${n}` });
  const agent = `cold-${n}`;
  const start = Date.parse('2026-10-05T09:00:00Z');
  const events = Array.from({ length: 60 }, (_, i) => ({
    id: `r${n}-${i}`,
    type: 'message',
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: i === 7 ? 'My sister Elena started a pottery class at the Hollow Oak studio.' : i === 30 ? 'Remind me to renew the car insurance by Friday.' : `Ordinary day, note ${i}.`,
    timestamp: new Date(start + (i < 40 ? 0 : DAY) + i * 60_000).toISOString(),
  }));
  const check = (what: string, response: { status: number; text: string }) => {
    if (response.status >= 300) throw new Error(`${what}: ${response.status} ${response.text.slice(0, 200)}`);
  };
  check('ingest', await call(stack, key, 'POST', `/v1/agents/${agent}/events`, { events }));
  check('flush', await call(stack, key, 'POST', `/v1/agents/${agent}/flush`));
  await until(async () => JSON.parse((await call(stack, key, 'GET', `/v1/agents/${agent}/status`)).text).lastConsolidatedSequence === events.length, 120_000);
  await stack.eventSources.waitForIdle(120_000);
  check('context', await call(stack, key, 'GET', `/v1/agents/${agent}/context?query=${encodeURIComponent('what class did her sister start?')}`));
  const tasks = await call(stack, key, 'GET', `/v1/agents/${agent}/tasks`);
  check('tasks', tasks);
  const taskId = (JSON.parse(tasks.text) as { items: { id: string }[] }).items[0]?.id;
  if (taskId) check('feedback', await call(stack, key, 'POST', `/v1/agents/${agent}/feedback`, { itemId: taskId, outcome: 'helpful' }));
  check('export', await call(stack, key, 'GET', `/v1/agents/${agent}/export`));
  check('sweep', await call(stack, key, 'POST', `/v1/agents/${agent}/sweep`));
  await stack.eventSources.waitForIdle(120_000);
  const idleFlush = [...stack.bundles!.values()].find((fn) => fn.logicalId.startsWith('IdleFlush'))!;
  await idleFlush.invoke({ Records: [sqsRecord({ body: JSON.stringify({ tenantId: 'default', agentId: agent, openFrom: events.length + 1 }) })] });
  check('erase', await call(stack, key, 'DELETE', `/v1/agents/${agent}`));
  await until(async () => (await call(stack, key, 'GET', `/v1/agents/${agent}/status`)).status === 404, 60_000);
  await stack.eventSources.waitForIdle(60_000);
}

export async function benchBundles(stack: LocalStack): Promise<BenchReport> {
  if (!stack.bundles) throw new Error('the bundles benchmark needs a stack started with functions: bundles');
  for (let n = 0; n < ROUNDS; n += 1) {
    await coldRound(stack, n);
    await Promise.all([...stack.bundles.values()].map((fn) => fn.recycle()));
  }
  const mb = (bytes: number) => round(bytes / 1_048_576, 1);
  const rows = [...stack.bundles.values()]
    .sort((a, b) => a.logicalId.localeCompare(b.logicalId))
    .map((fn) => {
      const size = assetSize(fn.assetDirectory);
      const init = median(fn.coldStarts.map((c) => c.initMs));
      const first = median(fn.coldStarts.flatMap((c) => (c.firstInvocationMs === undefined ? [] : [c.firstInvocationMs])));
      return {
        name: fn.logicalId.replace(/Function[0-9A-F]{8}$/, ''),
        size,
        coldStarts: fn.coldStarts.length,
        initMs: round(init, 0),
        firstMs: round(first, 0),
        maxMemoryUsedMb: fn.maxMemoryUsedMb,
        memorySize: fn.memorySize,
      };
    });
  const total = (pick: (size: AssetSize) => number) => mb(rows.reduce((sum, row) => sum + pick(row.size), 0));
  return {
    name: 'bundles',
    title: 'Deployed bundles: size, cold start and memory per function',
    command: 'npm run bench -- bundles',
    description: [
      `The stack synthesised with bundling, as \`cdk deploy\` uploads it; every function run from its asset in a process of its own (local/bundled-functions.ts) with its environment from the template.`,
      `${ROUNDS} rounds of a workload that reaches every function through its own trigger (API route and authorizer, queue, stream, schedule), every instance ended between rounds so each round starts cold.`,
      `Init is the bundle's import (Lambda's Init Duration); first invocation is the first request's duration on the new instance (connections to the emulator opened on it); medians over the cold starts.`,
      `Memory is the highest peak resident set an instance reported (Lambda's Max Memory Used), beside the configured size. Node.js ${process.version} here; Lambda runs nodejs22.x on arm64.`,
    ].join(' '),
    table: {
      header: ['function', 'index.mjs MB', 'source map MB', 'other files MB', 'cold starts', 'init p50 ms', 'first invocation p50 ms', 'max memory used MB / size'],
      rows: rows.map((row) => [row.name, mb(row.size.codeBytes), mb(row.size.mapBytes), mb(row.size.otherBytes), row.coldStarts, row.initMs, row.firstMs, `${row.maxMemoryUsedMb} / ${row.memorySize}`]),
    },
    json: {
      rounds: ROUNDS,
      totalCodeMb: total((size) => size.codeBytes),
      totalMapMb: total((size) => size.mapBytes),
      totalOtherMb: total((size) => size.otherBytes),
      functions: Object.fromEntries(rows.map((row) => [row.name, { codeMb: mb(row.size.codeBytes), mapMb: mb(row.size.mapBytes), otherMb: mb(row.size.otherBytes), initP50Ms: row.initMs, firstInvocationP50Ms: row.firstMs, maxMemoryUsedMb: row.maxMemoryUsedMb, memorySize: row.memorySize }])),
    },
  };
}
