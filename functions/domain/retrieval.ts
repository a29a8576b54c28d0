/**
 * Hybrid ranking over an agent's index, with no I/O and no model call:
 *
 * - lexical: BM25 (k1 1.2, b 0.75) over stemmed terms with stop words removed,
 *   with document frequencies over every segment;
 * - dense: cosine between the query's embedding and each unit's (int8);
 * - fused by reciprocal-rank fusion (k = 60), then weighted by what the
 *   question says (dates it names, people it names, "when" questions), the
 *   item signals (confidence, status, open tasks), the contact asked about
 *   and recency; records under a matching summary are lifted with it
 *   (coarse to fine).
 *
 * Segments are loaded once per key (they are immutable) into `LoadedSegment`s
 * with their postings; a `UnitIndex` joins the segments of one manifest.
 */
import * as chrono from 'chrono-node';
import type { IndexSegment, SegmentUnit } from './index-segment.js';
import { indexTerms } from './terms.js';
import { verificationWeight } from './verification.js';
import { visibleIn } from './scope.js';
import { escapeRegExp } from '../commons/regexp.js';
import { ANCHORED_DATE } from './dates.js';
import { quantiseQuery, rowDots } from './int8-dots.js';

export interface LoadedSegment {
  readonly key: string;
  readonly segment: IndexSegment;
  /** term → [unit index, term frequency] pairs, flattened. */
  readonly postings: ReadonlyMap<string, Uint32Array>;
  readonly lengths: Uint16Array;
  readonly totalLength: number;
}

export function loadSegment(key: string, segment: IndexSegment): LoadedSegment {
  const lists = new Map<string, number[]>();
  const lengths = new Uint16Array(segment.units.length);
  let totalLength = 0;
  segment.units.forEach((unit, i) => {
    const terms = unit.terms ? unit.terms.split(' ') : [];
    lengths[i] = Math.min(terms.length, 65_535);
    totalLength += terms.length;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = []));
      list.push(i, tf);
    }
  });
  const postings = new Map<string, Uint32Array>();
  for (const [term, list] of lists) postings.set(term, Uint32Array.from(list));
  return { key, segment, postings, lengths, totalLength };
}

export interface RankedUnit {
  readonly unit: SegmentUnit;
  readonly score: number;
  /** Lexical and dense ranks (1-based; dense by the better of the whole text and its best sentence), when the unit was among the top of either. */
  readonly lexicalRank?: number;
  readonly denseRank?: number;
}

export interface SearchOptions {
  readonly query: string;
  /** The query's unit-length embedding, when the index's model produced it. */
  readonly queryVector?: Float32Array;
  /** The contact asked about (id or name). */
  readonly contact?: string;
  /** Which units may be returned (the `views` asked for). */
  readonly allow?: (unit: SegmentUnit) => boolean;
  /** The project asked about: its units rank first, agent-wide ones follow, other projects' are never returned. */
  readonly project?: string;
  readonly now: string;
  /** How many units to return. @default 300 */
  readonly limit?: number;
  /** Tokens the block will hold, when known: a small one spends no line on a best record's neighbours (see `neighbourShare`). */
  readonly budgetTokens?: number;
  /** Ranking signals, for ablations (`scripts/dev/recall-lab.ts`). @default RANKING */
  readonly tuning?: Partial<RankingTuning>;
}

/**
 * The ranking's signals and weights, each of which the evaluation's
 * ablations switch off or change one at a time to see what it earns.
 */
export interface RankingTuning {
  /** How much a dense rank (the whole text's vector) counts against a lexical one in the fusion. */
  readonly denseWeight: number;
  /**
   * How much a rank by the better of a unit's whole text and its best
   * sentence (`recordSentences`; units without sentence vectors by their
   * whole text) counts against a lexical one.
   */
  readonly sentenceWeight: number;
  /** Contacts, facts and tasks over the records they were consolidated from. */
  readonly itemPrior: number;
  /** Lift units that mention a person the question names. */
  readonly personLift: boolean;
  /**
   * Lift records said by a person the question names, by this much for a
   * rare speaker, less the larger their share of the records, nothing from a
   * 40 % share up: in a group chat "what did Helen get?" is likely in Helen's
   * own words; in a two-person chat half the turns are hers and say nothing.
   */
  readonly speakerLift: number;
  /** Lift units dated in, or stating, a date the question names; and dated records for "when" questions. */
  readonly dateLift: boolean;
  /** Search again with names the best units bring up. */
  readonly secondHop: boolean;
  /** Records beneath the best base summaries share in their score. */
  readonly summaryLift: boolean;
  /** Units with almost no content words rank lower. */
  readonly contentWeight: boolean;
  /** A slight lift for recent units. */
  readonly recency: boolean;
  /** A question naming several people or things is also searched for each alone, so every one of them is covered. */
  readonly coverage: boolean;
  /** The turns said just before and after the best records share in their score (a conversation stays on a subject). */
  readonly neighbourLift: number;
  /** Summaries against the records beneath them (a base summary ×0.9 of this, a higher one ×0.7). */
  readonly summaryWeight: number;
  /** A word's other forms that stem apart ("allergy" / "allergic") count this much of a match; 0 matches stems only. */
  readonly variantWeight: number;
  /** How much a question about how things began ("originally", "at first") lifts what was said in the first weeks. */
  readonly earliestLift: number;
  /** Greetings and sign-offs ("heyyy", "yo", "night!") count as no content word. */
  readonly greetings: boolean;
  /** Weight of a ranking of records by how well the turns said just before them in their session match (`contextScores`). */
  readonly contextWeight: number;
  /** How many earlier turns that ranking reads (at most 3), and how much each step back counts against the one after it. */
  readonly contextTurns: number;
  readonly contextDecay: number;
}

