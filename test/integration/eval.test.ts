/**
 * The evaluation harness end to end on the local stack: the synthetic corpus
 * (one conversation over two months) and a LoCoMo-format file are replayed
 * through the API and scored, strictly (evidence ids printed) and expanded,
 * against the BM25, hybrid and most-recent baselines; the correction test
 * holds (a superseded value is never presented as current); the report is
 * written. The service's own recall changes as retrieval does: no test here
 * expects a value of it.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { recentStart, syntheticCorpus } from '../../scripts/corpus/synthetic-corpus.js';
import { parseCorpus } from '../../scripts/eval/corpus.js';
import { ABLATIONS, BUDGETS, METHODS, runEvaluation, type EvalResult } from '../../scripts/eval/harness.js';
import { summaryLine, writeEvalReport } from '../../scripts/eval/report.js';
import { startTestStack } from '../support/local-stack.js';

let stack: LocalStack;
let synthetic: EvalResult;
let locomo: EvalResult;
const samples = parseCorpus(syntheticCorpus({ samples: 1, months: 2, start: recentStart(2) }));
const outDir = mkdtempSync(join(tmpdir(), 'eval-report-'));

beforeAll(async () => {
  stack = await startTestStack();
  synthetic = await runEvaluation(stack, { corpusName: 'synthetic', samples, stages: 2 });
  // The fixture's 2023 moved to last year: the final sweep marks every silent day up to today, one by one.
  const lastYear = String(new Date().getUTCFullYear() - 1);
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/locomo-style.json', import.meta.url), 'utf8').replaceAll('2023', lastYear));
  locomo = await runEvaluation(stack, { corpusName: 'locomo-style', samples: parseCorpus(fixture), stages: 1 });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
});

describe('evaluation on the synthetic corpus', () => {
  it('never presents a corrected value as current, and presents the correction', () => {
    // Three contacts change jobs, an office floor is corrected, the user moves city.
    expect(synthetic.corrections.length).toBe(5);
    for (const correction of synthetic.corrections) {
      expect(correction.staleInCurrentState, `${correction.question}: ${correction.staleLines.join(' | ')}`).toEqual([]);
      expect(correction.answerPresent, correction.question).toContain(2048);
    }
  });

  it('scores the service and the three baselines at every budget, strictly and expanded, overall and per category', () => {
    expect(synthetic.questions).toBe(samples[0]!.questions.length);
    for (const method of METHODS) {
      for (const budget of BUDGETS) {
        const overall = synthetic.results[method][String(budget)]!.overall!;
        expect(overall.questions).toBe(synthetic.questions);
        expect(overall.meanTokens).toBeLessThanOrEqual(budget);
        // Every synthetic question has evidence and an answer, so no measure is empty.
        for (const value of [overall.strictRecall, overall.strictHitRate, overall.recall, overall.hitRate, overall.answerContained, overall.answerTokenShare]) {
          expect(value).not.toBeNull();
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }
      expect(Object.keys(synthetic.results[method]['1024']!).sort()).toEqual(['multi-hop', 'overall', 'single-hop', 'task', 'temporal', 'update']);
      for (const category of Object.values(synthetic.results[method]['1024']!)) expect(category.strictRecall).not.toBeNull();
    }
    // A baseline prints the id of every turn it injects, so reading it strictly loses nothing.
    for (const method of ['bm25', 'hybrid', 'recent'] as const) {
      for (const budget of BUDGETS) {
        const overall = synthetic.results[method][String(budget)]!.overall!;
        expect(overall.strictRecall, `${method} at ${budget}`).toBeCloseTo(overall.recall!, 10);
      }
    }
    expect(synthetic.results.system['1024']!.temporal!.temporalWithDates).toBeGreaterThan(0);
    expect(Object.keys(synthetic.ablations)).toEqual(Object.keys(ABLATIONS));
  });

  it('recalls through consolidated memory what the most recent turns cannot hold', () => {
    const system = synthetic.results.system['512']!.overall!;
    const recent = synthetic.results.recent['512']!.overall!;
    expect(system.recall).toBeGreaterThan(recent.recall!);
    expect(system.answerContained).toBeGreaterThan(recent.answerContained!);
    // Items alone (summaries not expanded) trace part of that.
    expect(synthetic.itemOnlyRecall['1024']).toBeGreaterThan(0);
    expect(synthetic.itemOnlyRecall['1024']).toBeLessThanOrEqual(synthetic.results.system['1024']!.overall!.recall!);
  });

  it('draws a learning curve over the replay and measures the store', () => {
    expect(synthetic.learningCurve.map((p) => p.stage)).toEqual([1, 2]);
    for (const point of synthetic.learningCurve) {
      for (const value of [point.systemStrictRecall, point.bm25StrictRecall, point.hybridStrictRecall]) {
        expect(value).not.toBeNull();
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
    expect(synthetic.timing.embeddingSeconds).toBeGreaterThan(0);
    expect(synthetic.learningCurve[0]!.messages).toBeLessThan(synthetic.learningCurve[1]!.messages);
    expect(synthetic.learningCurve[1]!.messages).toBe(synthetic.messages);
    expect(synthetic.learningCurve[0]!.answerable).toBeLessThan(synthetic.learningCurve[1]!.answerable);
    expect(synthetic.store.historyTokens).toBeGreaterThan(synthetic.store.memoryTokens);
    expect(synthetic.store.items.contacts.live).toBeGreaterThanOrEqual(3);
    expect(synthetic.store.items.facts.archived).toBeGreaterThan(0);
    expect(synthetic.store.summaries).toBeGreaterThan(0);
    expect(synthetic.timing.secondsPer1000Messages).toBeGreaterThan(0);
  });

  it('writes the report, the JSON and three plots, and the one-line summary', () => {
    const written = writeEvalReport(synthetic, outDir, 'npm run eval');
    for (const file of [written.markdownPath, written.jsonPath, ...written.plots]) expect(existsSync(file)).toBe(true);
    expect(written.plots.map((p) => p.split('/').pop())).toEqual(['recall-vs-budget.svg', 'tokens-per-question.svg', 'learning-curve.svg']);
    const json = JSON.parse(readFileSync(written.jsonPath, 'utf8'));
    expect(json.summary).toEqual(summaryLine(synthetic));
    const line = summaryLine(synthetic);
    expect(line).toMatchObject({ bench: 'eval', corpus: 'synthetic', questions: synthetic.questions, staleInCurrentState: 0 });
    expect(line.recallAt1024).toBe(Math.round(synthetic.results.system['1024']!.overall!.recall! * 1000) / 1000);
    // Strict recall leads the line, for the service and each baseline, overall and per category.
    expect(Object.keys(line).slice(2, 4)).toEqual(['strictRecallAt1024', 'bm25StrictAt1024']);
    expect(line.strictRecallAt1024).toBe(Math.round(synthetic.results.system['1024']!.overall!.strictRecall! * 1000) / 1000);
    expect(line.hybridStrictAt1024).toBe(Math.round(synthetic.results.hybrid['1024']!.overall!.strictRecall! * 1000) / 1000);
    for (const budget of [256, 512, 2048]) expect(line[`strictRecallAt${budget}`]).toBe(Math.round(synthetic.results.system[String(budget)]!.overall!.strictRecall! * 1000) / 1000);
    expect(Object.keys(line.strictRecallAt1024ByCategory as object).sort()).toEqual(['multi-hop', 'single-hop', 'task', 'temporal', 'update']);
    expect(line.bm25At1024).toBe(Math.round(synthetic.results.bm25['1024']!.overall!.recall! * 1000) / 1000);
    const markdown = readFileSync(written.markdownPath, 'utf8');
    expect(markdown).toContain('![recall against budget](recall-vs-budget.svg)');
    expect(markdown.indexOf('## Strict evidence recall against budget')).toBeLessThan(markdown.indexOf('## Expanded evidence recall'));
    expect(markdown).toContain('hybrid over raw turns');
    expect(markdown).toContain('## Corrections');
  });
});

describe('evaluation on a LoCoMo-format file', () => {
  it('replays the turns as events with their ids, and traces evidence back to them', () => {
    expect(locomo.messages).toBe(10);
    expect(locomo.questions).toBe(6);
    const overall = locomo.results.system['2048']!.overall!;
    // Ten turns fit any budget: every question's evidence id is printed.
    expect(overall.strictRecall).toBe(1);
    // The items that answer the single-hop questions (Rosa's cat, her work, her 10k) trace back to the turns they were read from.
    expect(locomo.results.system['2048']!['single-hop']!.recall).toBe(1);
    expect(locomo.results.bm25['2048']!.overall!.recall).toBe(1);
    // Every turn fits: each baseline prints every evidence id (D2:3 among them, beside its repeat D2:3#2).
    for (const method of ['bm25', 'hybrid', 'recent'] as const) expect(locomo.results[method]['2048']!.overall!.strictRecall).toBe(1);
    // The adversarial question has no answer: answer measures cover the other five, and are empty for its category.
    expect(locomo.results.system['2048']!.adversarial!.questions).toBe(1);
    expect(locomo.results.system['2048']!.adversarial!.answerContained).toBeNull();
    expect(locomo.results.system['2048']!.adversarial!.recall).toBe(1);
  });
});
