import { describe, expect, it } from 'vitest';
import { EMPTY_CURSOR, advanceCursor, sweepCursor } from '../../functions/domain/summary-cursor.js';
import { dayNumber } from '../../functions/domain/ladders.js';

const options = { timeZone: 'UTC', idleGapMs: 30 * 60_000 };
const at = (iso: string, sequence: number, interactionId?: string) => ({ sequence, timestamp: iso, ...(interactionId ? { interactionId } : {}) });
const day = (iso: string) => dayNumber(`${iso}T12:00:00Z`);

describe('advanceCursor', () => {
  it('marks the days of the first week before the first record as one empty run, so that week completes', () => {
    // 2026-12-02 is a Wednesday: Monday and Tuesday are empty.
    const { closed } = advanceCursor(EMPTY_CURSOR, [at('2026-12-02T09:00:00Z', 1)], options);

    expect(closed).toEqual([{ ladder: 'time', index: day('2026-11-30'), last: day('2026-12-01') }]);
  });

  it('closes nothing before a first record on a Monday', () => {
    expect(advanceCursor(EMPTY_CURSOR, [at('2026-11-30T09:00:00Z', 1)], options).closed).toEqual([]);
  });

  it('closes a day when a record falls outside it, and marks silent days between as empty', () => {
    const first = advanceCursor(EMPTY_CURSOR, [at('2026-11-30T09:00:00Z', 1), at('2026-11-30T10:00:00Z', 2)], options);

    const { closed } = advanceCursor(first.cursor, [at('2026-12-03T09:00:00Z', 3)], options);

    expect(closed.filter((c) => c.ladder === 'time')).toEqual([
      { ladder: 'time', index: day('2026-11-30'), range: { fromSequence: 1, toSequence: 2 } },
      { ladder: 'time', index: day('2026-12-01'), last: day('2026-12-02') },
    ]);
  });

  it('closes years of silence as one run, and a next-day record as none', () => {
    const first = advanceCursor(EMPTY_CURSOR, [at('2023-11-27T09:00:00Z', 1)], options);

    const years = advanceCursor(first.cursor, [at('2026-11-30T09:00:00Z', 2)], options);
    const nextDay = advanceCursor(years.cursor, [at('2026-12-01T09:00:00Z', 3)], options);

    expect(years.closed.filter((c) => c.ladder === 'time')).toEqual([
      { ladder: 'time', index: day('2023-11-27'), range: { fromSequence: 1, toSequence: 1 } },
      { ladder: 'time', index: day('2023-11-28'), last: day('2026-11-29') },
    ]);
    expect(nextDay.closed.filter((c) => c.ladder === 'time')).toEqual([{ ladder: 'time', index: day('2026-11-30'), range: { fromSequence: 2, toSequence: 2 } }]);
  });

  it('numbers interactions by interactionId, and by idle gaps when there is none', () => {
    const records = [
      at('2026-11-30T09:00:00Z', 1, 'call-1'),
      at('2026-11-30T09:05:00Z', 2, 'call-1'),
      at('2026-11-30T09:06:00Z', 3, 'call-2'),
      at('2026-11-30T09:07:00Z', 4),
      at('2026-11-30T09:20:00Z', 5),
      at('2026-11-30T11:00:00Z', 6),
    ];

    const { cursor, closed } = advanceCursor(EMPTY_CURSOR, records, options);

    expect(closed.filter((c) => c.ladder === 'count')).toEqual([
      { ladder: 'count', index: 1, range: { fromSequence: 1, toSequence: 2 } },
      { ladder: 'count', index: 2, range: { fromSequence: 3, toSequence: 3 } },
      { ladder: 'count', index: 3, range: { fromSequence: 4, toSequence: 5 } },
    ]);
    expect(cursor).toMatchObject({ interaction: 4, interactionFrom: 6 });
  });

  it('ignores records it has already placed (redelivered batches)', () => {
    const first = advanceCursor(EMPTY_CURSOR, [at('2026-11-30T09:00:00Z', 1), at('2026-11-30T09:01:00Z', 2)], options);

    const again = advanceCursor(first.cursor, [at('2026-11-30T09:00:00Z', 1), at('2026-11-30T09:01:00Z', 2)], options);

    expect(again).toEqual({ cursor: first.cursor, closed: [] });
  });

  it('counts a late record (earlier timestamp) into the open day', () => {
    const first = advanceCursor(EMPTY_CURSOR, [at('2026-12-01T09:00:00Z', 1)], options);

    const late = advanceCursor(first.cursor, [at('2026-11-29T09:00:00Z', 2)], options);

    expect(late.closed).toEqual([]);
    expect(late.cursor.day).toBe(day('2026-12-01'));
  });
});

describe('sweepCursor', () => {
  it('closes the ended day, marks silent days through yesterday empty, and closes an idle interaction', () => {
    const { cursor } = advanceCursor(EMPTY_CURSOR, [at('2026-11-30T09:00:00Z', 1)], options);

    const swept = sweepCursor(cursor, '2026-12-03T08:00:00Z', options);

    expect(swept.closed).toEqual([
      { ladder: 'time', index: day('2026-11-30'), range: { fromSequence: 1, toSequence: 1 } },
      { ladder: 'time', index: day('2026-12-01'), last: day('2026-12-02') },
      { ladder: 'count', index: 1, range: { fromSequence: 1, toSequence: 1 } },
    ]);
    expect(swept.cursor.day).toBe(day('2026-12-03'));
    expect(sweepCursor(swept.cursor, '2026-12-03T20:00:00Z', options).closed).toEqual([]);
  });

  it('closes the silent open day and every silent day since as one run, however long ago the last sweep was', () => {
    const { cursor } = advanceCursor(EMPTY_CURSOR, [at('2023-11-27T09:00:00Z', 1)], options);
    const once = sweepCursor(cursor, '2023-11-29T08:00:00Z', options);

    const years = sweepCursor(once.cursor, '2026-11-30T08:00:00Z', options);

    expect(years.closed).toEqual([{ ladder: 'time', index: day('2023-11-29'), last: day('2026-11-29') }]);
    expect(years.cursor.day).toBe(day('2026-11-30'));
  });

  it('leaves the open day and a recent interaction alone', () => {
    const { cursor } = advanceCursor(EMPTY_CURSOR, [at('2026-11-30T09:00:00Z', 1)], options);

    expect(sweepCursor(cursor, '2026-11-30T09:10:00Z', options).closed).toEqual([]);
  });
});
