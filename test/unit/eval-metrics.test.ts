import { describe, expect, it } from 'vitest';
import { aggregate, aggregateByCategory, answerContained, answerDateForms, answerTokenShare, citedIds, dateAnchored, evidenceRecall, normaliseText } from '../../scripts/eval/metrics.js';
import { Bm25Baseline, fullHistoryTokens, recentContext } from '../../scripts/eval/baselines.js';
import { currentStateText, presentsAsCurrent } from '../../scripts/eval/harness.js';
import { groupedBarChart, lineChart } from '../../scripts/eval/plots.js';
import type { CorpusTurn } from '../../scripts/eval/corpus.js';
import { countTokens } from '../../functions/commons/tokens.js';

describe('answer measures', () => {
  it('normalise case, punctuation, accents and articles', () => {
    expect(normaliseText('The  Café, at  "Acme Corp."!')).toBe('cafe at acme corp');
  });

  it('find a whole answer on word boundaries, and the share of its tokens', () => {
    expect(answerContained('Acme Corp', 'Dana: head of design at ACME corp.')).toBe(true);
    expect(answerContained('5', 'floor 15')).toBe(false);
    expect(answerContained('floor 5', 'office: floor 5, not 3')).toBe(true);
    expect(answerContained('', 'anything')).toBe(false);
    expect(answerTokenShare('send the signed contract', 'contract signed yesterday')).toBeCloseTo(2 / 3);
    expect(answerTokenShare('the', 'x')).toBe(0);
  });

  it('count the share of evidence turns traced', () => {
    expect(evidenceRecall(['D1:1', 'D1:2'], new Set(['D1:2', 'D9:9']))).toBe(0.5);
    expect(evidenceRecall([], new Set(['D1:1']))).toBe(0);
  });
});

describe('date anchoring', () => {
  it('reads the date an answer names, as precisely as it is given', () => {
    expect(answerDateForms('7 May 2023', '2023-06-01T00:00:00Z')).toEqual(['2023-05-07', '7 May 2023', 'May 7, 2023', 'May 7 2023']);
    expect(answerDateForms("The week before 9 June 2023", "2023-06-20T00:00:00Z")![0]).toBe("2023-06-09");
    expect(answerDateForms("yesterday", "2023-06-20T10:00:00Z")![0]).toBe("2023-06-19");
    expect(answerDateForms("May 7th, 2023", "2023-06-20T10:00:00Z")![0]).toBe("2023-05-07");
    expect(answerDateForms('June 2023', '2023-07-01T00:00:00Z')).toEqual(['2023-06', 'June 2023', 'June, 2023']);
    expect(answerDateForms('since 2016', '2023-07-01T00:00:00Z')).toEqual(['2016']);
    expect(answerDateForms('a long time', '2023-07-01T00:00:00Z')).toBeUndefined();
  });

  it('finds the ids a line cites', () => {
    expect(citedIds('- Sam lives in Oslo _(2025-01-06; evidence D1:7, D4:2)_')).toEqual(['D1:7', 'D4:2']);
    expect(citedIds('- day 2025-01-06: went hiking _(as of 2025-01-07; summary time:0:20094)_')).toEqual(['time:0:20094']);
    expect(citedIds('- [2025-01-06 09:00] Sam: hi (D1:1)')).toEqual(['D1:1']);
  });

  it('counts a date only on a line that cites the evidence', () => {
    const forms = answerDateForms('14 January 2025', '2025-01-15T00:00:00Z')!;
    const context = ['- [2025-01-14 09:00] Sam: unrelated (D1:1)', '- [2025-01-15 10:00] Sam: Yesterday I went hiking (D2:3)'].join('\n');
    expect(dateAnchored(forms, context, (id) => id === 'D2:3')).toBe(false);
    expect(dateAnchored(forms, `${context}\n- Sam went hiking on 2025-01-14 _(2025-01-15; evidence D2:3)_`, (id) => id === 'D2:3')).toBe(true);
    // The block's own line formats print the id at the front of a record or inside an item's date.
    expect(dateAnchored(forms, '- D2:3 Sam: I went hiking yesterday (2025-01-14).', () => false, ['D2:3'])).toBe(true);
    expect(dateAnchored(forms, '- [2025-01-15 · D2:3, D4:1] **Sam**: hiked on 2025-01-14', () => false, ['D2:3'])).toBe(true);
    expect(dateAnchored(forms, '- D2:30 Sam: I went hiking yesterday (2025-01-14).', () => false, ['D2:3'])).toBe(false);
  });
});

