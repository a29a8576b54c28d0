/**
 * Ladder arithmetic, with no I/O. Two ladders: by time (day, week, 4 weeks,
 * 12 weeks, 52 weeks) and by interaction count (1, 10, 40, 120, 520). Level 0
 * is written from raw records; every level above from a fixed number of
 * summaries of the level below (its fan-in). Periods are indexed so that a
 * parent's children are a contiguous run of indices:
 *
 * - time, level 0: the day number (days since 1970-01-01 in the agent's time
 *   zone); level 1: Monday-aligned weeks; level 2 groups weeks counted from
 *   the agent's first week (its origin), so an agent's first 4-, 12- and
 *   52-week summaries complete however mid-block it started; higher levels
 *   group the level below.
 * - count, level 0: the interaction number (1-based); higher levels group.
 *
 * The top fan-ins follow the design literally (4 x 12 weeks is 48 weeks, 4 x
 * 120 interactions is 480): every summary reports its exact covered range.
 */

export type Ladder = 'time' | 'count';
export const LADDERS: readonly Ladder[] = ['time', 'count'];

export interface LadderConfig {
  /** Children per parent, for levels 1 and up (index 0 is level 1's fan-in). */
  readonly fanIns: Readonly<Record<Ladder, readonly number[]>>;
  /** Longest summary, in tokens, per level (index = level). */
  readonly maxTokens: readonly number[];
  /**
   * Sources of at most this many tokens (per level) are their own summary,
   * written without a model call. @default the level's `maxTokens`: a summary
   * is never asked for when what it would summarise already fits it.
   */
  readonly verbatimTokens?: readonly number[];
}

export const DEFAULT_LADDERS: LadderConfig = {
  fanIns: { time: [7, 4, 3, 4], count: [10, 4, 3, 4] },
  maxTokens: [160, 240, 320, 320, 320],
};

export const LEVEL_NAMES: Readonly<Record<Ladder, readonly string[]>> = {
  time: ['day', 'week', '4 weeks', '12 weeks', '52 weeks'],
  count: ['interaction', '10 interactions', '40 interactions', '120 interactions', '520 interactions'],
};

/** 1970-01-01 was a Thursday; shifting by 3 makes weeks start on Monday. */
const WEEK_OFFSET = 3;
const DAY_MS = 86_400_000;

export function topLevel(config: LadderConfig, ladder: Ladder): number {
  return config.fanIns[ladder].length;
}

/**
 * The parent's index of a period at `level` (which must be below the top).
 * `origin` is the agent's first week index (time ladder; ignored otherwise).
 */
export function parentIndex(config: LadderConfig, ladder: Ladder, level: number, index: number, origin = 0): number {
  const fanIn = config.fanIns[ladder][level]!;
  if (ladder === 'time' && level === 0) return Math.floor((index + WEEK_OFFSET) / fanIn);
  if (ladder === 'time' && level === 1) return Math.floor((index - origin) / fanIn);
  if (ladder === 'count' && level === 0) return Math.floor((index - 1) / fanIn);
  return Math.floor(index / fanIn);
}

/** The indices of a parent's children, in order. */
export function childIndices(config: LadderConfig, ladder: Ladder, parentLevel: number, parent: number, origin = 0): number[] {
  const fanIn = config.fanIns[ladder][parentLevel - 1]!;
  const first =
    ladder === 'time' && parentLevel === 1
      ? parent * fanIn - WEEK_OFFSET
      : ladder === 'time' && parentLevel === 2
        ? origin + parent * fanIn
        : ladder === 'count' && parentLevel === 1
          ? parent * fanIn + 1
          : parent * fanIn;
  return Array.from({ length: fanIn }, (_, i) => first + i);
}

/** The base periods (days or interactions) a summary at (level, index) covers. */
export function baseRange(config: LadderConfig, ladder: Ladder, level: number, index: number, origin = 0): { first: number; last: number } {
  let first = index;
  let last = index;
  for (let k = level; k > 0; k -= 1) {
    first = childIndices(config, ladder, k, first, origin)[0]!;
    last = childIndices(config, ladder, k, last, origin).at(-1)!;
  }
  return { first, last };
}

/** The covered range as reported: ISO dates for the time ladder, interaction numbers for the count ladder. */
export function coveredRange(config: LadderConfig, ladder: Ladder, level: number, index: number, origin = 0): { from: string; to: string } {
  const { first, last } = baseRange(config, ladder, level, index, origin);
  return ladder === 'time' ? { from: dayToIso(first), to: dayToIso(last) } : { from: String(first), to: String(last) };
}

/**
 * The range reported for an empty run: periods `first` to `last` at `level`,
 * all silent, stored as one item (see `splitEmptyRun`).
 */
export function coveredRunRange(config: LadderConfig, ladder: Ladder, level: number, first: number, last: number, origin = 0): { from: string; to: string } {
  const from = coveredRange(config, ladder, level, first, origin).from;
  const to = coveredRange(config, ladder, level, last, origin).to;
  return { from, to };
}

/**
 * Where an empty run (periods `first`..`last` at `level`, below the top) lands
 * one level up:
 * - `whole`: the parents whose children all lie inside the run, a contiguous
 *   range (absent when there is none). They are as silent as the run, and are
 *   recorded together as one run at the level above.
 * - `edges`: at most two parents only partly inside the run, each with the
 *   run's periods among its children. Those register with the parent's slot
 *   like any other child, and the parent is written once its fan-in is complete.
 * The cost of a run is therefore bounded by the number of levels, whatever its length.
 */
export function splitEmptyRun(
  config: LadderConfig,
  ladder: Ladder,
  level: number,
  first: number,
  last: number,
  origin = 0,
): { whole?: { first: number; last: number }; edges: { parent: number; children: number[] }[] } {
  if (last < first) throw new RangeError(`empty run ${first}..${last} is reversed`);
  const firstParent = parentIndex(config, ladder, level, first, origin);
  const lastParent = parentIndex(config, ladder, level, last, origin);
  const inside = (parent: number) => {
    const children = childIndices(config, ladder, level + 1, parent, origin);
    return children[0]! >= first && children.at(-1)! <= last;
  };
  const edges = [...new Set([firstParent, lastParent])]
    .filter((parent) => !inside(parent))
    .map((parent) => ({ parent, children: childIndices(config, ladder, level + 1, parent, origin).filter((child) => child >= first && child <= last) }));
  const wholeFirst = inside(firstParent) ? firstParent : firstParent + 1;
  const wholeLast = inside(lastParent) ? lastParent : lastParent - 1;
  return { ...(wholeFirst <= wholeLast ? { whole: { first: wholeFirst, last: wholeLast } } : {}), edges };
}

/** Day number of an instant in a time zone (IANA name; default UTC). */
export function dayNumber(timestamp: string, timeZone = 'UTC'): number {
  const instant = new Date(timestamp);
  if (timeZone === 'UTC') return Math.floor(instant.getTime() / DAY_MS);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
  return Math.floor(Date.parse(`${parts}T00:00:00Z`) / DAY_MS);
}

export function dayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Stable summary id: ladder, level and period index. */
export function summaryId(ladder: Ladder, level: number, index: number): string {
  return `${ladder}:${level}:${index}`;
}

export function parseSummaryId(id: string): { ladder: Ladder; level: number; index: number } {
  const [ladder, level, index] = id.split(':');
  if ((ladder !== 'time' && ladder !== 'count') || level === undefined || index === undefined) throw new RangeError(`not a summary id: ${id}`);
  return { ladder, level: Number(level), index: Number(index) };
}
