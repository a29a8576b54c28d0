import { describe, expect, it } from 'vitest';
import { DEFAULT_LADDERS as config, baseRange, childIndices, coveredRange, coveredRunRange, dayNumber, dayToIso, parentIndex, splitEmptyRun, summaryId, parseSummaryId, topLevel, type Ladder } from '../../functions/domain/ladders.js';

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

describe('empty runs', () => {
  const monday = dayNumber('2026-11-30T00:00:00Z');

  it('splits a run inside one parent into that parent’s edge only', () => {
    expect(splitEmptyRun(config, 'time', 0, monday + 1, monday + 3)).toEqual({ edges: [{ parent: parentIndex(config, 'time', 0, monday), children: [monday + 1, monday + 2, monday + 3] }] });
  });

  it('records the parents a run wholly covers as one range, and at most two edges', () => {
    // Wednesday to the Tuesday three weeks later: two whole weeks between two partial ones.
    const week = parentIndex(config, 'time', 0, monday);
    const split = splitEmptyRun(config, 'time', 0, monday + 2, monday + 22);

    expect(split.whole).toEqual({ first: week + 1, last: week + 2 });
    expect(split.edges).toEqual([
      { parent: week, children: [2, 3, 4, 5, 6].map((d) => monday + d) },
      { parent: week + 3, children: [monday + 21, monday + 22] },
    ]);
  });

  it('has no edges when the run is aligned with its parents, and respects the origin above the week', () => {
    const week = parentIndex(config, 'time', 0, monday);
    expect(splitEmptyRun(config, 'time', 0, monday, monday + 13)).toEqual({ whole: { first: week, last: week + 1 }, edges: [] });
    const origin = 2865;
    expect(splitEmptyRun(config, 'time', 1, origin + 1, origin + 11, origin)).toEqual({ whole: { first: 1, last: 2 }, edges: [{ parent: 0, children: [origin + 1, origin + 2, origin + 3] }] });
  });

  it('covers exactly the run’s periods with its edges and whole parents, at every level of both ladders', () => {
    const ladders: Ladder[] = ['time', 'count'];
    for (const ladder of ladders) {
      for (let level = 0; level < topLevel(config, ladder); level += 1) {
        for (const [first, last] of [[1, 1], [5, 40], [17, 17 + 1100], [300, 301]] as const) {
          const { whole, edges } = splitEmptyRun(config, ladder, level, first, last, 7);
          const covered = edges.flatMap((edge) => edge.children);
          if (whole) for (let parent = whole.first; parent <= whole.last; parent += 1) covered.push(...childIndices(config, ladder, level + 1, parent, 7));
          expect(covered.sort((a, b) => a - b), `${ladder} ${level} ${first}..${last}`).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
          expect(edges.length).toBeLessThanOrEqual(2);
          for (const edge of edges) expect(edge.children.length).toBeLessThan(config.fanIns[ladder][level]!);
        }
      }
    }
  });

  it('reports a run’s range from its first period’s start to its last period’s end', () => {
    expect(coveredRunRange(config, 'time', 0, monday, monday + 1094)).toEqual({ from: '2026-11-30', to: dayToIso(monday + 1094) });
    expect(coveredRunRange(config, 'count', 1, 2, 4)).toEqual({ from: '21', to: '50' });
  });
});
