/**
 * The evaluation's outputs: `report.md`, `results.json` and three SVG plots in
 * one folder, the benchmark section for docs/BENCHMARKS.md, and the one-line
 * JSON summary every run ends with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownTable, environmentLine, type BenchReport } from '../bench/report.js';
import type { Aggregate } from './metrics.js';
import { groupedBarChart, lineChart } from './plots.js';
import { ABLATION_BUDGETS, ABLATIONS, BUDGETS, METHODS, type EvalResult, type Method } from './types.js';

const METHOD_NAMES: Record<Method, string> = { system: 'memory service', bm25: 'BM25 over raw turns', hybrid: 'hybrid (BM25 + embeddings) over raw turns', recent: 'most recent turns' };
const SHORT_NAMES: Record<Method, string> = { system: 'service', bm25: 'BM25', hybrid: 'hybrid', recent: 'recent' };
const pct = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const r3 = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value * 1000) / 1000);
/** Points with a value: a measure with no question to score is left out of a plot, not drawn as 0. */
const plotted = (points: readonly (readonly [number, number | null])[]) => points.filter((p): p is readonly [number, number] => p[1] !== null);
const at = (result: EvalResult, method: Method, budget: number, category = 'overall'): Aggregate | undefined => result.results[method][String(budget)]?.[category];

/**
 * The one-line summary: `{"bench":"eval","strictRecallAt1024":…,"recallAt1024":…,…}`.
 * `strict…` fields read the evidence ids printed in the text (the primary
 * measure); `recall…` and `bm25At…` are the expanded measure, as before.
 */
export function summaryLine(result: EvalResult): Record<string, unknown> {
  const overall = (method: Method, budget: number) => at(result, method, budget)!;
  const stale = result.corrections.filter((c) => c.staleInCurrentState.length > 0).length;
  const categories = Object.keys(result.results.system['1024'] ?? {}).filter((c) => c !== 'overall');
  return {
    bench: 'eval',
    corpus: result.corpus,
    strictRecallAt1024: r3(overall('system', 1024).strictRecall),
    bm25StrictAt1024: r3(overall('bm25', 1024).strictRecall),
    hybridStrictAt1024: r3(overall('hybrid', 1024).strictRecall),
    recentStrictAt1024: r3(overall('recent', 1024).strictRecall),
    ...Object.fromEntries(BUDGETS.filter((b) => b !== 1024).map((b) => [`strictRecallAt${b}`, r3(overall('system', b).strictRecall)])),
    ...Object.fromEntries((['bm25', 'hybrid', 'recent'] as const).flatMap((m) => BUDGETS.filter((b) => b !== 1024).map((b) => [`${m}StrictAt${b}`, r3(overall(m, b).strictRecall)]))),
    strictHitRateAt1024: r3(overall('system', 1024).strictHitRate),
    groundedRecallAt1024: r3(overall('system', 1024).groundedRecall),
    hybridGroundedRecallAt1024: r3(overall('hybrid', 1024).groundedRecall),
    strictRecallAt1024ByCategory: Object.fromEntries(categories.map((c) => [c, Object.fromEntries(METHODS.map((m) => [m, r3(at(result, m, 1024, c)!.strictRecall)]))])),
    recallAt1024: r3(overall('system', 1024).recall),
    bm25At1024: r3(overall('bm25', 1024).recall),
    recentAt1024: r3(overall('recent', 1024).recall),
    ...Object.fromEntries(BUDGETS.filter((b) => b !== 1024).map((b) => [`recallAt${b}`, r3(overall('system', b).recall)])),
    ...Object.fromEntries(BUDGETS.filter((b) => b !== 1024).map((b) => [`bm25At${b}`, r3(overall('bm25', b).recall)])),
    itemOnlyRecallAt1024: r3(result.itemOnlyRecall['1024'] ?? 0),
    hitRateAt1024: r3(overall('system', 1024).hitRate),
    answerContainedAt1024: r3(overall('system', 1024).answerContained),
    bm25AnswerContainedAt1024: r3(overall('bm25', 1024).answerContained),
    hybridAnswerContainedAt1024: r3(overall('hybrid', 1024).answerContained),
    answerContainedDatesAt1024: r3(overall('system', 1024).answerContainedDates),
    hybridAnswerContainedDatesAt1024: r3(overall('hybrid', 1024).answerContainedDates),
    tokensPerCitedId: r3(overall('system', 1024).tokensPerCitedId),
    hybridTokensPerCitedId: r3(overall('hybrid', 1024).tokensPerCitedId),
    ablationStrictRecall: Object.fromEntries(Object.keys(ABLATIONS).map((name) => [name, Object.fromEntries(ABLATION_BUDGETS.map((b) => [b, r3(result.ablations[name]![String(b)]!.overall!.strictRecall)]))])),
    dateAnchoringAt1024: r3(overall('system', 1024).dateAnchoring),
    bm25DateAnchoringAt1024: r3(overall('bm25', 1024).dateAnchoring),
    tokensPerQuestionAt1024: Math.round(overall('system', 1024).meanTokens),
    historyTokens: result.store.historyTokens,
    compression: r3(result.store.historyTokens / Math.max(1, result.store.memoryTokens)),
    corrections: result.corrections.length,
    staleInCurrentState: stale,
    secondsPer1000Messages: r3(result.timing.secondsPer1000Messages),
    messages: result.messages,
    questions: result.questions,
  };
}

