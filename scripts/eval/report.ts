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
import { ABLATIONS, BUDGETS, type EvalResult, type Method } from './harness.js';

const METHOD_NAMES: Record<Method, string> = { system: 'memory service', bm25: 'BM25 over raw turns', recent: 'most recent turns' };
const pct = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const r3 = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value * 1000) / 1000);
/** Points with a value: a measure with no question to score is left out of a plot, not drawn as 0. */
const plotted = (points: readonly (readonly [number, number | null])[]) => points.filter((p): p is readonly [number, number] => p[1] !== null);
const at = (result: EvalResult, method: Method, budget: number, category = 'overall'): Aggregate | undefined => result.results[method][String(budget)]?.[category];

/** The one-line summary: `{"bench":"eval","recallAt1024":…,"bm25At1024":…,…}`. */
export function summaryLine(result: EvalResult): Record<string, unknown> {
  const overall = (method: Method, budget: number) => at(result, method, budget)!;
  const stale = result.corrections.filter((c) => c.staleInCurrentState.length > 0).length;
  return {
    bench: 'eval',
    corpus: result.corpus,
    recallAt1024: r3(overall('system', 1024).recall),
    bm25At1024: r3(overall('bm25', 1024).recall),
    recentAt1024: r3(overall('recent', 1024).recall),
    ...Object.fromEntries(BUDGETS.filter((b) => b !== 1024).map((b) => [`recallAt${b}`, r3(overall('system', b).recall)])),
    ...Object.fromEntries(BUDGETS.filter((b) => b !== 1024).map((b) => [`bm25At${b}`, r3(overall('bm25', b).recall)])),
    itemOnlyRecallAt1024: r3(result.itemOnlyRecall['1024'] ?? 0),
    hitRateAt1024: r3(overall('system', 1024).hitRate),
    answerContainedAt1024: r3(overall('system', 1024).answerContained),
    bm25AnswerContainedAt1024: r3(overall('bm25', 1024).answerContained),
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

function recallTable(result: EvalResult) {
  return {
    header: ['budget (tokens)', 'memory service', 'memory service, items only', 'BM25 over raw turns', 'most recent turns', 'service / BM25'],
    rows: BUDGETS.map((b) => {
      const system = at(result, 'system', b)!.recall;
      const bm25 = at(result, 'bm25', b)!.recall;
      return [String(b), pct(system), pct(result.itemOnlyRecall[String(b)]), pct(bm25), pct(at(result, 'recent', b)!.recall), system !== null && bm25 ? (system / bm25).toFixed(2) : 'n/a'];
    }),
  };
}

function budgetTable(result: EvalResult) {
  const rows: string[][] = [];
  for (const b of BUDGETS) {
    for (const method of ['system', 'bm25', 'recent'] as Method[]) {
      const a = at(result, method, b)!;
      rows.push([String(b), METHOD_NAMES[method], pct(a.recall), pct(a.hitRate), pct(a.answerContained), pct(a.answerTokenShare), pct(a.dateAnchoring), String(Math.round(a.meanTokens))]);
    }
  }
  return { header: ['budget', 'method', 'evidence recall', 'hit rate', 'answer contained', 'answer tokens present', 'date anchoring', 'tokens injected (mean)'], rows };
}

function categoryTable(result: EvalResult) {
  const categories = Object.keys(result.results.system['1024'] ?? {}).filter((c) => c !== 'overall');
  const rows = ['overall', ...categories].map((category) => {
    const s = at(result, 'system', 1024, category)!;
    const b = at(result, 'bm25', 1024, category)!;
    const r = at(result, 'recent', 1024, category)!;
    return [category, String(s.questions), `${pct(s.recall)} / ${pct(b.recall)} / ${pct(r.recall)}`, `${pct(s.hitRate)} / ${pct(b.hitRate)} / ${pct(r.hitRate)}`, `${pct(s.answerContained)} / ${pct(b.answerContained)} / ${pct(r.answerContained)}`, `${pct(s.answerTokenShare)} / ${pct(b.answerTokenShare)} / ${pct(r.answerTokenShare)}`, s.dateAnchoring === null ? 'n/a' : `${pct(s.dateAnchoring)} / ${pct(b.dateAnchoring)} / ${pct(r.dateAnchoring)} (${s.temporalWithDates})`];
  });
  return { header: ['category', 'questions', 'evidence recall', 'hit rate', 'answer contained', 'answer tokens present', 'date anchoring (dated answers)'], rows };
}

function ablationTable(result: EvalResult) {
  const full = at(result, 'system', 1024)!;
  const rows = [['full memory', 'all', pct(full.recall), pct(full.hitRate), pct(full.answerContained), pct(full.dateAnchoring)]];
  for (const [name, views] of Object.entries(ABLATIONS)) {
    const a = result.ablations[name]!.overall!;
    rows.push([name, views, pct(a.recall), pct(a.hitRate), pct(a.answerContained), pct(a.dateAnchoring)]);
  }
  return { header: ['context built from', 'views', 'evidence recall', 'hit rate', 'answer contained', 'date anchoring'], rows };
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
    header: ['stage', 'messages replayed', 'answerable questions', 'memory service recall@1024', 'BM25 recall@1024'],
    rows: result.learningCurve.map((p) => [String(p.stage), String(p.messages), String(p.answerable), pct(p.systemRecall), pct(p.bm25Recall)]),
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
  const methods: Method[] = ['system', 'bm25', 'recent'];
  const plots = {
    'recall-vs-budget.svg': lineChart(
      methods.map((m) => ({ name: METHOD_NAMES[m], points: plotted(BUDGETS.map((b) => [b, at(result, m, b)!.recall] as const)) })),
      { title: 'Evidence recall against token budget', xLabel: 'budget (tokens)', yLabel: 'evidence recall', yMax: 1, categorical: true },
    ),
    'tokens-per-question.svg': groupedBarChart(
      BUDGETS.map(String),
      methods.map((m) => ({ name: METHOD_NAMES[m], values: BUDGETS.map((b) => at(result, m, b)!.meanTokens) })),
      { title: 'Tokens injected per question', xLabel: 'budget (tokens)', yLabel: 'tokens (mean)' },
    ),
    'learning-curve.svg': lineChart(
      [
        { name: METHOD_NAMES.system, points: plotted(result.learningCurve.map((p) => [p.messages, p.systemRecall] as const)) },
        { name: METHOD_NAMES.bm25, points: plotted(result.learningCurve.map((p) => [p.messages, p.bm25Recall] as const)) },
      ],
      { title: 'Recall@1024 of answerable questions as the corpus is replayed', xLabel: 'messages replayed', yLabel: 'evidence recall', yMax: 1 },
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
      'Evidence recall against budget',
      '![recall against budget](recall-vs-budget.svg)',
      markdownTable(recallTable(result)),
      '"Items only" counts only contacts, facts and tasks (their own evidence pointers), not summaries expanded to their source turns.',
    ),
    ...section('Every measure at every budget', markdownTable(budgetTable(result)), '![tokens per question](tokens-per-question.svg)'),
    ...section('By question category, at 1,024 tokens (memory service / BM25 / most recent)', markdownTable(categoryTable(result))),
    ...section('Ablations, at 1,024 tokens', markdownTable(ablationTable(result))),
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

/** The docs/BENCHMARKS.md section for the run on the synthetic corpus. */
export function evalBenchReport(result: EvalResult, written: WrittenReport, docsDir: string): BenchReport {
  const line = summaryLine(result);
  const link = (path: string) => relative(docsDir, path);
  const system = (b: number) => at(result, 'system', b)!;
  const bm25 = (b: number) => at(result, 'bm25', b)!;
  const recent = (b: number) => at(result, 'recent', b)!;
  return {
    name: 'eval',
    title: 'Memory quality: the synthetic corpus, against BM25 over raw turns and the most recent turns',
    command: 'npm run bench -- eval',
    description: `${result.samples} generated conversations (${result.messages} messages, ${result.questions} questions with evidence turns; scripts/corpus/synthetic-corpus.ts) replayed through the API, consolidated with the local model, and every question asked through \`GET /context\`. Evidence recall is the share of a question's evidence turns that the injected context traces back to through its evidence pointers (summaries expanded to their sources); the baselines, computed in the same run with the same tokenizer and budgets, inject raw turns. Full report with plots: [${link(written.markdownPath)}](${link(written.markdownPath)}); definitions: [EVAL.md](EVAL.md).`,
    table: {
      header: ['budget (tokens)', 'evidence recall: service', 'BM25', 'most recent', 'answer contained: service', 'BM25', 'most recent'],
      rows: BUDGETS.map((b) => [String(b), pct(system(b).recall), pct(bm25(b).recall), pct(recent(b).recall), pct(system(b).answerContained), pct(bm25(b).answerContained), pct(recent(b).answerContained)]),
    },
    notes: [
      `Items only (summaries not expanded), recall@1024: ${pct(result.itemOnlyRecall['1024'])}. Date anchoring of temporal answers at 1,024: service ${pct(system(1024).dateAnchoring)}, BM25 ${pct(bm25(1024).dateAnchoring)}.`,
      `Corrections: ${result.corrections.length} questions have a superseded value; it appeared in the current-state sections of the service's context for ${line.staleInCurrentState} of them.`,
      `Compression: ${result.store.historyTokens} history tokens held as ${result.store.memoryTokens} memory tokens (${(result.store.historyTokens / Math.max(1, result.store.memoryTokens)).toFixed(2)}x); ingest and consolidation ${result.timing.secondsPer1000Messages.toFixed(1)} s per 1,000 messages on the emulator (local model), ladders ${result.timing.ladderSeconds.toFixed(1)} s more in total.`,
      `Ablations at 1,024 tokens (recall): ${Object.keys(ABLATIONS).map((name) => `${name} ${pct(result.ablations[name]!.overall!.recall)}`).join(', ')}; full ${pct(system(1024).recall)}.`,
    ],
    json: Object.fromEntries(Object.entries(line).filter(([key]) => key !== 'bench')),
  };
}
