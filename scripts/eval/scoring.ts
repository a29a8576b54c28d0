/**
 * Scoring: each question asked through `GET /context` at every budget (and
 * for each ablation), the baselines built from the same turns at the same
 * budgets, and every context scored against the question's evidence and
 * answer. The learning curve's points are scored here too.
 */
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import { escapeRegExp } from '../../functions/commons/regexp.js';
import type { ApiClient } from './api-client.js';
import { Bm25Baseline, HybridBaseline, recentContext, type BaselineContext } from './baselines.js';
import type { CorpusQuestion, CorpusSample } from './corpus.js';
import { answerContained, answerContainedDates, answerDateForms, answerTokenShare, dateAnchored, evidenceRecall, groundedRecall, mentions, printedIds, strictRecall, type QuestionScore } from './metrics.js';
import type { StoredMemory } from './store.js';
import { ABLATION_BUDGET, ABLATION_BUDGETS, ABLATIONS, BUDGETS, METHODS, type CorrectionResult, type Method } from './types.js';

const QUESTION_CONCURRENCY = 4;

/**
 * A superseded value presented as current: mentioned in the text, other than
 * negated ("Utrecht, not Lyon" names Lyon only to rule it out).
 */
export function presentsAsCurrent(text: string, value: string): boolean {
  const negated = new RegExp(`\\bnot (?:in |at |on )?${escapeRegExp(value)}`, 'giu');
  return mentions(text.replace(negated, ' '), value);
}

/** The text of a context without its dated summaries: what it presents as the current state. */
export function currentStateText(markdown: string): string {
  const at = markdown.indexOf('\n### Summaries');
  return at < 0 ? markdown : markdown.slice(0, at);
}

/**
 * One context scored against one question. Strict recall reads the evidence
 * ids printed in `markdown`; expanded recall uses `traced`, the turns the
 * context's items and summaries trace back to. `expand` maps a cited id (a
 * turn, an item's evidence, a summary) to the turns it stands for, for date
 * anchoring; baselines cite turns only.
 */
export function scoreContext(question: CorpusQuestion, traced: ReadonlySet<string>, markdown: string, tokens: number, reference: string, expand: (id: string) => readonly string[] = (id) => [id], turnIds?: readonly string[], turnText?: (id: string) => string | undefined): QuestionScore {
  const forms = question.category === 'temporal' && question.answer ? answerDateForms(question.answer, reference) : undefined;
  const evidence = new Set(question.evidence);
  const citesEvidence = (id: string) => expand(id).some((turn) => evidence.has(turn));
  return {
    category: question.category,
    tokens,
    ...(question.evidence.length > 0
      ? {
          strictRecall: strictRecall(question.evidence, markdown),
          strictHit: printedIds(markdown, question.evidence).size > 0,
          ...(turnText ? { groundedRecall: groundedRecall(question.evidence, markdown, turnText) } : {}),
          recall: evidenceRecall(question.evidence, traced),
          hit: question.evidence.some((id) => traced.has(id)),
        }
      : {}),
    ...(question.answer !== undefined ? { contained: answerContained(question.answer, markdown), containedDates: answerContainedDates(question.answer, markdown, reference), tokenShare: answerTokenShare(question.answer, markdown) } : {}),
    ...(forms ? { anchored: dateAnchored(forms, markdown, citesEvidence, question.evidence) } : {}),
    ...(turnIds ? { citedIds: printedIds(markdown, turnIds).size } : {}),
  };
}

/** A baseline's lines are raw turns: it traces to the turns it injected, and is read strictly from its text like the service. */
const baselineScore = (question: CorpusQuestion, context: BaselineContext, reference: string, turnIds: readonly string[], turnText?: (id: string) => string | undefined) =>
  scoreContext(question, new Set(context.turns), context.markdown, context.tokens, reference, undefined, turnIds, turnText);

/** Sentence vectors of one sample's turns (by turn id) and questions (by question text), for the hybrid baseline. */
export interface SampleVectors {
  readonly turns: ReadonlyMap<string, Float32Array>;
  readonly questions: ReadonlyMap<string, Float32Array>;
}

/** Per method and budget, the score of every question. */
export type RawScores = Record<Method, Record<number, QuestionScore[]>>;

/** Everything the final scoring collects, over every sample. */
export interface ScoreSheet {
  readonly raw: RawScores;
  readonly itemOnly: Record<number, number[]>;
  /** By ablation, then by budget. */
  readonly ablated: Record<string, Record<number, QuestionScore[]>>;
  readonly corrections: CorrectionResult[];
}

export function emptyScoreSheet(): ScoreSheet {
  const raw = Object.fromEntries(METHODS.map((method) => [method, Object.fromEntries(BUDGETS.map((budget) => [budget, [] as QuestionScore[]]))])) as RawScores;
  return {
    raw,
    itemOnly: Object.fromEntries(BUDGETS.map((b) => [b, [] as number[]])),
    ablated: Object.fromEntries(Object.keys(ABLATIONS).map((name) => [name, Object.fromEntries(ABLATION_BUDGETS.map((b) => [b, [] as QuestionScore[]]))])),
    corrections: [],
  };
}

