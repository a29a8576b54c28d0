/**
 * The evaluation run: replays each sample through the HTTP API with its own
 * timestamps, in stages (for the learning curve), waits until consolidation
 * and both ladders have caught up, then asks every question through
 * `GET /context` at each budget and scores what came back against the
 * question's evidence and answer, beside the raw-turn baselines at the same
 * budgets.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import { countTokens } from '../../functions/adapters/models/local/text.js';
import type { LocalStack } from '../../local/local-stack.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { Bm25Baseline, fullHistoryTokens, recentContext, type BaselineContext } from './baselines.js';
import { turnEvent, type CorpusQuestion, type CorpusSample, type CorpusTurn } from './corpus.js';
import {
  aggregateByCategory,
  answerContained,
  answerDateForms,
  answerTokenShare,
  dateAnchored,
  evidenceRecall,
  mean,
  mentions,
  type Aggregate,
  type QuestionScore,
} from './metrics.js';

export const BUDGETS = [256, 512, 1024, 2048] as const;
/** Ablations: the context built without one part of the memory, at 1,024 tokens. */
export const ABLATIONS: Record<string, string> = {
  'no ladders': 'contacts,facts,tasks',
  'no facts': 'contacts,tasks,time,count',
  'no contacts': 'facts,tasks,time,count',
};
const ABLATION_BUDGET = 1024;
const INGEST_CHUNK = 100;
const QUESTION_CONCURRENCY = 4;

export interface EvalOptions {
  readonly corpusName: string;
  readonly samples: readonly CorpusSample[];
  /** Stages the corpus is replayed in; the learning curve has one point per stage. @default 4 */
  readonly stages?: number;
  readonly log?: (line: string) => void;
  /** How long to wait for the pipeline to settle after a stage. @default 30 min */
  readonly settleTimeoutMs?: number;
}

export type Method = 'system' | 'bm25' | 'recent';

export interface StoreSize {
  readonly items: Record<'contacts' | 'facts' | 'tasks', { live: number; archived: number }>;
  readonly summaries: number;
  /** JSON bytes of every stored item and summary, as the API returns them. */
  readonly memoryBytes: number;
  /** JSON bytes of the events as posted. */
  readonly rawBytes: number;
  /** Tokens of the live items' text and every summary's text. */
  readonly memoryTokens: number;
  /** Tokens of the whole history rendered as the baselines render turns. */
  readonly historyTokens: number;
}

export interface LearningPoint {
  readonly stage: number;
  readonly messages: number;
  readonly answerable: number;
  /** Null when no question is answerable yet. */
  readonly systemRecall: number | null;
  readonly bm25Recall: number | null;
}

export interface CorrectionResult {
  readonly question: string;
  readonly sample: string;
  readonly stale: readonly string[];
  /** Budgets at which a stale value appeared in the current-state sections (contacts, tasks, facts). */
  readonly staleInCurrentState: readonly number[];
  /** Budgets at which a stale value appeared anywhere, dated summaries included. */
  readonly staleAnywhere: readonly number[];
  /** Budgets at which the corrected answer appeared. */
  readonly answerPresent: readonly number[];
  /** The current-state lines that mention a superseded value, at 1,024 tokens: what to look at when this fails. */
  readonly staleLines: readonly string[];
}

export interface EvalResult {
  readonly corpus: string;
  readonly samples: number;
  readonly messages: number;
  readonly questions: number;
  readonly budgets: readonly number[];
  /** method → budget → category (and `overall`) → aggregate. */
  readonly results: Record<Method, Record<string, Record<string, Aggregate>>>;
  /** The system's evidence recall with summaries not expanded (items' own evidence only), by budget. */
  readonly itemOnlyRecall: Record<string, number | null>;
  readonly ablations: Record<string, Record<string, Aggregate>>;
  readonly corrections: readonly CorrectionResult[];
  readonly learningCurve: readonly LearningPoint[];
  readonly store: StoreSize;
  readonly timing: {
    /** Posting every turn. */
    readonly ingestSeconds: number;
    /** From the first post of each stage until every record was consolidated, summed over stages. */
    readonly consolidationSeconds: number;
    /** consolidationSeconds per 1,000 messages. */
    readonly secondsPer1000Messages: number;
    /** After consolidation, until the ladders were idle, summed over stages (the final sweep included). */
    readonly ladderSeconds: number;
    readonly questionSeconds: number;
  };
}

