import { describe, expect, it } from 'vitest';
import { citedRun, formatSummaryLine, ID_TOKENS, joinRun, parseSummaryLine, runIds, splitRun, summaryTokens, withoutCitations } from '../../functions/domain/summary-lines.js';
import { countTokens } from '../../functions/commons/tokens.js';
import { summariseExtractively } from '../../functions/adapters/models/local/summaries.js';
import { verbatimSummary } from '../../functions/use-cases/summaries.js';

describe('summary lines', () => {
  it('carry their date and the records they cite, and read back the same', () => {
    const line = formatSummaryLine({ date: '2026-11-02', ids: ['D3:5', '0b6f2c1e-7d1a-4c55-9e0a-2f3c4d5e6f70'], text: 'Booked the venue: the barn.' });
    expect(line).toBe('2026-11-02 [D3:5, 0b6f2c1e-7d1a-4c55-9e0a-2f3c4d5e6f70]: Booked the venue: the barn.');
    expect(parseSummaryLine(line)).toEqual({ date: '2026-11-02', ids: ['D3:5', '0b6f2c1e-7d1a-4c55-9e0a-2f3c4d5e6f70'], text: 'Booked the venue: the barn.' });
    // Lines written before lines cited their records still read.
    expect(parseSummaryLine('2026-11-02: Booked the venue.')).toEqual({ date: '2026-11-02', ids: [], text: 'Booked the venue.' });
    expect(parseSummaryLine('Booked the venue.')).toBeUndefined();
    expect(withoutCitations(`${line}\n2026-11-03 [r9]: Paid.`)).toBe('2026-11-02: Booked the venue: the barn.\n2026-11-03: Paid.');
    expect(withoutCitations('[r1] Booked the venue. [r2, r3] Sent the invitations 2026-11-04 [r7] Paid.')).toBe('Booked the venue. Sent the invitations 2026-11-04 Paid.');
  });

  it('render as one run with each date once, and not at all for a summary whose lines cite nothing', () => {
    const text = '2026-11-02 [r1]: Booked the venue.\n2026-11-02 [r2, r3]: Sent the invitations\n2026-11-04 [r7]: Paid the deposit.';
    expect(citedRun(text)).toBe('2026-11-02 [r1] Booked the venue. [r2, r3] Sent the invitations 2026-11-04 [r7] Paid the deposit.');
    expect(citedRun(text, '2026-11-02')).toBe('[r1] Booked the venue. [r2, r3] Sent the invitations 2026-11-04 [r7] Paid the deposit.');
    expect(citedRun('The week was about the wedding venue and the invitations.')).toBeUndefined();
    // A dated line citing nothing (a day summarised without its ids to fit its bound) keeps its date as its mark.
    const partly = citedRun('2026-11-02 [r1]: Booked the venue.\n2026-11-02: Paid.\n2026-11-02 [r4]: Sent the invitations.');
    expect(partly).toBe('2026-11-02 [r1] Booked the venue. 2026-11-02: Paid. [r4] Sent the invitations.');
    expect(splitRun(partly!)).toEqual([
      { date: '2026-11-02', ids: ['r1'], text: 'Booked the venue.' },
      { date: '2026-11-02', ids: [], text: 'Paid.' },
      { date: '2026-11-02', ids: ['r4'], text: 'Sent the invitations.' },
    ]);
    expect(joinRun(splitRun(partly!))).toBe(partly);
    expect(runIds(partly!)).toEqual(['r1', 'r4']);
    expect(citedRun('2026-11-02: Booked the venue.\n2026-11-02: Paid.')).toBeUndefined();
  });

  it('cite the record each sentence came from, up the ladder', () => {
    const at = '2026-11-02T09:00:00Z';
    const day = summariseExtractively({
      ladder: 'time', level: 0, from: '2026-11-02', to: '2026-11-02', maxTokens: 200,
      sources: [
        { id: 'r1', at, text: 'Hi! We booked the barn near Harrogate for the wedding.', role: 'user' },
        { id: 'r2', at, text: 'Priya starts at Globex on 9 November.', role: 'user' },
      ],
    });
    expect(day.text).toBe('2026-11-02 [r1]: We booked the barn near Harrogate for the wedding.\n2026-11-02 [r2]: Priya starts at Globex on 9 November.');
    const week = summariseExtractively({ ladder: 'time', level: 1, from: '2026-11-02', to: '2026-11-08', maxTokens: 200, sources: [{ id: 'time:0:1', at, text: day.text }] });
    expect(week.text).toBe(day.text);
    expect(verbatimSummary([{ id: 'time:0:1', at, text: day.text }])).toBe(day.text);
    expect(verbatimSummary([{ id: 'r1', at, text: 'Booked the barn.', role: 'user' }], false)).toBe('2026-11-02: Booked the barn.');
  });

  it('count each id a line cites as a short one, so a long id crowds out no line', () => {
    const short = '2026-11-02 [D1:3]: Booked the barn.\n2026-11-02 [D1:4, D1:5]: Paid the deposit.';
    // What " [D1:3]" costs: the text counted as written.
    expect(summaryTokens(short, countTokens)).toBe(countTokens(short));
    const longId = (n: number) => `e-${'BnvA3M9AojtQr3TiZMhCCjJSM0t75mi'}${n}`;
    const long = `2026-11-02 [${longId(3)}]: Booked the barn.\n2026-11-02 [${longId(4)}, ${longId(5)}]: Paid the deposit.`;
    expect(countTokens(long)).toBeGreaterThan(countTokens(short) + 40);
    expect(summaryTokens(long, countTokens)).toBe(summaryTokens(short, countTokens));
    expect(summaryTokens('A model summary with no ids.', countTokens)).toBe(countTokens('A model summary with no ids.'));
    expect(ID_TOKENS).toBe(countTokens('2026-11-02 [D1:3]: x') - countTokens('2026-11-02: x'));

    // The local model keeps as many lines of a day whatever its ids' length.
    const at = '2026-11-02T09:00:00Z';
    const sentences = ['We booked the barn near Harrogate for the wedding on 21 June.', 'Priya starts at Globex on 9 November as sales director.', 'The deposit of £400 went out on Monday.', 'Dana moved to Leeds in October for the new job.', 'The caterer quoted £42 a head for 80 guests.', 'Tom will drive the minibus from York at 9am.'];
    const day = (id: (n: number) => string) =>
      summariseExtractively({ ladder: 'time', level: 0, from: '2026-11-02', to: '2026-11-02', maxTokens: 160, sources: sentences.map((text, n) => ({ id: id(n), at, text, role: 'user' })) }).text.split('\n').length;
    expect(day(longId)).toBe(day((n) => `D1:${n}`));
  });
});
