/**
 * The loop part's figures (docs/EVAL.md, "The note lifecycle loop"), each
 * beside its baseline or floor from the same run, and its outputs:
 * `report.md` and `results.json` in one folder, and one JSON line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentLine, markdownTable } from '../bench/report.js';
import type { AskedQuestion, CorrectionCase, LoopResult, StagePoint } from './loop.js';

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const pct = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const r3 = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
const count = <T>(list: readonly T[], test: (item: T) => boolean) => list.filter(test).length;
const median = (values: readonly number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface CorrectionFigure {
  readonly cases: number;
  readonly plantedInStore: number;
  /** Planted cases whose wrong value the context showed before the correction. */
  readonly shownBefore: number;
  /** Baseline: the share of cases whose context showed the wrong value before the correction. */
  readonly shownBeforeRate: number | null;
  /** The share of cases whose context showed it after one batch. */
  readonly shownAfterRate: number | null;
  /** Of the cases shown before: the share no longer shown after one batch. */
  readonly correctedWithinOneBatch: number | null;
  /** Of the cases shown before: the share never shown again at any later stage. */
  readonly stayedCorrected: number | null;
}

function correctionFigure(cases: readonly CorrectionCase[]): CorrectionFigure {
  const shown = cases.filter((c) => c.shownBefore);
  return {
    cases: cases.length,
    plantedInStore: count(cases, (c) => c.plantedInStore),
    shownBefore: shown.length,
    shownBeforeRate: share(shown.length, cases.length),
    shownAfterRate: share(count(cases, (c) => c.shownAfterOneBatch), cases.length),
    correctedWithinOneBatch: share(count(shown, (c) => !c.shownAfterOneBatch), shown.length),
    stayedCorrected: share(count(shown, (c) => !c.shownAfterOneBatch && !c.shownLater), shown.length),
  };
}

export interface LoopFigures {
  readonly explicitCorrection: CorrectionFigure;
  readonly wrongFeedback: CorrectionFigure & { shownRightAfterRate: number | null; withoutFeedbackShownAfterRate: number | null };
  readonly staleHitRate: Record<'feedback' | 'plain', { contexts: number; rate: number | null; flaggedRate: number | null; byKind: Record<string, number | null> }> & { bm25: number | null };
  /** Share of answers after a change that show the old value anywhere (items, records, summaries, contact lines) unmarked. */
  readonly staleAnywhere: Record<'feedback' | 'plain', number | null> & { bm25: number | null };
  readonly conflictResidualRate: Record<'feedback' | 'plain', { active: number; conflicting: number; rate: number | null; casesWithBothValuesLive: number }> & { appendOnly: number };
  readonly volume: Record<'feedback' | 'plain', { points: VolumePoint[]; itemsPer1000Slope: number | null; lastOverFirst: number | null }>;
  readonly learningCurve: { stage: number; messages: number; feedback: number | null; plain: number | null; feedbackCurrentShown: number | null; plainCurrentShown: number | null }[];
  readonly refutedReappearances: number;
}

export interface VolumePoint {
  readonly fraction: number;
  readonly stage: number;
  readonly messages: number;
  readonly activeItemsPer1000: number;
  readonly storedTokensPer1000: number;
  readonly knownKeysPer1000: number;
  readonly activeOverKnownKeys: number;
  readonly historyTokensPer1000: number;
}

/** Least-squares slope of y against x. */
function slope(points: readonly [number, number][]): number | null {
  if (points.length < 2) return null;
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? null : points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / den;
}

/** The stages nearest 25, 50, 75 and 100 % of the replay. */
export const quarterStages = (batches: number) => [...new Set([0.25, 0.5, 0.75, 1].map((f) => Math.max(1, Math.round(batches * f))))];

