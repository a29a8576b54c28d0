import { describe, expect, it } from 'vitest';
import { DEFAULT_LADDERS as config, baseRange, childIndices, coveredRange, dayNumber, dayToIso, parentIndex, summaryId, parseSummaryId } from '../../functions/domain/ladders.js';

describe('time ladder', () => {
  it('groups days into Monday-aligned weeks', () => {
    const monday = dayNumber('2026-11-30T10:00:00Z');
    const sunday = dayNumber('2026-12-06T23:00:00Z');

    expect(parentIndex(config, 'time', 0, monday)).toBe(parentIndex(config, 'time', 0, sunday));
    expect(parentIndex(config, 'time', 0, monday - 1)).toBe(parentIndex(config, 'time', 0, monday) - 1);
    expect(coveredRange(config, 'time', 1, parentIndex(config, 'time', 0, monday))).toEqual({ from: '2026-11-30', to: '2026-12-06' });
  });

  it('lists a parent’s children as the contiguous run whose parent it is', () => {
    for (let level = 1; level <= 4; level += 1) {
      for (const parent of [0, 7, 1234]) {
        const children = childIndices(config, 'time', level, parent);
        expect(children).toHaveLength(config.fanIns.time[level - 1]!);
        for (const child of children) expect(parentIndex(config, 'time', level - 1, child)).toBe(parent);
      }
    }
  });

  it('covers 7, 28, 84 and 336 days at the levels above the day', () => {
    const sizes = [1, 2, 3, 4].map((level) => {
      const { first, last } = baseRange(config, 'time', level, 100);
      return last - first + 1;
    });

    expect(sizes).toEqual([7, 28, 84, 336]);
  });

  it('counts 4-week blocks from the agent’s first week, so its first blocks complete', () => {
    const origin = 2865; // a week in the middle of a calendar-aligned 4-week block
    expect(childIndices(config, 'time', 2, 0, origin)).toEqual([2865, 2866, 2867, 2868]);
    expect(parentIndex(config, 'time', 1, 2868, origin)).toBe(0);
    expect(parentIndex(config, 'time', 1, 2869, origin)).toBe(1);
    expect(coveredRange(config, 'time', 2, 0, origin).from).toBe(coveredRange(config, 'time', 1, origin).from);
  });

  it('places a day by the agent’s time zone', () => {
    expect(dayToIso(dayNumber('2026-11-30T23:30:00Z'))).toBe('2026-11-30');
    expect(dayToIso(dayNumber('2026-11-30T23:30:00Z', 'Europe/Berlin'))).toBe('2026-12-01');
  });
});

describe('count ladder', () => {
  it('groups interactions 1-10, 11-20 and so on', () => {
    expect(parentIndex(config, 'count', 0, 1)).toBe(0);
    expect(parentIndex(config, 'count', 0, 10)).toBe(0);
    expect(parentIndex(config, 'count', 0, 11)).toBe(1);
    expect(childIndices(config, 'count', 1, 1)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('reports the exact interactions covered at every level (the top covers 480)', () => {
    expect(coveredRange(config, 'count', 2, 0)).toEqual({ from: '1', to: '40' });
    expect(coveredRange(config, 'count', 3, 1)).toEqual({ from: '121', to: '240' });
    expect(coveredRange(config, 'count', 4, 0)).toEqual({ from: '1', to: '480' });
  });
});

describe('summary ids', () => {
  it('round-trips ladder, level and index', () => {
    expect(parseSummaryId(summaryId('count', 2, 17))).toEqual({ ladder: 'count', level: 2, index: 17 });
  });
});