export const RANKING: RankingTuning = { denseWeight: 0.2, sentenceWeight: 1, itemPrior: 0.8, personLift: false, speakerLift: 0.4, dateLift: true, secondHop: true, summaryLift: true, contentWeight: true, recency: true, coverage: true, neighbourLift: 0.2, summaryWeight: 0.7, variantWeight: 0.7, earliestLift: 0.5, greetings: true, contextWeight: 0.4, contextTurns: 2, contextDecay: 0.5 };

/** What the question says, read without a model. */
export interface QueryUnderstanding {
  readonly terms: readonly string[];
  /** Date ranges the question names (ISO dates, inclusive). */
  readonly dates: readonly { readonly from: string; readonly to: string }[];
  /** Known people the question names. */
  readonly people: readonly string[];
  /** "When did ...", "what date", "how long ago": favour units that state dates. */
  readonly temporal: boolean;
  /** "At first", "originally", "when she started": favour what was said early on. */
  readonly earliest: boolean;
}

/**
 * A question that asks for a time: "when" as its question word ("When did …", "and when is …"), not in a clause
 * ("is he sleeping more than when he started?"); "what date", "how long ago" and the like.
 */
const TEMPORAL = /^\W*(?:(?:and|so|but|ok|okay|then)\W+)?when\b|\bwhen (?:did|does|do|was|were|is|are|will|would|has|have|had|can|could|should)\b|\b(?:what (?:date|day|month|year|time)|which (?:date|day|month|year)|how long (?:ago|before|after)|since when)\b/i;
/** A question about how things began: "originally", "at the outset", "in the early days", "when he first started", "than when Noor joined". */
const EARLIEST = /\b(?:originally|initially|at first|in the beginning|at the (?:very )?(?:start|beginning|outset)|in the early days|to (?:begin|start) with|first (?:started|began|met|joined|took over)|when (?:[\p{L}'’]+ ){1,2}(?:first )?(?:started|began|joined|took over))\b/iu;
const iso = (date: Date) => date.toISOString().slice(0, 10);
/** Whole and part days from `earlier` to `later` (ms), never negative; 0 when either is not a time. */
const daysBetween = (earlier: number, later: number) => Math.max(0, (later - earlier) / 86_400_000) || 0;

/** Seasons by their first month (0-based; winter runs into the next year), as the northern hemisphere counts them. */
const SEASON_START: Readonly<Record<string, number>> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
/** "spring 2024", "the summer of 2023", "last autumn", "this winter", "over the summer" ("fall" only where it is one: "in the fall", "fall 2024"). */
const SEASON = /\b(?:(last|this|past|previous)\s+|(?:in|over|during|through|for)\s+(?:the\s+)?(?:(?:early|late|mid)[- ]?)?(?=(?:spring|summer|autumn|fall|winter)\b)|(?:the\s+)?(?:(?:early|late|mid)[- ]?)?(?=(?:spring|summer|autumn|winter)\b))(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d{2}))?\b/gi;
/** What follows a season that names a thing ("spring trip", "summer holiday") rather than a time: a word that is not a joint. */
const SEASON_AS_ADJECTIVE = /^\s+(?!(?:and|or|but|when|while|before|after|at|in|on|to|with|for|from|of|did|does|do|was|were|is|are|has|had|have|this|that|then|so|as|last|break)\b)\p{L}/iu;
/** A year by itself, or a part of one: "in 2024", "during early 2023", "late 2022". */
const YEAR = /\b(?:in|during|through(?:out)?|of)\s+(?:(early|late|mid)[- ])?((?:19|20)\d{2})\b(?!-\d)|\b(early|late|mid)[- ]((?:19|20)\d{2})\b/gi;

/** A season's days: the year said, else the one `which` ("last", "this", or the latest begun) picks against `reference`. */
function seasonRange(season: string, year: string | undefined, which: string | undefined, reference: Date): { from: string; to: string } {
  const first = SEASON_START[season.toLowerCase()]!;
  const span = (y: number) => ({ from: iso(new Date(Date.UTC(y, first, 1))), to: iso(new Date(Date.UTC(y, first + 3, 0))) });
  if (year) return span(Number(year));
  const now = reference.getTime();
  // "This" is the season of the reference's year (a January's winter began the December before); otherwise the
  // latest such season that has begun, or for "last", the latest that has ended.
  if (/^this$/i.test(which ?? '')) return span(reference.getUTCFullYear() - (first === 11 && reference.getUTCMonth() < 2 ? 1 : 0));
  let y = reference.getUTCFullYear();
  while (Date.UTC(y, first, 1) > now) y -= 1;
  if (/^(?:last|past|previous)$/i.test(which ?? '') && Date.UTC(y, first + 3, 1) > now) y -= 1;
  return span(y);
}

/** Date ranges a question names, resolved against `reference` ("in June", "May 2023", "last week", "spring 2024"). */
export function questionDates(query: string, reference: string): { from: string; to: string }[] {
  const ranges: { from: string; to: string }[] = [];
  const at = new Date(reference);
  for (const match of query.matchAll(SEASON)) {
    // "their spring trip", "the family summer holiday": a season naming a thing, which may well be planned in another.
    if (!match[3] && SEASON_AS_ADJECTIVE.test(query.slice(match.index + match[0].length))) continue;
    ranges.push(seasonRange(match[2]!, match[3], match[1], at));
  }
  for (const match of query.replace(SEASON, ' ').matchAll(YEAR)) {
    const part = (match[1] ?? match[3])?.toLowerCase();
    const year = Number(match[2] ?? match[4]);
    const [from, to] = part === 'early' ? [0, 4] : part === 'mid' ? [4, 8] : part === 'late' ? [8, 12] : [0, 12];
    ranges.push({ from: iso(new Date(Date.UTC(year, from, 1))), to: iso(new Date(Date.UTC(year, to, 0))) });
  }
  for (const result of chrono.parse(query, new Date(reference))) {
    const start = result.start;
    // "Where does she work now?" asks for the current state, not for what was said on the last day.
    if (/^(?:right )?now$/i.test(result.text.trim())) continue;
    if (!start.isCertain('month') && !start.isCertain('weekday') && !start.isCertain('day') && !/week|month|year/i.test(result.text)) continue;
    const date = start.date();
    if (result.end) {
      ranges.push({ from: iso(date), to: iso(result.end.date()) });
    } else if (start.isCertain('day')) {
      ranges.push({ from: iso(date), to: iso(date) });
    } else if (start.isCertain('month')) {
      const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
      const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
      ranges.push({ from: iso(first), to: iso(last) });
    } else {
      // "last week": a week either side of the date chrono settled on.
      ranges.push({ from: iso(new Date(date.getTime() - 7 * 86_400_000)), to: iso(new Date(date.getTime() + 7 * 86_400_000)) });
    }
  }
  return ranges;
}

/** People a question names, among those the index knows (speakers, contacts), by full or first name. */
export function questionPeople(query: string, known: Iterable<string>): string[] {
  const lower = query.toLowerCase();
  const found: string[] = [];
  for (const name of known) {
    const parts = [name, name.split(' ')[0]!].filter((part) => part.length >= 3);
    if (parts.some((part) => new RegExp(`\\b${escapeRegExp(part.toLowerCase())}\\b`).test(lower))) found.push(name);
  }
  return found;
}

export function understand(query: string, reference: string, known: Iterable<string>): QueryUnderstanding {
  return { terms: [...new Set(indexTerms(query))], dates: questionDates(query, reference), people: questionPeople(query, known), temporal: TEMPORAL.test(query), earliest: EARLIEST.test(query) };
}

const ANCHORED = /\b(\d{4}-\d{2}-\d{2})\b/g;

/** Dates a unit is about: its own date and any absolute ISO date in its label or text (a task's due date). */
export function unitDates(unit: { at?: string; text: string; label?: string }): string[] {
  const dates = unit.at ? [unit.at.slice(0, 10)] : [];
  for (const match of `${unit.label ?? ''} ${unit.text}`.matchAll(ANCHORED)) dates.push(match[1]!);
  return dates;
}

const speakerTerms = new Map<string, ReadonlySet<string>>();
function termsOfSpeaker(speaker: string | undefined): ReadonlySet<string> {
  if (!speaker) return new Set();
  let terms = speakerTerms.get(speaker);
  if (!terms) {
    terms = new Set(indexTerms(speaker));
    if (speakerTerms.size < 10_000) speakerTerms.set(speaker, terms);
  }
  return terms;
}

/** Stems that open or close a chat and say nothing else ("heyyy", "yo", "ttyl", "night"). */
const GREETING_STEMS = new Set('hi hey heya hiya hello yo sup morn night ttyl bye lol haha hah ok okay'.split(' '));
/** A greeting's stem, stretched letters read once ("heyyy", "hiii"); each term read once per process (a search reads hundreds of units' terms). */
const greetingOf = new Map<string, boolean>();
export function isGreeting(term: string): boolean {
  if (GREETING_STEMS.has(term)) return true;
  let known = greetingOf.get(term);
  if (known === undefined) {
    known = term.length <= 12 && GREETING_STEMS.has(term.replace(/(\p{L})\1+/gu, '$1'));
    if (greetingOf.size < 50_000) greetingOf.set(term, known);
  }
  return known;
}

/** Units with almost no content words besides their speaker's name ("Hi again.", "ok") rank lower whatever matched them. */
export function informationContent(unit: { terms: string; speaker?: string }, greetings = true): number {
  const own = termsOfSpeaker(unit.speaker);
  const distinct = new Set((unit.terms ? unit.terms.split(' ') : []).filter((t) => !own.has(t) && !(greetings && isGreeting(t)))).size;
  // Nothing but stop words ("ok", "sure thing"): nothing a question can be about.
  if (distinct === 0) return 0;
  return Math.min(1, (distinct + 2) / 5);
}

/** A question back that asks nothing of its own ("does she?", "why?", "how come?"): the turn after it answers the turn before. */
function clarifyingQuestion(unit: { text: string; terms: string; speaker?: string }): boolean {
  if (!/\?\s*$/.test(unit.text)) return false;
  const own = termsOfSpeaker(unit.speaker);
  return (unit.terms ? unit.terms.split(' ') : []).filter((t) => !own.has(t)).length <= 1;
}

/** Reciprocal-rank fusion of 1-based ranks; a missing rank contributes nothing. */
export function reciprocalRankFusion(ranks: readonly (number | undefined)[], k = 60): number {
  return ranks.reduce<number>((sum, rank) => sum + (rank === undefined ? 0 : 1 / (k + rank)), 0);
}

/** Indices of the `k` largest values (score > floor), best first. */
export function topIndices(scores: Float32Array, k: number, floor = 0): number[] {
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]!;
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < scores.length; i += 1) {
    if (!(scores[i]! > floor)) continue;
    if (heap.length < k) {
      heap.push(i);
      for (let j = heap.length - 1; j > 0; ) {
        const p = (j - 1) >> 1;
        if (!less(heap[j]!, heap[p]!)) break;
        [heap[j], heap[p]] = [heap[p]!, heap[j]!];
        j = p;
      }
    } else if (scores[i]! > scores[heap[0]!]!) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]!);
}