function volumeOf(points: readonly StagePoint[], batches: number) {
  const out: VolumePoint[] = quarterStages(batches).map((stage) => {
    const at = points.filter((p) => p.stage === stage);
    const messages = at.reduce((s, p) => s + p.messages, 0);
    const per1000 = (value: number) => (value * 1000) / Math.max(1, messages);
    const active = at.reduce((s, p) => s + p.activeItems, 0);
    const keys = at.reduce((s, p) => s + p.knownKeys, 0);
    return {
      fraction: stage / batches,
      stage,
      messages: messages / Math.max(1, at.length),
      activeItemsPer1000: per1000(active),
      storedTokensPer1000: per1000(at.reduce((s, p) => s + p.storedTokens, 0)),
      knownKeysPer1000: per1000(keys),
      activeOverKnownKeys: active / Math.max(1, keys),
      historyTokensPer1000: per1000(at.reduce((s, p) => s + p.historyTokens, 0)),
    };
  });
  const first = out[0]?.activeItemsPer1000;
  const last = out.at(-1)?.activeItemsPer1000;
  return {
    points: out,
    // Items per 1,000 messages, change per 1,000 messages of history.
    itemsPer1000Slope: slope(out.map((p) => [p.messages / 1000, p.activeItemsPer1000])),
    lastOverFirst: first ? (last ?? 0) / first : null,
  };
}

function staleOf(asked: readonly AskedQuestion[]) {
  const changed = asked.filter((a) => a.afterChange);
  const byKind = Object.fromEntries(['explicit', 'feedback', 'change'].map((kind) => [kind, share(count(changed, (a) => a.kind === kind && a.untrueShown), count(changed, (a) => a.kind === kind))]));
  return { contexts: changed.length, rate: share(count(changed, (a) => a.untrueShown), changed.length), flaggedRate: share(count(changed, (a) => a.untrueShownFlagged), changed.length), byKind };
}

export function loopFigures(result: LoopResult): LoopFigures {
  const of = (agent: 'feedback' | 'plain') => result.asked.filter((a) => a.agent === agent);
  const conflicts = (agent: 'feedback' | 'plain') => {
    const rows = result.conflicts.filter((c) => c.agent === agent);
    const active = rows.reduce((s, c) => s + c.activeItems, 0);
    const conflicting = rows.reduce((s, c) => s + c.conflicting, 0);
    return { active, conflicting, rate: share(conflicting, active), casesWithBothValuesLive: rows.reduce((s, c) => s + c.casesWithBothValuesLive, 0) };
  };
  const precision = (agent: 'feedback' | 'plain', stage: number) => {
    const at = of(agent).filter((a) => a.stage === stage);
    return share(at.reduce((s, a) => s + a.correctItemLines, 0), at.reduce((s, a) => s + a.itemLines, 0));
  };
  const currentShown = (agent: 'feedback' | 'plain', stage: number) => {
    const at = of(agent).filter((a) => a.stage === stage && a.currentShown !== null);
    return share(count(at, (a) => a.currentShown === true), at.length);
  };
  const plainChanged = of('plain').filter((a) => a.afterChange);
  const feedbackCases = result.wrongFeedback;
  return {
    explicitCorrection: correctionFigure(result.explicit),
    wrongFeedback: {
      ...correctionFigure(feedbackCases),
      shownRightAfterRate: share(count(feedbackCases, (c) => c.shownRightAfter === true), feedbackCases.length),
      withoutFeedbackShownAfterRate: share(count(feedbackCases, (c) => c.withoutFeedbackShownAfterOneBatch === true), feedbackCases.length),
    },
    staleHitRate: { feedback: staleOf(of('feedback')), plain: staleOf(of('plain')), bm25: share(count(plainChanged, (a) => a.bm25UntrueShown), plainChanged.length) },
    staleAnywhere: {
      feedback: share(count(of('feedback').filter((a) => a.afterChange), (a) => a.staleAnywhere), of('feedback').filter((a) => a.afterChange).length),
      plain: share(count(plainChanged, (a) => a.staleAnywhere), plainChanged.length),
      bm25: share(count(plainChanged, (a) => a.bm25StaleAnywhere), plainChanged.length),
    },
    conflictResidualRate: { feedback: conflicts('feedback'), plain: conflicts('plain'), appendOnly: result.appendOnlyConflictRate },
    volume: {
      feedback: volumeOf(result.points.filter((p) => p.agent === 'feedback'), result.scenario.batches),
      plain: volumeOf(result.points.filter((p) => p.agent === 'plain'), result.scenario.batches),
    },
    learningCurve: Array.from({ length: result.scenario.batches }, (_, i) => i + 1).map((stage) => ({
      stage,
      messages: stage * (result.scenario.messagesPerAgent / result.scenario.batches),
      feedback: precision('feedback', stage),
      plain: precision('plain', stage),
      feedbackCurrentShown: currentShown('feedback', stage),
      plainCurrentShown: currentShown('plain', stage),
    })),
    refutedReappearances: result.asked.reduce((s, a) => s + a.refutedIncluded.length, 0),
  };
}