function strictTable(result: EvalResult) {
  return {
    header: ['budget (tokens)', 'memory service', 'BM25 over raw turns', 'hybrid over raw turns', 'most recent turns', 'service / BM25', 'service / hybrid'],
    rows: BUDGETS.map((b) => {
      const [system, bm25, hybrid, recent] = METHODS.map((m) => at(result, m, b)!.strictRecall);
      const ratio = (base: number | null | undefined) => (system !== null && system !== undefined && base ? (system / base).toFixed(2) : 'n/a');
      return [String(b), pct(system), pct(bm25), pct(hybrid), pct(recent), ratio(bm25), ratio(hybrid)];
    }),
  };
}

function expandedTable(result: EvalResult) {
  return {
    header: ['budget (tokens)', 'memory service, expanded', 'memory service, items only', 'BM25', 'hybrid', 'most recent'],
    rows: BUDGETS.map((b) => [String(b), pct(at(result, 'system', b)!.recall), pct(result.itemOnlyRecall[String(b)]), pct(at(result, 'bm25', b)!.recall), pct(at(result, 'hybrid', b)!.recall), pct(at(result, 'recent', b)!.recall)]),
  };
}

function budgetTable(result: EvalResult) {
  const rows: string[][] = [];
  for (const b of BUDGETS) {
    for (const method of METHODS) {
      const a = at(result, method, b)!;
      rows.push([String(b), METHOD_NAMES[method], pct(a.strictRecall), pct(a.strictHitRate), pct(a.recall), pct(a.answerContained), pct(a.answerTokenShare), pct(a.dateAnchoring), String(Math.round(a.meanTokens))]);
    }
  }
  return { header: ['budget', 'method', 'strict recall', 'strict hit rate', 'expanded recall', 'answer contained', 'answer tokens present', 'date anchoring', 'tokens injected (mean)'], rows };
}

function categoryTable(result: EvalResult) {
  const categories = Object.keys(result.results.system['1024'] ?? {}).filter((c) => c !== 'overall');
  const rows = ['overall', ...categories].map((category) => {
    const [s, b, h, r] = METHODS.map((m) => at(result, m, 1024, category)!);
    const four = (pick: (a: Aggregate) => number | null) => [s!, b!, h!, r!].map((a) => pct(pick(a))).join(' / ');
    return [category, String(s!.questions), four((a) => a.strictRecall), pct(s!.recall), four((a) => a.answerContained), s!.dateAnchoring === null ? 'n/a' : `${four((a) => a.dateAnchoring)} (${s!.temporalWithDates})`];
  });
  return { header: ['category', 'questions', 'strict recall', 'service expanded recall', 'answer contained', 'date anchoring (dated answers)'], rows };
}

/** Every corpus's ablation rows in one table (docs/BENCHMARKS.md). */
function ablationSummary(results: readonly EvalResult[]) {
  const rows = results.flatMap((result) => ablationTable(result).rows.map((row) => [result.corpus, ...row]));
  return { header: ['corpus', 'context built from', 'views', ...ABLATION_BUDGETS.map((b) => `${b}`)], rows };
}