const CANDIDATES = 300;
/** A question naming a span at most this long brings in units stating a date inside it. */
const NARROW_RANGE_DAYS = 31;
/** The lexical rank a unit stating the date a question names counts as, when no ranking found it. */
const STATED_DATE_RANK = 10;
/** The second hop reads names from this many best units, takes at most this many names, adds this many units at this weight. */
const SECOND_HOP_SOURCES = 3;
const SECOND_HOP_NAMES = 3;
const SECOND_HOP_RESULTS = 20;
const SECOND_HOP_WEIGHT = 0.5;
/** Units brought in for each entity a question names, when it names several. */
const COVERAGE_PER_ENTITY = 4;
/** The best records whose neighbouring turns share in their score. */
const NEIGHBOUR_SOURCES = 10;
/** At or under this many tokens a block holds five or six lines: each goes to a match of its own, none to a match's neighbour. */
const NEIGHBOURS_FROM_TOKENS = 256;
/** From this many tokens up, neighbours are lifted in full. */
const NEIGHBOURS_IN_FULL_TOKENS = 512;

/**
 * How much of the neighbour lift a block of `budgetTokens` gets: none for a
 * block of a handful of lines (the turns around the best match would take the
 * places of other matches), all of it from 512 tokens up, in proportion
 * between. Unknown budget: all of it.
 */