/** `{"bench":"eval-loop",…}`: the figures of the loop part in one line. */
export function loopSummaryLine(result: LoopResult): Record<string, unknown> {
  const f = loopFigures(result);
  const curve = f.learningCurve;
  const tail = curve.slice(Math.floor(curve.length / 2));
  return {
    bench: 'eval-loop',
    pairs: result.scenario.pairs,
    batches: result.scenario.batches,
    messagesPerAgent: result.scenario.messagesPerAgent,
    explicitCorrectedWithinOneBatch: r3(f.explicitCorrection.correctedWithinOneBatch),
    explicitShownBefore: r3(f.explicitCorrection.shownBeforeRate),
    explicitShownAfter: r3(f.explicitCorrection.shownAfterRate),
    explicitCases: f.explicitCorrection.cases,
    feedbackCorrectedWithinOneBatch: r3(f.wrongFeedback.correctedWithinOneBatch),
    feedbackShownAfter: r3(f.wrongFeedback.shownAfterRate),
    feedbackBaselineShownAfter: r3(f.wrongFeedback.withoutFeedbackShownAfterRate),
    feedbackCases: f.wrongFeedback.cases,
    staleHitRateWithFeedback: r3(f.staleHitRate.feedback.rate),
    staleHitRateWithoutFeedback: r3(f.staleHitRate.plain.rate),
    staleHitRateBm25: r3(f.staleHitRate.bm25),
    staleAnywhereWithFeedback: r3(f.staleAnywhere.feedback),
    staleAnywhereWithoutFeedback: r3(f.staleAnywhere.plain),
    staleAnywhereBm25: r3(f.staleAnywhere.bm25),
    conflictResidualWithFeedback: r3(f.conflictResidualRate.feedback.rate),
    conflictResidualWithoutFeedback: r3(f.conflictResidualRate.plain.rate),
    conflictResidualAppendOnly: r3(f.conflictResidualRate.appendOnly),
    activeItemsPer1000: f.volume.plain.points.map((p) => r3(p.activeItemsPer1000)),
    activeItemsPer1000WithFeedback: f.volume.feedback.points.map((p) => r3(p.activeItemsPer1000)),
    knownKeysPer1000: f.volume.plain.points.map((p) => r3(p.knownKeysPer1000)),
    storedTokensPer1000: f.volume.plain.points.map((p) => Math.round(p.storedTokensPer1000)),
    itemsPer1000Slope: r3(f.volume.plain.itemsPer1000Slope),
    precisionWithFeedback: curve.map((p) => r3(p.feedback)),
    precisionWithoutFeedback: curve.map((p) => r3(p.plain)),
    medianPrecisionSecondHalfWithFeedback: r3(median(tail.map((p) => p.feedback).filter((v): v is number => v !== null))),
    medianPrecisionSecondHalfWithoutFeedback: r3(median(tail.map((p) => p.plain).filter((v): v is number => v !== null))),
    refutedReappearances: f.refutedReappearances,
    seconds: Math.round(result.seconds),
  };
}

function staleExamples(result: LoopResult): string {
  const lines = result.asked.filter((a) => a.afterChange && a.staleAnywhere).map((a) => `- pair ${a.pair}, ${a.agent === 'feedback' ? 'with' : 'without'} feedback, stage ${a.stage}, ${a.caseId}: ${a.staleLines.join(' ⏎ ')}`);
  return lines.length ? ['Lines that showed an old value unmarked:', '', ...lines.slice(0, 40)].join('\n') : 'No block showed an old value unmarked.';
}

