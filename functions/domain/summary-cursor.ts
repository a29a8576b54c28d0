/**
 * Where an agent's base summaries stand: the open day and the open
 * interaction. Records (in sequence order, after consolidation) advance it; a
 * record outside the open day or interaction closes it. The sweep closes them
 * for agents that went quiet. Closed periods become base summaries; a stretch
 * of days with no records becomes one empty run (`index`..`last`), however
 * long, so weeks still complete and silence costs one item. Pure.
 */
import { childIndices, dayNumber, parentIndex, DEFAULT_LADDERS, type LadderConfig } from './ladders.js';

export interface SummaryCursor {
  /** The agent's first week index: levels above the week are counted from it. */
  readonly originWeek?: number;
  /** Highest sequence number already placed. */
  readonly lastSequence: number;
  readonly lastActivityAt?: string;
  /** The open day, and its first sequence number (absent while it has no records). */
  readonly day?: number;
  readonly dayFrom?: number;
  /** Number of the last interaction started (0 before the first). */
  readonly interaction: number;
  /** First sequence number of the open interaction (absent when none is open). */
  readonly interactionFrom?: number;
  readonly interactionKey?: string;
  /**
   * Base periods closed since the ladders were last checked, and when to
   * check them: by then the stream should have built every parent they
   * complete (see `repairLadders`).
   */
  readonly ladderCheck?: LadderCheck;
}

/** Per ladder, the first and last base period closed since the last check (inclusive). */
export interface LadderCheck {
  readonly at: string;
  readonly time?: readonly [number, number];
  readonly count?: readonly [number, number];
}

export const EMPTY_CURSOR: SummaryCursor = { lastSequence: 0, interaction: 0 };

/**
 * A base period that closed: records fromSequence..toSequence; or, with no
 * range, an empty run of silent days `index` to `last` (inclusive).
 */
export interface ClosedPeriod {
  readonly ladder: 'time' | 'count';
  readonly index: number;
  readonly range?: { readonly fromSequence: number; readonly toSequence: number };
  /** Empty runs only: the last silent period of the run (equal to `index` for a single day). */
  readonly last?: number;
}

export interface CursorOptions {
  readonly timeZone: string;
  /** Records with no interactionId further apart than this start a new interaction. */
  readonly idleGapMs: number;
  readonly ladders?: LadderConfig;
  /** How long after a period closes the ladders above it are checked for parents the stream lost. @default 30 minutes */
  readonly ladderCheckAfterMs?: number;
}

export const DEFAULT_LADDER_CHECK_AFTER_MS = 30 * 60_000;

/** The instant `ms` of the ladder check's delay away from `at` (ISO), after it by default, before it with `sign` -1. */
export function ladderCheckDelayFrom(at: string | number, options: CursorOptions, sign: 1 | -1 = 1): string {
  return new Date(new Date(at).getTime() + sign * (options.ladderCheckAfterMs ?? DEFAULT_LADDER_CHECK_AFTER_MS)).toISOString();
}

export interface PlacedRecord {
  readonly sequence: number;
  readonly timestamp: string;
  readonly interactionId?: string;
}

export function advanceCursor(cursor: SummaryCursor, records: readonly PlacedRecord[], options: CursorOptions): { cursor: SummaryCursor; closed: ClosedPeriod[] } {
  const closed: ClosedPeriod[] = [];
  let next: { -readonly [K in keyof SummaryCursor]: SummaryCursor[K] } = { ...cursor };
  for (const record of records) {
    if (record.sequence <= next.lastSequence) continue;
    const day = Math.max(dayNumber(record.timestamp, options.timeZone), next.day ?? Number.NEGATIVE_INFINITY);
    if (next.day === undefined) {
      // The first week completes too: the days before the agent's first record are empty.
      const ladders = options.ladders ?? DEFAULT_LADDERS;
      next.originWeek = parentIndex(ladders, 'time', 0, day);
      const weekStart = childIndices(ladders, 'time', 1, next.originWeek)[0]!;
      if (weekStart < day) closed.push(emptyRun(weekStart, day - 1));
    } else if (day > next.day) {
      closed.push(...closeDays(next, day));
    }
    if (next.day !== day || next.dayFrom === undefined) {
      next.day = day;
      next.dayFrom = record.sequence;
    }

    const key = record.interactionId !== undefined ? `id:${record.interactionId}` : 'gap';
    const gap = next.lastActivityAt ? Date.parse(record.timestamp) - Date.parse(next.lastActivityAt) : 0;
    const starts = next.interactionFrom === undefined || key !== next.interactionKey || (key === 'gap' && gap > options.idleGapMs);
    if (starts) {
      if (next.interactionFrom !== undefined) closed.push({ ladder: 'count', index: next.interaction, range: { fromSequence: next.interactionFrom, toSequence: next.lastSequence } });
      next.interaction += 1;
      next.interactionFrom = record.sequence;
      next.interactionKey = key;
    }
    next.lastSequence = record.sequence;
    next.lastActivityAt = record.timestamp;
  }
  return { cursor: next, closed };
}