export function neighbourShare(budgetTokens: number | undefined): number {
  if (budgetTokens === undefined) return 1;
  return Math.min(1, Math.max(0, (budgetTokens - NEIGHBOURS_FROM_TOKENS) / (NEIGHBOURS_IN_FULL_TOKENS - NEIGHBOURS_FROM_TOKENS)));
}
/** The most earlier turns the context ranking can read; a position with none there holds `NO_TURN`. */
const CONTEXT_TURNS = 3;
const NO_TURN = -1;
const K1 = 1.2;
const B = 0.75;
const VARIANT_MIN = 5;
const VARIANT_SUFFIX = 2;

/**
 * The units of one manifest's segments, as one index: the newest copy of an
 * id wins, dropped ids are hidden. Built once per manifest and reused.
 */
export class UnitIndex {
  readonly size: number;
  private readonly offsets: number[] = [];
  /** Global position → hidden (shadowed by a newer copy, or dropped). */
  private readonly hidden: Uint8Array;
  /** Global position → `informationContent` of its unit (greetings read as none), or -1 until first asked: the index is cached and a search asks for hundreds. */
  private readonly contents: Float32Array;
  private readonly avgLength: number;
  /** The index's letter-only terms, sorted: built on the first search that needs variants. */
  private vocabulary?: string[];
  readonly people: ReadonlySet<string>;
  /** Each named speaker's share of the records. */
  readonly speakerShare: ReadonlyMap<string, number>;
  readonly newestAt: string;
  /** The earliest record's time: where "at first" and "originally" look. */
  readonly oldestAt: string;

  constructor(
    private readonly segments: readonly LoadedSegment[],
    dropped: ReadonlySet<string>,
    private readonly modelId?: string,
  ) {
    let total = 0;
    for (const s of segments) {
      this.offsets.push(total);
      total += s.segment.units.length;
    }
    this.size = total;
    this.hidden = new Uint8Array(total);
    this.contents = new Float32Array(total).fill(-1);
    const seen = new Set<string>();
    let length = 0;
    let live = 0;
    const people = new Set<string>();
    const spoken = new Map<string, number>();
    let records = 0;
    let newest = '';
    let oldest = '';
    // Newest segment first: the first copy of an id seen is the one that counts.
    for (let s = segments.length - 1; s >= 0; s -= 1) {
      const loaded = segments[s]!;
      loaded.segment.units.forEach((unit, i) => {
        const at = this.offsets[s]! + i;
        if (seen.has(unit.id) || dropped.has(unit.id)) {
          this.hidden[at] = 1;
          return;
        }
        seen.add(unit.id);
        live += 1;
        length += loaded.lengths[i]!;
        if (unit.kind === 'record') records += 1;
        if (unit.kind === 'record' && unit.speaker && !['user', 'assistant', 'tool', 'system'].includes(unit.speaker)) {
          people.add(unit.speaker);
          spoken.set(unit.speaker, (spoken.get(unit.speaker) ?? 0) + 1);
        }
        if (unit.kind === 'contact' && unit.label) people.add(unit.label);
        if (unit.at && unit.at > newest && unit.kind === 'record') newest = unit.at;
        if (unit.at && (!oldest || unit.at < oldest) && unit.kind === 'record') oldest = unit.at;
      });
    }
    this.avgLength = live > 0 ? length / live : 1;
    this.people = people;
    this.speakerShare = new Map([...spoken].map(([speaker, n]) => [speaker, n / Math.max(1, records)]));
    this.newestAt = newest;
    this.oldestAt = oldest;
  }

  /** How much a unit says (`informationContent`), read once per cached index. */
  private content(position: number, greetings = true): number {
    if (!greetings) return informationContent(this.unitAt(position), false);
    let found = this.contents[position]!;
    if (found < 0) found = this.contents[position] = informationContent(this.unitAt(position));
    return found;
  }