describe('aggregates', () => {
  it('average each measure over the questions it applies to, overall and per category', () => {
    const scores = [
      { category: 'a', strictRecall: 0.5, strictHit: true, recall: 1, hit: true, contained: true, containedDates: true, tokenShare: 1, tokens: 100, citedIds: 3 },
      { category: 'a', strictRecall: 0, strictHit: false, recall: 0, hit: false, contained: false, containedDates: false, tokenShare: 0.5, tokens: 300, citedIds: 1 },
      { category: 'b', tokens: 200, anchored: true, citedIds: 0 },
    ];
    // Tokens per cited id: (100 + 300 + 200) tokens over 3 + 1 + 0 ids.
    expect(aggregate(scores)).toEqual({ questions: 3, strictRecall: 0.25, groundedRecall: null, strictHitRate: 0.5, recall: 0.5, hitRate: 0.5, answerContained: 0.5, answerContainedDates: 0.5, answerTokenShare: 0.75, dateAnchoring: 1, temporalWithDates: 1, meanTokens: 200, tokensPerCitedId: 150 });
    const byCategory = aggregateByCategory(scores);
    expect(Object.keys(byCategory)).toEqual(['overall', 'a', 'b']);
    expect(byCategory.b!.dateAnchoring).toBe(1);
    expect(byCategory.a!.dateAnchoring).toBeNull();
    // A measure with nothing to score is empty, not 0.
    expect(byCategory.b!.recall).toBeNull();
    expect(byCategory.b!.strictRecall).toBeNull();
    expect(byCategory.b!.answerContained).toBeNull();
    // A category that cites nothing has no cost per cited id.
    expect(byCategory.b!.tokensPerCitedId).toBeNull();
  });
});

describe('superseded values', () => {
  it('are looked for in the current-state sections, and not where they are ruled out', () => {
    const markdown = '## Memory (historical)\n\n### Facts\n- I now live in Utrecht, not Lyon\n\n### Summaries\n- week: moved from Lyon';
    expect(currentStateText(markdown)).not.toContain('Summaries');
    expect(presentsAsCurrent(currentStateText(markdown), 'Lyon')).toBe(false);
    expect(presentsAsCurrent(markdown, 'Lyon')).toBe(true);
    expect(presentsAsCurrent('- office: floor 5, not floor 3', 'floor 3')).toBe(false);
    expect(presentsAsCurrent('- Dana: head of design at Initech.', 'Initech')).toBe(true);
  });
});

describe('baselines', () => {
  const turns: CorpusTurn[] = Array.from({ length: 200 }, (_, i) => ({
    id: `D${1 + Math.floor(i / 20)}:${1 + (i % 20)}`,
    speaker: i % 2 ? 'Ivan' : 'Rosa',
    role: 'user',
    named: true,
    text: i === 42 ? 'My cat Clementine loves the balcony.' : `Filler line number ${i} about the weather and work.`,
    at: new Date(Date.parse('2023-03-01T10:00:00Z') + i * 600_000).toISOString(),
    session: 1 + Math.floor(i / 20),
  }));

  it('BM25 puts the matching turn in context within the budget', () => {
    const context = new Bm25Baseline(turns).context("What is the name of Rosa's cat Clementine?", 256);
    expect(context.turns).toContain(turns[42]!.id);
    expect(context.tokens).toBeLessThanOrEqual(256);
    expect(countTokens(context.markdown)).toBe(context.tokens);
    expect(context.markdown).toContain('(D3:3)');
  });

  it('most recent turns are the newest, without gaps, within the budget', () => {
    const context = recentContext(turns, 512);
    expect(context.tokens).toBeLessThanOrEqual(512);
    const ids = context.turns;
    expect(ids.at(-1)).toBe(turns.at(-1)!.id);
    const tail = turns.slice(-ids.length).map((t) => t.id);
    expect(ids).toEqual(tail);
    expect(fullHistoryTokens(turns)).toBeGreaterThan(context.tokens * 5);
  });
});

describe('plots', () => {
  it('draw well-formed SVG with one mark per point and a legend', () => {
    const svg = lineChart([{ name: 'service', points: [[256, 0.5], [512, 0.75]] }, { name: 'BM25 <raw>', points: [[256, 0.25], [512, 1]] }], { title: 'Recall', xLabel: 'budget', yLabel: 'recall', yMax: 1, categorical: true });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg).toContain('BM25 &lt;raw&gt;');
    expect(svg).not.toContain('NaN');
    const bars = groupedBarChart(['256', '512'], [{ name: 'a', values: [10, 20] }, { name: 'b', values: [30, 0] }], { title: 'Tokens', xLabel: 'budget', yLabel: 'tokens' });
    expect(bars.match(/<rect [^>]*><title>/g)).toHaveLength(4);
    expect(bars).not.toContain('NaN');
  });
});
