/**
 * Developer tool: strict evidence recall (a question's evidence ids printed
 * literally in the returned block) and answer containment, for the service
 * and for raw-turn baselines (BM25; BM25 + embeddings fused) at the same
 * budgets.
 *
 *   npx tsx scripts/dev/strict-recall.ts [--corpus file | --samples n --months n] [--offline] [--budgets 512,1024]
 *
 * `--offline` skips the stack: the turns are indexed in-process as records
 * (no items, no summaries) and ranked and rendered by the same domain code,
 * which is quick for trying ranking changes. Otherwise the corpus is replayed
 * through the HTTP API of a fresh local stack (events, flush, sweep) and
 * every question asked through `GET /context`.
 */
import { parseArgs } from 'node:util';
import { countTokens } from '../../functions/commons/tokens.js';
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { recordUnit, searchText } from '../../functions/domain/index-units.js';
import { buildSegment } from '../../functions/domain/index-segment.js';
import { indexTerms } from '../../functions/domain/terms.js';
import { loadSegment, reciprocalRankFusion, UnitIndex } from '../../functions/domain/retrieval.js';
import { renderRecall } from '../../functions/domain/context.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { startLocalStack } from '../../local/local-stack.js';
import { Bm25Baseline } from '../eval/baselines.js';
import { turnEvent, turnLine, type CorpusSample, type CorpusTurn } from '../eval/corpus.js';
import { answerContained, strictRecall } from '../eval/metrics.js';
import { loadCorpus } from '../eval/run.js';
import { postSamples, waitConsolidated } from './replay.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, samples: { type: 'string' }, months: { type: 'string' }, offline: { type: 'boolean' }, budgets: { type: 'string' }, verbose: { type: 'boolean' } } });
const budgets = (values.budgets ?? '1024').split(',').map(Number);
const corpus = loadCorpus(values.corpus ? { corpusFile: values.corpus } : { generated: { samples: Number(values.samples ?? 2), months: Number(values.months ?? 4) } });
const embeddings = new LocalEmbeddings();
const log = (line: string) => process.stderr.write(`[recall] ${line}\n`);

const strict = strictRecall;

interface Tally {
  recall: number[];
  contained: number[];
  byCategory: Map<string, number[]>;
}
const tally = (): Tally => ({ recall: [], contained: [], byCategory: new Map() });
const methods = new Map<string, Map<number, Tally>>();
function score(method: string, budget: number, category: string, evidence: readonly string[], answer: string | undefined, markdown: string) {
  let byBudget = methods.get(method);
  if (!byBudget) methods.set(method, (byBudget = new Map()));
  let t = byBudget.get(budget);
  if (!t) byBudget.set(budget, (t = tally()));
  if (evidence.length > 0) {
    const r = strict(evidence, markdown);
    t.recall.push(r);
    t.byCategory.set(category, [...(t.byCategory.get(category) ?? []), r]);
  }
  if (answer !== undefined) t.contained.push(answerContained(answer, markdown) ? 1 : 0);
}

const vectorCache = new Map<string, Float32Array>();
async function embedAll(texts: string[]): Promise<Float32Array[]> {
  const missing = [...new Set(texts.filter((t) => !vectorCache.has(t)))];
  const vectors = await embeddings.embed(missing);
  missing.forEach((t, i) => vectorCache.set(t, vectors[i]!));
  return texts.map((t) => vectorCache.get(t)!);
}

/** BM25 and dense over raw turns, fused (RRF), packed like the BM25 baseline. */
async function hybridBaseline(turns: readonly CorpusTurn[], vectors: readonly Float32Array[], bm25Order: readonly string[], question: string, budget: number): Promise<string> {
  const [q] = await embedAll([question]);
  const dense = turns.map((t, i) => ({ id: t.id, s: vectors[i]!.reduce((sum, x, d) => sum + x * q![d]!, 0) })).sort((a, b) => b.s - a.s);
  const rank = new Map<string, { l?: number; d?: number }>();
  bm25Order.forEach((id, i) => rank.set(id, { l: i + 1 }));
  dense.slice(0, 300).forEach(({ id }, i) => rank.set(id, { ...rank.get(id), d: i + 1 }));
  const order = [...rank].sort((a, b) => reciprocalRankFusion([b[1].l, b[1].d]) - reciprocalRankFusion([a[1].l, a[1].d])).map(([id]) => id);
  const byId = new Map(turns.map((t) => [t.id, t]));
  const lines: string[] = [];
  let tokens = countTokens('## Conversation excerpts');
  for (const id of order) {
    const line = turnLine(byId.get(id)!);
    const cost = countTokens(`\n${line}`);
    if (tokens + cost > budget) continue;
    lines.push(line);
    tokens += cost;
  }
  return ['## Conversation excerpts', ...lines].join('\n');
}