export function writeLoopReport(result: LoopResult, outDir: string, command: string, emulator = 'local stack'): { markdownPath: string; jsonPath: string } {
  mkdirSync(outDir, { recursive: true });
  const f = loopFigures(result);
  const summary = loopSummaryLine(result);
  const jsonPath = join(outDir, 'results.json');
  writeFileSync(jsonPath, `${JSON.stringify({ summary, figures: f, ...result }, null, 2)}\n`);
  const section = (title: string, ...blocks: string[]) => [`## ${title}`, '', ...blocks.flatMap((block) => [block, ''])];
  const e = f.explicitCorrection;
  const w = f.wrongFeedback;
  const styleRows = (cases: readonly CorrectionCase[]) =>
    cases.map((c) => [String(c.pair), c.caseId, c.style, c.plantedInStore ? 'yes' : 'no', c.shownBefore ? 'yes' : 'no', ...(c.shownRightAfter !== undefined ? [c.shownRightAfter ? 'yes' : 'no'] : []), c.shownAfterOneBatch ? 'yes' : 'no', c.shownLater ? 'yes' : 'no', c.rightShownAfterOneBatch === null ? 'not said yet' : c.rightShownAfterOneBatch ? 'yes' : 'no', ...(c.withoutFeedbackShownAfterOneBatch !== undefined ? [c.withoutFeedbackShownAfterOneBatch ? 'yes' : 'no'] : [])]);
  const stuck = result.asked.filter((a) => a.untrueShown && a.afterChange).map((a) => `- pair ${a.pair}, ${a.agent === 'feedback' ? 'with' : 'without'} feedback, stage ${a.stage}, ${a.caseId}: ${a.untrueLines.join(' ⏎ ') || '(in the header or an unjudged line)'}`);
  const md = [
    '# Memory-quality evaluation: the note lifecycle loop',
    '',
    `Command: \`${command}\`  `,
    `Measured: ${environmentLine(emulator)}`,
    '',
    `${result.scenario.pairs} scenario pair(s) (seeded), each replayed for two agents, one whose simulated user gives feedback on the context lines it is shown and one without: ${result.scenario.batches} batches, ${result.scenario.messagesPerAgent} messages and ${result.scenario.cases} cases per agent (${Object.entries(result.scenario.casesByKind).map(([k, n]) => `${n} ${k}`).join(', ')}). After every batch each open question is asked through \`GET /context\` at ${result.budget} tokens. Definitions are in docs/EVAL.md. ${Math.round(result.seconds)} s.`,
    '',
    ...section(
      '1. Correction capability',
      markdownTable({
        header: ['correction', 'cases', 'wrong value in a live item before', 'wrong value shown as current before (baseline)', 'right after feedback', 'shown as current after one batch', 'without feedback, same batch (baseline)', 'corrected within one batch (of those shown)', 'stayed corrected'],
        rows: [
          ['explicit, in words (agent without feedback)', String(e.cases), `${e.plantedInStore}/${e.cases}`, pct(e.shownBeforeRate), '–', pct(e.shownAfterRate), '–', pct(e.correctedWithinOneBatch), pct(e.stayedCorrected)],
          ['`wrong` feedback (agent with feedback)', String(w.cases), `${w.plantedInStore}/${w.cases}`, pct(w.shownBeforeRate), pct(w.shownRightAfterRate), pct(w.shownAfterRate), pct(w.withoutFeedbackShownAfterRate), pct(w.correctedWithinOneBatch), pct(w.stayedCorrected)],
        ],
      }),
      markdownTable({ header: ['pair', 'case', 'style', 'planted in store', 'shown before', 'shown after one batch', 'shown later', 'right value shown after one batch'], rows: styleRows(result.explicit) }),
      markdownTable({ header: ['pair', 'case', 'style', 'planted in store', 'shown to the user', 'shown right after feedback', 'shown after one batch', 'shown later', 'right value shown after one batch', 'without feedback: shown after one batch'], rows: styleRows(result.wrongFeedback) }),
      `Refuted items included in a later context: ${f.refutedReappearances} (must be 0).`,
    ),
    ...section(
      '2. Stale hit rate',
      markdownTable({
        header: ['context', 'answers after the change', 'superseded value shown as current', 'of which every such line flagged (conflict / unverified)', 'explicit', 'feedback', 'change'],
        rows: [
          ...(['feedback', 'plain'] as const).map((agent) => {
            const s = f.staleHitRate[agent];
            return [agent === 'feedback' ? 'service, with feedback' : 'service, without feedback', String(s.contexts), pct(s.rate), pct(s.flaggedRate), pct(s.byKind.explicit), pct(s.byKind.feedback), pct(s.byKind.change)];
          }),
          ['BM25 over the raw turns (baseline; no current state, any mention counts)', String(f.staleHitRate.plain.contexts), pct(f.staleHitRate.bm25), '–', '–', '–', '–'],
        ],
      }),
      stuck.length ? ['Lines that showed a superseded value as current:', '', ...stuck.slice(0, 40)].join('\n') : 'No context showed a superseded value as current.',
      markdownTable({
        header: ['context', 'answers after the change', 'old value shown anywhere unmarked (items, records, summaries, contact lines)'],
        rows: [
          ['service, with feedback', String(f.staleHitRate.feedback.contexts), pct(f.staleAnywhere.feedback)],
          ['service, without feedback', String(f.staleHitRate.plain.contexts), pct(f.staleAnywhere.plain)],
          ['BM25 over the raw turns (baseline: marks nothing)', String(f.staleHitRate.plain.contexts), pct(f.staleAnywhere.bm25)],
        ],
      }),
      'Stale anywhere: a line anywhere in the block shows a value untrue at that stage, with no marker saying it no longer holds (`(marked wrong on …)`, `(no longer true since …)`, `(later: …)`, a conflict flag), other than the line that states the value replacing it.',
      staleExamples(result),
    ),
    ...section(
      '3. Conflict residual rate (at the end)',
      markdownTable({
        header: ['store', 'live items', 'contradicting items', 'rate', 'cases with both values live'],
        rows: [
          ...(['feedback', 'plain'] as const).map((agent) => {
            const c = f.conflictResidualRate[agent];
            return [agent === 'feedback' ? 'service, with feedback' : 'service, without feedback', String(c.active), String(c.conflicting), pct(c.rate), String(c.casesWithBothValuesLive)];
          }),
          ['append-only store (baseline: every statement its own item)', '–', '–', pct(f.conflictResidualRate.appendOnly), '–'],
        ],
      }),
      result.conflicts.flatMap((c) => c.groups.map((g) => `- pair ${c.pair}, ${c.agent === 'feedback' ? 'with' : 'without'} feedback: ${g.key} holds ${g.values.join(' / ')}`)).join('\n') || 'No key holds two values.',
    ),
    ...section(
      '4. Volume efficiency',
      markdownTable({
        header: ['store', 'share of the replay', 'messages per agent', 'live items per 1,000 messages', 'keys known by then per 1,000 messages (baseline)', 'live items per known key', 'stored tokens per 1,000 messages', 'history tokens per 1,000 messages'],
        rows: (['plain', 'feedback'] as const).flatMap((agent) =>
          f.volume[agent].points.map((p) => [agent === 'feedback' ? 'with feedback' : 'without feedback', `${Math.round(p.fraction * 100)}%`, String(p.messages), p.activeItemsPer1000.toFixed(1), p.knownKeysPer1000.toFixed(1), p.activeOverKnownKeys.toFixed(2), Math.round(p.storedTokensPer1000).toString(), Math.round(p.historyTokensPer1000).toString()]),
        ),
      }),
      `Slope of live items per 1,000 messages against history length (per 1,000 messages of history): without feedback ${f.volume.plain.itemsPer1000Slope?.toFixed(1) ?? 'n/a'}, with feedback ${f.volume.feedback.itemsPer1000Slope?.toFixed(1) ?? 'n/a'}; last point over first: ${f.volume.plain.lastOverFirst?.toFixed(2) ?? 'n/a'} and ${f.volume.feedback.lastOverFirst?.toFixed(2) ?? 'n/a'}. The scenario says most of its keys in the first half, so the known keys per 1,000 messages fall too: compare the two columns, and the items per known key.`,
    ),
    ...section(
      '5. Learning curve: context precision with feedback and without',
      markdownTable({
        header: ['stage', 'messages per agent', 'precision with feedback', 'precision without feedback', 'right value shown, with feedback', 'right value shown, without'],
        rows: f.learningCurve.map((p) => [String(p.stage), String(p.messages), pct(p.feedback), pct(p.plain), pct(p.feedbackCurrentShown), pct(p.plainCurrentShown)]),
      }),
      `Precision: the share of the item lines (contacts, tasks, facts) of every answer at that stage that show no value the ground truth holds untrue then. Feedback given: ${['helpful', 'wrong', 'outdated'].map((o) => `${count(result.feedback, (x) => x.outcome === o)} ${o}`).join(', ')}; lines judged wrong that named no included item: ${result.unmappedWrongLines}.`,
    ),
    ['```json', JSON.stringify(summary), '```', ''].join('\n'),
  ].join('\n');
  const markdownPath = join(outDir, 'report.md');
  writeFileSync(markdownPath, md);
  return { markdownPath, jsonPath };
}