/** Strict recall, answers contained (literal / dates in one form) and tokens per cited id, for the full memory and each ablation, at each ablation budget. */
export function ablationTable(result: EvalResult) {
  const cell = (a: Aggregate) => `${pct(a.strictRecall)} · ${pct(a.answerContained)} / ${pct(a.answerContainedDates)} · ${a.tokensPerCitedId === null ? 'n/a' : a.tokensPerCitedId.toFixed(0)}`;
  const rows = [
    ['both: records and consolidated memory', 'all', ...ABLATION_BUDGETS.map((b) => cell(at(result, 'system', b)!))],
    ...Object.entries(ABLATIONS).map(([name, views]) => [name, views, ...ABLATION_BUDGETS.map((b) => cell(result.ablations[name]![String(b)]!.overall!))]),
    ['hybrid over raw turns (baseline)', '', ...ABLATION_BUDGETS.map((b) => cell(at(result, 'hybrid', b)!))],
  ];
  return { header: ['context built from', 'views', ...ABLATION_BUDGETS.map((b) => `${b} tokens: recall · answer (literal / dates) · tokens per cited id`)], rows };
}

function storeTable(result: EvalResult) {
  const s = result.store;
  return {
    header: ['measure', 'value'],
    rows: [
      ['messages replayed', String(result.messages)],
      ['history tokens (every turn, as the baselines render it)', String(s.historyTokens)],
      ['memory tokens (live items and every summary)', String(s.memoryTokens)],
      ['compression (history tokens / memory tokens)', (s.historyTokens / Math.max(1, s.memoryTokens)).toFixed(2)],
      ['raw events, JSON bytes', String(s.rawBytes)],
      ['stored memory, JSON bytes (items with evidence and history, summaries)', String(s.memoryBytes)],
      ['contacts / facts / tasks, live (archived)', (['contacts', 'facts', 'tasks'] as const).map((k) => `${s.items[k].live} (${s.items[k].archived})`).join(' / ')],
      ['summaries with text', String(s.summaries)],
      ['ingest and consolidation, s per 1,000 messages', result.timing.secondsPer1000Messages.toFixed(1)],
      ['of which ingest, s (total)', result.timing.ingestSeconds.toFixed(1)],
      ['ladders after consolidation, s (total; the final sweep marks every silent day up to today)', result.timing.ladderSeconds.toFixed(1)],
      ['asking every question (all budgets, baselines, ablations), s', result.timing.questionSeconds.toFixed(1)],
      ['embedding every turn and question for the hybrid baseline, s', result.timing.embeddingSeconds.toFixed(1)],
    ],
  };
}

function correctionTable(result: EvalResult) {
  return {
    header: ['sample', 'question', 'superseded value', 'stale in current state at', 'stale anywhere (incl. dated summaries) at', 'corrected answer present at'],
    rows: result.corrections.map((c) => [c.sample, c.question, c.stale.join(', '), c.staleInCurrentState.join(', ') || 'never', c.staleAnywhere.join(', ') || 'never', c.answerPresent.join(', ') || 'never']),
  };
}

function learningTable(result: EvalResult) {
  return {
    header: ['stage', 'messages replayed', 'answerable questions', 'strict recall@1024: service', 'BM25', 'hybrid', 'service, expanded'],
    rows: result.learningCurve.map((p) => [String(p.stage), String(p.messages), String(p.answerable), pct(p.systemStrictRecall), pct(p.bm25StrictRecall), pct(p.hybridStrictRecall), pct(p.systemRecall)]),
  };
}

export interface WrittenReport {
  readonly markdownPath: string;
  readonly jsonPath: string;
  readonly plots: readonly string[];
}