interface Listed {
  readonly id: string;
  readonly status?: string;
  readonly evidence?: readonly { recordId: string }[];
  readonly children?: readonly string[];
  readonly sources?: readonly string[];
  readonly text?: string;
  readonly empty?: boolean;
  readonly statement?: string;
  readonly biography?: string;
  readonly summary?: string;
  readonly title?: string;
}

interface ContextResponse {
  readonly markdown: string;
  readonly tokens: number;
  readonly items: readonly { id: string; kind: string }[];
}

class ApiClient {
  constructor(private readonly url: string, private readonly key: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await fetch(`${this.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : {}) as T;
      // Throttling and server errors are retried; a 4xx is the harness's or the corpus's fault.
      if ((response.status !== 429 && response.status < 500) || attempt >= 5) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
      await sleep(200 * attempt);
    }
  }

  async listAll(path: string): Promise<Listed[]> {
    const items: Listed[] = [];
    let token: string | undefined;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page = await this.call<{ items: Listed[]; nextToken?: string }>('GET', `${path}${separator}limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
      items.push(...page.items);
      token = page.nextToken;
    } while (token);
    return items;
  }
}

/** Everything stored for one agent, and how to trace an item back to the turns it came from. */
interface StoredMemory {
  readonly items: Listed[];
  readonly summaries: Listed[];
  trace(ids: readonly string[], expandSummaries?: boolean): Set<string>;
  /** A cited id as turns: a summary's sources, or the id itself (a turn). */
  expand(id: string): readonly string[];
}

async function readMemory(api: ApiClient, agentId: string): Promise<StoredMemory & { size: Omit<StoreSize, 'rawBytes' | 'historyTokens'> }> {
  const stores = ['contacts', 'facts', 'tasks'] as const;
  const lists = await Promise.all(stores.map((store) => api.listAll(`/v1/agents/${agentId}/${store}`)));
  const summaries = [...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=time`)), ...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=count`))];
  const items = lists.flat();
  const byId = new Map<string, Listed>([...items, ...summaries].map((entry) => [entry.id, entry]));
  const expanded = new Map<string, readonly string[]>();
  const turnsOf = (id: string, depth = 0): readonly string[] => {
    const known = expanded.get(id);
    if (known) return known;
    const entry = byId.get(id);
    if (!entry || depth > 8) return [];
    const turns = entry.evidence
      ? entry.evidence.map((e) => e.recordId)
      : [...(entry.sources ?? []), ...(entry.children ?? []).flatMap((child) => turnsOf(child, depth + 1))];
    expanded.set(id, turns);
    return turns;
  };
  const liveText = (item: Listed) => [item.statement, item.biography, item.summary, item.title].filter(Boolean).join('\n');
  const live = items.filter((item) => item.status !== 'archived');
  return {
    items,
    summaries,
    expand(id) {
      return byId.has(id) ? turnsOf(id) : [id];
    },
    trace(ids, expandSummaries = true) {
      const traced = new Set<string>();
      for (const id of ids) {
        const entry = byId.get(id);
        if (!entry || (!expandSummaries && !entry.evidence)) continue;
        for (const turn of turnsOf(id)) traced.add(turn);
      }
      return traced;
    },
    size: {
      items: Object.fromEntries(stores.map((store, i) => [store, { live: lists[i]!.filter((item) => item.status !== 'archived').length, archived: lists[i]!.filter((item) => item.status === 'archived').length }])) as StoreSize['items'],
      summaries: summaries.filter((s) => !s.empty).length,
      memoryBytes: Buffer.byteLength(JSON.stringify(items)) + Buffer.byteLength(JSON.stringify(summaries.filter((s) => !s.empty))),
      memoryTokens: countTokens([...live.map(liveText), ...summaries.map((s) => s.text ?? '')].join('\n')),
    },
  };
}

/**
 * A superseded value presented as current: mentioned in the text, other than
 * negated ("Utrecht, not Lyon" names Lyon only to rule it out).
 */
