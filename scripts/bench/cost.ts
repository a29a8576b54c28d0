/**
 * `npm run bench -- cost [--agents=N] [--messages=N] [--per-day=N]
 * [--single-share=X] [--reads-per-message=X] [--prices=file.json]`: what the
 * service costs, in dollars, from the units a realistic workload uses.
 *
 * The workload is replayed through the local stack's public API: agents
 * (each replaying one of the independent development conversations, in the
 * style of coworkers, a coach and a family chat) post a day's session of
 * messages, some one event per request and the rest ten per request; once a
 * session ends its partial batch is closed (as the idle flush would, 15
 * minutes later) and the agent asks for context (half of the reads with a
 * question); finally every ended day is swept into the ladders. A meter
 * (local/metering.ts) counts every billable unit the functions use as it
 * happens; the units are then priced from a dated table (prices.ts), for the
 * local model (AWS alone) and for Bedrock models from the token counts,
 * beside Amazon Bedrock AgentCore Memory's published rates for the same
 * workload. Storage is priced as one month of what the run left stored.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import type { LocalStack } from '../../local/local-stack.js';
import { itemBytes, OUTSIDE, type AwsUsage, type UsageMeter } from '../../local/metering.js';
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { ApiClient } from '../eval/api-client.js';
import { parseCorpus, turnEvent, type CorpusSample } from '../eval/corpus.js';
import { PRICES_2026_12_02, type ModelPrice, type PriceTable } from './prices.js';
import type { BenchReport } from './report.js';
import { median, round } from './stats.js';

const CORPORA = ['coworkers', 'coach', 'family'] as const;

export interface CostWorkload {
  readonly agents: number;
  readonly messagesPerAgent: number;
  readonly messagesPerDay: number;
  /** Share of messages posted one per request; the rest go ten per request. */
  readonly singleShare: number;
  readonly readsPerMessage: number;
}

export const DEFAULT_WORKLOAD: CostWorkload = { agents: 6, messagesPerAgent: 300, messagesPerDay: 25, singleShare: 0.5, readsPerMessage: 0.2 };

/** Hosted-model latency the consolidating functions wait out (billed Lambda time), per call: first token, then output. */
const MODEL_FIRST_TOKEN_SECONDS = 0.8;
const MODEL_OUTPUT_TOKENS_PER_SECOND = 120;
/** The three updaters of a batch call the model at once. */
const UPDATER_CONCURRENCY = 3;
/** Per invocation: Lambda's START, END and REPORT lines; per API request: one access-log line. */
const PLATFORM_LOG_BYTES = 350;
const ACCESS_LOG_BYTES = 600;
/** X-Ray's default sampling: the first request each second, then 5 %; $5 per million traces recorded. */
const XRAY_SAMPLED_SHARE = 0.05;
const XRAY_PER_MILLION_TRACES = 5;
/** Prompt-cache lifetime (Bedrock's default), for the share of calls that read a cached prefix at a given volume. */
const CACHE_TTL_MINUTES = 5;
const MINUTES_PER_MONTH = 30 * 24 * 60;

function options(argv: readonly string[]): { workload: CostWorkload; prices: PriceTable } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      agents: { type: 'string' },
      messages: { type: 'string' },
      'per-day': { type: 'string' },
      'single-share': { type: 'string' },
      'reads-per-message': { type: 'string' },
      prices: { type: 'string' },
    },
    allowPositionals: true,
    strict: false,
  });
  const number = (value: unknown, fallback: number, name: string, min: number, max: number) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return parsed;
  };
  return {
    workload: {
      agents: number(values.agents, DEFAULT_WORKLOAD.agents, 'agents', 1, 60),
      messagesPerAgent: number(values.messages, DEFAULT_WORKLOAD.messagesPerAgent, 'messages', 50, 5000),
      messagesPerDay: number(values['per-day'], DEFAULT_WORKLOAD.messagesPerDay, 'per-day', 1, 1000),
      singleShare: number(values['single-share'], DEFAULT_WORKLOAD.singleShare, 'single-share', 0, 1),
      readsPerMessage: number(values['reads-per-message'], DEFAULT_WORKLOAD.readsPerMessage, 'reads-per-message', 0, 10),
    },
    prices: typeof values.prices === 'string' ? (JSON.parse(readFileSync(values.prices, 'utf8')) as PriceTable) : PRICES_2026_12_02,
  };
}