const emptyRun = (first: number, last: number): ClosedPeriod => ({ ladder: 'time', index: first, last });

/**
 * Closes the open day and marks the days up to (not including) `until` as
 * empty: one run for the whole silent stretch (the open day included when it
 * has no records), whatever its length.
 */
function closeDays(cursor: { day?: number; dayFrom?: number; lastSequence: number }, until: number): ClosedPeriod[] {
  const closed: ClosedPeriod[] = [];
  if (cursor.day === undefined) return closed;
  if (cursor.dayFrom === undefined) return [emptyRun(cursor.day, until - 1)];
  closed.push({ ladder: 'time', index: cursor.day, range: { fromSequence: cursor.dayFrom, toSequence: cursor.lastSequence } });
  if (cursor.day + 1 < until) closed.push(emptyRun(cursor.day + 1, until - 1));
  return closed;
}

/**
 * The sweep, for agents that went quiet: closes the open day once it has
 * ended (marking the silent days since as empty, through yesterday) and the
 * open interaction once the idle gap has passed.
 */
export function sweepCursor(cursor: SummaryCursor, now: string, options: CursorOptions): { cursor: SummaryCursor; closed: ClosedPeriod[] } {
  const closed: ClosedPeriod[] = [];
  const next: { -readonly [K in keyof SummaryCursor]: SummaryCursor[K] } = { ...cursor };
  const today = dayNumber(now, options.timeZone);
  if (next.day !== undefined && today > next.day) {
    closed.push(...closeDays(next, today));
    next.day = today;
    delete next.dayFrom;
  }
  if (next.interactionFrom !== undefined && next.lastActivityAt && Date.parse(now) - Date.parse(next.lastActivityAt) > options.idleGapMs) {
    closed.push({ ladder: 'count', index: next.interaction, range: { fromSequence: next.interactionFrom, toSequence: next.lastSequence } });
    delete next.interactionFrom;
    delete next.interactionKey;
  }
  return { cursor: next, closed };
}

/** When a sweep could next close something for this cursor (for the sweep index). */
export function nextSweepAt(cursor: SummaryCursor, options: CursorOptions): string | undefined {
  const candidates: number[] = [];
  if (cursor.day !== undefined) candidates.push((cursor.day + 1) * 86_400_000 + offsetMs(options.timeZone));
  if (cursor.interactionFrom !== undefined && cursor.lastActivityAt) candidates.push(Date.parse(cursor.lastActivityAt) + options.idleGapMs + 1);
  if (cursor.ladderCheck) candidates.push(Date.parse(cursor.ladderCheck.at));
  return candidates.length ? new Date(Math.min(...candidates)).toISOString() : undefined;
}

/** A conservative bound on how far a time zone's midnight is from UTC's (sweeps may run a little early and find nothing). */
function offsetMs(timeZone: string): number {
  return timeZone === 'UTC' ? 0 : -14 * 3_600_000;
}

/**
 * Notes the periods just closed for a later ladder check. A check already
 * pending keeps its time, so an agent that keeps closing periods is still
 * checked; it then covers these periods too.
 */
export function noteClosed(cursor: SummaryCursor, closed: readonly ClosedPeriod[], now: string, options: CursorOptions): SummaryCursor {
  if (closed.length === 0) return cursor;
  const at = cursor.ladderCheck?.at ?? ladderCheckDelayFrom(now, options);
  const check: { at: string; time?: readonly [number, number]; count?: readonly [number, number] } = { ...cursor.ladderCheck, at };
  for (const period of closed) {
    const held = check[period.ladder];
    const last = Math.max(period.index, period.last ?? period.index);
    check[period.ladder] = held ? [Math.min(held[0], period.index), Math.max(held[1], last)] : [period.index, last];
  }
  return { ...cursor, ladderCheck: check };
}

/** The check is due at `now`. */
export function ladderCheckDue(cursor: SummaryCursor | undefined, now: string): LadderCheck | undefined {
  const check = cursor?.ladderCheck;
  return check && Date.parse(check.at) <= Date.parse(now) ? check : undefined;
}

/**
 * Drops a check once it was carried out. Periods closed while it ran (always
 * later ones: the cursor closes them in order) stay, from the one after the
 * last it covered, checked at `next`.
 */
export function clearLadderCheck(cursor: SummaryCursor, done: LadderCheck, next: string): SummaryCursor {
  const { ladderCheck: current, ...rest } = cursor;
  if (!current || JSON.stringify(current) === JSON.stringify(done)) return rest;
  const left: { at: string; time?: readonly [number, number]; count?: readonly [number, number] } = { at: next };
  for (const ladder of ['time', 'count'] as const) {
    const now = current[ladder];
    const checked = done[ladder];
    if (now && (!checked || now[1] > checked[1])) left[ladder] = checked ? [checked[1] + 1, now[1]] : now;
  }
  return left.time || left.count ? { ...rest, ladderCheck: left } : rest;
}