export function presentsAsCurrent(text: string, value: string): boolean {
  const negated = new RegExp(`\\bnot (?:in |at |on )?${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'giu');
  return mentions(text.replace(negated, ' '), value);
}

/** The text of a context without its dated summaries: what it presents as the current state. */
export function currentStateText(markdown: string): string {
  const at = markdown.indexOf('\n### Summaries');
  return at < 0 ? markdown : markdown.slice(0, at);
}

/**
 * `expand` maps a cited id (a turn, an item's evidence, a summary) to the turns
 * it stands for; baselines cite turns only.
 */
function scoreContext(question: CorpusQuestion, traced: ReadonlySet<string>, markdown: string, tokens: number, reference: string, expand: (id: string) => readonly string[] = (id) => [id]): QuestionScore {
  const forms = question.category === 'temporal' && question.answer ? answerDateForms(question.answer, reference) : undefined;
  const evidence = new Set(question.evidence);
  const citesEvidence = (id: string) => expand(id).some((turn) => evidence.has(turn));
  return {
    category: question.category,
    tokens,
    ...(question.evidence.length > 0 ? { recall: evidenceRecall(question.evidence, traced), hit: question.evidence.some((id) => traced.has(id)) } : {}),
    ...(question.answer !== undefined ? { contained: answerContained(question.answer, markdown), tokenShare: answerTokenShare(question.answer, markdown) } : {}),
    ...(forms ? { anchored: dateAnchored(forms, markdown, citesEvidence) } : {}),
  };
}

const baselineScore = (question: CorpusQuestion, context: BaselineContext, reference: string) =>
  scoreContext(question, new Set(context.turns), context.markdown, context.tokens, reference);

export async function runEvaluation(stack: Pick<LocalStack, 'url' | 'eventSources' | 'keys'>, options: EvalOptions): Promise<EvalResult> {
  const log = options.log ?? (() => {});
  // The eval's own key: tenant default, the scopes its calls need (sweep is admin).
  const api = new ApiClient(stack.url, (await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write', 'admin'], description: 'eval' })).key);
  const run = randomBytes(3).toString('hex');
  // The sample's position keeps agent ids unique when sample ids collide or are cut to length.
  const agents = options.samples.map((sample, i) => ({ sample, agentId: `eval-${run}-${i + 1}-${sample.id}`.slice(0, 64) }));
  const sessionsOf = (sample: CorpusSample) => [...new Set(sample.turns.map((t) => t.session))];
  // No more stages than the shortest conversation has sessions: each stage adds at least one.
  const stages = Math.max(1, Math.min(options.stages ?? 4, ...options.samples.map((s) => sessionsOf(s).length)));
  const totalTurns = options.samples.reduce((sum, s) => sum + s.turns.length, 0);
  const totalQuestions = options.samples.reduce((sum, s) => sum + s.questions.length, 0);
  log(`${options.corpusName}: ${options.samples.length} sample(s), ${totalTurns} turns, ${totalQuestions} questions, ${stages} stage(s)`);

  const posted = new Map<string, number>(agents.map(({ agentId }) => [agentId, 0]));
  const learningCurve: LearningPoint[] = [];
  let ingestMs = 0;
  let consolidationMs = 0;
  let ladderMs = 0;
  let ingestedTurns = 0;
  let rawBytes = 0;

  for (let stage = 1; stage <= stages; stage += 1) {
    const stageStart = Date.now();
    for (const { sample, agentId } of agents) {
      // The first k sessions in time order (session numbers need not be), as a prefix of the turns.
      const sessions = sessionsOf(sample);
      const included = new Set(sessions.slice(0, Math.ceil((sessions.length * stage) / stages)));
      const from = posted.get(agentId)!;
      let upTo = from;
      if (stage === stages) upTo = sample.turns.length;
      else while (upTo < sample.turns.length && included.has(sample.turns[upTo]!.session)) upTo += 1;
      for (let i = from; i < upTo; i += INGEST_CHUNK) {
        const events = sample.turns.slice(i, Math.min(upTo, i + INGEST_CHUNK)).map(turnEvent);
        rawBytes += events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);
        await api.call('POST', `/v1/agents/${agentId}/events`, { events });
        ingestedTurns += events.length;
        if (ingestedTurns % 1000 < events.length) log(`ingested ${ingestedTurns}/${totalTurns} turns`);
      }
      posted.set(agentId, upTo);
    }
    const ingested = Date.now();
    ingestMs += ingested - stageStart;
    // Only the last stage sweeps: a sweep closes every day up to today, and records replayed after it
    // would count into today's open day (late records), not their own.
    const settled = await settle(api, stack, agents.map((a) => a.agentId), { sweep: stage === stages, timeoutMs: options.settleTimeoutMs ?? 1_800_000 }, log);
    consolidationMs += settled.consolidatedAt - stageStart;
    ladderMs += settled.idleAt - settled.consolidatedAt;
    log(`stage ${stage}/${stages}: ${ingestedTurns} turns ingested, consolidated and summarised (${((Date.now() - stageStart) / 1000).toFixed(1)} s)`);

    // A point of the learning curve: questions whose evidence has all been replayed, at 1,024 tokens.
    const scored = { system: [] as number[], bm25: [] as number[] };
    await mapWithConcurrency(agents, 1, async ({ sample, agentId }) => {
      const replayed = sample.turns.slice(0, posted.get(agentId));
      const seen = new Set(replayed.map((t) => t.id));
      const answerable = sample.questions.filter((q) => q.evidence.length > 0 && q.evidence.every((id) => seen.has(id)));
      if (answerable.length === 0) return;
      const memory = await readMemory(api, agentId);
      const bm25 = new Bm25Baseline(replayed);
      await mapWithConcurrency(answerable, QUESTION_CONCURRENCY, async (question) => {
        const context = await askContext(api, agentId, question.question, ABLATION_BUDGET);
        scored.system.push(evidenceRecall(question.evidence, memory.trace(context.items.map((i) => i.id))));
        scored.bm25.push(evidenceRecall(question.evidence, new Set(bm25.context(question.question, ABLATION_BUDGET).turns)));
      });
    });
    learningCurve.push({ stage, messages: ingestedTurns, answerable: scored.system.length, systemRecall: mean(scored.system), bm25Recall: mean(scored.bm25) });
  }

  // The final evaluation, on the whole corpus.
  const questionStart = Date.now();
  const raw: Record<Method, Record<number, QuestionScore[]>> = { system: {}, bm25: {}, recent: {} };
  for (const method of Object.keys(raw) as Method[]) for (const budget of BUDGETS) raw[method][budget] = [];
  const itemOnly: Record<number, number[]> = Object.fromEntries(BUDGETS.map((b) => [b, [] as number[]]));
  const ablated: Record<string, QuestionScore[]> = Object.fromEntries(Object.keys(ABLATIONS).map((name) => [name, [] as QuestionScore[]]));
  const corrections: CorrectionResult[] = [];
  let memoryBytes = 0;
  let memoryTokens = 0;
  let summaryCount = 0;
  const itemCounts: StoreSize['items'] = { contacts: { live: 0, archived: 0 }, facts: { live: 0, archived: 0 }, tasks: { live: 0, archived: 0 } };
  let asked = 0;

  for (const { sample, agentId } of agents) {
    const memory = await readMemory(api, agentId);
    memoryBytes += memory.size.memoryBytes;
    memoryTokens += memory.size.memoryTokens;
    summaryCount += memory.size.summaries;
    for (const store of Object.keys(itemCounts) as (keyof StoreSize['items'])[]) {
      itemCounts[store].live += memory.size.items[store].live;
      itemCounts[store].archived += memory.size.items[store].archived;
    }
    const bm25 = new Bm25Baseline(sample.turns);
    const recent = new Map(BUDGETS.map((budget) => [budget, recentContext(sample.turns, budget)]));
    const turnAt = new Map(sample.turns.map((turn: CorpusTurn) => [turn.id, turn.at]));
    await mapWithConcurrency(sample.questions, QUESTION_CONCURRENCY, async (question) => {
      // Relative answers ("the week before 9 June 2023") are read from the time of their evidence.
      const reference = question.evidence.map((id) => turnAt.get(id)!).sort().at(-1) ?? sample.turns.at(-1)!.at;
      const stale = { current: [] as number[], anywhere: [] as number[], answer: [] as number[], lines: [] as string[] };
      for (const budget of BUDGETS) {
        const context = await askContext(api, agentId, question.question, budget);
        const ids = context.items.map((item) => item.id);
        raw.system[budget]!.push(scoreContext(question, memory.trace(ids), context.markdown, context.tokens, reference, memory.expand));
        itemOnly[budget]!.push(question.evidence.length > 0 ? evidenceRecall(question.evidence, memory.trace(ids, false)) : Number.NaN);
        raw.bm25[budget]!.push(baselineScore(question, bm25.context(question.question, budget), reference));
        raw.recent[budget]!.push(baselineScore(question, recent.get(budget)!, reference));
        if (question.stale.length > 0) {
          if (question.stale.some((value) => presentsAsCurrent(currentStateText(context.markdown), value))) stale.current.push(budget);
          if (budget === ABLATION_BUDGET) {
            stale.lines.push(...currentStateText(context.markdown).split('\n').filter((line) => question.stale.some((value) => presentsAsCurrent(line, value))));
          }
          if (question.stale.some((value) => presentsAsCurrent(context.markdown, value))) stale.anywhere.push(budget);
          if (question.answer && answerContained(question.answer, context.markdown)) stale.answer.push(budget);
        }
      }
      for (const [name, views] of Object.entries(ABLATIONS)) {
        const context = await askContext(api, agentId, question.question, ABLATION_BUDGET, views);
        ablated[name]!.push(scoreContext(question, memory.trace(context.items.map((i) => i.id)), context.markdown, context.tokens, reference, memory.expand));
      }
      if (question.stale.length > 0) {
        corrections.push({ question: question.question, sample: sample.id, stale: question.stale, staleInCurrentState: stale.current, staleAnywhere: stale.anywhere, answerPresent: stale.answer, staleLines: stale.lines });
      }
      asked += 1;
      if (asked % 100 === 0 || asked === totalQuestions) log(`asked ${asked}/${totalQuestions} questions`);
    });
  }
  const questionSeconds = (Date.now() - questionStart) / 1000;

  const results = Object.fromEntries(
    (Object.keys(raw) as Method[]).map((method) => [method, Object.fromEntries(BUDGETS.map((budget) => [String(budget), aggregateByCategory(raw[method][budget]!)]))]),
  ) as EvalResult['results'];
  return {
    corpus: options.corpusName,
    samples: options.samples.length,
    messages: totalTurns,
    questions: totalQuestions,
    budgets: [...BUDGETS],
    results,
    itemOnlyRecall: Object.fromEntries(BUDGETS.map((b) => [String(b), mean(itemOnly[b]!.filter((v) => !Number.isNaN(v)))])),
    ablations: Object.fromEntries(Object.entries(ablated).map(([name, scores]) => [name, aggregateByCategory(scores)])),
    corrections: corrections.sort((a, b) => a.sample.localeCompare(b.sample) || a.question.localeCompare(b.question)),
    learningCurve,
    store: {
      items: itemCounts,
      summaries: summaryCount,
      memoryBytes,
      rawBytes,
      memoryTokens,
      historyTokens: options.samples.reduce((sum, s) => sum + fullHistoryTokens(s.turns), 0),
    },
    timing: {
      ingestSeconds: ingestMs / 1000,
      consolidationSeconds: consolidationMs / 1000,
      // ms per message is s per 1,000 messages.
      secondsPer1000Messages: consolidationMs / Math.max(1, totalTurns),
      ladderSeconds: ladderMs / 1000,
      questionSeconds,
    },
  };
}

async function askContext(api: ApiClient, agentId: string, query: string, maxTokens: number, views?: string): Promise<ContextResponse> {
  const params = new URLSearchParams({ maxTokens: String(maxTokens), query: query.slice(0, 1_000), ...(views ? { views } : {}) });
  return api.call<ContextResponse>('GET', `/v1/agents/${agentId}/context?${params}`);
}

/**
 * Flush, wait until every record is consolidated, then (`sweep`) close the
 * last day and interaction, and wait for the ladders. The sweep also marks
 * every silent day from the corpus's end to today as empty, which costs time
 * on an old corpus.
 */
async function settle(api: ApiClient, stack: Pick<LocalStack, 'eventSources'>, agentIds: readonly string[], options: { sweep: boolean; timeoutMs: number }, log: (line: string) => void): Promise<{ consolidatedAt: number; idleAt: number }> {
  const deadline = Date.now() + options.timeoutMs;
  for (const agentId of agentIds) await api.call('POST', `/v1/agents/${agentId}/flush`);
  let lastReport = 0;
  for (;;) {
    const statuses = await Promise.all(agentIds.map((agentId) => api.call<{ lastSequence: number; lastConsolidatedSequence: number }>('GET', `/v1/agents/${agentId}/status`)));
    const done = statuses.reduce((sum, s) => sum + s.lastConsolidatedSequence, 0);
    const total = statuses.reduce((sum, s) => sum + s.lastSequence, 0);
    if (done >= total) break;
    if (Date.now() > deadline) throw new Error(`consolidation did not catch up in time: ${done}/${total} records`);
    if (Date.now() - lastReport > 10_000) {
      log(`consolidated ${done}/${total} records`);
      lastReport = Date.now();
    }
    await sleep(250);
  }
  const consolidatedAt = Date.now();
  if (options.sweep) for (const agentId of agentIds) await api.call('POST', `/v1/agents/${agentId}/sweep`);
  await stack.eventSources.waitForIdle(Math.max(1_000, deadline - Date.now()));
  const idleAt = Date.now();
  log(`ladders settled ${((idleAt - consolidatedAt) / 1000).toFixed(1)} s after consolidation caught up${options.sweep ? ' (final sweep included)' : ''}`);
  return { consolidatedAt, idleAt };
}
