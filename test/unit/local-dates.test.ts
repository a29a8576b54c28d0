import { describe, expect, it } from 'vitest';
import { anchorRelativeDates } from '../../functions/adapters/models/local/text.js';
import { summariseExtractively } from '../../functions/adapters/models/local/summaries.js';

// A Wednesday.
const at = '2025-01-15T10:00:00Z';

describe('relative dates', () => {
  it('are anchored with the date they mean, backwards for the past and forwards for the future', () => {
    expect(anchorRelativeDates('Yesterday I went hiking in the hills.', at)).toBe('Yesterday (2025-01-14) I went hiking in the hills.');
    expect(anchorRelativeDates('Two days ago I ran a half marathon.', at)).toBe('Two days ago (2025-01-13) I ran a half marathon.');
    expect(anchorRelativeDates('Last Wednesday I saw a jazz concert.', at)).toBe('Last Wednesday (2025-01-08) I saw a jazz concert.');
    expect(anchorRelativeDates('I sold a bowl 3 weeks ago.', at)).toBe('I sold a bowl 3 weeks ago (2024-12-25).');
    expect(anchorRelativeDates('Remind me to pay the bill by Friday.', at)).toBe('Remind me to pay the bill by Friday (2025-01-17).');
    expect(anchorRelativeDates('I will call her tomorrow.', at)).toBe('I will call her tomorrow (2025-01-16).');
    // A year or a month said is anchored as one, not as a day nobody named.
    expect(anchorRelativeDates('We did christmas in leeds last year!', at)).toBe('We did christmas in leeds last year (2024)!');
    expect(anchorRelativeDates('She moved to Porto two months ago.', at)).toBe('She moved to Porto two months ago (2024-11).');
    expect(anchorRelativeDates('The lease ends next month.', at)).toBe('The lease ends next month (2025-02).');
  });

  it('leave sentences without a relative date, or with an ambiguous one, alone', () => {
    for (const sentence of ['My office is on floor 5.', 'On Saturday I went sailing.', 'I was born on 3 May 1990.', 'Today is busy.']) {
      expect(anchorRelativeDates(sentence, at)).toBe(sentence);
    }
  });

  it('are anchored in summaries of raw records, and kept as written (with the record each line cites) in summaries of summaries', () => {
    const base = summariseExtractively({ ladder: 'time', level: 0, from: '2025-01-15', to: '2025-01-15', maxTokens: 200, sources: [{ id: 'D1:1', at, text: 'Yesterday I ran a half marathon with Marco.', role: 'user' }] });
    expect(base.text).toBe('2025-01-15 [D1:1]: Yesterday (2025-01-14) I ran a half marathon with Marco.');
    const week = summariseExtractively({ ladder: 'time', level: 1, from: '2025-01-13', to: '2025-01-19', maxTokens: 200, sources: [{ id: 'time:0:1', at: '2025-01-16T00:00:00Z', text: base.text }] });
    expect(week.text).toBe(base.text);
  });
});