function loadCorpus(name: string): CorpusSample {
  return parseCorpus(JSON.parse(readFileSync(new URL(`../corpus/independent/${name}.json`, import.meta.url), 'utf8')))[0]!;
}

interface Replay {
  messages: number;
  singleRequests: number;
  batchRequests: number;
  reads: number;
  flushes: number;
  sweeps: number;
  /** Each context read's path, in order (timed again alone, see `timeAlone`). */
  readonly readPaths: string[];
}

/** The workload through the API: returns what the client did (API Gateway bills each request). */
async function replay(stack: LocalStack, api: ApiClient, workload: CostWorkload, log: (line: string) => void): Promise<Replay> {
  const done: Replay = { messages: 0, singleRequests: 0, batchRequests: 0, reads: 0, flushes: 0, sweeps: 0, readPaths: [] };
  const agents = Array.from({ length: workload.agents }, (_, i) => {
    const sample = loadCorpus(CORPORA[i % CORPORA.length]!);
    const questions = sample.questions.map((q) => q.question);
    // The conversation's turns, in order, repeated if the workload asks for more; re-dated day by day below.
    const turns = Array.from({ length: workload.messagesPerAgent }, (_, k) => sample.turns[k % sample.turns.length]!);
    return { id: `cost-${i + 1}`, turns, questions };
  });
  const days = Math.ceil(workload.messagesPerAgent / workload.messagesPerDay);
  const start = Date.parse('2026-09-01T09:00:00Z');
  for (let day = 0; day < days; day += 1) {
    await Promise.all(
      agents.map(async (agent, a) => {
        const today = agent.turns.slice(day * workload.messagesPerDay, (day + 1) * workload.messagesPerDay);
        if (today.length === 0) return;
        const events = today.map((turn, k) => ({ ...turnEvent(turn), id: `${agent.id}-${day * workload.messagesPerDay + k}`, timestamp: new Date(start + day * 86_400_000 + k * 60_000).toISOString(), interactionId: `day-${day}` }));
        const singles = Math.round(events.length * workload.singleShare);
        for (const event of events.slice(0, singles)) {
          await api.call('POST', `/v1/agents/${agent.id}/events`, { events: [event] });
          done.singleRequests += 1;
        }
        for (let k = singles; k < events.length; k += 10) {
          await api.call('POST', `/v1/agents/${agent.id}/events`, { events: events.slice(k, k + 10) });
          done.batchRequests += 1;
        }
        done.messages += events.length;
        // The session is over: its partial batch is closed, as the idle flush does once the agent is quiet.
        await api.call('POST', `/v1/agents/${agent.id}/flush`);
        done.flushes += 1;
        const reads = Math.round(events.length * workload.readsPerMessage);
        for (let r = 0; r < reads; r += 1) {
          const question = r % 2 === 0 ? agent.questions[(day * reads + r + a) % agent.questions.length] : undefined;
          const path = `/v1/agents/${agent.id}/context?maxTokens=1024${question ? `&query=${encodeURIComponent(question)}` : ''}`;
          await readContext(api, path);
          done.readPaths.push(path);
          done.reads += 1;
        }
      }),
    );
    log(`cost: day ${day + 1}/${days} posted (${done.messages} messages)`);
  }
  // Consolidation catches up, then every ended day is swept into the ladders, as the schedule would.
  for (const agent of agents) {
    for (let attempt = 0; ; attempt += 1) {
      const status = await api.call<{ lastSequence: number; lastConsolidatedSequence: number }>('GET', `/v1/agents/${agent.id}/status`);
      if (status.lastConsolidatedSequence >= status.lastSequence) break;
      if (attempt > 2400) throw new Error(`agent ${agent.id} did not catch up`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await api.call('POST', `/v1/agents/${agent.id}/sweep`);
    done.sweeps += 1;
  }
  await stack.eventSources.waitForIdle(600_000);
  return done;
}

/** A context read; before anything is consolidated the snapshot does not exist (a 404): the agent simply has no memory to read. */
async function readContext(api: ApiClient, path: string): Promise<void> {
  await api.call('GET', path).catch((error: unknown) => {
    if (!String(error).includes('answered 404')) throw error;
  });
}

interface TimedAlone {
  /** Each function's durations in ms, timed alone. */
  readonly durations: Record<string, number[]>;
  /** Embedding one new question, ms, for each distinct question of the run. */
  readonly questionEmbedMs: readonly number[];
  /** Share of the reads that ask a question. */
  readonly questionShare: number;
}

/** Messages the timing agent posts alone (two batches of 50). */
const TIMED_MESSAGES = 100;
/** Lambda's CPU share grows with memory: one full vCPU at 1,769 MB (AWS Lambda developer guide, "Configuring Lambda function memory"). */
const FULL_VCPU_MB = 1769;

/**
 * The hot-path functions (ingest, reader, authorizer) timed alone: in the
 * replay every function shares this process's event loop and two cores, so a
 * read's wall time there includes a batch being consolidated beside it, which
 * a Lambda instance of its own would never wait for. A fresh agent posts
 * `TIMED_MESSAGES` of a conversation at the run's request mix, one request at
 * a time with the pipeline idle before each, and every read of the run is
 * made again, one at a time, on the settled stack. What this pass does to AWS
 * is not counted: the meter is set back to the replay's units afterwards.
 */
async function timeAlone(stack: LocalStack, meter: UsageMeter, api: ApiClient, workload: CostWorkload, readPaths: readonly string[]): Promise<TimedAlone> {
  const live = meter.usage;
  meter.reset();
  try {
    await stack.eventSources.waitForIdle(600_000);
    const sample = loadCorpus(CORPORA[0]);
    const start = Date.parse('2026-09-01T09:00:00Z');
    const events = sample.turns.slice(0, TIMED_MESSAGES).map((turn, k) => ({ ...turnEvent(turn), id: `timed-${k}`, timestamp: new Date(start + k * 60_000).toISOString(), interactionId: 'timed' }));
    const singles = Math.round(events.length * workload.singleShare);
    const requests = [...events.slice(0, singles).map((event) => [event]), ...Array.from({ length: Math.ceil((events.length - singles) / 10) }, (_, k) => events.slice(singles + k * 10, singles + (k + 1) * 10))];
    for (const batch of requests) {
      await stack.eventSources.waitForIdle(600_000);
      await api.call('POST', '/v1/agents/cost-timed/events', { events: batch });
    }
    await stack.eventSources.waitForIdle(600_000);
    for (const path of readPaths) await readContext(api, path);
    const durations = Object.fromEntries(Object.entries(meter.usage.invocations).map(([fn, usage]) => [fn, [...usage.durations]]));
    // A warm reader embeds a question it has seen before from its cache, here as in the replay. What a new
    // question costs, the embedding alone, is timed for every distinct question of the run, one at a time.
    const questions = [...new Set(readPaths.map((path) => new URL(path, 'http://local').searchParams.get('query')).filter((q): q is string => q !== null))];
    const embeddings = new LocalEmbeddings();
    await embeddings.embed(['warm-up']);
    const questionEmbedMs: number[] = [];
    for (const question of questions) {
      const started = performance.now();
      await embeddings.embed([question]);
      questionEmbedMs.push(performance.now() - started);
    }
    return { durations, questionEmbedMs, questionShare: readPaths.length === 0 ? 0 : readPaths.filter((path) => path.includes('&query=')).length / readPaths.length };
  } finally {
    meter.usage = live;
  }
}

/** Bytes stored at the end: the raw-log bucket (records, index segments) and every table's items. */
async function stored(stack: LocalStack): Promise<{ s3Bytes: number; dynamoBytes: number }> {
  let s3Bytes = 0;
  for (const resource of stack.resources.values()) {
    if (resource.type !== 'AWS::S3::Bucket') continue;
    let token: string | undefined;
    do {
      const page = await stack.clients.s3.send(new ListObjectsV2Command({ Bucket: resource.ref, ContinuationToken: token }));
      for (const object of page.Contents ?? []) s3Bytes += object.Size ?? 0;
      token = page.NextContinuationToken;
    } while (token);
  }
  let dynamoBytes = 0;
  // DynamoDB bills storage as the items' size plus 100 bytes of overhead each.
  for await (const item of everyItem(stack)) dynamoBytes += itemBytes(item) + 100;
  return { s3Bytes, dynamoBytes };
}

interface Lines {
  /** Dollars by service for the run. */
  readonly [service: string]: number;
}

const GB = 1024 ** 3;
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** Each non-zero line of a cost, scaled, largest first. */
function split(lines: Lines, scale: number): string {
  return Object.entries(lines)
    .filter(([, dollars]) => dollars > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([line, dollars]) => `${line} $${money(dollars * scale)}`)
    .join(', ');
}

/** AWS's share of the run (no model), by service; `only` keeps the named functions (and their API requests when given). */
function awsCost(
  meter: UsageMeter,
  timing: LambdaTiming,
  prices: PriceTable,
  apiRequests: number,
  stack: LocalStack,
  only?: (fn: string) => boolean,
): Lines {
  const functions = Object.entries(meter.usage.invocations).filter(([fn]) => !only || only(fn));
  const aws = Object.entries(meter.usage.aws).filter(([fn]) => fn !== OUTSIDE && (!only || only(fn))).map(([, usage]) => usage);
  const op = (usage: AwsUsage, test: (name: string) => boolean) => sum(Object.entries(usage.operations).filter(([name]) => test(name)).map(([, n]) => n));
  const s3Puts = sum(aws.map((u) => op(u, (n) => /^S3\.(Put|Copy|List|CreateMultipart|UploadPart|CompleteMultipart)/.test(n))));
  const s3Gets = sum(aws.map((u) => op(u, (n) => /^S3\.(Get|Head)/.test(n))));
  const invocations = sum(functions.map(([, i]) => i.count));
  const gbSeconds = sum(functions.map(([fn, i]) => ((i.count * timing[fn]!.pricedMs) / 1000) * (timing[fn]!.memoryMb / 1024)));
  // Queue-triggered invocations cost the poller a receive and a delete each.
  const queueTriggered = new Set(queueFunctions(stack));
  const pollRequests = sum(functions.filter(([fn]) => queueTriggered.has(fn)).map(([, i]) => 2 * i.count));
  return {
    'API Gateway': (apiRequests / 1e6) * prices.apiGateway.perMillionHttpRequests,
    'Lambda requests': (invocations / 1e6) * prices.lambda.perMillionRequests,
    'Lambda compute': gbSeconds * prices.lambda.perGbSecondArm,
    'DynamoDB requests': (sum(aws.map((u) => u.dynamoWriteUnits)) / 1e6) * prices.dynamodb.perMillionWriteUnits + (sum(aws.map((u) => u.dynamoReadUnits)) / 1e6) * prices.dynamodb.perMillionReadUnits,
    'S3 requests': (s3Puts / 1000) * prices.s3.perThousandPuts + (s3Gets / 1000) * prices.s3.perThousandGets,
    SQS: ((sum(aws.map((u) => u.sqsRequests)) + pollRequests) / 1e6) * prices.sqs.perMillionFifo,
    'CloudWatch Logs': ((invocations * PLATFORM_LOG_BYTES + apiRequests * ACCESS_LOG_BYTES) / GB) * prices.cloudwatch.perGbLogsIngested,
    'X-Ray': ((apiRequests * XRAY_SAMPLED_SHARE) / 1e6) * XRAY_PER_MILLION_TRACES,
  };
}

/** The hot path's functions: timed alone (`timeAlone`) and priced from that time. */
const HOT_PATH = /^(Ingest|Reader|Authorizer)Function/;

interface FunctionTiming {
  readonly memoryMb: number;
  /** The replay's mean billed ms per invocation (a shared process: includes waiting behind other functions' work). */
  readonly liveMs: number;
  /** Mean billed ms timed alone, when the function is on the hot path (the reader's with every question embedded afresh). */
  readonly aloneMs?: number;
  /** What an invocation is priced at: hot path, the time alone scaled up to the function's CPU share; otherwise the live mean. */
  readonly pricedMs: number;
}

type LambdaTiming = Readonly<Record<string, FunctionTiming>>;

/**
 * Each function's priced duration. A hot-path function is priced from its
 * time alone, multiplied by 1,769 MB over its memory size (its share of a
 * vCPU, at most one), as if all of that time were CPU time and none waiting on
 * DynamoDB or S3 (the reads of the timing pass fetch no pending records, which
 * it leaves out). The offline functions keep the replay's wall time, an
 * overestimate of its own kind (they wait behind one another in this process).
 */
function lambdaTiming(stack: LocalStack, meter: UsageMeter, timed: TimedAlone): LambdaTiming {
  const mean = (values: readonly number[]) => sum(values.map((v) => Math.ceil(v))) / Math.max(1, values.length);
  // Upper bound for the reader: every question new to its instance, embedded afresh.
  const newQuestionMs = timed.questionShare * (sum(timed.questionEmbedMs) / Math.max(1, timed.questionEmbedMs.length));
  return Object.fromEntries(
    Object.entries(meter.usage.invocations).map(([fn, usage]) => {
      const memoryMb = stack.functions.get(fn)?.memorySize ?? 1024;
      const liveMs = usage.billedMs / Math.max(1, usage.count);
      const durations = timed.durations[fn];
      if (!HOT_PATH.test(fn) || !durations?.length) return [fn, { memoryMb, liveMs, pricedMs: liveMs }];
      const aloneMs = mean(durations) + (fn.startsWith('Reader') ? newQuestionMs : 0);
      return [fn, { memoryMb, liveMs, aloneMs, pricedMs: aloneMs * Math.max(1, FULL_VCPU_MB / memoryMb) }];
    }),
  );
}

/** Functions a queue triggers (an event source mapping from an SQS queue). */
function queueFunctions(stack: LocalStack): string[] {
  return Object.values(stack.template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(r.Properties?.EventSourceArn ?? '').includes('Queue'))
    .map((r) => ((r.Properties?.FunctionName as { Ref?: string } | undefined)?.Ref ?? ''));
}

interface ModelBill {
  readonly dollars: number;
  readonly cachedDollars: number;
  /** Lambda time spent waiting for the model, priced. */
  readonly waitDollars: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Share of input tokens a cache point could cover (static prefixes long enough to be cached). */
  readonly cacheableShare: number;
}

/** The model's bill for the run, with and without prompt caching at the monthly volume of `callsPerMonthScale` × the run. */
function modelBill(meter: UsageMeter, model: ModelPrice, prices: PriceTable, consolidatorMemoryMb: number, monthScale: number): ModelBill {
  let dollars = 0;
  let cachedDollars = 0;
  let waitSeconds = 0;
  let input = 0;
  let output = 0;
  let cacheable = 0;
  for (const [site, usage] of Object.entries(meter.usage.model)) {
    const inPrice = model.inputPerMillion / 1e6;
    const outPrice = model.outputPerMillion / 1e6;
    const plain = usage.inputTokens * inPrice + usage.outputTokens * outPrice;
    dollars += plain;
    input += usage.inputTokens;
    output += usage.outputTokens;
    const staticPerCall = usage.staticTokens / Math.max(1, usage.calls);
    if (staticPerCall >= model.minCacheTokens) {
      // At the monthly volume, the calls of this site within one cache lifetime: all but the first read the cache.
      const callsPerWindow = (usage.calls * monthScale * CACHE_TTL_MINUTES) / MINUTES_PER_MONTH;
      const hitShare = callsPerWindow <= 1 ? 0 : 1 - 1 / callsPerWindow;
      const staticCost = usage.staticTokens * inPrice * (hitShare * model.cacheReadFactor + (1 - hitShare) * model.cacheWriteFactor);
      cachedDollars += plain - usage.staticTokens * inPrice + staticCost;
      cacheable += usage.staticTokens;
    } else cachedDollars += plain;
    const callSeconds = usage.calls * MODEL_FIRST_TOKEN_SECONDS + usage.outputTokens / MODEL_OUTPUT_TOKENS_PER_SECOND;
    waitSeconds += site.startsWith('summary') ? callSeconds : callSeconds / UPDATER_CONCURRENCY;
  }
  const waitDollars = waitSeconds * (consolidatorMemoryMb / 1024) * prices.lambda.perGbSecondArm;
  return { dollars, cachedDollars, waitDollars, inputTokens: input, outputTokens: output, cacheableShare: input === 0 ? 0 : cacheable / input };
}

const money = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(4));

export async function benchCost(stack: LocalStack, meter: UsageMeter, argv: readonly string[] = process.argv.slice(2)): Promise<BenchReport> {
  const { workload, prices } = options(argv);
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  meter.reset();
  const api = new ApiClient(stack.url, (await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write', 'admin'], description: 'cost bench' })).key);
  const run = await replay(stack, api, workload, log);
  const storage = await stored(stack);
  log('cost: timing the hot-path functions alone');
  const alone = await timeAlone(stack, meter, api, workload, run.readPaths);
  const timing = lambdaTiming(stack, meter, alone);
  const apiRequests = run.singleRequests + run.batchRequests + run.reads + run.flushes + run.sweeps;
  const events = run.messages;
  const perMillion = 1e6 / events;
  // A month at a million messages: the run's units scaled; what it stored kept for that month.
  const monthScale = perMillion;
  const storageDollars = ((storage.s3Bytes / GB) * prices.s3.perGbMonth + (storage.dynamoBytes / GB) * prices.dynamodb.perGbMonth) * perMillion;

  const whole = awsCost(meter, timing, prices, apiRequests, stack);
  const awsPerMillion = sum(Object.values(whole)) * perMillion + storageDollars;
  const writePath = awsCost(meter, timing, prices, run.singleRequests + run.batchRequests, stack, (fn) => fn.startsWith('Ingest') || fn.startsWith('Authorizer'));
  // The write path is priced per event at the stated request mix (authorizer invocations are shared with reads: counted here in full, an upper bound).
  const writePathPerMillionEvents = sum(Object.values(writePath)) * perMillion;
  const readerOnly = awsCost(meter, timing, prices, run.reads, stack, (fn) => fn.startsWith('Reader'));
  const per1000Reads = run.reads === 0 ? 0 : (sum(Object.values(readerOnly)) / run.reads) * 1000;

  const consolidatorMemory = [...stack.functions.values()].find((f) => f.logicalId.startsWith('Consolidator'))?.memorySize ?? 1024;
  const models = prices.models.map((model) => ({ model, bill: modelBill(meter, model, prices, consolidatorMemory, monthScale) }));
  const embedded = (meter.usage.embeddedTokens / 1e6) * prices.embeddings.perMillionTokens;

  // AgentCore Memory for the same workload: each message an event; the long-term records it would keep, one per item the
  // service keeps live (contacts, facts, tasks) and one per session summary, stored for the month; each context read a retrieval.
  const items = await liveItems(stack);
  const agentCoreRecordsPerMillion = (items.records / events) * 1e6;
  const agentCorePerMillion =
    (1e6 / 1000) * prices.agentCore.perThousandShortTermEvents +
    (agentCoreRecordsPerMillion / 1000) * prices.agentCore.perThousandLongTermRecordsMonthBuiltIn +
    ((run.reads / events) * 1e6 / 1000) * prices.agentCore.perThousandRetrievals;
  const agentCorePer1000Reads = prices.agentCore.perThousandRetrievals;

  const perMillionMessages: Record<string, number> = { local: round(awsPerMillion, 2) };
  for (const { model, bill } of models) perMillionMessages[model.id] = round(awsPerMillion + (Math.min(bill.dollars, bill.cachedDollars) + bill.waitDollars + embedded) * perMillion, 2);
  const agentMonthMessages = workload.messagesPerDay * 30;
  const rows: (string | number)[][] = [];
  for (const [service, dollars] of Object.entries(whole)) rows.push([service, money(dollars * perMillion), money((dollars / events) * agentMonthMessages)]);
  rows.push(['Storage, one month (S3 + DynamoDB)', money(storageDollars), money((storageDollars / 1e6) * agentMonthMessages)]);
  rows.push(['**AWS, local model**', `**${money(awsPerMillion)}**`, `**${money((awsPerMillion / 1e6) * agentMonthMessages)}**`]);
  for (const { model, bill } of models) {
    const perM = (Math.min(bill.dollars, bill.cachedDollars) + bill.waitDollars + embedded) * perMillion;
    rows.push([`+ ${model.label}: tokens${bill.cachedDollars < bill.dollars ? ' (prompt caching)' : ''}, Lambda waiting, Titan embeddings`, money(perM), money((perM / 1e6) * agentMonthMessages)]);
    rows.push([`**whole service, ${model.label}**`, `**${money(awsPerMillion + perM)}**`, `**${money(((awsPerMillion + perM) / 1e6) * agentMonthMessages)}**`]);
  }
  rows.push(['AgentCore Memory, same workload (events, long-term records for a month, retrievals)', money(agentCorePerMillion), money((agentCorePerMillion / 1e6) * agentMonthMessages)]);

  const tokensPer1000 = (tokens: number) => Math.round((tokens / events) * 1000);
  const sites = Object.entries(meter.usage.model)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([site, u]) => `${site} ${u.calls} calls, ${tokensPer1000(u.inputTokens)} in / ${tokensPer1000(u.outputTokens)} out per 1,000 messages (static prefix ${Math.round(u.staticTokens / Math.max(1, u.calls))} tokens a call)`);
  const haiku = models[0]!;
  return {
    name: 'cost',
    title: 'What it costs: dollars per million messages, beside AgentCore Memory',
    command: `npm run bench -- cost${argv.filter((a) => a.startsWith('--')).length ? ` ${argv.join(' ')}` : ''}`,
    description: [
      `The workload, replayed through the API of the local stack: ${workload.agents} agents, ${workload.messagesPerAgent} messages each (${events} in all) in daily sessions of ${workload.messagesPerDay}, ${Math.round(workload.singleShare * 100)} % posted one per request and the rest ten per request (${run.singleRequests + run.batchRequests} ingest requests), each session's partial batch closed when it ends (as the idle flush would), ${workload.readsPerMessage} context reads per message at 1,024 tokens (every other read of a session with a question, the first included: ${Math.round(alone.questionShare * 100)} % of ${run.reads} reads), and every ended day swept into both ladders. Texts: the three independent development conversations (scripts/corpus/independent/), repeated as needed.`,
      `A meter on the functions' clients, model and invocations counted every billable unit; prices: the table of ${prices.date} (${prices.region}, on-demand list prices, scripts/bench/prices.ts, a source for each line). "Per million messages" scales the run's units; storage is one month of what a million messages leave stored (S3 ${Math.round(storage.s3Bytes / events)} bytes and DynamoDB ${Math.round(storage.dynamoBytes / events)} bytes a message). "Agent-month" is one agent at this mix for 30 days (${agentMonthMessages} messages). Bedrock rows add the model's tokens (counted from the prompts each call site sends: system prompt, tool schema, request; output from the answers), the Lambda time spent waiting for the model (${MODEL_FIRST_TOKEN_SECONDS} s to first token, ${MODEL_OUTPUT_TOKENS_PER_SECOND} tokens/s, the three updaters at once) and Titan embeddings of every indexed unit and question. AgentCore Memory: $${prices.agentCore.perThousandShortTermEvents} per 1,000 events, $${prices.agentCore.perThousandLongTermRecordsMonthBuiltIn} per 1,000 long-term records a month (built-in strategies; counted as one record per live item and per session summary the service keeps: ${Math.round(agentCoreRecordsPerMillion)} per million messages) and $${prices.agentCore.perThousandRetrievals} per 1,000 retrievals.`,
    ].join('\n\n'),
    table: { header: ['line', '$ per million messages', '$ per agent-month'], rows },
    notes: [
      `reads: $${money(per1000Reads)} per 1,000 context reads (API request, authorizer share not included, reader function, its DynamoDB and S3 reads; local embeddings) against AgentCore's $${agentCorePer1000Reads} per 1,000 retrievals (ratio ${round(per1000Reads / agentCorePer1000Reads, 4)}); by line: ${split(readerOnly, 1000 / Math.max(1, run.reads))}`,
      `write path alone (API Gateway, authorizer, ingest function, its DynamoDB, S3 and SQS requests, logs and traces; no model): $${money(writePathPerMillionEvents)} per million events at this request mix; by line: ${split(writePath, perMillion)}`,
      `AWS requests per 1,000 messages by function (DynamoDB write units / read units, S3 PUT and LIST / GET): ${Object.entries(meter.usage.aws)
        .sort(([, a], [, b]) => b.dynamoWriteUnits - a.dynamoWriteUnits)
        .map(([fn, u]) => {
          const s3 = (test: RegExp) => sum(Object.entries(u.operations).filter(([name]) => test.test(name)).map(([, n]) => n));
          const per1000 = (n: number) => Math.round((n * 1000) / events);
          return `${fn.replace(/[0-9A-F]{8}$/, '')} ${per1000(u.dynamoWriteUnits)} / ${per1000(u.dynamoReadUnits)}, ${per1000(s3(/^S3\.(Put|Copy|List|CreateMultipart|UploadPart|CompleteMultipart)/))} / ${per1000(s3(/^S3\.(Get|Head)/))}`;
        })
        .join('; ')}`,
      `Lambda time per invocation in the replay, billed ms mean / median / max (invocations), by function: ${Object.entries(meter.usage.invocations)
        .sort(([, a], [, b]) => b.billedMs - a.billedMs)
        .map(([fn, i]) => `${fn.replace(/[0-9A-F]{8}$/, '')} ${Math.round(i.billedMs / Math.max(1, i.count))} / ${Math.round(median(i.durations))} / ${Math.max(0, ...i.durations)} (${i.count})`)
        .join(', ')}. Every function shares one process and two cores in the replay, so these include time spent waiting behind other functions' work. The offline functions are priced at their replay mean; the hot path's at its mean timed alone (${TIMED_MESSAGES} messages posted by a fresh agent at the same mix, one request at a time with the pipeline idle; every read of the run made again, one at a time, on the settled stack), multiplied by 1,769 MB over the function's memory (its share of a vCPU, as if all of it were CPU time): ${Object.entries(timing)
        .filter(([, t]) => t.aloneMs !== undefined)
        .map(([fn, t]) => `${fn.replace(/[0-9A-F]{8}$/, '')} ${Math.round(t.aloneMs!)} ms alone at ${t.memoryMb} MB, priced at ${Math.round(t.pricedMs)} ms (replay ${Math.round(t.liveMs)})`)
        .join(', ')}; the reader's time alone includes embedding every question afresh (${round(sum(alone.questionEmbedMs) / Math.max(1, alone.questionEmbedMs.length), 1)} ms a question, ${alone.questionEmbedMs.length} distinct questions, on ${Math.round(alone.questionShare * 100)} % of the reads), where a warm instance that has seen the question uses its cache`,
      `model calls per call site: ${sites.join('; ')}`,
      `with ${haiku.model.label}: ${Math.round(haiku.bill.cacheableShare * 100)} % of input tokens sit in static prefixes long enough for a cache point (at least ${haiku.model.minCacheTokens} tokens); tokens alone $${money(haiku.bill.dollars * perMillion)} per million messages, with caching $${money(haiku.bill.cachedDollars * perMillion)}`,
      `not in the figures: the fixed monthly cost of a deployment (Secrets Manager's page-token key $${prices.secretsManager.perSecretMonth}, CloudWatch alarms and custom metrics, the sweep schedule's 2,880 invocations and the queue pollers' empty receives, about $2 to $4 a month in all), data transfer out, and free tiers.`,
    ],
    json: {
      perMillionMessages,
      agentCorePerMillionMessages: round(agentCorePerMillion, 2),
      per1000Reads: round(per1000Reads, 5),
      agentCorePer1000Reads,
      writePathPerMillionEvents: round(writePathPerMillionEvents, 3),
      hotPathMs: Object.fromEntries(
        Object.entries(timing)
          .filter(([, t]) => t.aloneMs !== undefined)
          .map(([fn, t]) => [fn.replace(/[0-9A-F]{8}$/, ''), { alone: round(t.aloneMs!, 1), priced: round(t.pricedMs, 1), replay: round(t.liveMs, 1) }]),
      ),
      priceTableDate: prices.date,
      messages: events,
      modelTokensPer1000Messages: { input: tokensPer1000(sum(Object.values(meter.usage.model).map((u) => u.inputTokens))), output: tokensPer1000(sum(Object.values(meter.usage.model).map((u) => u.outputTokens))) },
      modelCallsPer1000Messages: round((sum(Object.values(meter.usage.model).map((u) => u.calls)) / events) * 1000, 1),
      ratioToAgentCore: Object.fromEntries(Object.entries(perMillionMessages).map(([id, dollars]) => [id, round(dollars / agentCorePerMillion, 4)])),
    },
  };
}

/** Live items (contacts, facts, tasks) and session summaries: the long-term records AgentCore would keep for this workload. */
async function liveItems(stack: LocalStack): Promise<{ records: number }> {
  let records = 0;
  for await (const item of everyItem(stack)) {
    const sk = item.sk?.S ?? '';
    if (/^ITEM#/.test(sk) && item.status?.S !== 'archived') records += 1;
    if (/^SUM#count#0#/.test(sk) && item.empty?.BOOL !== true) records += 1;
  }
  return { records };
}

/** Every item of every table of the stack, scanned page by page. */
async function* everyItem(stack: LocalStack): AsyncGenerator<Record<string, AttributeValue>> {
  for (const resource of stack.resources.values()) {
    if (resource.type !== 'AWS::DynamoDB::Table') continue;
    let key: Record<string, AttributeValue> | undefined;
    do {
      const page = await stack.clients.dynamodb.send(new ScanCommand({ TableName: resource.ref, ExclusiveStartKey: key }));
      yield* page.Items ?? [];
      key = page.LastEvaluatedKey;
    } while (key);
  }
}