const fakeSnapshot = (sample: CorpusSample): Snapshot => ({
  tenantId: 'default',
  agentId: sample.id,
  version: 1,
  generatedAt: new Date().toISOString(),
  freshness: { lastConsolidatedSequence: sample.turns.length, lastIngestedSequence: sample.turns.length, pendingRecords: 0 },
  time: [],
  count: [],
});

async function offline(sample: CorpusSample) {
  const units = sample.turns.map((turn, i) => recordUnit({ ...turnEvent(turn), sequence: i + 1, timestamp: turn.at }, i > 0 ? { ...turnEvent(sample.turns[i - 1]!), sequence: i, timestamp: sample.turns[i - 1]!.at } : undefined));
  const withTerms = units.map((u) => ({ ...u, terms: indexTerms(searchText(u)).join(' ') }));
  const vectors = await embedAll(units.map((u) => `${u.speaker}: ${u.text}`));
  const segment = buildSegment(embeddings.modelId, embeddings.dimensions, withTerms, vectors);
  const index = new UnitIndex([loadSegment('offline', segment)], new Set(), embeddings.modelId);
  const snapshot = fakeSnapshot(sample);
  return async (question: string, budget: number) => {
    const [queryVector] = await embedAll([question]);
    const { ranked, understanding } = index.search({ query: question, queryVector: queryVector!, now: new Date().toISOString() });
    return renderRecall(snapshot, ranked, { maxTokens: budget, countTokens, terms: understanding.terms }).markdown;
  };
}

async function online(samples: readonly CorpusSample[]) {
  const stack = await startLocalStack({ port: 0, namePrefix: `recall-${Date.now().toString(36)}`, log });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  const run = Date.now().toString(36);
  const agents = samples.map((s, i) => `dev-${run}-${i}`);
  const started = Date.now();
  await postSamples(call, samples, agents);
  for (const agent of agents) {
    await waitConsolidated(call, agent);
    await call('POST', `/v1/agents/${agent}/sweep`);
  }
  await stack.eventSources.waitForIdle(1_800_000);
  log(`replayed and settled in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return {
    stop: () => stack.stop(),
    ask: (i: number) => async (question: string, budget: number) =>
      (await call<{ markdown: string }>('GET', `/v1/agents/${agents[i]}/context?${new URLSearchParams({ maxTokens: String(budget), query: question })}`)).markdown,
  };
}

// Event-loop stalls: the local API server shares this process, and a long stall resets kept-alive connections.
let lastTick = performance.now();
let worstStallMs = 0;
const ticker = setInterval(() => {
  const now = performance.now();
  if (now - lastTick - 100 > worstStallMs) {
    worstStallMs = now - lastTick - 100;
    if (worstStallMs > 1000) log(`event loop stalled ${worstStallMs.toFixed(0)} ms`);
  }
  lastTick = now;
}, 100);
ticker.unref();
const stack = values.offline ? undefined : await online(corpus.samples);
for (const [i, sample] of corpus.samples.entries()) {
  const ask = stack ? stack.ask(i) : await offline(sample);
  const bm25 = new Bm25Baseline(sample.turns);
  const turnVectors = await embedAll(sample.turns.map((t) => `${t.speaker}: ${t.text}`));
  for (const q of sample.questions) {
    for (const budget of budgets) {
      const markdown = await ask(q.question, budget);
      score('system', budget, q.category, q.evidence, q.answer, markdown);
      const base = bm25.context(q.question, budget);
      score('bm25', budget, q.category, q.evidence, q.answer, base.markdown);
      const order = bm25.context(q.question, 100_000).turns;
      score('hybrid', budget, q.category, q.evidence, q.answer, await hybridBaseline(sample.turns, turnVectors, order, q.question, budget));
      if (values.verbose && budget === budgets[0] && q.evidence.length > 0 && strict(q.evidence, markdown) < 1) {
        process.stderr.write(`\nMISS ${q.category} "${q.question}" evidence ${q.evidence.join(',')} answer ${q.answer}\n${markdown.split('\n').slice(4, 14).join('\n')}\n`);
      }
    }
  }
}
await stack?.stop();
const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null);
const report: Record<string, unknown> = { corpus: corpus.name, mode: values.offline ? 'offline' : 'api', worstStallMs: Math.round(worstStallMs), questions: corpus.samples.reduce((n, s) => n + s.questions.length, 0) };
for (const [method, byBudget] of methods) {
  for (const [budget, t] of byBudget) {
    report[`${method}@${budget}`] = { strictRecall: mean(t.recall), contained: mean(t.contained), byCategory: Object.fromEntries([...t.byCategory].map(([c, xs]) => [c, mean(xs)])) };
  }
}
process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