/** `emulator` names what the stack ran on, as docs/BENCHMARKS.md does. */
export function writeEvalReport(result: EvalResult, outDir: string, command: string, emulator = 'local stack'): WrittenReport {
  mkdirSync(outDir, { recursive: true });
  const plots = {
    'recall-vs-budget.svg': lineChart(
      [
        ...METHODS.map((m) => ({ name: SHORT_NAMES[m], points: plotted(BUDGETS.map((b) => [b, at(result, m, b)!.strictRecall] as const)) })),
        { name: 'service, expanded', points: plotted(BUDGETS.map((b) => [b, at(result, 'system', b)!.recall] as const)) },
      ],
      { title: 'Strict evidence recall (ids printed) against token budget', xLabel: 'budget (tokens)', yLabel: 'evidence recall', yMax: 1, categorical: true },
    ),
    'tokens-per-question.svg': groupedBarChart(
      BUDGETS.map(String),
      METHODS.map((m) => ({ name: SHORT_NAMES[m], values: BUDGETS.map((b) => at(result, m, b)!.meanTokens) })),
      { title: 'Tokens injected per question', xLabel: 'budget (tokens)', yLabel: 'tokens (mean)' },
    ),
    'learning-curve.svg': lineChart(
      [
        { name: 'service', points: plotted(result.learningCurve.map((p) => [p.messages, p.systemStrictRecall] as const)) },
        { name: 'BM25', points: plotted(result.learningCurve.map((p) => [p.messages, p.bm25StrictRecall] as const)) },
        { name: 'hybrid', points: plotted(result.learningCurve.map((p) => [p.messages, p.hybridStrictRecall] as const)) },
        { name: 'service, expanded', points: plotted(result.learningCurve.map((p) => [p.messages, p.systemRecall] as const)) },
      ],
      { title: 'Strict recall@1024 of answerable questions as the corpus is replayed', xLabel: 'messages replayed', yLabel: 'evidence recall', yMax: 1 },
    ),
  };
  for (const [name, svg] of Object.entries(plots)) writeFileSync(join(outDir, name), svg);
  const markdownPath = join(outDir, 'report.md');
  const jsonPath = join(outDir, 'results.json');
  writeFileSync(jsonPath, `${JSON.stringify({ summary: summaryLine(result), ...result }, null, 2)}\n`);
  /** A section: its heading, then each block followed by a blank line. */
  const section = (title: string, ...blocks: string[]) => [`## ${title}`, '', ...blocks.flatMap((block) => [block, ''])];
  const md = [
    `# Memory-quality evaluation: ${result.corpus}`,
    '',
    `Command: \`${command}\`  `,
    `Measured: ${environmentLine(emulator)}`,
    '',
    `${result.samples} conversation(s), ${result.messages} messages, ${result.questions} questions. Each conversation was replayed through the API with its own timestamps in ${result.learningCurve.length} stage(s), consolidated by the local model, summarised by both ladders, then every question was asked through \`GET /context\` at each budget. Definitions are in docs/EVAL.md.`,
    '',
    ...section(
      'Strict evidence recall against budget',
      '![recall against budget](recall-vs-budget.svg)',
      markdownTable(strictTable(result)),
      "Strict: a question's evidence turn counts only when its id is printed, as a whole token, in the injected text. The baselines print every turn they inject with its id.",
    ),
    ...section(
      'Expanded evidence recall',
      markdownTable(expandedTable(result)),
      "Expanded: the service's items trace to their evidence and its summaries to every turn beneath them, printed or not; a week's summary covers every turn of the week. \"Items only\" counts contacts, facts and tasks, not summaries. The strict reading above is the one that says what an agent can see.",
    ),
    ...section('Every measure at every budget', markdownTable(budgetTable(result)), '![tokens per question](tokens-per-question.svg)'),
    ...section('By question category, at 1,024 tokens (service / BM25 / hybrid / most recent)', markdownTable(categoryTable(result))),
    ...section('Ablations: what each part of memory adds', markdownTable(ablationTable(result)), 'Each cell: strict recall · answer contained (literal / dates compared in one form) · tokens of the block per turn id it cites.'),
    ...section(
      'Corrections: superseded values must not be presented as current',
      result.corrections.length ? markdownTable(correctionTable(result)) : 'The corpus marks no superseded values.',
    ),
    ...section('Learning curve', '![learning curve](learning-curve.svg)', markdownTable(learningTable(result))),
    ...section('Store size and cost', markdownTable(storeTable(result)), ['```json', JSON.stringify(summaryLine(result)), '```'].join('\n')),
  ].join('\n');
  writeFileSync(markdownPath, md);
  return { markdownPath, jsonPath, plots: Object.keys(plots).map((name) => join(outDir, name)) };
}

