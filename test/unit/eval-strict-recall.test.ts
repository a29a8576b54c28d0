import { describe, expect, it } from 'vitest';
import { groundedRecall, idPrinted, printedIds, strictRecall, wordsBeside } from '../../scripts/eval/metrics.js';
import { scoreContext } from '../../scripts/eval/scoring.js';

describe('strict evidence recall: an id counts only when it is printed as a whole token', () => {
  it('finds an id in parentheses, brackets, after commas, at a line end and before sentence punctuation', () => {
    expect(idPrinted('- [2025-01-06 09:00] Sam: hi (D1:3)', 'D1:3')).toBe(true);
    expect(idPrinted('went hiking [D1:3]', 'D1:3')).toBe(true);
    expect(idPrinted('_(2025-01-06; evidence D4:2, D1:3, D9:1)_', 'D1:3')).toBe(true);
    expect(idPrinted('evidence D4:2,D1:3', 'D1:3')).toBe(true);
    expect(idPrinted('sources: D1:3', 'D1:3')).toBe(true);
    expect(idPrinted('as said in D1:3.', 'D1:3')).toBe(true);
    expect(idPrinted('D1:3: Sam said hi', 'D1:3')).toBe(true);
    expect(idPrinted('D1:3', 'D1:3')).toBe(true);
    // Markdown emphasis around an id, or around the line that cites it.
    expect(idPrinted('cited in _D1:3_ and **D1:4**', 'D1:3')).toBe(true);
    expect(idPrinted('cited in _D1:3_ and **D1:4**', 'D1:4')).toBe(true);
    expect(idPrinted('_(as of 2025-01-06; evidence D1:3)_', 'D1:3')).toBe(true);
    expect(idPrinted('`D1:3`', 'D1:3')).toBe(true);
  });

  it('does not find an id inside a longer one', () => {
    expect(idPrinted('evidence D1:30, D1:31', 'D1:3')).toBe(false);
    expect(idPrinted('(D11:3)', 'D1:3')).toBe(false);
    expect(idPrinted('(XD1:3)', 'D1:3')).toBe(false);
    expect(idPrinted('(D1:3#2)', 'D1:3')).toBe(false);
    expect(idPrinted('(D1:3.5)', 'D1:3')).toBe(false);
    expect(idPrinted('(D1:3-b)', 'D1:3')).toBe(false);
    expect(idPrinted('(msg-17)', 'msg-1')).toBe(false);
    expect(idPrinted('(D1:3_2)', 'D1:3')).toBe(false);
    expect(idPrinted('(evt_D1:3)', 'D1:3')).toBe(false);
    expect(idPrinted('(D1:3__x)', 'D1:3')).toBe(false);
    // Ids are case-sensitive, as the event ids they are.
    expect(idPrinted('(d1:3)', 'D1:3')).toBe(false);
    expect(idPrinted('anything', '')).toBe(false);
  });

  it('finds a later whole occurrence after an embedded one', () => {
    expect(idPrinted('D1:30 and then D1:3', 'D1:3')).toBe(true);
    expect(idPrinted('(D2:3#2) and (D2:3)', 'D2:3')).toBe(true);
    expect(idPrinted('(D2:3#2)', 'D2:3#2')).toBe(true);
  });

  it('is the share of evidence ids printed, whatever the context claims to cover', () => {
    const text = '- week 2025-W02: hiking, a job change and a move _(summary time:2:20094)_\n- Sam works at Hooli _(evidence D1:30, D2:4)_';
    expect([...printedIds(text, ['D1:3', 'D2:4', 'D1:30'])]).toEqual(['D2:4', 'D1:30']);
    expect(strictRecall(['D1:3', 'D2:4'], text)).toBe(0.5);
    expect(strictRecall([], text)).toBe(0);
  });

  it('scores a context strictly from its text and expanded from what it traces to', () => {
    const question = { question: 'Where does Sam work?', answer: 'Hooli', evidence: ['D1:3', 'D2:4'], category: 'single-hop', stale: [] };
    // A summary that covers both turns traces to them, but prints neither id.
    const score = scoreContext(question, new Set(['D1:3', 'D2:4']), '- week: Sam joined Hooli _(summary time:2:1)_', 12, '2025-01-10T00:00:00Z');
    expect(score).toMatchObject({ recall: 1, hit: true, strictRecall: 0, strictHit: false, contained: true });
    const cited = scoreContext(question, new Set(['D2:4']), '- Sam works at Hooli _(evidence D2:4)_', 12, '2025-01-10T00:00:00Z');
    expect(cited).toMatchObject({ recall: 0.5, strictRecall: 0.5, strictHit: true });
  });

  it("counts an id as grounded only when at least half of its turn's content words are printed beside it", () => {
    const turns = new Map([
      ['D3:2', 'I finally went to the LGBTQ support group on Tuesday evening.'],
      ['D3:6', 'Melanie signed up for a pottery class at the community centre.'],
      ['D4:1', 'We adopted a grey rescue cat called Pixel from the shelter.'],
    ]);
    const block = [
      '2023-05-08:',
      '- D3:2 Caroline: I finally went to the LGBTQ support group on Tuesday evening.',
      '- [day 2023-05-09] [D3:6] Melanie signed up … [D4:1] We adopted a grey rescue cat called Pixel from the shelter.',
    ].join('\n');
    // A summary's run gives each id the words up to the next id.
    expect(wordsBeside(block, 'D3:6')).toBe('Melanie signed up …');
    expect(groundedRecall(['D3:2', 'D4:1'], block, (id) => turns.get(id))).toBe(1);
    // D3:6 is printed, but with too little of what it said; an id not printed is never grounded.
    expect(groundedRecall(['D3:6'], block, (id) => turns.get(id))).toBe(0);
    expect(strictRecall(['D3:6'], block)).toBe(1);
    expect(groundedRecall(['D9:9'], block, (id) => turns.get(id))).toBe(0);
    // An id printed at the end of its line (a baseline's `… (D4:1)`) has the whole line.
    expect(groundedRecall(['D4:1'], '- [2023-05-09 10:00] Sam: We adopted a grey rescue cat called Pixel from the shelter. (D4:1)', (id) => turns.get(id))).toBe(1);
  });
});