  unitAt(position: number): SegmentUnit {
    let s = this.segments.length - 1;
    while (s > 0 && this.offsets[s]! > position) s -= 1;
    return this.segments[s]!.segment.units[position - this.offsets[s]!]!;
  }

  /**
   * Other index terms that are the same word in another form: Porter2 leaves
   * "allergi" (allergy) apart from "allerg" (allergic), "photo" from
   * "photograph" is too far to count. A variant is letters only, one of the
   * pair is the other with at most VARIANT_SUFFIX letters more, and the
   * shorter is at least VARIANT_MIN letters long.
   */
  private variantsOf(term: string): string[] {
    if (term.length < VARIANT_MIN || !/^[a-z]+$/.test(term)) return [];
    this.vocabulary ??= [...new Set(this.segments.flatMap((s) => [...s.postings.keys()]))].filter((t) => /^[a-z]+$/.test(t)).sort();
    const vocabulary = this.vocabulary;
    const found: string[] = [];
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (vocabulary[middle]! < term) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < vocabulary.length && vocabulary[i]!.startsWith(term); i += 1) {
      if (vocabulary[i] !== term && vocabulary[i]!.length - term.length <= VARIANT_SUFFIX) found.push(vocabulary[i]!);
    }
    for (let length = Math.max(VARIANT_MIN, term.length - VARIANT_SUFFIX); length < term.length; length += 1) {
      const shorter = term.slice(0, length);
      if (this.segments.some((s) => s.postings.has(shorter))) found.push(shorter);
    }
    return found;
  }

  private lexicalScores(terms: readonly string[], variantWeight = 0): Float32Array {
    const scores = new Float32Array(this.size);
    // A term asked twice counts twice, as before; a variant counts once, and never over the term itself.
    const variants = new Map<string, number>();
    if (variantWeight > 0) {
      for (const term of terms) for (const variant of this.variantsOf(term)) if (!terms.includes(variant)) variants.set(variant, variantWeight);
    }
    for (const [term, weight] of [...terms.map((t): [string, number] => [t, 1]), ...variants]) {
      let df = 0;
      for (const s of this.segments) df += (s.postings.get(term)?.length ?? 0) / 2;
      if (df === 0) continue;
      // Frequencies count hidden copies too, so N does: the idf stays positive.
      const idf = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
      this.segments.forEach((s, si) => {
        const list = s.postings.get(term);
        if (!list) return;
        const offset = this.offsets[si]!;
        for (let j = 0; j < list.length; j += 2) {
          const i = list[j]!;
          const tf = list[j + 1]!;
          const norm = tf + K1 * (1 - B + (B * s.lengths[i]!) / this.avgLength);
          scores[offset + i] = scores[offset + i]! + (weight * idf * tf * (K1 + 1)) / norm;
        }
      });
    }
    for (let i = 0; i < this.size; i += 1) if (this.hidden[i]) scores[i] = 0;
    return scores;
  }

  /**
   * Cosines with the query, shifted so every live unit scores above 0 (hidden ones stay at 0): `whole` by each
   * unit's own vector, `best` by the better of that and its best sentence's.
   */
  private denseScores(vector: Float32Array): { whole: Float32Array; best: Float32Array } | undefined {
    const query = quantiseQuery(vector);
    const whole = new Float32Array(this.size);
    /** Each unit's best sentence, where it has any (0 elsewhere). */
    let bySentence: Float32Array | undefined;
    let dots = new Float32Array(0);
    const dotsOf = (rows: Int8Array, count: number, dims: number) => {
      if (dots.length < count) dots = new Float32Array(count);
      rowDots(query, rows, count, dims, dots);
      return dots;
    };
    let any = false;
    this.segments.forEach((s, si) => {
      const { segment } = s;
      if (segment.dimensions !== vector.length || (this.modelId && segment.modelId !== this.modelId)) return;
      any = true;
      const dims = segment.dimensions;
      const offset = this.offsets[si]!;
      const count = segment.units.length;
      const ofUnits = dotsOf(segment.vectors, count, dims);
      for (let i = 0; i < count; i += 1) whole[offset + i] = this.hidden[offset + i] ? 0 : 1 + ofUnits[i]! * segment.scales[i]!;
      const sentences = segment.sentences;
      if (!sentences) return;
      bySentence ??= new Float32Array(this.size);
      const ofSentences = dotsOf(sentences.vectors, sentences.owners.length, dims);
      for (let j = 0; j < sentences.owners.length; j += 1) {
        const at = offset + sentences.owners[j]!;
        if (!this.hidden[at]) bySentence[at] = Math.max(bySentence[at]!, 1 + ofSentences[j]! * sentences.scales[j]!);
      }
    });
    if (!any) return undefined;
    const sentenceScores = bySentence;
    return { whole, best: sentenceScores ? whole.map((score, i) => Math.max(score, sentenceScores[i]!)) : whole };
  }

  /** The units best matching the query, best first. */
  search(options: SearchOptions): { ranked: RankedUnit[]; understanding: QueryUnderstanding } {
    const understanding = understand(options.query, this.newestAt || options.now, this.people);
    const limit = options.limit ?? CANDIDATES;
    const tuning: RankingTuning = { ...RANKING, ...options.tuning };
    const allowed = (position: number) => {
      const unit = this.unitAt(position);
      return visibleIn(unit.project, options.project) && (!options.allow || options.allow(unit));
    };
    const lexical = this.lexicalScores(understanding.terms, tuning.variantWeight);
    const dense = options.queryVector ? this.denseScores(options.queryVector) : undefined;
    const ranks = new Map<number, { lexical?: number; dense?: number; sentence?: number; context?: number }>();
    const take = (scores: Float32Array, which: 'lexical' | 'dense' | 'sentence' | 'context') => {
      let rank = 0;
      for (const position of topIndices(scores, CANDIDATES * 2)) {
        if (!allowed(position)) continue;
        rank += 1;
        const entry = ranks.get(position) ?? {};
        entry[which] = rank;
        ranks.set(position, entry);
        if (rank >= CANDIDATES) break;
      }
    };
    take(lexical, 'lexical');
    if (dense && tuning.denseWeight > 0) take(dense.whole, 'dense');
    if (dense && tuning.sentenceWeight > 0) take(dense.best, 'sentence');
    // Like the neighbour lift, none for a block of a handful of lines: each goes to a match of its own.
    const contextWeight = tuning.contextWeight * neighbourShare(options.budgetTokens);
    if (contextWeight > 0) take(this.contextScores(lexical, dense?.best, tuning), 'context');

    const scored = new Map<number, number>();
    const now = Date.parse(options.now);
    const start = Date.parse(this.oldestAt);
    const contact = options.contact?.toLowerCase();
    const boost = (unit: SegmentUnit) => {
      let factor = 1;
      if (tuning.dateLift && understanding.dates.length > 0) {
        const dates = unitDates(unit);
        if (understanding.dates.some((range) => dates.some((d) => d >= range.from && d <= range.to))) factor += 0.6;
      }
      if (tuning.dateLift && understanding.temporal && unit.kind === 'record' && ANCHORED_DATE.test(unit.text)) factor += 0.15;
      if (tuning.speakerLift > 0 && unit.kind === 'record' && unit.speaker && understanding.people.includes(unit.speaker)) {
        factor += tuning.speakerLift * Math.max(0, 1 - 2.5 * (this.speakerShare.get(unit.speaker) ?? 1));
      }
      if (tuning.personLift && understanding.people.length > 0) {
        const text = `${unit.label ?? ''} ${unit.text} ${unit.about ?? ''}`.toLowerCase();
        if (understanding.people.some((p) => text.includes(p.toLowerCase().split(' ')[0]!))) factor += 0.15;
      }
      if (contact && `${unit.id} ${unit.about ?? ''} ${unit.label ?? ''}`.toLowerCase().includes(contact)) factor += unit.kind === 'contact' ? 1 : 0.4;
      // From the specific to the broad: the project's own units before agent-wide ones.
      if (options.project && unit.project === options.project) factor += 0.3;
      if (unit.kind !== 'record' && unit.kind !== 'summary') {
        // Items are the consolidated, current state, and one line cites several records.
        factor *= tuning.itemPrior * (0.85 + 0.3 * (unit.confidence ?? 0.5)) * verificationWeight(unit.status, unit.verification);
        if (unit.kind === 'task' && unit.state === 'open') factor *= 1.1;
      }
      // Broad summaries cite few records: prefer the finer units beneath them.
      if (unit.kind === 'summary') factor *= tuning.summaryWeight * (unit.level === 0 ? 0.9 : 0.7);
      const at = unit.at ? Date.parse(unit.at) : NaN;
      if (tuning.recency && unit.at) factor *= 1 + 0.05 * Math.exp(-daysBetween(at, now) / 90);
      if (tuning.earliestLift > 0 && understanding.earliest && unit.at && this.oldestAt) factor *= 1 + tuning.earliestLift * Math.exp(-daysBetween(start, at) / 30);
      return factor;
    };
    // A unit that states a date the question names is a candidate even when no ranking found it
    // ("what did she need to do by 31 July?" → "... by Friday (2026-07-31)"), at the score of a middling match.
    for (const range of tuning.dateLift ? understanding.dates : []) {
      if ((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 > NARROW_RANGE_DAYS) continue;
      for (const [date, positions] of this.statedDates()) {
        if (date < range.from || date > range.to) continue;
        for (const position of positions) if (allowed(position) && !ranks.has(position)) ranks.set(position, { lexical: STATED_DATE_RANK });
      }
    }
    for (const [position, r] of ranks) {
      const unit = this.unitAt(position);
      const fused = reciprocalRankFusion([r.lexical]) + tuning.denseWeight * reciprocalRankFusion([r.dense]) + tuning.sentenceWeight * reciprocalRankFusion([r.sentence]) + contextWeight * reciprocalRankFusion([r.context]);
      const content = tuning.contentWeight ? this.content(position, tuning.greetings) : Math.min(1, this.content(position, tuning.greetings) * 1e9);
      if (content > 0) scored.set(position, fused * boost(unit) * content);
    }

    // Second hop: names that the best units bring up but the question did not ("where does her brother
    // work?" → "my brother Rafael ..." → "Rafael works at ..."), searched with the question's terms.
    const hop = tuning.secondHop ? this.secondHopTerms([...scored].sort((a, b) => b[1] - a[1]).slice(0, SECOND_HOP_SOURCES).map(([p]) => this.unitAt(p)), understanding) : [];
    if (hop.length > 0) {
      const asked = new Set(understanding.terms);
      for (const person of understanding.people) for (const t of indexTerms(person)) asked.delete(t);
      const second = this.lexicalScores([...understanding.terms, ...hop], tuning.variantWeight);
      const hopSet = new Set(hop);
      let rank = 0;
      for (const position of topIndices(second, CANDIDATES)) {
        if (!allowed(position)) continue;
        const unit = this.unitAt(position);
        // Only units that join a new name to what the question asks about.
        const unitTerms = unit.terms.split(' ');
        if (!unitTerms.some((t) => hopSet.has(t)) || !unitTerms.some((t) => asked.has(t))) continue;
        rank += 1;
        const content = this.content(position);
        if (content > 0) scored.set(position, (scored.get(position) ?? 0) + SECOND_HOP_WEIGHT * reciprocalRankFusion([rank]) * boost(unit) * content);
        if (rank >= SECOND_HOP_RESULTS) break;
      }
    }

    // Coverage: "who runs faster, Owen or Kev?" needs units about each; each named one is searched without the others.
    const named = tuning.coverage ? this.namedEntities(options.query, understanding) : [];
    if (named.length >= 2) {
      const best = Math.max(0, ...scored.values());
      for (const entity of named) {
        const others = new Set(named.filter((n) => n !== entity).flatMap((n) => indexTerms(n)));
        const terms = understanding.terms.filter((t) => !others.has(t));
        let rank = 0;
        for (const position of topIndices(this.lexicalScores(terms, tuning.variantWeight), CANDIDATES)) {
          if (!allowed(position)) continue;
          const unit = this.unitAt(position);
          if (!indexTerms(entity).every((t) => unit.terms.split(' ').includes(t))) continue;
          const content = this.content(position);
          if (content === 0) continue;
          rank += 1;
          // Each entity's best units join the best of the whole question, in turn.
          scored.set(position, Math.max(scored.get(position) ?? 0, best * content * (1 - 0.05 * rank)));
          if (rank >= COVERAGE_PER_ENTITY) break;
        }
      }
    }

    // Coarse to fine: the records beneath the best base summaries share in their score.
    const summaries = tuning.summaryLift ? [...scored].filter(([p]) => this.unitAt(p).kind === 'summary' && this.unitAt(p).level === 0).sort((a, b) => b[1] - a[1]).slice(0, 5) : [];
    if (summaries.length > 0) {
      const { byId } = this.records();
      summaries.forEach(([p, score], i) => {
        for (const id of this.unitAt(p).evidence) {
          const position = byId.get(id);
          if (position === undefined || !allowed(position)) continue;
          scored.set(position, (scored.get(position) ?? 0) + (0.25 * score) / (1 + i));
        }
      });
    }
    const neighbourLift = tuning.neighbourLift * neighbourShare(options.budgetTokens);
    if (neighbourLift > 0) {
      const { bySequence } = this.records();
      const best = [...scored].filter(([p]) => this.unitAt(p).kind === 'record').sort((a, b) => b[1] - a[1]).slice(0, NEIGHBOUR_SOURCES);
      const lifts = new Map<number, number>();
      for (const [p, score] of best) {
        const unit = this.unitAt(p);
        if (unit.sequence === undefined) continue;
        for (const step of [-1, 1]) {
          const position = bySequence.get(unit.sequence + step);
          if (position === undefined || !allowed(position) || this.unitAt(position).session !== unit.session) continue;
          lifts.set(position, Math.max(lifts.get(position) ?? 0, neighbourLift * score * this.content(position)));
          // "gran hates grapes" / "does she?" / "she says they're too much effort": across a bare question back, the turn it asks about, or answers it.
          if (clarifyingQuestion(this.unitAt(position))) {
            const answer = bySequence.get(unit.sequence + 2 * step);
            if (answer === undefined || !allowed(answer) || this.unitAt(answer).session !== unit.session) continue;
            lifts.set(answer, Math.max(lifts.get(answer) ?? 0, neighbourLift * score * this.content(answer)));
          }
        }
      }
      for (const [position, lift] of lifts) scored.set(position, (scored.get(position) ?? 0) + lift);
    }
    const ranked = [...scored]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([position, score]) => {
        const r = ranks.get(position);
        return { unit: this.unitAt(position), score, ...(r?.lexical ? { lexicalRank: r.lexical } : {}), ...(r?.sentence ?? r?.dense ? { denseRank: r.sentence ?? r.dense } : {}) };
      });
    return { ranked, understanding };
  }

  /** People and things the question names (capitalised words the index knows, and known people), at most four. */
  private namedEntities(query: string, understanding: QueryUnderstanding): string[] {
    // One entry per name however it is written: "Noor" and "Noor's" are one person, not two to cover.
    const found = new Map<string, string>();
    const add = (name: string) => {
      const key = indexTerms(name).join(' ');
      if (key && !found.has(key)) found.set(key, name);
    };
    for (const person of understanding.people) add(person.split(' ')[0]!);
    for (const match of query.matchAll(/(?<!^|[.!?]\s)\b([A-Z][\p{L}'-]{2,})\b/gu)) {
      const terms = indexTerms(match[1]!);
      if (terms.length > 0 && terms.every((t) => this.segments.some((s) => s.postings.has(t)))) add(match[1]!.replace(/['’]s$/, ''));
    }
    return [...found.values()].slice(0, 4);
  }

  /** Capitalised names in the best units that the question does not already hold, as index terms. */
  private secondHopTerms(best: readonly SegmentUnit[], understanding: QueryUnderstanding): string[] {
    const asked = new Set(understanding.terms);
    for (const person of understanding.people) for (const t of indexTerms(person)) asked.add(t);
    const found: string[] = [];
    for (const unit of best) {
      for (const match of unit.text.matchAll(/(?<![.!?]\s|^)\b([A-Z][a-z]{2,})\b/g)) {
        for (const term of indexTerms(match[1]!)) {
          if (!asked.has(term) && !found.includes(term)) found.push(term);
        }
      }
      if (found.length >= SECOND_HOP_NAMES) break;
    }
    return found.slice(0, SECOND_HOP_NAMES);
  }

  private dateIndex?: Map<string, number[]>;
  /** Absolute dates stated in units' texts → their positions. */
  private statedDates(): Map<string, number[]> {
    if (!this.dateIndex) {
      this.dateIndex = new Map();
      for (let i = 0; i < this.size; i += 1) {
        if (this.hidden[i]) continue;
        const unit = this.unitAt(i);
        for (const match of `${unit.label ?? ''} ${unit.text}`.matchAll(ANCHORED)) {
          const list = this.dateIndex.get(match[1]!) ?? [];
          list.push(i);
          this.dateIndex.set(match[1]!, list);
        }
      }
    }
    return this.dateIndex;
  }

  private recordMaps?: { readonly byId: Map<string, number>; readonly bySequence: Map<number, number> };
  private turnsBefore?: Int32Array;
  /**
   * Records ranked by the turns said just before them in their session, each
   * step back counting `contextDecay` times the one after it; the lexical match
   * is divided by the best record's, the dense one scaled from the worst
   * record's to the best's (0 to 1). "Ninth!" answers the tournament asked
   * about a turn earlier; "And they've set a date! August 2026, on Arran" the
   * couple named two turns before it. A record's own match is not counted (the
   * other rankings hold it).
   */
  private contextScores(lexical: Float32Array, dense: Float32Array | undefined, tuning: RankingTuning): Float32Array {
    const earlier = this.earlierTurns();
    let lexicalTop = 0;
    let denseFloor = Infinity;
    let denseTop = -Infinity;
    for (const p of this.records().bySequence.values()) {
      lexicalTop = Math.max(lexicalTop, lexical[p]!);
      if (dense) {
        denseFloor = Math.min(denseFloor, dense[p]!);
        denseTop = Math.max(denseTop, dense[p]!);
      }
    }
    const lexicalScale = lexicalTop > 0 ? 1 / lexicalTop : 0;
    const denseScale = dense && denseTop > denseFloor ? 1 / (denseTop - denseFloor) : 0;
    const match = (p: number) => lexical[p]! * lexicalScale + (dense ? (dense[p]! - denseFloor) * denseScale : 0);
    const scores = new Float32Array(this.size);
    const turns = Math.min(CONTEXT_TURNS, tuning.contextTurns);
    for (let p = 0; p < this.size; p += 1) {
      let total = 0;
      let weight = 1;
      for (let step = 0; step < turns; step += 1) {
        const before = earlier[p * CONTEXT_TURNS + step]!;
        if (before === NO_TURN) break;
        weight *= tuning.contextDecay;
        total += weight * match(before);
      }
      scores[p] = total;
    }
    return scores;
  }

  /** Each live record's earlier turns in its session, nearest first (`NO_TURN` past the session's start), read once per cached index. */
  private earlierTurns(): Int32Array {
    if (!this.turnsBefore) {
      const { bySequence } = this.records();
      const links = new Int32Array(this.size * CONTEXT_TURNS).fill(NO_TURN);
      for (const [sequence, p] of bySequence) {
        const session = this.unitAt(p).session;
        for (let step = 1; step <= CONTEXT_TURNS; step += 1) {
          const before = bySequence.get(sequence - step);
          if (before === undefined || this.unitAt(before).session !== session) break;
          links[p * CONTEXT_TURNS + step - 1] = before;
        }
      }
      this.turnsBefore = links;
    }
    return this.turnsBefore;
  }

  /** Positions of the live records, by id and by sequence, built once per index. */
  private records(): { readonly byId: Map<string, number>; readonly bySequence: Map<number, number> } {
    if (!this.recordMaps) {
      const byId = new Map<string, number>();
      const bySequence = new Map<number, number>();
      for (let i = 0; i < this.size; i += 1) {
        if (this.hidden[i]) continue;
        const unit = this.unitAt(i);
        if (unit.kind !== 'record') continue;
        byId.set(unit.id, i);
        if (unit.sequence !== undefined) bySequence.set(unit.sequence, i);
      }
      this.recordMaps = { byId, bySequence };
    }
    return this.recordMaps;
  }

  /** Every live unit of a kind (for listing without a query). */
  *live(): Generator<SegmentUnit> {
    for (let i = 0; i < this.size; i += 1) if (!this.hidden[i]) yield this.unitAt(i);
  }
}

/**
 * Pending records (counted, not consolidated yet) ranked for a query: the
 * same lexical ranking and signals as the index, over the pending records
 * alone, and no embedding (the read path makes no model call for them).
 * Their scores are put on the index's scale as if every ranking (lexical,
 * whole-text dense, sentence dense) had found them at their lexical rank, so the newest record that answers a question
 * competes with the history on equal terms. Each comes back marked `pending`.
 */
export function rankPending(units: readonly SegmentUnit[], options: Omit<SearchOptions, 'queryVector'>): RankedUnit[] {
  if (units.length === 0) return [];
  const segment: IndexSegment = { modelId: 'pending', dimensions: 0, units: units.map((unit) => ({ ...unit, pending: true })), scales: new Float32Array(units.length), vectors: new Int8Array(0) };
  const index = new UnitIndex([loadSegment('pending', segment)], new Set());
  const tuning: RankingTuning = { ...RANKING, ...options.tuning };
  return index.search(options).ranked.filter((r) => r.lexicalRank !== undefined).map((r) => ({ ...r, score: r.score * (1 + tuning.denseWeight + tuning.sentenceWeight) }));
}