/**
 * The docs/BENCHMARKS.md section for the runs on the generated corpora. The
 * JSON keeps the first corpus's summary at the top level (as before, when
 * there was one corpus) and nests each other corpus's under its name.
 */
export function evalBenchReport(runs: readonly { result: EvalResult; written: WrittenReport }[], docsDir: string): BenchReport {
  const link = (path: string) => relative(docsDir, path);
  const rows = runs.flatMap(({ result }) =>
    BUDGETS.map((b) => {
      const [s, bm, h, r] = METHODS.map((m) => at(result, m, b)!);
      return [result.corpus, String(b), pct(s!.strictRecall), pct(bm!.strictRecall), pct(h!.strictRecall), pct(r!.strictRecall), pct(s!.recall), pct(s!.answerContained), pct(bm!.answerContained), pct(h!.answerContained)];
    }),
  );
  const described = runs.map(({ result, written }) => `**${result.corpus}**: ${result.samples} conversations, ${result.messages} messages, ${result.questions} questions ([report](${link(written.markdownPath)}))`).join('; ');
  const notes = runs.flatMap(({ result }) => {
    const system = at(result, 'system', 1024)!;
    const stale = result.corrections.filter((c) => c.staleInCurrentState.length > 0).length;
    return [
      `${result.corpus}, at 1,024 tokens: items only (expanded, summaries not counted) ${pct(result.itemOnlyRecall['1024'])}; date anchoring service ${pct(system.dateAnchoring)}, BM25 ${pct(at(result, 'bm25', 1024)!.dateAnchoring)}, hybrid ${pct(at(result, 'hybrid', 1024)!.dateAnchoring)}; corrections: ${result.corrections.length} questions with a superseded value, stale in the current-state sections for ${stale}; ablations (strict): ${Object.keys(ABLATIONS).map((name) => `${name} ${pct(result.ablations[name]!['1024']!.overall!.strictRecall)}`).join(', ')}.`,
      `${result.corpus}: ${result.store.historyTokens} history tokens held as ${result.store.memoryTokens} memory tokens; ingest and consolidation ${result.timing.secondsPer1000Messages.toFixed(1)} s per 1,000 messages, ladders ${result.timing.ladderSeconds.toFixed(1)} s, embedding for the hybrid baseline ${result.timing.embeddingSeconds.toFixed(1)} s, questions ${result.timing.questionSeconds.toFixed(1)} s.`,
    ];
  });
  const [first, ...others] = runs.map(({ result }) => Object.fromEntries(Object.entries(summaryLine(result)).filter(([key]) => key !== 'bench')));
  return {
    name: 'eval',
    title: 'Memory quality: generated and independently written corpora, against BM25, hybrid and most recent turns over the raw turns',
    command: 'npm run bench -- eval',
    description: `${described}. Each corpus is replayed through the API, consolidated with the local model, and every question asked through \`GET /context\`. **Strict recall** (the primary measure) is the share of a question's evidence turns whose ids are printed in the injected text; **expanded** recall also credits turns that an injected item or summary traces back to, printed or not. The baselines (BM25; BM25 fused with sentence-embedding similarity by reciprocal-rank fusion; the most recent turns) inject raw turns with their ids, in the same run, with the same tokenizer and budgets. Definitions: [EVAL.md](EVAL.md).`,
    table: {
      header: ['corpus', 'budget (tokens)', 'strict recall: service', 'BM25', 'hybrid', 'most recent', 'expanded recall: service', 'answer contained: service', 'BM25', 'hybrid'],
      rows,
    },
    notes: [
      ...notes,
      `Ablations (strict recall · answer contained, literal / dates in one form · tokens per cited id), by corpus and budget:\n\n${markdownTable(ablationSummary(runs.map((r) => r.result)))}\n`,
    ],
    json: { ...first, ...Object.fromEntries(others.map((summary, i) => [runs[i + 1]!.result.corpus, summary])) },
  };
}
