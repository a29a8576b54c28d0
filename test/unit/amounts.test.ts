import { describe, expect, it } from 'vitest';
import { withFigures } from '../../functions/domain/amounts.js';
import { recordUnit } from '../../functions/domain/index-units.js';

describe('amounts of money said in words', () => {
  it('get their figure beside them, pence and thousands included', () => {
    expect(withFigures('He worked it out at six hundred and forty pounds. I have four hundred.')).toBe('He worked it out at six hundred and forty pounds (£640). I have four hundred.');
    expect(withFigures("It's thirteen pounds twenty an hour, and five days.")).toBe("It's thirteen pounds twenty (£13.20) an hour, and five days.");
    expect(withFigures('a hundred and twenty quid each')).toBe('a hundred and twenty quid (£120) each');
    expect(withFigures('she is on forty grand a year')).toBe('she is on forty grand (£40,000) a year');
    expect(withFigures('they want 80 quid deposit, cash')).toBe('they want 80 quid (£80) deposit, cash');
    expect(withFigures('it was twenty-five dollars, tops')).toBe('it was twenty-five dollars ($25), tops');
    expect(withFigures('fifty euros per night')).toBe('fifty euros (€50) per night');
    expect(withFigures('five pounds fifty pence for parking')).toBe('five pounds fifty pence (£5.50) for parking');
  });

  it('leave weights, bare numbers, figures already given and vague amounts alone', () => {
    for (const sentence of [
      'Seven pounds nine ounces, and three days late.',
      'a little girl, seven pounds and two ounces.',
      'I lost two pounds this week.',
      'a pound of flour and two pounds of sugar',
      'thousands of pounds wasted',
      "that's a grand total of nothing",
      'eleven forty-four an hour',
      'costs 1,200 euros',
      'it cost £12 (twelve pounds) in the end',
      'a few quid',
    ]) {
      expect(withFigures(sentence)).toBe(sentence);
    }
  });

  it('are read in a record line, beside its dates', () => {
    const unit = recordUnit({ id: 'r1', sequence: 1, timestamp: '2025-01-15T10:00:00Z', type: 'message', role: 'user', content: 'Ray charged us three hundred and ten pounds for the beech on Monday.' } as never);
    expect(unit.text).toBe('Ray charged us three hundred and ten pounds (£310) for the beech on Monday (2025-01-13).');
  });

  it('take time in proportion to the text', () => {
    const timed = (text: string) => {
      const started = performance.now();
      withFigures(text);
      return performance.now() - started;
    };
    for (const piece of ['forty pounds ', 'and and and pounds ', 'hundred hundred quid ', '1,000,000,000 grand ']) {
      const of = (size: number) => piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
      const [small, large] = [of(8_192), of(65_536)];
      // The two sizes timed in turn, the best of seven each: a busy moment on a loaded CI worker slows both, not one
      // (timed one after the other, four times the text once took 11.7 times as long, and eight times 29.6).
      let bestSmall = Infinity;
      let bestLarge = Infinity;
      for (let round = 0; round < 7; round += 1) {
        bestSmall = Math.min(bestSmall, timed(small));
        bestLarge = Math.min(bestLarge, timed(large));
      }
      // Eight times the text: linear is about 8 times the time, quadratic 64.
      expect(bestLarge / Math.max(bestSmall, 1)).toBeLessThan(24);
    }
  });
});