/**
 * Asks every question of one sample at every budget and for each ablation,
 * scores the service's context and the baselines', and adds them to `sheet`.
 * `onAsked` is called once per question (progress).
 */
export async function scoreSample(api: ApiClient, agentId: string, sample: CorpusSample, memory: StoredMemory, vectors: SampleVectors, sheet: ScoreSheet, onAsked: () => void = () => {}): Promise<void> {
  const { raw, itemOnly, ablated, corrections } = sheet;
  const bm25 = new Bm25Baseline(sample.turns);
  const hybrid = new HybridBaseline(sample.turns, vectors.turns);
  const recent = new Map(BUDGETS.map((budget) => [budget, recentContext(sample.turns, budget)]));
  const turnAt = new Map(sample.turns.map((turn) => [turn.id, turn.at]));
  const turnIds = sample.turns.map((turn) => turn.id);
  const texts = new Map(sample.turns.map((turn) => [turn.id, turn.text]));
  const turnText = (id: string) => texts.get(id);
  await mapWithConcurrency(sample.questions, QUESTION_CONCURRENCY, async (question) => {
    // Relative answers ("the week before 9 June 2023") are read from the time of their evidence.
    const reference = question.evidence.map((id) => turnAt.get(id)!).sort().at(-1) ?? sample.turns.at(-1)!.at;
    const stale = { current: [] as number[], anywhere: [] as number[], answer: [] as number[], lines: [] as string[] };
    const fused = hybrid.contexts(question.question, vectors.questions.get(question.question)!, BUDGETS);
    for (const budget of BUDGETS) {
      const context = await api.context(agentId, question.question, budget);
      const ids = context.items.map((item) => item.id);
      raw.system[budget]!.push(scoreContext(question, memory.trace(ids), context.markdown, context.tokens, reference, memory.expand, turnIds, turnText));
      itemOnly[budget]!.push(question.evidence.length > 0 ? evidenceRecall(question.evidence, memory.trace(ids, false)) : Number.NaN);
      raw.bm25[budget]!.push(baselineScore(question, bm25.context(question.question, budget), reference, turnIds, turnText));
      raw.hybrid[budget]!.push(baselineScore(question, fused.get(budget)!, reference, turnIds, turnText));
      raw.recent[budget]!.push(baselineScore(question, recent.get(budget)!, reference, turnIds));
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
      for (const budget of ABLATION_BUDGETS) {
        const context = await api.context(agentId, question.question, budget, views);
        ablated[name]![budget]!.push(scoreContext(question, memory.trace(context.items.map((i) => i.id)), context.markdown, context.tokens, reference, memory.expand, turnIds, turnText));
      }
    }
    if (question.stale.length > 0) {
      corrections.push({ question: question.question, sample: sample.id, stale: question.stale, staleInCurrentState: stale.current, staleAnywhere: stale.anywhere, answerPresent: stale.answer, staleLines: stale.lines });
    }
    onAsked();
  });
}

/** Recall at 1,024 tokens of the questions whose evidence has all been replayed: strict for each method, expanded for the service. */
export interface StageScores {
  readonly systemStrict: number[];
  readonly bm25Strict: number[];
  readonly hybridStrict: number[];
  readonly system: number[];
  readonly bm25: number[];
}

/** A learning-curve point for one agent: its answerable questions scored against the turns replayed so far. */
export async function scoreStage(api: ApiClient, agentId: string, sample: CorpusSample, replayedTurns: number, vectors: SampleVectors, readStore: () => Promise<StoredMemory>, into: StageScores): Promise<void> {
  const replayed = sample.turns.slice(0, replayedTurns);
  const seen = new Set(replayed.map((t) => t.id));
  const answerable = sample.questions.filter((q) => q.evidence.length > 0 && q.evidence.every((id) => seen.has(id)));
  if (answerable.length === 0) return;
  const memory = await readStore();
  const bm25 = new Bm25Baseline(replayed);
  const hybrid = new HybridBaseline(replayed, vectors.turns);
  await mapWithConcurrency(answerable, QUESTION_CONCURRENCY, async (question) => {
    const context = await api.context(agentId, question.question, ABLATION_BUDGET);
    const lexical = bm25.context(question.question, ABLATION_BUDGET);
    into.systemStrict.push(strictRecall(question.evidence, context.markdown));
    into.bm25Strict.push(strictRecall(question.evidence, lexical.markdown));
    into.hybridStrict.push(strictRecall(question.evidence, hybrid.context(question.question, vectors.questions.get(question.question)!, ABLATION_BUDGET).markdown));
    into.system.push(evidenceRecall(question.evidence, memory.trace(context.items.map((i) => i.id))));
    into.bm25.push(evidenceRecall(question.evidence, new Set(lexical.turns)));
  });
}


