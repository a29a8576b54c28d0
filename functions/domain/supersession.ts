/**
 * One current value everywhere. When a value stops being current (feedback
 * says it was wrong, or outdated; a correction supersedes it; a contact's
 * role, employer, e-mail or number changes), the item leaves the views, but the records and
 * summaries that stated it are still history and still recallable. This is
 * the rule, applied in one place on the read path (`markRetired`), for every
 * line a context block shows:
 *
 * - a record that is evidence of a retired value, or a record or summary
 *   whose text states it (and not the value that replaced it), is shown with
 *   a marker after its text: `(marked wrong on 2026-11-30)`, `(no longer true
 *   since 2026-11-30)`, or `(later: Hooli, from 2026-10-02)`;
 * - a contact line's sentences (biography, "Lately") that state a retired
 *   value of that contact are left out: the line says only what holds now;
 * - nothing is hidden: an agent sees what was said, and that it no longer holds.
 *
 * The retired values come with each store's view (`retiredValues`, computed
 * when the view is built, so the read path reads nothing more).
 */
import type { ContactItem, FactItem, MemoryItem, TaskItem } from './memory.js';
import { escapeRegExp as escape } from '../commons/regexp.js';
import { resolveDate } from './dates.js';

export interface RetiredValue {
  /** The item that held it. */
  readonly itemId: string;
  /** The records it was read from. */
  readonly records: readonly string[];
  /** The words that state it, as a line would ("oolong", "Acme Corp"). */
  readonly value: string;
  /** Whom it is about, when that is a name ("Dana"): a line must name them too to be taken as stating the value. */
  readonly subject?: string;
  /**
   * wrong: refuted by feedback; outdated: archived as no longer true;
   * superseded: replaced by a correction; changed: a contact's field changed;
   * contested: a later record said otherwise and nothing has settled which
   * holds (the older side of a conflict); later: no item held the old value,
   * but a current one says what the thing is now (`value` is the current value,
   * `about` the words naming the thing, `at` when it was first said); closed: a task done or cancelled (`value` its
   * title, `now` its state, `at` when the record closing it was written), marked in its evidence said before then.
   */
  readonly reason: 'wrong' | 'outdated' | 'superseded' | 'changed' | 'contested' | 'later' | 'closed';
  /** When it stopped being current (ISO): when the record saying so was written, or when feedback said so. */
  readonly at: string;
  /** What replaced it, when something did. */
  readonly now?: string;
  /** A changed contact field: which one (`channels`: an e-mail or a number replaced by a new one). */
  readonly field?: 'role' | 'organisation' | 'channels';
  /** `later`: the words a line must hold to speak of the same thing ("protein", "target"); superseded: what the value was of. */
  readonly about?: readonly string[];
  /** Marked only in lines said before it stopped holding: a value named by nothing else ("value replacing 12th"). */
  readonly onlyBefore?: boolean;
  /**
   * `later`, read from a record that says a value changed (`changesSaid`), not from an item: `about` are the words
   * around the new value, and a line speaks of the same thing when one of them is near a value of the same kind.
   */
  readonly loose?: boolean;
  /**
   * `later`, read from a record that names what was replaced ("Bronwen's retiring, her niece Agata is taking over"):
   * the name or colour replaced. A line said before it naming that is marked with `value`, what replaced it.
   */
  readonly replaces?: string;
  /**
   * With `replaces`: the record said the old words and the new side by side ("(was Wed 14 May)", "switched from
   * Aquagen Labs to Tayside Genomics", "meet in the farmyard, not the layby"), so a line naming them however cased
   * is taken as stating the old value (a name read from a record alone must be said with its capital).
   */
  readonly pairSaid?: boolean;
  /** With `replaces`, a colour: the thing it was the colour of ("red harness"), when the record said it. */
  readonly replacesThing?: string;
  /**
   * With `replaces`, read from earlier lines by what they are about (`namesNowSaid`): the words of that thing, stemmed; a
   * line naming the old name is marked only when it says one of them too ("Leeds" in "grew up in Leeds" is no venue).
   */
  readonly alongside?: readonly string[];
  /**
   * `later`, read from a record that calls a thing off ("they've called off the x-ray service visit", "the extra
   * Sunday rehearsal is off"): `about` are the thing's words, and a line said before it that names the thing is marked.
   */
  readonly calledOff?: boolean;
  /** An amount taken as the same one wherever it is said per this unit ("£40 a session"; not "raised £40"). */
  readonly per?: string;
  /** Marked only in a line that holds a word starting with one of these (a value carried from another line, `carriedFrom`). */
  readonly within?: readonly string[];
  /**
   * With `loose`, the other values of the same kind the record says beside the new one ("check-in from 12:00 … now
   * we land at 10:50"): a line that states one of them speaks of that one, not of what changed.
   */
  readonly besides?: readonly string[];
  /**
   * A new e-mail address said as a change when no earlier address of its owner was read with it (an earlier batch
   * holds that): any address a line said before it that `sameOwner` gives the same owner is the one replaced.
   */
  readonly mailOf?: string;
  /** The words said the old address is given up ("use the new one, the old one stops next month"): any address of its domain is the one replaced. */
  readonly mailDomain?: boolean;
  /**
   * A person's part said to have ended for good with nothing said to take it ("Debbie's stepping down as welfare
   * officer"): `value` the words that say so; marks the contact's line only, not every record naming them.
   */
  readonly contactOnly?: boolean;
}

/** The attribute a reader gives a value said with the one it replaces when nothing names what it is of ("value replacing 12th"). */
export const REPLACING = 'value replacing';

/** Retired values kept per view: the most recent. */
export const MAX_RETIRED_PER_VIEW = 100;

/** The words of a fact that carry its value: the row's non-key cells, else the statement. */
function factValue(fact: FactItem): string {
  // A row that names its value says which cell it is (a "date" cell beside it only dates it).
  const worded = (cell: string | null | undefined): cell is string => typeof cell === 'string' && (cell.length >= 3 || (cell.length === 2 && /\d/.test(cell)));
  if (worded(fact.row.value)) return fact.row.value;
  const cells = Object.entries(fact.row).filter(([column, value]) => value && !/^(subject|person|name|who|key|entity)$/i.test(column));
  const last = cells.at(-1)?.[1];
  return last && worded(last) ? last : fact.statement;
}

/** An amount per period is said without its period as often as with it ("rent is £560 a month", "rent of £560"): its amount. */
const PER_PERIOD = /^([$£€]\s?\d[\d,]*(?:\.\d+)?(?:\s?[km])?)\s?(?:a|an|per|\/)\s?(?:month|week|year|day|hour|night|head|person|pp)$/iu;
const amountOf = (value: string) => PER_PERIOD.exec(value.trim())?.[1] ?? value;

/** When the newest record an item was read from was written. */
function newestSource(item: MemoryItem): string | undefined {
  return item.evidence.map((e) => e.timestamp).sort().at(-1);
}

/** A proper name the item is about (a contact's name, a fact's capitalised subject), if any. */
function subjectOf(item: MemoryItem): string | undefined {
  if (item.kind === 'contact') return (item as ContactItem).name.split(' ')[0];
  if (item.kind === 'fact') {
    const subject = Object.entries((item as FactItem).row).find(([column]) => /^(subject|person|name|who|entity)$/i.test(column))?.[1];
    return subject && /^\p{Lu}/u.test(subject) ? subject.split(' ')[0] : undefined;
  }
  return undefined;
}

function describe(item: MemoryItem): string {
  switch (item.kind) {
    case 'fact':
      return factValue(item);
    case 'task':
      return (item as TaskItem).title;
    case 'contact':
      return [(item as ContactItem).role, (item as ContactItem).organisation].filter(Boolean).join(' at ') || (item as ContactItem).name;
  }
}

/**
 * The values of one store that are no longer current, newest first: refuted,
 * archived as outdated or superseded items, and changed contact fields.
 */
export function retiredValues(items: readonly MemoryItem[]): RetiredValue[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const out: RetiredValue[] = [];
  for (const item of items) {
    const records = item.evidence.map((e) => e.recordId);
    const subject = subjectOf(item);
    const about = subject ? { subject } : {};
    if (item.verification === 'refuted') {
      out.push({ itemId: item.id, records, value: amountOf(describe(item)), ...about, reason: 'wrong', at: item.updatedAt });
    } else if (item.status === 'archived' && item.supersededBy) {
      const replacement = byId.get(item.supersededBy);
      const said = replacement ? newestSource(replacement) : undefined;
      const nameless = item.kind === 'fact' && String((item as FactItem).row.attribute ?? '').startsWith(`${REPLACING} `);
      const words = item.kind === 'fact' && !nameless ? aboutWords(item as FactItem) : [];
      out.push({ itemId: item.id, records, value: amountOf(describe(item)), ...about, reason: 'superseded', at: said ?? item.validUntil ?? item.updatedAt, ...(replacement ? { now: describe(replacement) } : {}), ...(words.length > 0 ? { about: words } : {}), ...(nameless ? { onlyBefore: true } : {}) });
    } else if (item.status === 'archived' && item.validUntil) {
      out.push({ itemId: item.id, records, value: amountOf(describe(item)), ...about, reason: 'outdated', at: item.validUntil });
    } else if (item.kind === 'task' && item.state !== 'open' && item.closedAt) {
      // A request done or called off: the records asking for it are history, and say so ("… (later: done on …)").
      // Not the records that closed it ("Workshop done. Lovely group", and the reply noting it), nor any after the first of them.
      const closers = new Set(item.history.filter((c) => c.field === 'state' && c.to === item.state).flatMap((c) => c.evidence));
      const closedAt = item.evidence.filter((e) => closers.has(e.recordId)).reduce((first, e) => (before(e.timestamp, first) ? e.timestamp : first), item.closedAt);
      const asked = item.evidence.filter((e) => !closers.has(e.recordId) && before(e.timestamp, closedAt)).map((e) => e.recordId);
      if (asked.length > 0) out.push({ itemId: item.id, records: asked, value: item.title, reason: 'closed', at: closedAt, now: item.state, onlyBefore: true });
    }
    if (item.kind === 'contact') {
      for (const change of item.history) {
        if ((change.field === 'organisation' || change.field === 'role' || change.field === 'channels') && typeof change.from === 'string' && change.from && change.from !== change.to) {
          // Dated by the record that said it changed, not by when the change was consolidated.
          const said = item.evidence.filter((e) => change.evidence.includes(e.recordId)).map((e) => e.timestamp).sort().at(-1);
          out.push({ itemId: item.id, records: [], value: change.from, ...about, reason: 'changed', field: change.field, at: said ?? change.at, ...(typeof change.to === 'string' && change.to ? { now: change.to } : {}) });
        }
      }
    }
  }
  out.push(...contested(items));
  const settled = out.sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_RETIRED_PER_VIEW);
  return [...settled, ...saidLater(items)];
}

/** A thing as a fact's subject ("installation visit" / "date") names what it is of; a person ("Dana") or the user does not. */
function thingOf(fact: FactItem): string {
  const subject = typeof fact.row.subject === 'string' ? fact.row.subject : '';
  return subject && !/^\p{Lu}/u.test(subject) && !/^(?:user|me|i|self|\u0000me)$/i.test(subject) ? subject : '';
}

/** The words naming what a fact's value is of: its thing and attribute, less how often, whose and what kind. */
function aboutWords(fact: FactItem): string[] {
  const attribute = typeof fact.row.attribute === 'string' ? fact.row.attribute : '';
  return [...new Set(`${thingOf(fact)} ${attribute}`.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter((w) => w.length >= 3 && !NOT_ABOUT.has(w)))];
}

/** Current values kept per view to mark the lines said before them. */
export const MAX_SAID_LATER_PER_VIEW = 40;

/** Words of an attribute that name no thing: how often, whose, and what kind of value ("daily", "number", "date"). */
const NOT_ABOUT = new Set(['daily', 'weekly', 'monthly', 'yearly', 'annual', 'nightly', 'new', 'current', 'my', 'your', 'our', 'their', 'the', 'a', 'an', 'of', 'per', 'for', 'this', 'at', 'in', 'on', 'to', 'number', 'no', 'id', 'date', 'day', 'time', 'amount', 'count', 'total', 'value', 'level']);

/**
 * Current facts whose value is a day, a time, an amount or a number, with the words that name what it is of. A
 * value that changed often reaches the store only as its new form ("let's raise your daily step goal to 11,000";
 * the first goal was said in passing and no item held it), so no retired value names the old one; a line said
 * before the new value was, speaking of the same thing with another value of that kind, is history the current
 * value replaced, and is marked with it (`(later: daily step goal 11,000, from …)`).
 */
function saidLater(items: readonly MemoryItem[]): RetiredValue[] {
  // A value that replaced an item's marks the lines stating that item's value by its retired value (retiredIn reads
  // those first); the other lines said before it, of the same thing with another value of its kind, by this one.
  const out: RetiredValue[] = [];
  for (const item of items) {
    if (item.kind !== 'fact' || item.status !== 'active' || item.verification === 'refuted') continue;
    const fact = item as FactItem;
    const value = factValue(fact);
    // A person in a role is a value of its kind only when the role was said to change hands ("the new head chef is
    // Tomasz"): "my dentist is Dr Weiss" says nothing of who it was before.
    const handedOver = PERSON_VALUE.test(value) && HANDED_OVER.test(fact.statement);
    if (value === fact.statement || (!valueShape(value) && !handedOver)) continue;
    const attribute = typeof fact.row.attribute === 'string' ? fact.row.attribute : '';
    // One sends many invoices: the latest number replaces no earlier one unless it says whose it is ("deposit invoice for okafor").
    if (/\binvoice\b/i.test(attribute) && !/\bfor\b/i.test(attribute)) continue;
    const thing = thingOf(fact);
    const about = aboutWords(fact);
    if (about.length === 0) continue;
    const first = item.evidence.map((e) => e.timestamp).sort()[0];
    if (!first) continue;
    const person = subjectOf(item);
    out.push({ itemId: item.id, records: item.evidence.slice(-10).map((e) => e.recordId), value, ...(person ? { subject: person } : {}), reason: 'later', at: first, now: `${[thing, attribute, value].filter(Boolean).join(' ')}`, about });
  }
  return out.sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_SAID_LATER_PER_VIEW);
}

/** Counts said in words ("four performances"): from two up, since "one" is said of far more than counts. */
const NUMBER_WORDS = '(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:one|two|three|four|five|six|seven|eight|nine)|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** What kind of value a text states: a day, a time of day, an amount of money, a code, or another number. */
const SHAPES: readonly (readonly [string, RegExp])[] = [
  ['day', new RegExp(`\\b(?:(?:mon|tues?|wed|thu|thurs?|fri|sat|sun) [0-3]?\\d(?:st|nd|rd|th)\\b|${MONTH} [0-3]?\\d(?:st|nd|rd|th)?\\b|[0-3]?\\d(?:st|nd|rd|th)?(?: of)? ${MONTH}(?![a-z])|\\d{4}-\\d{2}-\\d{2}|(?:mon|tues|wednes|thurs|fri|satur|sun)days?\\b|(?:weds|tues|thurs)\\b|the [0-3]?\\d(?:st|nd|rd|th)\\b)`, 'gi')],
  // A time with a dot and no am or pm ("9.15") only after words that say a time follows ("kick-off at 9.15"), or as a
  // service is named by when it leaves ("the 10.42 from Paddington"): bare, it may be any decimal.
  ['time', /\b(?:[0-2]?\d:[0-5]\d(?:\s?[ap]\.?m\.?)?|[01]?\d\.[0-5]\d\s?[ap]\.?m\.?|(?<=\b(?:at|to|from|until|till|by|before|after|kick-?off|start|starts|setup|set-up|doors|opens?|closes?)\s)[012]?\d\.[0-5]\d(?![\d%\p{L}]|[.,]\d|\s(?:kg|km|miles?|cm|mm|ml|litres?|lbs?|g|m|per|percent|an?)\b)|(?<=\bthe\s)[012]?\d[.:][0-5]\d(?=\s+(?:from|train|service|departure|bus|coach|ferry|flight|sailing)\b)|[01]?\d\s?[ap]\.?m\.?|(?:(?:a\s)?quarter\s(?:past|to)|half\spast|(?:five|ten|twenty|twenty-five)\s(?:past|to))\s(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|1[0-2]|[1-9])|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|1[0-2]|[1-9])\so['’]clock|(?<=\b(?:at|by|until|till|from|before|after|around|to)\s)(?:noon|midday))(?![\p{L}\p{N}])/giu],
  ['money', /[$£€]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:dollars|euros|pounds|usd|gbp|eur|quid|grand|bucks)\b/gi],
  ['code', /\b[A-Z]{1,6}[-/]?\d[A-Z0-9/-]*\b/g],
  // A number said in words is a count, not an amount said in words ("three hundred and ten for the beech").
  ['number', new RegExp(`(?:\\d[\\d,.]*|\\b(?:${NUMBER_WORDS})\\b(?!\\s+(?:hundred|thousand|grand|quid|pounds?|dollars?|euros?)\\b))(?:\\s?[\\p{L}%]+)?`, 'giu')],
];
/** A street address: a house number, one to three capitalised words and the kind of street ("22 Ladybarn Lane", "4 Tenter Close"). */
const STREET_ADDRESS = /(?<![\p{L}\p{N}£$€.,:-])\d{1,4}[a-z]?,?\s+(?!(?:Bed|Beds|Bedroom|Bedrooms|Bath|Baths|Storey|Star)\b)(?:\p{Lu}[\p{L}'’-]*\s+){1,3}(?:Road|Rd|Street|St|Avenue|Ave|Lane|Close|Grove|Way|Drive|Crescent|Place|Terrace|Gardens|Court|Square|Mews|Parade)(?![\p{L}])/gu;
/** A person's name as a value ("Tomasz", "Dr Ana Reyes"). */
const PERSON_VALUE = /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{Ll}'’-]+(?: \p{Lu}[\p{Ll}'’-]+)?$/u;
/** Words that say a role changed hands. */
const HANDED_OVER = /\b(?:new|now|taking over|took over|taken over|takes over|replac\w*|instead|stepping in|stepped in)\b/i;
/** A name in a line: a capitalised word (what names no person is left out by `personLike`). */
const NAME_IN_LINE = /(?<![\p{L}\p{N}])(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{Ll}'’-]+/gu;

/** Capitalised words that name no person: pronouns, days, months, and the words naming the role itself. */
const NOT_PERSON = /^(?:I['’]\p{Ll}+|The|This|That|These|Those|There|Then|They|Their|She|He|His|Her|We|Our|You|Your|My|It|Its|Mon|Monday|Tue|Tues|Tuesday|Wed|Wednesday|Thu|Thurs|Thursday|Fri|Friday|Sat|Saturday|Sun|Sunday|Jan|January|Feb|February|Mar|March|Apr|April|May|Jun|June|Jul|July|Aug|August|Sep|Sept|September|Oct|October|Nov|November|Dec|December|Ok|Okay|Thanks|Yes|No)$/u;
const personLike = (word: string, about: readonly string[]) => !NOT_PERSON.test(word) && !about.includes(word.toLowerCase());

function valueShape(text: string): string | undefined {
  return SHAPES.find(([, pattern]) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text))?.[0];
}
/** A number's unit ("140g" → "g", "9000 steps" → "step"); none for a bare number. */
const unitOf = (value: string) => new RegExp(`(?:\\d|^(?:${NUMBER_WORDS}))\\s?([\\p{L}%]+)$`, 'iu').exec(value.trim())?.[1]?.toLowerCase().replace(/e?s$/, '');
/** Words by which a line speaks of someone else's thing, not the user's ("Mum's birthday", "her step goal"). */
const SOMEONE_ELSES = /\b\p{Lu}\p{Ll}+['’]s\b|\b(?:mum|mom|dad|mother|father|sister|brother|wife|husband|partner|son|daughter|friend|boss|his|her|their)['’]?s?\b/u;
/** Values that do not change, so a line with another one is of another person or thing. */
const FIXED = /\b(?:birthday|anniversary|birth|born|name|age)\b/i;

/**
 * Whether a line speaks of what a `later` value is of, with another value of its kind: the words naming it as one
 * phrase ("step goal", "installation visit"), and within eight words of it a value of the same shape (for a number,
 * one `likeNumber` allows). Not a line about someone else's ("Mum's birthday is May 2") when the value is the user's.
 */
function speaksOf(text: string, r: RetiredValue, subjectNamed: boolean, at?: string, from = 0): boolean {
  // A reply read with the question it answers (from `from` on): only a value said loosely is read by the question's
  // words, and only a value of the reply's own.
  if (from > 0) {
    const reply = text.slice(from);
    if (!r.loose || r.replaces || r.calledOff) return speaksOf(reply, r, subjectNamed, at);
    // The question names the thing (two words of the change's, or its one), the reply gives a value of its kind.
    const asked = (/[^.!?]*\?\s*$/u.exec(text.slice(0, from))?.[0] ?? '').toLowerCase();
    const about = r.about ?? [];
    const named = about.filter((word) => asked.includes(word.slice(0, 4))).length >= Math.min(2, about.length) && about.length > 0;
    return named && !holds(reply, r.value) && othersOfItsKind(reply, r, undefined, at, true).length > 0;
  }
  if (r.replaces) return namesOld(text, r);
  // A line that says the thing was called off (a summary quoting the record that said so) needs no marker.
  if (r.calledOff) return namesThing(text, r.about ?? []) && !(CALLED_OFF_CUE.test(text) && thingsCalledOff(text).some((thing) => thing.join(' ') === (r.about ?? []).join(' '))) && !(r.now !== CALLED_OFF_MARK && holds(text, r.now ?? r.value));
  if (r.loose) return nearSameKind(text, r, at);
  const words = r.about ?? [];
  // (A role is someone else's by nature: "email her" speaks of the club secretary all the same.)
  const person = PERSON_VALUE.test(r.value) && valueShape(r.value) === undefined;
  if (words.length === 0 || FIXED.test(words.join(' ')) || (!subjectNamed && !person && SOMEONE_ELSES.test(text))) return false;
  // The same kind of amount said per the same unit ("£11.50 an hour" for "£12.20 an hour", "23 subscribers" for
  // "27 subscribers"), of the person the value is about or with every word naming the thing.
  const unit = sameUnit(r.value);
  if (unit?.test(text) && (subjectNamed || words.filter((word) => !PRICE_WORDS.has(word)).every((word) => holds(text, word) || holds(text, `${word}s`)))) return true;
  // The words naming it: the last two as one phrase, the others anywhere in the line ("the pitch fee at Castle
  // Square" for "Castle Square pitch fee"; "step count … the goal" is no "step goal").
  const head = words.slice(-2);
  if (!words.slice(0, -2).every((word) => holds(text, word) || holds(text, `${word}s`))) return false;
  const phrase = new RegExp(`(^|[^\\p{L}\\p{N}])${head.map((word) => `${escape(word).replace(/-/g, '[- ]?')}(?:s|es)?`).join('[\\s-]+')}($|[^\\p{L}\\p{N}])`, 'iu').exec(text);
  if (!phrase) return false;
  const shape = person ? 'person' : valueShape(r.value);
  const pattern = shape === 'person' ? NAME_IN_LINE : SHAPES.find(([name]) => name === shape)?.[1];
  if (!pattern) return false;
  // Eight words either side of the phrase.
  const before = text.slice(0, phrase.index).split(/\s+/).slice(-8).join(' ');
  const after = text.slice(phrase.index + phrase[0].length).split(/\s+/).slice(0, 9).join(' ');
  return [...`${before} ${phrase[0]} ${after}`.matchAll(new RegExp(pattern.source, pattern.flags))].some((m) => (shape === 'number' ? likeNumber(m[0], r.value) : shape === 'person' ? personLike(m[0], words) : true));
}

/** What an amount is per, or a count is of, when it says: "£12.20 an hour" → "hour", "16 hours a week" → "hours a week". */
const PER_UNIT = /^[$£€]?\s?\d[\d,]*(?:\.\d+)?\s?(?:(?:a|an|per|\/)\s?([\p{L}]{3,12})|([\p{L}]{3,}?s?(?:\s(?:a|per)\s(?:week|day|month|year|session))?))$/iu;
/** Words of an amount's name that say only that it is one ("price per box" is said "£15 per box"). */
const PRICE_WORDS = new Set(['price', 'rate', 'fee', 'cost', 'pay', 'charge', 'amount', 'hourly']);
/** Units that say how long or how often, not what is counted ("in 3 weeks"). */
const NO_UNIT = /^(?:days?|weeks?|months?|years?|times?|hours?|mins?|minutes?|am|pm|st|nd|rd|th)$/i;

/** A pattern for another value of the same unit as `value` ("£11.50 an hour" for "£12.20 an hour"), if it has one. */
function sameUnit(value: string): RegExp | undefined {
  const m = PER_UNIT.exec(value.trim());
  if (!m) return undefined;
  const money = /^[$£€]/.test(value.trim());
  if (m[1] && money) return new RegExp(`[$£€]\\s?\\d[\\d,]*(?:\\.\\d+)?\\s?(?:a|an|per|\\/)\\s?${escape(m[1])}(?![\\p{L}])`, 'iu');
  if (!m[2] || money || NO_UNIT.test(m[2])) return undefined;
  const [noun, ...rest] = m[2].split(/\s+/);
  const stem = noun!.replace(/e?s$/i, '');
  return new RegExp(`(?<![\\d.,])\\d[\\d,]*(?:\\.\\d+)?\\s?${escape(stem)}(?:s|es)?${rest.length > 0 ? `\\s${rest.map(escape).join('\\s')}` : ''}(?![\\p{L}])`, 'iu');
}

/**
 * Whether a number in a line could be an earlier value of a number: not a time ("5pm"), the same unit when both
 * have one ("8,500 steps" for "11,000" or "9000 steps"; not "7 km"), and about as many digits (not a 4417 for a 54).
 */
function likeNumber(said: string, value: string): boolean {
  if (/\d:\d|\d\s?[ap]\.?m\b/i.test(said)) return false;
  const [a, b] = [unitOf(said), unitOf(value)];
  if (a && b && a !== b) return false;
  const digits = (text: string) => (/\d[\d,.]*/.exec(text)?.[0] ?? '').replace(/\D/g, '').length;
  return Math.abs(digits(said) - digits(value)) <= 1;
}

/** Whether two amounts are near enough to be one price said before and after a change: within a factor of three. */
function nearAmount(a: string, b: string): boolean {
  const amount = (text: string) => (/\d[\d,]*(?:\.\d+)?\s?[km]?/i.exec(text)?.[0] ?? '').replace(/,/g, '');
  const [x, y] = [amount(a), amount(b)];
  // An amount in thousands or millions ("£18k") is compared by what it says, not taken apart.
  if (/[km]$/i.test(x.trim()) || /[km]$/i.test(y.trim())) return true;
  const [p, q] = [Number.parseFloat(x), Number.parseFloat(y)];
  return !(p > 0 && q > 0) || Math.max(p, q) / Math.min(p, q) <= 3;
}

/** A fact's key without its value: its table and every other cell (a date cell beside the value dates the value). */
function conflictKey(fact: FactItem): string {
  const value = factValue(fact);
  return `${fact.table}\u0000${Object.entries(fact.row)
    .filter(([column, cell]) => cell !== value && !(column === 'date' && fact.row.value === value))
    .map(([column, cell]) => `${column}=${String(cell).toLowerCase()}`)
    .sort()
    .join('\u0000')}`;
}

/** The older sides of each unsettled conflict among facts: stated once, said otherwise by a later record. */
function contested(items: readonly MemoryItem[]): RetiredValue[] {
  const sides = new Map<string, FactItem[]>();
  for (const item of items) if (item.kind === 'fact' && item.status === 'conflict') sides.set(conflictKey(item), [...(sides.get(conflictKey(item)) ?? []), item]);
  const out: RetiredValue[] = [];
  for (const group of sides.values()) {
    const dated = group.map((fact) => ({ fact, at: newestSource(fact) ?? fact.updatedAt })).sort((a, b) => b.at.localeCompare(a.at));
    const latest = dated[0]!;
    for (const { fact } of dated.slice(1)) {
      if (factValue(fact).toLowerCase() === factValue(latest.fact).toLowerCase()) continue;
      const subject = subjectOf(fact);
      out.push({ itemId: fact.id, records: fact.evidence.map((e) => e.recordId), value: factValue(fact), ...(subject ? { subject } : {}), reason: 'contested', at: latest.at, now: factValue(latest.fact) });
    }
  }
  return out;
}

/** Whether `text` holds `words` as whole words (case-insensitive). */
function holds(text: string, words: string): boolean {
  const key = words.trim();
  return compiled(`w ${key}`, () => `(^|[^\\p{L}\\p{N}])${streetForms(escape(key))}($|[^\\p{L}\\p{N}])`).test(text);
}

/** A street's last word as either of its forms ("Elm St" holds in "Elm Street", "Dale Road" in "Dale Rd."). */
const STREET_WORDS: readonly [string, string][] = [['St', 'Street'], ['Rd', 'Road'], ['Ave', 'Avenue'], ['Ln', 'Lane'], ['Sq', 'Square'], ['Cres', 'Crescent'], ['Pl', 'Place']];
function streetForms(escaped: string): string {
  for (const [short, long] of STREET_WORDS) {
    const at = new RegExp(`(?<=\\S\\s)(?:${short}|${long})$`, 'i').exec(escaped);
    if (at) return `${escaped.slice(0, at.index)}(?:${short}\\.?|${long})`;
  }
  return escaped;
}

/** Whether a text holds a word that starts with `start`, case aside. */
function startsWord(text: string, start: string): boolean {
  return compiled(`s ${start}`, () => `(?:^|[^\\p{L}\\p{N}])${escape(start)}`).test(text);
}

/** A case-insensitive pattern, compiled once per key: every line is read against every retired value, the same few hundred patterns. */
function compiled(key: string, source: () => string): RegExp {
  let pattern = PATTERNS.get(key);
  if (!pattern) {
    if (PATTERNS.size >= MAX_PATTERNS) PATTERNS.clear();
    pattern = new RegExp(source(), 'iu');
    PATTERNS.set(key, pattern);
  }
  return pattern;
}
const PATTERNS = new Map<string, RegExp>();
const MAX_PATTERNS = 10_000;

/** Whether `text` states `value` as words of its own (case-insensitive, whole words; four letters at least, or a number: a locker's "218"). */
export function states(text: string, value: string): boolean {
  const words = value.trim();
  return (words.length >= 4 || /^\d{2,}$/.test(words)) && holds(text, words);
}

/** Words that say a value changed: the record holding them and a new value is a change said in words. */
const CHANGE_CUE = /\b(?:instead|(?<!\b(?:days?|weeks?|months?|years?|ages|while|hours?|minutes?|mins?|for)\s)now|moved|moves to|move (?:it |things |us |them )?to|moving it|changed|switched|swapped|(?<!\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a few|some|several|more|plus|\+)\s)new|actually|(?<!\b(?:not|never)\s|n['’]t\s)agreed|rather than|bumped|(?:going|gone|went|goes) up(?! (?:to|from) (?![£$€\d]))|dropped|reset|adjusted|pushed|postponed|rescheduled|brought forward|a week later|any ?more|no longer|updated|corrected|correction|re(?:assign|issu|nam|number|locat|pric|brand)\w*|not the|not any|bump\w*|make it|makes it|cut (?:\w+ )?to|lower(?:ed|ing)?|rais(?:e|ed|ing)|increas(?:e|ed|ing)|reduc(?:e|ed|ing)|from now on|going forward|moving (?:[\w'’]+ ){0,2}to|go(?:es|ing)? (?:up|down)(?! (?:to|from) (?![£$€\d]))|(?:gone|went|come|came|coming) down(?! (?:to|from) (?![£$€\d]))|scrap\w*|shift(?:ed|ing)|shifts? (?:it|them|things|that|to|back|forward|the)|(?:push\w*|put|puts|putting|mov\w*|bring\w*|brought|pull\w*)\s+(?:[\w'’-]+\s+){0,3}?(?:back|forward) from|rebook\w*|push(?:es|ing)?\s+(?:[\w'’-]+\s+){0,4}?(?:back\s+|forward\s+)?to|better (?:rate|price|deal|offer)|fresh (?:one|number|code|ref\w*|po|order|account|booking)|put(?:s|ting)?\s+(?:[\w'’-]+\s+){0,3}?(?:up|down)\s+to|not (?=[£$€]?\d+(?![\d.,]*\s?%)))\b/i;
/** An e-mail address, without the full stop that may end its sentence; each part bounded, so a long run of word characters is read in linear time. */
const EMAIL = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,4}\.[a-z]{2,24}/gi;
/** A phone number: a value of its own kind (a number pattern would stop at its first space); a full stop may end it. */
const PHONE = /(?<!\d|\d[.,])\+?\d[\d ]{8,14}\d(?!\d|[.,]\d)/g;
/** Words too common to say what a value is of. */
const COMMON = new Set(['that', 'this', 'with', 'from', 'have', 'been', 'will', 'they', 'them', 'their', 'there', 'then', 'than', 'what', 'when', 'which', 'were', 'just', 'also', 'about', 'into', 'after', 'before', 'still', 'only', 'even', 'some', 'more', 'less', 'much', 'very', 'really', 'going', 'said', 'says', 'told', 'make', 'made', 'next', 'last', 'week', 'weeks', 'month', 'months', 'year', 'years', 'time', 'times', 'today', 'tomorrow', 'yesterday', 'tonight', 'morning', 'evening', 'night', 'day', 'days', 'would', 'could', 'should', 'it’s', "it's", 'that’s', "that's", "i'll", "we'll", "i've", "we've", 'okay', 'yeah', 'thanks', 'good', 'great', 'sure', 'think', 'know', 'need', 'want', 'like', 'well', 'because', 'other', 'same', 'every', 'each', 'both', 'over', 'back', 'again', 'include', 'includes', 'included', 'including', 'room', 'building', 'place', 'office', 'floor', 'thing', 'things', 'stuff', 'people', 'everyone', 'anyone', 'someone', 'afternoon', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'weekend', 'hour', 'hours', 'minute', 'minutes', 'total', 'price', 'cost', 'costs', 'pay', 'paid', 'book', 'booked', 'sorry', 'notice', 'start', 'starting', 'first', 'second', 'around', 'doing', 'number', 'phone', 'mobile', 'contact', 'details',
  // Words of any sentence, naming nothing a value is of ("under the new hours", "please note", "eight agenda items").
  'under', 'above', 'below', 'within', 'without', 'through', 'across', 'along', 'upon', 'onto', 'where', 'while', 'here', 'must', 'might', 'shall', 'your', 'yours', 'ours', 'hers', 'please', 'note', 'noted', 'not', 'yes', 'fine', 'item', 'items', 'spoke', 'spoken', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']);
/** Words said just before a value that make it the one replaced ("instead of £85", "not 3"; not "from", which also starts a time: "now from 13:00"). */
const OLD_BEFORE = /\b(?:instead of|rather than|not|no longer|was|were|used to be|previously)\s+(?:the\s+|a\s+|an\s+|this\s+|that\s+)?$/i;
/** Words said just before a value that keep it ("it's still the 23rd but now lands at 5:40"): no new value. */
const KEPT_BEFORE = /\b(?:still|same|stays?|staying|remains?|remaining)\s+(?:the\s+|on\s+|at\s+|a\s+|an\s+)?$/i;
/** A number alone, in digits or words ("6", "six"): what counts before "of" may be said of ("teams of 5 not 6"). */
const PLAIN_NUMBER = new RegExp(`^(?:\\d[\\d.,]*|${NUMBER_WORDS})$`, 'iu');
/** A value said with the one it replaces: "2 laps not 3", "£110 instead of £85", "9:30 rather than 10:00". */
const SAID_INSTEAD = new RegExp(
  `(?<![\\p{L}\\p{N}])([£$€]?\\d[\\d.,:]*(?:\\s?[ap]m)?|(?:${NUMBER_WORDS})(?=\\s(?:[\\p{L}\\p{N}]+\\s)?\\p{L}{3,}))(?:\\s(\\p{L}+|\\p{Lu}+\\d+\\s\\p{L}+|(?<=[£$€][\\d.,]+\\s)(?:a|an|per|each)\\s\\p{L}+))?,?\\s(?:not|instead of|rather than)\\s(?:the\\s)?([£$€]?\\d[\\d.,:]*(?:\\s?[ap]m)?|(?:${NUMBER_WORDS})(?![\\p{L}]))(?![\\d])(?:\\s(\\p{L}+))?`,
  'giu',
);
const MONTH_LIST = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_NAMES = new Set(MONTH_LIST);
/**
 * The day a date said as a bare ordinal was on, beside the new date it gave way to ("6 May, not the 29th"): a date
 * moved by less than a month, so a later day of the month than the new one was in the month before ("29 April").
 */
function dayOfOtherMonth(day: number, newDay: number, month: string): string {
  const index = MONTH_LIST.indexOf(month.toLowerCase());
  const name = MONTH_LIST[day > newDay ? (index + 11) % 12 : index]!;
  return `${day} ${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** A weekday, whole or as chat shortens it. */
const WEEKDAY_WORD = String.raw`(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:rs?(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;
/** A weekday said with the one it replaces: "on Thursday, not Tuesday", "bins out wed night not tues", "thurs now not weds". */
/** A weekday said as a word of a text; and a word that is a weekday and nothing else. */
const WEEKDAY_IN = new RegExp(String.raw`(?<![\p{L}])${WEEKDAY_WORD}(?![\p{L}])`, 'giu');
const WEEKDAY_WORD_ONLY = new RegExp(`^${WEEKDAY_WORD}$`, 'iu');
const WEEKDAY_PAIR = new RegExp(String.raw`(?<![\p{L}])(${WEEKDAY_WORD})(?:\s+(?:night|morning|afternoon|evening|now))?,?\s+(?:not|instead of|rather than)\s+(?:the\s+|on\s+|a\s+)?(${WEEKDAY_WORD})(?![\p{L}])`, 'giu');

/** What a line naming a thing called off is marked with. */
const CALLED_OFF_MARK = 'cancelled';
const CALLED_OFF_CUE = /\b(?:off|cancell?(?:ed|ing)|scrapp(?:ed|ing)|axed)\b/i;
/** A thing of two to four words, ending where the clause does. */
const THING = String.raw`([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){1,3}?)`;
const THING_END = String.raw`(?=\s*(?:[.,;:!?)—–-]|$)|\s+(?:for|on|at|until|till|and|but|so|because|since|given|as|this|next|today|tomorrow|tonight|after|now|altogether|completely)(?![\p{L}]))`;
const CALLED_OFF = new RegExp(
  String.raw`(?<![\p{L}])(?:(?:called|calling|call|cancell?ed|cancell?ing|cancel|scrapped|scrapping|scrap|axed)\s+(?:off\s+)?(?:the|our|my|their|this|that|her|his|your)\s+${THING}${THING_END}|(?:the|our|my|their|this|that|your)\s+${THING}(?:\s+(?:is|['’]s|has\s+been|have\s+been|was|got|are)|['’]s)\s+(?:now\s+|been\s+|officially\s+)?(?:off(?!\s+(?:sick|ill|work|again|duty|shift|school|the\s+(?:hook|table|menu)))|cancell?ed|called\s+off|scrapped|axed)(?![\p{L}])|(?<=^\s*(?:[-•*]\s*)?|\n\s*(?:[-•*]\s*)?|(?<![\p{L}])(?:so|and|but|because|cos|sadly|now)\s+|[,;:—–]\s+|\s-\s+)${THING}(?:(?:\s+(?:is|['’]s|has\s+been|have\s+been|was|got|are)|['’]s)\s+(?:now\s+|been\s+|officially\s+)?(?:off(?!\s+(?:sick|ill|work|again|duty|shift|school|the\s+(?:hook|table|menu)))|cancell?ed|called\s+off|scrapped|axed)|(?<!(?<![\p{L}])(?:has|have|had|will|would|who|they|we|i|he|she|you))\s+(?:now\s+|officially\s+)?(?:cancell?ed|called\s+off|scrapped|axed))(?![\p{L}]))`,
  'giu',
);
/** "there's no need for Thursday's quarterly inspection, …, so it's called off": the thing, then "it" called off. */
const NO_NEED_SO_OFF = new RegExp(
  String.raw`(?<![\p{L}])no need for (?:the\s+|our\s+|this\s+|that\s+|(?:(?:next|this|last)\s+)?\p{L}+['’]s\s+)?${THING}${THING_END}[^.!?]*?(?<![\p{L}])it['’]?s\s+(?:now\s+)?(?:been\s+)?(?:called off|cancell?ed)(?![\p{L}])`,
  'giu',
);
/** "May" the month: after a word that puts a time, or before a day's number. */
const MONTH_MAY = /(?<=(?<![\p{L}])(?:in|of|since|until|till|by|from|early|late|mid|next|last|this)\s)May(?![\p{L}])|(?<![\p{L}])May\s+\d/gu;
/** Words in a sentence that make a calling off only a possibility or a question. */
const NOT_YET_OFF = /(?<![\p{L}])(?:if|might|may|could|unless|whether|maybe|perhaps|should|would|not|never|\p{L}+n['’]t|cannot|nearly|almost)(?![\p{L}])|\?/iu;
/** Words of a thing called off that name nothing particular. */
const THING_STOP = new Set(['the', 'a', 'an', 'whole', 'entire', 'rest', 'of', 'it', 'thing', 'plan', 'plans', 'idea', 'one', 'usual', 'big', 'little', 'today', 'tonight', 'tomorrow', 'tmrw', 'ok', 'okay', 'so', 'also', 'and', 'sadly', 'right']);

/** The things a text says were called off, each as its words (lower case), when it names one by two words at least. */
function thingsCalledOff(text: string): string[][] {
  const out: string[][] = [];
  // A day the service anchored beside the words that said it ("the extra Sunday (2025-10-05) rehearsal") is no word of the thing.
  for (const sentence of sentencesOf(text.replace(ANCHORED_DAY, ''))) {
    for (const m of [...sentence.text.matchAll(CALLED_OFF), ...sentence.text.matchAll(NO_NEED_SO_OFF)]) {
      // The month ("serviced in May") is no "may".
      if (NOT_YET_OFF.test(sentence.text.slice(0, m.index! + m[0].length).replace(MONTH_MAY, 'month'))) continue;
      // A place named before the thing ("Pickering Lane reptile survey") is where it was, not what was called off.
      const said = (m[1] ?? m[2] ?? m[3] ?? '').split(/\s+/);
      const place = said.findIndex((word) => !/^\p{Lu}/u.test(word));
      const words = (place >= 2 && said.length - place >= 2 ? said.slice(place) : said).map((word) => word.toLowerCase()).filter((word) => !THING_STOP.has(word));
      if (words.length >= 2 && !out.some((other) => other.join(' ') === words.join(' '))) out.push(words);
    }
  }
  return out;
}

/** States a thing reaches that end what was said of it before (an application approved, a refund processed, a course dropped). */
const STATE = String.raw`(approved|issued|submitted|dropped|processed|granted|accepted|rejected|declined|refunded|signed off|completed|finished|sorted|paid|received|delivered|renewed|resolved|fixed|withdrawn|settled|landed|come through|came through|gone through|went through)(?=\s*(?:[.,;:!?)—–-]|$)|\s+(?:this|today|yesterday|on(?! (?:the day|delivery|completion|arrival|collection|a\b))|last|and|but|so|now|already|at|in(?! (?:advance|cash|instal))|too|as well)(?![\p{L}]))`;
const STATE_CUE = new RegExp(`(?<![\\p{L}])${STATE}(?![\\p{L}])`, 'iu');
const STATE_SAID = new RegExp(
  String.raw`(?<![\p{L}])(?:(?:the|our|my|their|this|that|your|his|her)\s+${THING}(?:\s+(?:for|of|from)\s+(?:the\s+|our\s+|my\s+|your\s+)?[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2}?)?(?:\s+(?:is|['’]s|has|have|was|were|got|are|been|now|finally|officially|just|all|already))*\s+${STATE}|(?<=^\s*(?:[-•*]\s*)?|\n\s*(?:[-•*]\s*)?|[—–]\s*|(?<![\p{L}])(?:noted|fantastic|great|brilliant|done|ok|okay)[,:]?\s+)${THING}(?::\s*|\s+(?:(?:is|has been|got|now|finally|officially)\s+)?)${STATE})(?![\p{L}])`,
  'giu',
);

/** Words no thing that reached a state is named by. */
const NOT_A_THING = /^(?:i|me|you|we|us|he|him|she|they|them|it|its|is|are|was|were|be|been|am|has|have|had|do|does|did|get|gets|got|can|could|will|would|should|may|might|must|see|saw|with|from|as|at|by|in|on|to|for|that|this|these|those|there|here|what|which|who|when|where|how|why|if|once|until|after|before|unless|he's|she's|it's|they're|we're|i'm|you're|kind|regards|thanks|week|day|month|year|side|all|any|some|more|most|\d[\d,.]*|two|three|four|five|six|seven|eight|nine|ten|[\p{L}-]+-(?:one|two|three|four|five|six|seven|eight|nine))$/u;

/** The things a text says reached a state, each as its words (lower case) and the state, when it names one by two words at least. */
function thingsSettled(text: string): [string[], string][] {
  const out: [string[], string][] = [];
  for (const sentence of sentencesOf(text.replace(ANCHORED_DAY, ''))) {
    for (const m of sentence.text.matchAll(STATE_SAID)) {
      // "if the grant is approved", "not approved yet", "has it been approved?": no state reached.
      if (NOT_YET_OFF.test(sentence.text.slice(0, m.index! + m[0].length).replace(MONTH_MAY, 'month')) || /^[^.!]*\?|^\s*(?:yet|soon|later|by)\b/i.test(sentence.text.slice(m.index! + m[0].length))) continue;
      const words = (m[1] ?? m[3] ?? '').split(/\s+/).map((word) => word.toLowerCase()).filter((word) => !THING_STOP.has(word));
      const state = (m[2] ?? m[4] ?? '').toLowerCase();
      // A thing is named by its nouns: no pronoun, verb of being or having, or count ("i have twenty-five walkers").
      if (words.some((word) => NOT_A_THING.test(word))) continue;
      if (words.length >= 2 && !out.some(([other]) => other.join(' ') === words.join(' '))) out.push([words, state]);
    }
  }
  return out;
}

/** The patterns a thing called off is named by, built once per thing (a block reads every line against each). */
const THING_PATTERNS = new Map<string, { pairs: RegExp[]; each: RegExp[] }>();

/** Whether a line names a thing: every one of its words in one sentence, or two of them side by side. */
function namesThing(text: string, words: readonly string[]): boolean {
  if (words.length < 2) return false;
  const key = words.join(' ');
  let patterns = THING_PATTERNS.get(key);
  if (!patterns) {
    const word = (w: string) => `${escape(w).replace(/-/g, '[- ]?')}(?:s|es)?`;
    patterns = {
      pairs: words.slice(1).map((w, i) => new RegExp(`(?<![\\p{L}])${word(words[i]!)}\\s+${word(w)}(?![\\p{L}])`, 'iu')),
      each: words.map((w) => new RegExp(`(?<![\\p{L}])${word(w)}(?![\\p{L}])`, 'iu')),
    };
    if (THING_PATTERNS.size >= 2_000) THING_PATTERNS.clear();
    THING_PATTERNS.set(key, patterns);
  }
  if (patterns.pairs.some((pair) => pair.test(text))) return true;
  // Every word somewhere in the line first (cheap), then in one sentence.
  if (!patterns.each.every((pattern) => pattern.test(text))) return false;
  return sentencesOf(text).some((sentence) => patterns.each.every((pattern) => pattern.test(sentence.text)));
}

/** Other values of its kind a change keeps beside its new one, at most. */
const MAX_BESIDES = 8;
/** Changes said by records read per block, at most. */
export const MAX_CHANGES_SAID = 60;

/** Words said after a number that count nothing. */
const NOT_A_UNIT = /^(?:now|then|from|and|but|for|the|this|that|instead|please|pls|tmrw|today|tomorrow|tonight|yesterday|too|also|again|only|just|not|was|were|are|is|if|when|with|until|till|since|before|after|because|so|ok|okay|thanks|thx|now's|going|onwards|forward|henceforth|though|as|or|on|at|in|to|by)$/i;

/** When a pasted e-mail was sent: a header with a year and a time, or the line that opens a quoted reply. */
const MAIL_HEADER = /(?<![\p{L}])(?:(?:Date|Sent|Received)\s*:[^\n:]{0,40}?(?:19|20)\d\d[^\n]{0,12}?\d{1,2}:\d{2}(?:\s?[ap]m)?|On\s[^\n]{0,80}?\swrote:)/giu;

/**
 * Values read per whole text (a record's, a line's), kept across calls: the read path reads the same records'
 * values request after request. Least recently used first out, within `MAX_VALUES_READ` texts and
 * `MAX_VALUES_READ_CHARS` characters; a text longer than `MAX_VALUE_TEXT` is read every time. Pieces of a text
 * (a clause, the words after a cue) are read with `valuesIn`, never kept: they would hold their whole text alive.
 */
const VALUES_READ = new Map<string, readonly SaidValue[]>();
const MAX_VALUES_READ = 5_000;
const MAX_VALUES_READ_CHARS = 2_000_000;
const MAX_VALUE_TEXT = 4_000;
let valuesReadChars = 0;

interface SaidValue {
  readonly kind: string;
  readonly value: string;
  readonly index: number;
}

/** The values a whole text states (`valuesIn`), kept; shared, so frozen. */
function valuesOfText(text: string): readonly SaidValue[] {
  const known = VALUES_READ.get(text);
  if (known) {
    VALUES_READ.delete(text);
    VALUES_READ.set(text, known);
    return known;
  }
  const found = Object.freeze(valuesIn(text).map((v) => Object.freeze(v)));
  if (text.length > MAX_VALUE_TEXT) return found;
  VALUES_READ.set(text, found);
  valuesReadChars += text.length;
  for (const oldest of VALUES_READ.keys()) {
    if (VALUES_READ.size <= MAX_VALUES_READ && valuesReadChars <= MAX_VALUES_READ_CHARS) break;
    VALUES_READ.delete(oldest);
    valuesReadChars -= oldest.length;
  }
  return found;
}

/** Forgets the values kept per text: for tests that time the read itself. */
export function forgetValuesRead(): void {
  VALUES_READ.clear();
  valuesReadChars = 0;
}

/**
 * The values a text states, each with its kind and where it is: phone numbers, days, times, amounts, codes, counts
 * with a unit. Read anew each call: pieces of a text are read with it; whole texts through `valuesOfText`.
 */
function valuesIn(text: string): { kind: string; value: string; index: number }[] {
  const found: { kind: string; value: string; index: number }[] = [];
  // The characters a value already holds, one flag each: a span is checked and taken in its own length, so a record
  // of thousands of values is read in time linear in its length.
  const held = new Uint8Array(text.length);
  const take = (at: number, end: number) => held.fill(1, at, end);
  const free = (at: number, end: number) => {
    for (let i = at; i < end; i += 1) if (held[i]) return false;
    return true;
  };
  // An e-mail address: a value of its own kind (its digits are no count, its words no name).
  for (const m of text.matchAll(EMAIL)) {
    found.push({ kind: 'email', value: m[0], index: m.index! });
    take(m.index!, m.index! + m[0].length);
  }
  for (const m of text.matchAll(PHONE)) {
    if (!free(m.index!, m.index! + m[0].length)) continue;
    found.push({ kind: 'phone', value: m[0], index: m.index! });
    take(m.index!, m.index! + m[0].length);
  }
  // A street address ("14 Cardigan Road", the "3 Moorland Avenue" of "Flat 2, 3 Moorland Avenue"): its number is no
  // count, its words no name.
  for (const m of text.matchAll(STREET_ADDRESS)) {
    if (!free(m.index!, m.index! + m[0].length)) continue;
    found.push({ kind: 'address', value: m[0], index: m.index! });
    take(m.index!, m.index! + m[0].length);
  }
  // A day written as 2026-03-21 is the service's own: the day a summary's clause was said, or a day read beside
  // the words that said it ("21 March (2026-03-21)"); the words are the value.
  for (const m of text.matchAll(/\d{4}-\d{2}-\d{2}/g)) take(m.index!, m.index! + m[0].length);
  // A number after "#" names a thing ("ticket #1047", "order #1066"); many are open at once, and none replaces another.
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])#\s?\d+/gu)) take(m.index!, m.index! + m[0].length);
  // A pasted e-mail's header ("Date: Mon 12 Jan 2026, 12:58", "On 3 Feb 2026, at 09:14, Ruth wrote:") says when the
  // mail was sent: no value of anything it talks about.
  for (const m of text.matchAll(MAIL_HEADER)) take(m.index!, m.index! + m[0].length);
  for (const [kind, pattern] of SHAPES) {
    for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
      // A number at the end of a sentence ends there ("code to 2086. only share it here" is no count of "only").
      let value = m[0].trim().replace(/[.,]\s.*$/su, '').replace(/[.,]+$/, '');
      const end = m.index! + m[0].length;
      if (!free(m.index!, end)) continue;
      // A bare number says too little: a count needs what it counts ("31 boxes"), a code three digits at least
      // ("new one is 6620", "code is 4410 if …"; not a year: 1900 to 2049, so that a code such as 2086 is one).
      // A word after a number that counts nothing ("its 2086 now", "6620 from tmrw") is no unit.
      const inWords = kind === 'number' && !/^\d/.test(value);
      if (kind === 'number' && NOT_A_UNIT.test(value.replace(/^\d[\d,.]*\s?|^\p{L}+\s/u, ''))) value = value.replace(/\s?\p{L}+$/u, '');
      // A count in words counts something ("four performances"), or is no value.
      if (inWords && !/\s\p{L}{3,}/u.test(value)) continue;
      // A share is one ("12.5%").
      if (kind === 'number' && !inWords && !/\d\s?(?:\p{L}{3,}|%)/u.test(value)) {
        const digits = /^\d[\d,.]*/.exec(value)?.[0] ?? '';
        if (!/^(?!(?:19\d\d|20[0-4]\d)$)\d{3,8}$/.test(digits)) continue;
        value = digits;
      }
      found.push({ kind, value, index: m.index! });
      take(m.index!, end);
    }
  }
  return found;
}

/** A day the service wrote beside the words that said it ("Thursday (2026-12-03)"), read past where the words matter. */
const ANCHORED_DAY = /\s\(\d{4}-\d{2}-\d{2}\)/g;

/** What follows the old value of "from … to …": the new one ("from £80 to £65", "from March 28 to April 4", "from tuesday to the 9th"). */
const FROM_TO = new RegExp(`^(?:\\s\\(\\d{4}-\\d{2}-\\d{2}\\))?\\s+to\\s+(?:[£$€]?\\d|the\\s+\\d|${MONTH}|${WEEKDAY_WORD})`, 'i');

/** Said after a value of its own clause, what makes it the one to change ("booked for the 14th, so those will need shifting"). */
const TO_BE_MOVED = /^[^.!?;]{0,60}?(?<![\p{L}])(?:needs?|need to be|will need|would need|have to be|has to be|must be)\s+(?:\p{L}+\s+)?(?:shift|mov|chang|rebook|reschedul|amend|cancel|push)\p{L}*/iu;

/** Said before a value, of the one replaced: "the old reference WHW-2231", "he can't do the home check on the Thursday". */
const OLD_NAMED_BEFORE = /(?<![\p{L}])(?:old\s+(?:\p{L}+\s+)?|(?:can['’]?t|cannot|couldn['’]?t|won['’]?t|unable to)\s+\p{L}+(?:\s+[^\s.!?,;]+){0,4}?\s+(?:on\s+)?(?:the\s+)?)$/iu;

/** Said just after a value, of the one replaced: "not going ahead this Friday any more". */
const NO_MORE_AFTER = /^\s*(?:\(\d{4}-\d{2}-\d{2}\)\s*)?(?:any ?more|no longer)(?![\p{L}])/iu;

/**
 * Whether a value is said as the one replaced: "£110 instead of £85", "not 3", "from March 28 to April 4", "booked
 * for the 14th, so those will need shifting", "not this Friday any more".
 */
function oldSaid(text: string, v: { readonly index: number; readonly value: string }): boolean {
  const after = text.slice(v.index + v.value.length, v.index + v.value.length + 80);
  const lead = text.slice(Math.max(0, v.index - 40), v.index);
  return OLD_BEFORE.test(lead.slice(-30)) || OLD_NAMED_BEFORE.test(lead) || NO_MORE_AFTER.test(after) || (/\bfrom\s+$/i.test(text.slice(Math.max(0, v.index - 6), v.index)) && FROM_TO.test(after.slice(0, 24))) || TO_BE_MOVED.test(after);
}

/** A change said of "it", just before its new value ("moved it to Monday the 23rd", "pushed it back to the 9th"). */
const MOVED_IT = /(?<![\p{L}])(?:mov|push|put|chang|reschedul|rearrang|brought|bring|shift|bump)\p{L}*\s+it\s+(?:back\s+|forward\s+|out\s+)?(?:to|till|until|for)\s+(?:the\s+)?$/iu;

/** What may stand between a weekday and the date it is said with. */
const WEEKDAY_THEN_DATE = /^,?\s+(?:the\s+)?$/;

/** Whether `v` and `value` are a weekday and the date it is said with ("Saturday 16 May"), either way round: one day, not a day kept beside another. */
const weekdayOf = (text: string, v: { readonly index: number; readonly value: string }, value: { readonly index: number; readonly value: string }) => {
  const [first, second] = v.index < value.index ? [v, value] : [value, v];
  return WEEKDAY_WORD_ONLY.test(first.value) && !WEEKDAY_WORD_ONLY.test(second.value) && WEEKDAY_THEN_DATE.test(text.slice(first.index + first.value.length, second.index));
};

/** The words within `span` words either side of a place in a text, lower case, as they would be compared. */
function wordsAround(text: string, index: number, length: number, span = 6, shortest = 4, keep?: ReadonlySet<string>, content = false): string[] {
  // A window of a few hundred characters holds the words either side: a long record is never split whole.
  // The days the service wrote beside the words that said them ("Sept (2024-09-01).") take no word's place; with
  // `content`, nor do short and common words ("it", "for", "make"): the span counts words that could say what a value is of.
  const counts = (word: string) => !/^\(\d{4}-\d{2}-\d{2}\)[\p{P}]*$/u.test(word) && (!content || (word.replace(/[^\p{L}]/gu, '').length >= shortest && !COMMON.has(word.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''))));
  // The `span` nearest words that count, read outward from the value (most windows hold nothing to leave out).
  const nearest = (words: string, fromEnd: boolean) => {
    const tokens = words.trim().split(/\s+/);
    if (!content && !words.includes('(')) return fromEnd ? tokens.slice(-span) : tokens.slice(0, span);
    const out: string[] = [];
    for (let i = 0; i < tokens.length && out.length < span; i += 1) {
      const word = tokens[fromEnd ? tokens.length - 1 - i : i]!;
      if (counts(word)) out.push(word);
    }
    return fromEnd ? out.reverse() : out;
  };
  const before = nearest(text.slice(Math.max(0, index - 40 * span), index), true);
  const after = nearest(text.slice(index + length, index + length + 40 * span), false);
  return [...before, ...after]
    .map((word) => word.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/(?:'s|’s)$/u, ''))
    // A hyphenated word is also its parts: "sign-up" is said "sign up" as often.
    .flatMap((word) => (word.includes('-') ? [word, ...word.split('-')] : [word]))
    .filter((word) => word.length >= shortest && (keep?.has(word) || (!COMMON.has(word) && !NAMES_NOTHING.has(word) && !/['’]/.test(word) && !CHANGE_CUE.test(word) && !CHANGE_WORD.test(word))))
    .map((word) => (keep?.has(word) ? word : stem(word)))
    .filter((word) => keep?.has(word) || (!COMMON.has(word) && !COMMON.has(`${word}s`) && !COMMON.has(`${word}e`)));
}

/**
 * Words that say what someone did or felt, not what a value is of ("sent", "driving", "checked", "tired"): a line
 * about anything else may say them too ("Amir sent over a listing on Wednesday" is no earlier wedding date).
 */
const NAMES_NOTHING = new Set(['send', 'sends', 'sent', 'sending', 'drive', 'drives', 'drove', 'driving', 'driven', 'work', 'works', 'worked', 'working', 'take', 'takes', 'took', 'taking', 'taken', 'check', 'checks', 'checked', 'checking', 'feel', 'feels', 'felt', 'feeling', 'give', 'gives', 'gave', 'giving', 'given', 'tell', 'tells', 'telling', 'come', 'comes', 'came', 'coming', 'stay', 'stays', 'stayed', 'staying', 'maybe', 'probably', 'wait', 'waiting', 'waited', 'hope', 'hoping', 'hoped', 'love', 'loved', 'mean', 'means', 'meant', 'guess', 'reckon', 'tried', 'trying', 'look', 'looks', 'looked', 'looking', 'keep', 'keeps', 'kept', 'bring', 'brings', 'brought', 'find', 'found', 'asked', 'asking', 'help', 'helps', 'helped', 'helping', 'seen', 'saw', 'getting', 'done', 'went', 'gone', 'tired', 'glad', 'happy', 'awkward', 'lovely', 'nice', 'guys', 'anyway', 'honestly', 'finally', 'already', 'though', 'pretty', 'better', 'worse', 'little', 'bit', 'down', 'till', 'until']);
/** Stems of words that name only the kind of a value ("the date's moved", "time changed"), not what it is of. */
const KIND_WORDS = new Set(['dat', 'day', 'tim', 'when']);
/** Words of change said alone ("a week later", "moved it"): no word of what changed. */
const CHANGE_WORD = /^(?:later|earlier|again|instead|moved|moves?|changed?|changing|switch\w*|swap\w*|push\w*|updated?|new|now)$/;
/** A word's stem, crudely: "moving" and "move", "codes" and "code", "boxes" and "box" compare alike. */
const stem = (word: string) => word.replace(/^(.{3,}?)(?:ing|ed|es|s|e)$/u, '$1');

/** A line a block shows, as `changesSaid` and `answersReplaced` read it: a record, or a summary's dated clause read as the record it cites. */
export interface SaidUnit {
  readonly id: string;
  readonly kind: string;
  readonly text: string;
  readonly at?: string | undefined;
  /** Who said it (a record's speaker): "What is Mia's number?" is answered by what Mia said of her number. */
  readonly speaker?: string | undefined;
  /** The record said just before it in the same conversation, when known: a value given in answer to a change asked for. */
  readonly before?: { readonly text: string; readonly speaker?: string | undefined } | undefined;
}

/**
 * Changes said in so many words by the records a block may show ("deposit got adjusted … it's £875 now", "keys
 * now from their Headingley branch"): each new value, with the words around it, as a `later` value, so that a line
 * said before it holding one of those words near another value of the same kind is marked with it, whether or not
 * a store holds the thing. Read on the read path from the ranked records, at most `MAX_CHANGES_SAID`.
 */
export function changesSaid(said: readonly SaidUnit[], names: readonly string[] = []): RetiredValue[] {
  const out: RetiredValue[] = [];
  // Lower-case chat read with the names the block knows (its speakers, its contacts) written as names.
  const units = recasedNames(said, names);
  read: for (const unit of units) {
    if (unit.kind !== 'record' || !unit.at) continue;
    const values = CHANGE_CUE.test(unit.text) ? valuesOfText(unit.text) : [];
    // "£110 instead of £85", "2 laps not 3", "came down from £80 to £65": the value said as the old one is no new
    // value, and no value the change keeps beside it.
    const old = (v: { index: number; value: string }) => oldSaid(unit.text, v);
    // The words said within five of any value of a kind, read once per record and kind (a long record's values are
    // never compared pair by pair).
    const nearByKind = new Map<string, Set<string>>();
    const nearOfKind = (kind: string) => {
      let near = nearByKind.get(kind);
      if (!near) nearByKind.set(kind, (near = new Set(values.filter((v) => v.kind === kind && !old(v)).flatMap((v) => wordsAround(unit.text, v.index, v.value.length, 5)))));
      return near;
    };
    // A new value said with the one it replaces ("now lands at 5:40 not 2:15") is read below, as exactly that
    // pair; read again by the words around it, it would mark any other line of its kind ("lands 10:25").
    // So is a value inside the pair's words ("lands at 6:10 friday, not 4:10": friday did not change).
    const pairs = [...unit.text.matchAll(SAID_INSTEAD)];
    const paired = new Set(pairs.map((m) => m[1]!.replace(/[.,:]+$/, '').toLowerCase()));
    const inPair = (v: { index: number }) => pairs.some((m) => v.index > m.index! && v.index < m.index! + m[0].length);
    for (const value of values) {
      // The new value is the one the words of change are said of: within six words of them, in its sentence.
      if (old(value) || restated(unit.text, value.index) || paired.has(value.value.toLowerCase()) || inPair(value) || KEPT_BEFORE.test(unit.text.slice(Math.max(0, value.index - 20), value.index)) || !(nearCue(unit.text, value.index, value.value.length) || movedFromTo(unit.text, value))) continue;
      // What it is of may be said a clause away ("the garage code got reset after the break-in, new one is 6620").
      // Not the words said closer to another value of its kind ("land at 11:20. … check-in at the flat is now from
      // 13:00": "flat" is said of 13:00).
      // A count of a particular unit says what it is of by itself ("they're selling 90 tickets now").
      // A reply that says only the value and its word of change ("Tuesday 10th now.") is of what the question before it asked.
      const around = wordsAround(unit.text, value.index, value.value.length, 10);
      const asked = around.length === 0 && unit.before ? wordsAsked(unit, unit.before) : [];
      if (around.length === 0 && asked.length === 0 && !countsParticular(value.value)) continue;
      const own = new Set(wordsAround(unit.text, value.index, value.value.length, 5));
      const near = nearOfKind(value.kind);
      // "he's moved it to Monday the 23rd": what "it" is was said before, in the clause or sentence before the words of change.
      const movedIt = MOVED_IT.test(unit.text.slice(Math.max(0, value.index - 40), value.index)) ? wordsAround(unit.text.slice(0, value.index), value.index, 0, 20) : [];
      const about = [...new Set([...around.filter((word) => own.has(word) || !near.has(word)), ...movedIt, ...asked])].filter((word) => !KIND_WORDS.has(word));
      if (about.length === 0 && !countsParticular(value.value)) continue;
      // A weekday said with the new date ("Saturday 16 May") is of that day, not a day the change kept beside it.
      const besides = [...new Set(values.filter((v) => v.kind === value.kind && v.value !== value.value && !old(v) && !weekdayOf(unit.text, v, value)).map((v) => v.value))].slice(0, MAX_BESIDES);
      out.push({ itemId: `said:${unit.id}`, records: [unit.id], value: value.value, reason: 'later', at: unit.at, now: value.value, about, loose: true, ...(besides.length > 0 ? { besides } : {}) });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A value said with the one it replaces ("2 laps not 3", "£110 instead of £85"): a line said before that states
    // the old one (with the new one's unit when the old is said bare) is marked, whatever words it says around it.
    for (const m of pairs) {
      // (An amount's rate, "£52 a box not £46", is no unit: the amounts are compared bare.)
      const unitWord = m[2] && !NOT_A_UNIT.test(m[2]) && !/^(?:rather|or|a|to|at|on|in|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/i.test(m[2]) && !/^(?:a|an|per|each)\s/i.test(m[2]) ? m[2] : undefined;
      const [bareNow, bareWas] = [m[1]!, m[3]!].map((value) => value.replace(/[.,:]+$/, ''));
      // A count said after what it counts ("teams of 5 not 6"): both with those words.
      const counted = unitWord || !PLAIN_NUMBER.test(bareNow!) || !PLAIN_NUMBER.test(bareWas!) ? undefined : /(?<![\p{L}])(\p{L}{3,} of)\s+$/u.exec(unit.text.slice(Math.max(0, m.index! - 30), m.index!))?.[1];
      const [now, was] = counted && !NOT_A_UNIT.test(counted.split(' ')[0]!) ? [`${counted} ${bareNow}`, `${counted} ${bareWas}`] : [bareNow, bareWas];
      const by = unitWord ? `${now} ${unitWord}` : now!;
      const ordinalDay = /^(?:st|nd|rd|th)(?![\p{L}])/u.test(unit.text.slice(m.index! + m[0].length)) || /^(?:st|nd|rd|th)$/i.test(m[4] ?? '');
      const replaced =
        unitWord && ordinalDay && MONTH_NAMES.has(unitWord.toLowerCase())
          ? dayOfOtherMonth(Number(was), Number(now), unitWord)
          : m[4] && unitWord && m[4].toLowerCase().startsWith(unitWord.toLowerCase().slice(0, 3)) ? `${was} ${m[4]}` : unitWord ? `${was} ${unitWord}` : was!;
      // A bare number ("12 not 14") could be any number a line says: only an amount, a time or a count with its unit.
      if (replaced.toLowerCase() === by.toLowerCase() || /^\d[\d.,]*$/.test(replaced)) continue;
      out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at, now: by, loose: true, replaces: replaced });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A new e-mail address said as a change ("I've switched my email, use h.ward@outlook.com from now on"): the
    // earlier addresses of the same owner (a word of the name before the @, or the same business domain) it replaces.
    for (const value of values) {
      // The address may be a sentence of its own after the words of change ("we've got a proper email now. hello@…").
      const lead = unit.text.slice(Math.max(0, value.index - 80), value.index);
      const opensAfterCue = /[.!?:]\s*$/.test(lead) && /(?<![\p{L}])(?:e-?mail|address)(?![\p{L}])/iu.test(lead) && CHANGE_CUE.test(lead.replace(/[.!?:]\s*$/, ''));
      // Or the words after it say the address it replaces ("Found it: homing@… He said the old one will keep working
      // for a few weeks but to use the new one from now on").
      const oldOneAfter = MAIL_OLD_AFTER.test(unit.text.slice(value.index + value.value.length, value.index + value.value.length + 160));
      if (value.kind !== 'email' || old(value) || !(nearCue(unit.text, value.index, value.value.length) || opensAfterCue || oldOneAfter)) continue;
      let found = false;
      for (const earlier of units) {
        if (!before(earlier.at, unit.at) || earlier.kind !== 'record') continue;
        for (const e of valuesOfText(earlier.text)) {
          if (e.kind !== 'email' || e.value.toLowerCase() === value.value.toLowerCase() || !sameOwner(e.value, value.value, oldOneAfter) || holds(unit.text, e.value)) continue;
          found = true;
          if (out.some((r) => r.replaces === e.value)) continue;
          out.push({ itemId: `said:${unit.id}:${e.value}`, records: [unit.id], value: value.value, reason: 'later', at: unit.at, now: value.value, loose: true, replaces: e.value, pairSaid: true });
          if (out.length >= MAX_CHANGES_SAID) break read;
        }
      }
      // None read here: kept as the owner's new address, for lines read later (the index keeps it for the block without
      // a question), when the words say an address changed ("switched my email", "our new email is", "use … from now on").
      if (!found && !out.some((r) => r.mailOf === value.value) && (oldOneAfter || MAIL_CHANGED.test(unit.text.slice(Math.max(0, value.index - 100), value.index + value.value.length + 40)))) {
        // The same change read by another rule ("the rota address is now …") carries it.
        const same = out.findIndex((r) => r.records.includes(unit.id) && r.now === value.value && !r.replaces);
        const domain = oldOneAfter ? { mailDomain: true } : {};
        if (same >= 0) out[same] = { ...out[same]!, mailOf: value.value, ...domain };
        else out.push({ itemId: `said:${unit.id}:mail:${value.value}`, records: [unit.id], value: value.value, reason: 'later', at: unit.at, now: value.value, loose: true, mailOf: value.value, ...domain });
        if (out.length >= MAX_CHANGES_SAID) break read;
      }
    }
    // A value given in answer to a change asked or said just before, with no word of change of its own ("Do you know
    // when you can start instead?" … "earliest is the folowing thursday so 21st may"; "it's not this Saturday any
    // more" … "So collection would be Saturday 14th March"): read with the words the change was said with.
    for (const answer of unit.before ? [...answersToChange(unit, unit.before, out), ...proposalsTaken(unit, unit.before, out)] : []) {
      out.push(answer);
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A thing called off ("they've called off the x-ray service visit"): lines said before that name it say it was on.
    for (const thing of CALLED_OFF_CUE.test(unit.text) ? thingsCalledOff(unit.text) : []) {
      out.push({ itemId: `said:${unit.id}:off:${thing.join(' ')}`, records: [unit.id], value: CALLED_OFF_MARK, reason: 'later', at: unit.at, now: CALLED_OFF_MARK, about: thing, loose: true, calledOff: true });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A thing whose state is said to have moved on ("the IACUC amendment got approved", "your MCS certificate has
    // been issued", "bayesian stats workshop: dropped"): lines said before that name it speak of it as it was.
    for (const [thing, state] of STATE_CUE.test(unit.text) ? thingsSettled(unit.text) : []) {
      out.push({ itemId: `said:${unit.id}:state:${thing.join(' ')}`, records: [unit.id], value: state, reason: 'later', at: unit.at, now: state, about: thing, loose: true, calledOff: true });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A weekday said with the one it replaces, read with the words of what moved ("bins out wed night not tues"): a
    // weekday alone is said too often for the old one to mark every line that names it.
    // Read without the dates the service wrote beside the days ("Thursday (2026-12-03), not Tuesday").
    const undated = /(?:not|instead of|rather than)\s/i.test(unit.text) ? unit.text.replace(ANCHORED_DAY, '') : '';
    for (const m of undated.matchAll(WEEKDAY_PAIR)) {
      const about = wordsAround(undated, m.index!, m[0].length, 4).filter((word) => !KIND_WORDS.has(word) && !WEEKDAY_WORD_ONLY.test(word));
      if (about.length === 0 || m[1]!.slice(0, 3).toLowerCase() === m[2]!.slice(0, 3).toLowerCase()) continue;
      out.push({ itemId: `said:${unit.id}:${m[2]}`, records: [unit.id], value: m[1]!, reason: 'later', at: unit.at, now: m[1]!, about, loose: true, replaces: m[2]!, pairSaid: true });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A name or a colour replaced, said with what replaced it ("swift are fully booked. went with Hartley Hire instead").
    // A value denied in so many words ("it's not the Corn Exchange, it's St Anne's Hall") is read below as that pair,
    // not as a name replaced by whatever capitalised word came before ("Correction for the newsletter: …").
    const denied = unit.text.search(NOT_BUT_IT_IS) >= 0 ? new Set(pairsSaid(unit.text).map((p) => p.replaced.toLowerCase())) : new Set<string>();
    for (const { replaced, by, thing } of MAY_REPLACE.test(unit.text) ? namesReplaced(unit.text) : []) {
      if (denied.has(replaced.toLowerCase())) continue;
      out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at, now: by, loose: true, replaces: replaced, ...(thing ? { replacesThing: thing } : {}) });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // A part ended for good with no one said to take it ("Also Debbie's stepping down as welfare officer"): the contact's line says so.
    for (const ended of PART_ENDS_FOR_GOOD_CUE.test(unit.text) ? partsEndedForGood(unit.text) : []) {
      if (out.some((r) => r.replaces?.toLowerCase() === ended.name.toLowerCase())) continue;
      out.push({ itemId: `said:${unit.id}:ended:${ended.name}`, records: [unit.id], value: ended.said, reason: 'later', at: unit.at, now: ended.said, loose: true, replaces: ended.name, contactOnly: true });
      if (out.length >= MAX_CHANGES_SAID) break read;
    }
    // "My last day is Friday. After that my colleague Rhys will look after your tenancy": the speaker's own part ends.
    // Not when the words are someone else's, relayed ("My last day is Friday, she said"; "Gemma emailed: …").
    const ownEnd = unit.speaker && /^\p{Lu}/u.test(unit.speaker) && !RELAYED.test(unit.text) ? MY_PART_ENDS.exec(unit.text) : null;
    if (ownEnd && !out.some((r) => !r.contactOnly && r.replaces === unit.speaker)) {
      const by = replacementOf(unit.text, { value: unit.speaker!, index: ownEnd.index, colour: false }, lowerCaseChat(unit.text));
      if (fitsAsReplacement(unit.speaker!, by) && !NOT_A_NAME.test(by!)) {
        out.push({ itemId: `said:${unit.id}:${unit.speaker}`, records: [unit.id], value: by!, reason: 'later', at: unit.at, now: by!, loose: true, replaces: unit.speaker! });
        if (out.length >= MAX_CHANGES_SAID) break read;
      }
    }
  }
  // Old and new said side by side in so many words ("now 8:10 (was 8:50)", "switched from Aquagen Labs to Tayside").
  for (const unit of out.length < MAX_CHANGES_SAID ? units : []) {
    if (unit.kind !== 'record' || !unit.at || !(PAIR_CUE.test(unit.text) || THING_CUE.test(unit.text))) continue;
    for (const { replaced, by } of pairsSaid(unit.text)) {
      if (out.some((r) => !r.contactOnly && r.replaces?.toLowerCase() === replaced.toLowerCase())) continue;
      out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at, now: by, loose: true, replaces: replaced, pairSaid: true });
      if (out.length >= MAX_CHANGES_SAID) break;
    }
  }
  // A numbered place moved to ("the market office has moved us to pitch 31", "I move to bay 19"): the same kind of place
  // with another number, said before (at most two: more is a list of them), is where the thing was.
  for (const unit of out.length < MAX_CHANGES_SAID ? units : []) {
    if (unit.kind !== 'record' || !unit.at) continue;
    for (const m of unit.text.matchAll(MOVED_TO_NUMBERED)) {
      const head = m[1]!.toLowerCase();
      const now = `${m[1]} ${m[2]}`;
      const same = new RegExp(`(?<![\\p{L}\\p{N}])${escape(head)}\\s+(\\p{L}?\\d{1,4}\\p{L}?)(?![\\p{L}\\p{N}])`, 'giu');
      const olds = [...new Set(units.filter((u) => u.kind === 'record' && u.at && before(u.at, unit.at!)).flatMap((u) => [...u.text.matchAll(same)].map((o) => `${head} ${o[1]!.toLowerCase()}`)).filter((o) => o !== now.toLowerCase()))];
      if (olds.length === 0 || olds.length > 2) continue;
      for (const old of olds) {
        if (out.some((r) => r.replaces?.toLowerCase() === old)) continue;
        out.push({ itemId: `said:${unit.id}:moved:${old}`, records: [unit.id], value: now, reason: 'later', at: unit.at, now, loose: true, replaces: old, pairSaid: true });
      }
      if (out.length >= MAX_CHANGES_SAID) break;
    }
  }
  // A value asked about and denied in the reply, with the one that holds ("Same as before — Tuesdays at 6?" … "nope, thursdays at 5:30 now").
  for (const unit of out.length < MAX_CHANGES_SAID ? units : []) {
    if (unit.kind !== 'record' || !unit.at || !unit.before) continue;
    for (const { replaced, by } of deniedInReply(unit, unit.before)) {
      if (out.some((r) => !r.contactOnly && r.replaces?.toLowerCase() === replaced.toLowerCase())) continue;
      out.push({ itemId: `said:${unit.id}:denied:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at, now: by, loose: true, replaces: replaced, pairSaid: true });
      if (out.length >= MAX_CHANGES_SAID) break;
    }
  }
  // A list's line given another value by a later list that says it is updated ("CD audit: Tobias" … "Updated April jobs: - CD audit: Ilse").
  for (const { unit, replaced, by } of out.length < MAX_CHANGES_SAID ? listLinesChanged(units) : []) {
    if (out.some((r) => !r.contactOnly && r.replaces === replaced)) continue;
    out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at!, now: by, loose: true, replaces: replaced });
    if (out.length >= MAX_CHANGES_SAID) break;
  }
  // A name spelt anew where its spelling is spoken of ("it's Brantner, no d", "Pendrey, with an e"): the old spelling.
  for (const { unit, replaced, by } of out.length < MAX_CHANGES_SAID ? spellingsCorrected(units) : []) {
    if (out.some((r) => !r.contactOnly && r.replaces === replaced)) continue;
    out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at!, now: by, loose: true, replaces: replaced });
    if (out.length >= MAX_CHANGES_SAID) break;
  }
  for (const { unit, replaced, by, alongside } of out.length < MAX_CHANGES_SAID ? namesNowSaid(units, out) : []) {
    out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at!, now: by, loose: true, replaces: replaced, ...(alongside.length > 0 ? { alongside } : {}) });
    if (out.length >= MAX_CHANGES_SAID) break;
  }
  for (const { unit, replaced, by } of out.length < MAX_CHANGES_SAID ? namesReplacedLater(units) : []) {
    if (out.some((r) => !r.contactOnly && r.replaces === replaced)) continue;
    out.push({ itemId: `said:${unit.id}:${replaced}`, records: [unit.id], value: by, reason: 'later', at: unit.at!, now: by, loose: true, replaces: replaced });
    if (out.length >= MAX_CHANGES_SAID) break;
  }
  return [...out, ...valuesReplaced(units, out)];
}

/**
 * Words that ask for a change's new value ("when can you start instead?", "do you have a backup?", "what's the new
 * date?"), said in a question.
 */
const CHANGE_ASKED = /(?<![\p{L}])(?:instead|alternatives?|back-?up|replacement|(?:be|get|got|getting|been)\s+covered|(?:have|any|some|got|get|find|found)\s+cover|fall\s+back\s+on|what\s+happens\s+(?:with|to)\s+(?:[^\s?]+\s+){0,4}?after\s+(?:he|she|they)\s+(?:goes|leaves|go|leave)|in (?:her|his|their|its) place|who(?:['’]ll|['’]s| will| is)?\s+(?:going\s+to\s+|gonna\s+)?(?:be\s+)?(?:look(?:ing)? after|tak(?:e|es|ing) over|cover(?:s|ing)?|handl(?:e|es|ing)|step(?:s|ping)? in|replac\w*)|(?:found|find|got|get|sorted|lined up)\s+(?:anyone|anybody|someone|somebody|a replacement|cover)|someone else|somebody else|anyone else|another (?:date|day|time|slot|option|place|venue|one)|new (?:date|day|time|slot|ref(?:erence)?|number|price|quote|figure|total|start|plan)|re-?(?:book|schedul|arrang)\w*|what['’]s changed|changed|moved|shifted|different|(?:which|what|when|where|who)(?:\s+[^\s?]+){0,10}\s+now(?=\s*\?))(?![\p{L}])/giu;

/** Words that say a change without its new value ("it's not this Saturday any more", "he can't do the Thursday"), in any sentence. */
const CHANGE_WITHOUT_VALUE = /(?<![\p{L}])(?:any ?more|no longer (?:on|happening|going ahead|possible|available)|can['’]?t (?:do|make) (?:it|then|that day|(?:on )?(?:the |this |that )?(?:date|day|time|\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day))|fell through|fallen through|broken? down|fully booked|postponed|called off|(?:moved|pushed) (?:it |things )?back|(?:need|have) to (?:move|change|rebook|reschedule|rearrange))(?![\p{L}])/giu;

/** The words of `CHANGE_ASKED` a text says in a question. */
const changesAsked = (text: string) => [...text.matchAll(CHANGE_ASKED)].filter((m) => sentenceOf(text, m.index!, m[0].length).trimEnd().endsWith('?'));

/** What makes a value no answer given: a question, a value kept, a doubt ("maybe the 12th", "not sure, the 12th?"). */
const NO_ANSWER = /\?|(?<![\p{L}])(?:maybe|might|perhaps|probably|prob|possibly|not sure|unsure|dunno|don['’]?t know|no idea|if|unless|whether|either|keep|kept|stick with|still|same|or)(?![\p{L}])/iu;

/** The kinds of value a change asked for may be given in: days, times, amounts, counts, codes. */
const ANSWERED_KINDS = new Set(['day', 'time', 'money', 'number', 'code']);

/** The sentences of an answer its new value may be in: the answer comes first ("earliest is the following thursday so 21st may"). */
const ANSWER_SENTENCES = 3;

/** A count or a weekday alone is an answer only in a short reply ("12 now"): in a longer one it is of something said in passing. */
const SHORT_ANSWER_WORDS = 15;

/**
 * The values a record gives in answer to a change the record before it, said by someone else, asked for or said
 * without a value (`CHANGE_ASKED` in a question, `CHANGE_WITHOUT_VALUE`), each as a `later` value read with the words
 * around it and the words the change was said with. None when the record before gave a new value itself (it said the
 * change; this one only talks of it), none in a question or a doubt, none said as the old one, none the record
 * already says changed in its own words.
 */
function answersToChange(unit: SaidUnit, before: { readonly text: string; readonly speaker?: string | undefined }, out: readonly RetiredValue[]): RetiredValue[] {
  if (!unit.at || (before.speaker !== undefined && before.speaker === unit.speaker)) return [];
  // Read without the days the service wrote beside the words (a block's lines carry them; the raw log's do not).
  const said = before.text.replace(ANCHORED_DAY, '');
  const cue = [...changesAsked(said), ...said.matchAll(CHANGE_WITHOUT_VALUE)].sort((a, b) => a.index! - b.index!).pop();
  if (!cue || out.some((r) => r.records.includes(unit.id) && !r.calledOff)) return [];
  // The record before said a new value near its words of change, and not in a question: the change was said there.
  if (valuesOfText(said).some((v) => !oldSaid(said, v) && nearCue(said, v.index, v.value.length) && !sentenceOf(said, v.index, v.value.length).includes('?'))) return [];
  const sentenceStarts = [...unit.text.matchAll(/(?:^|[.!?]\s+|\n)(?=\S)/g)].map((m) => m.index! + m[0].length);
  const inFirstSentences = (index: number) => sentenceStarts.length <= ANSWER_SENTENCES || index < sentenceStarts[ANSWER_SENTENCES]!;
  const short = unit.text.split(/\s+/).length <= SHORT_ANSWER_WORDS;
  const values = valuesOfText(unit.text).filter(
    (v) =>
      ANSWERED_KINDS.has(v.kind) &&
      inFirstSentences(v.index) &&
      (v.kind !== 'number' || (short && !NO_UNIT.test(unitOf(v.value) ?? '') && unitOf(v.value) !== 'more')) &&
      // A weekday alone, only as a short reply ("thursday now"): in a longer one it says when something else happened.
      (!WEEKDAY_WORD_ONLY.test(v.value) || short),
  );
  // A weekday said beside other days is no answer of its own ("Tuesday to Thursday lunchtimes", "the following thursday so 21st may").
  const answered = values.filter((v) => !(WEEKDAY_WORD_ONLY.test(v.value) && values.some((o) => o.kind === 'day' && o !== v)));
  // The words around the words of change, and those among them ("Which day will you dispatch on now?").
  const asked = [...wordsAround(said, cue.index!, cue[0].length, 8, 4, ASKED_WORDS), ...wordsAround(cue[0], cue[0].length, 0, 12, 4, ASKED_WORDS)];
  const answers: RetiredValue[] = [];
  for (const value of answered) {
    const sentence = sentenceOf(unit.text, value.index, value.value.length);
    if (oldSaid(unit.text, value) || restated(unit.text, value.index) || holds(said, value.value) || NO_ANSWER.test(sentence)) continue;
    // The words of its own sentence ("So collection would be Saturday 14th March. Still 11am at the kennels?": not "kennels").
    const about = [...new Set([...wordsAround(sentence, Math.max(0, sentence.indexOf(value.value)), value.value.length, 10), ...asked])].filter((word) => !KIND_WORDS.has(word));
    if (about.length === 0) continue;
    const besides = [...new Set(values.filter((v) => v.kind === value.kind && v.value !== value.value && !oldSaid(unit.text, v) && !weekdayOf(unit.text, v, value)).map((v) => v.value))].slice(0, MAX_BESIDES);
    answers.push({ itemId: `said:${unit.id}:answer:${value.value}`, records: [unit.id], value: value.value, reason: 'later', at: unit.at, now: value.value, about, loose: true, ...(besides.length > 0 ? { besides } : {}) });
  }
  return answers;
}

/** The words of the question someone else asked just before a record, when it asks for a change ("Has the discharge date moved with all this?"). */
function wordsAsked(unit: SaidUnit, before: { readonly text: string; readonly speaker?: string | undefined }): string[] {
  if (before.speaker !== undefined && before.speaker === unit.speaker) return [];
  const said = before.text.replace(ANCHORED_DAY, '');
  const mark = said.lastIndexOf('?');
  if (mark < 0) return [];
  const question = sentenceOf(said, mark, 1);
  // ("Should the engineer still ring 07700 900 214?" … "No, 07700 900 583 now.")
  if (changesAsked(said).length === 0 && !/(?<![\p{L}])(?:still|same|keep(?:ing)?)(?![\p{L}])/iu.test(question)) return [];
  return wordsAround(question, question.length, 0, 12, 4, ASKED_WORDS);
}

/** Words that offer a change in a question ("Want to do that?", "Would it be worth moving it to the evening, say 6:45pm?"). */
const PROPOSED = /(?<![\p{L}])(?:want (?:me )?to|would you like|shall (?:i|we)|should (?:i|we)|how about|what about|why not|would it be worth|do you want|fancy|happy (?:to|with)|(?:does|would|will) (?:that|\S+(?:\s\S+){0,4}) work(?: better)?|ok with|okay with)(?![\p{L}])/iu;

/** Words of an offered change in the question that offers it ("moving the outdoor part to the evening, say 6:45pm"), not of a note offered ("Shall I add … to the kit notes?"). */
const OFFERED_CHANGE = /(?<![\p{L}])(?:say|better|mov(?:e|ing)|switch(?:ing)?|chang(?:e|ing)|push(?:ing)?|bring(?:ing)?|shift(?:ing)?|swap(?:ping)?|instead|rather|lower(?:ing)?|rais(?:e|ing)|drop(?:ping)?)(?![\p{L}])/iu;

/** A reply that takes what was offered ("yes do it", "ok go with that", "perfect"), with no "but" or "no" in its first sentence. */
const TAKES = /^\s*(?:(?:oh|ooh|oo|ah|aah|mm|right|well)[,!]?\s+)?(?:yes|yeah|yep|yup|ya|yea|ok|okay|k|kk|sure|great|perfect|lovely|brilliant|agreed|definitely|absolutely|go (?:with|for) (?:that|it)|do (?:that|it)|sounds (?:good|great|perfect|fine)|let['’]?s do (?:that|it)|please do|that works|works for me)(?![\p{L}])/iu;
const TAKES_NOT = /(?<![\p{L}])(?:but|not|no|n['’]t|keep|rather|instead|maybe|hmm|unless|if)(?![\p{L}])/iu;

/**
 * The values someone else offered as a change in a question, taken in this record ("You could push the RSVP deadline
 * back from 1st May to 15th May … Want to do that?" … "yes do it"; "Would it be worth moving the outdoor part to the
 * evening, say 6:45pm?" … "ooh yes"): each a `later` value said now, read with the words of the sentence that offered it.
 */
function proposalsTaken(unit: SaidUnit, before: { readonly text: string; readonly speaker?: string | undefined }, out: readonly RetiredValue[]): RetiredValue[] {
  if (!unit.at || before.speaker === undefined || before.speaker === unit.speaker) return [];
  const first = /^[^.!?\n]*/.exec(unit.text)?.[0] ?? '';
  if (!TAKES.test(first) || TAKES_NOT.test(first.replace(TAKES, ''))) return [];
  const said = before.text.replace(ANCHORED_DAY, '');
  const offer = PROPOSED.exec(said);
  if (!offer || !sentenceOf(said, offer.index, offer[0].length).trimEnd().endsWith('?')) return [];
  const read = new Set(out.map((r) => r.now?.toLowerCase()));
  const taken: RetiredValue[] = [];
  for (const value of valuesOfText(said)) {
    if (!ANSWERED_KINDS.has(value.kind) || WEEKDAY_WORD_ONLY.test(value.value) || read.has(value.value.toLowerCase()) || oldSaid(said, value)) continue;
    // Offered as the change: near its words of change, or in the question that offered it ("say 6:45pm").
    const sentence = sentenceOf(said, value.index, value.value.length);
    if (!nearCue(said, value.index, value.value.length) && !(PROPOSED.test(sentence) && sentence.trimEnd().endsWith('?') && OFFERED_CHANGE.test(sentence))) continue;
    const about = wordsAround(sentence, Math.max(0, sentence.indexOf(value.value)), value.value.length, 10).filter((word) => !KIND_WORDS.has(word));
    if (about.length === 0) continue;
    taken.push({ itemId: `said:${unit.id}:taken:${value.value}`, records: [unit.id], value: value.value, reason: 'later', at: unit.at, now: value.value, about, loose: true });
  }
  return taken;
}

/** A numbered place something is moved to: "moved us to pitch 31", "I move to bay 19", "switched to Room 4". */
const MOVED_TO_NUMBERED = /(?<![\p{L}])(?:mov\w*|put\w*|shift\w*|switch\w*|chang\w*|transferr?\w*|reassign\w*|relocat\w*|swapp?\w*)\s+(?:[\p{L}'’]+\s+){0,3}?(?:to|into|onto)\s+(?:the\s+|a\s+)?(pitch|bay|room|gate|platform|table|desk|locker|stall|unit|plot|space|slot|court|lane|ward|bed|studio|screen|stand|berth|booth|row|hall|floor|level|office|suite|cabin|carriage|coach|pen|pew|box|seat)\s+(\p{L}?\d{1,4}\p{L}?)(?![\p{L}\p{N}])/giu;
/** A reply that opens by denying what was asked ("nope", "lol no", "no, …", "not any more"). */
const DENIES = /^\s*(?:(?:lol|haha|ha|ah|oh|well|um|erm|sadly|unfortunately|actually)[,!.]?\s+)*(?:no(?:pe|ps)?|nah|nay|not (?:any ?more|now|this time|any longer)|no longer)(?![\p{L}])/iu;
/** Words in a denial's reply that say another thing holds now. */
const HOLDS_NOW = /(?<![\p{L}])(?:instead|now|in the end|went (?:with|for)|gone (?:with|for)|going (?:with|for)|chose|picked|changed|moved|switched|swapped|these days|from now on|this time)(?![\p{L}])/iu;
/** Words after which a question names what it asks about. */
const ASKED_OPENS = /(?<![\p{L}])(?:at|to|with|from|in|on|for|get|got|getting|use|using|keep|keeping|book|booked|is it|it['’]?s|still|his|her|their|your|the|a|an)\s+/giu;
/** A question's last words that say nothing of what it asks about ("… too?", "… again?", "… in the end?"). */
const QUESTION_TAIL = /(?:\s+(?:too|again|still|as well|then|in the end|this time|as usual|like before|or not|right|yet|now))+\s*$/iu;
/**
 * The thing a yes-or-no question names at its end, as said ("Is she picking you up at the Co-op on Dale Rd too?" →
 * "Co-op on Dale Rd"; "Did Ollie get his Shark in the end?" → "Shark"; "Same as before — Tuesdays at 6?" → "Tuesdays at 6").
 */
function askedThing(question: string): string | undefined {
  const body = question.replace(/\?\s*$/, '').replace(QUESTION_TAIL, '');
  // After a dash or a colon, the whole rest is what is asked ("Same as before — Tuesdays at 6").
  const afterDash = /(?:[—–:]|\s-)\s*([^—–:]{3,40})$/u.exec(body)?.[1];
  // Of the words that may open it, the first that opens a name ("at the Crown", not "meeting at the Crown"), else the last.
  const tails = [...body.matchAll(ASKED_OPENS)].map((m) => body.slice(m.index! + m[0].length)).filter((rest) => /^(?:[^\s,;.!?]+\s+){0,4}[^\s,;.!?]+$/u.test(rest));
  const tail = afterDash ?? tails.find((rest) => /^[\p{Lu}\d]/u.test(rest.replace(LEADING, ''))) ?? tails.at(-1);
  const value = tail ? oldValueOf(tail) : undefined;
  // Something asked of a person or a time said loosely ("Is everyone ok?", "Did it go well?") names no value.
  return value && !/^(?:ok|okay|alright|fine|well|done|sorted|there|here|everyone|anyone|him|her|them|it|that|this|you|me|us|before|usual|plan|same)$/iu.test(value) ? value : undefined;
}

/**
 * A value asked about in a yes-or-no question and denied in the reply, with what holds instead: "Same as before —
 * Tuesdays at 6?" … "nope, thursdays at 5:30 now"; "Is she picking you up at the Co-op on Dale Rd too?" … "no, the
 * library car park now"; "Did Ollie get his Shark in the end?" … "lol no, went with a henry in the end". The new value is
 * one of the asked one's kind, else what the reply says was chosen; a reply that names none leaves the value unread.
 */
function deniedInReply(unit: SaidUnit, before: { readonly text: string; readonly speaker?: string | undefined }): { replaced: string; by: string }[] {
  if (before.speaker !== undefined && before.speaker === unit.speaker) return [];
  const first = /^[^.!?\n]*[.!?]?[^.!?\n]*/u.exec(unit.text)?.[0] ?? '';
  // "… so meeting there instead" denies what was asked as plainly as "no".
  if (!(DENIES.test(first) || (/(?<![\p{L}])instead(?![\p{L}])/iu.test(first) && !TAKES.test(first))) || unit.text.split(/\s+/).length > SHORT_ANSWER_WORDS * 2) return [];
  const said = before.text.replace(ANCHORED_DAY, '');
  const mark = said.lastIndexOf('?');
  if (mark < 0) return [];
  const question = sentenceOf(said, mark, 1).trim();
  // A question that asks which, when or who ("Who's coming instead?") names no value to deny.
  // Nor one that offers a choice or asks for anything at all ("… bridging units, or a different second area?").
  if (/^(?:who|what|which|when|where|how|why)(?![\p{L}])/iu.test(question) || /(?<![\p{L}])(?:or|options?|any|anyone|anything|someone|something|another|different|other|alternatives?)(?![\p{L}])/iu.test(question)) return [];
  const asked = askedThing(question);
  if (!asked || !HOLDS_NOW.test(unit.text)) return [];
  const reply = unit.text.replace(ANCHORED_DAY, '').replace(DENIES, '');
  const kinds = valuesIn(asked).map((v) => v.kind);
  let by: string | undefined;
  if (kinds.length > 0) {
    // The reply's values of the asked kinds, as one phrase when they stand together ("thursdays at 5:30").
    const found = valuesIn(reply).filter((v) => kinds.includes(v.kind));
    if (found.length > 0) {
      const end = found.at(-1)!.index + found.at(-1)!.value.length;
      // A day said with its hour ("thursdays at 5:30") is one value, as the asked one was.
      by = reply.slice(found[0]!.index, end) + (/^\s+at\s+\d{1,2}(?:[:.]\d{2})?(?:\s?[ap]\.?m\.?)?/iu.exec(reply.slice(end))?.[0] ?? '');
    }
  } else {
    const chosen = [...reply.matchAll(CHOSEN)].map((c) => c[1] ?? c[2]).find(Boolean);
    const named = /(?<![\p{L}])(?:the|a|an)\s+((?:[^\s,;.!?]+\s+){0,3}?[^\s,;.!?]+?)(?=\s+(?:is|are|was|were|now|instead|in the end|then|it is|which|that|for|because|cos|as|so)(?![\p{L}])|\s*[,;.!?]|$)/iu.exec(reply)?.[1];
    // A person asked about is answered by a name ("Is it still Dr Patel?" … "no, Dr Shah now").
    const person = /^\p{Lu}/u.test(asked) ? /(?<![\p{L}])((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s)?\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)/u.exec(reply)?.[1] : undefined;
    // "meeting there instead" points at the thing; the thing is named elsewhere in the reply.
    const pointing = chosen && /(?<![\p{L}])(?:there|it|that|this|one|them)(?![\p{L}])/iu.test(chosen);
    by = newThing((person && !NOT_A_NAME.test(person) ? person : undefined) ?? (pointing ? named : chosen) ?? named ?? '');
  }
  if (!by || by.toLowerCase() === asked.toLowerCase() || holds(said, by)) return [];
  return [{ replaced: asked, by: by.replace(TRAILING_FILLER, '') }];
}

/** Words too common to name a thing, but that name what a change asked for is of ("when can you start instead?"). */
const ASKED_WORDS = new Set(['start', 'starting', 'price', 'cost', 'book', 'booked', 'room', 'place', 'office']);

/** The sentence of a text a place is in (a line of a list is one). */
function sentenceOf(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 300);
  const window = text.slice(from, index + length + 300);
  const at = index - from;
  const start = Math.max(...['. ', '! ', '? ', '\n'].map((stop) => window.lastIndexOf(stop, at)), -1) + 1;
  const ends = ['. ', '! ', '? ', '\n'].map((stop) => window.indexOf(stop, at + length)).filter((end) => end >= 0);
  return window.slice(start, ends.length > 0 ? Math.min(...ends) + 1 : window.length);
}

/** Words said of how a name is written. */
/** A letter said alone ends its clause or is said where ("with an e.", "one L, he …", "with an o at the end"): "with a friend", "the one I meant" say no letter. */
const LETTER_END = String.raw`(?=\s*(?:[.,;:!?)]|$)|\s+(?:at|on|in|not|instead|rather|and|but|so|sorry|lol|please|pls)\b)`;
const SPELLING_CUE = new RegExp(String.raw`(?<![\p{L}])(?:spell\w*|spelt|typo\w*|misspel\w*|[a-z](?:-[a-z]){2,}(?![\p{L}])|(?:sur)?name wrong(?![\p{L}])|(?:with|without) (?:an? |two |double )?[a-z](?:['’]s)?${LETTER_END}|no [a-z]${LETTER_END}|(?:double|one|single) [a-z]${LETTER_END})`, 'iu');
/** A name said to be written somewhere, or corrected to another: "has my surname as Okonjo", "corrected it to Okonkwo" (the name capitalised). */
const SPELLING_NAMED = /(?<![\p{L}])(?:[Ss]ur)?name as \p{Lu}|(?<![\p{L}])[Cc]orrected (?:it |that |this )?to \p{Lu}/u;
/** A capitalised word long enough to be told from another by a letter. */
const LONG_NAME = /(?<![\p{L}\p{N}'’@.])\p{Lu}[\p{Ll}'’-]{2,}(?![\p{L}\p{N}@])/gu;

/** Edits (a letter added, dropped or changed) between two short words, up to `most` + 1. */
function edits(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The capitalised word said after a first name ("Iain Marsh": Marsh). */
const surnameAfter = (text: string, first: string) => new RegExp(`(?<![\\p{L}])${escape(first)}\\s+(\\p{Lu}\\p{Ll}{2,})`, 'u').exec(text)?.[1];

/** Whether an earlier record says `first` before `surname` ("Ian Marsh"). */
const saidWithSurname = (earlier: readonly SaidUnit[], first: string, surname: string) => earlier.some((unit) => new RegExp(`(?<![\\p{L}])${escape(first)}\\s+${escape(surname)}(?![\\p{L}])`, 'u').test(unit.text));

/**
 * Names spelt anew: a record that speaks of spelling ("oh god, it's Brantner, no d", "it's Pendrey, with an e", letters
 * spelt out, "has my surname as …", "corrected it to …") and
 * says a name that no earlier record says, where an earlier one said a name a letter or two from it, with the same
 * first two letters ("Brandtner", "Pendry"): the earlier spelling was the mistake. A name of fewer than five letters
 * only one letter from the other and before the same surname both times ("Ian Marsh", "Iain Marsh").
 */
function spellingsCorrected(units: readonly SaidUnit[]): { unit: SaidUnit; replaced: string; by: string }[] {
  const records = units.filter((unit) => unit.kind === 'record' && unit.at);
  const out: { unit: SaidUnit; replaced: string; by: string }[] = [];
  const namesOf = new Map<string, string[]>();
  const names = (unit: SaidUnit) => namesOf.get(unit.id) ?? namesOf.set(unit.id, [...new Set([...unit.text.matchAll(LONG_NAME)].map((m) => m[0].replace(/['’]s$/u, '')))]).get(unit.id)!;
  for (const unit of records) {
    if (!SPELLING_CUE.test(unit.text) && !SPELLING_NAMED.test(unit.text)) continue;
    const earlier = records.filter((other) => before(other.at, unit.at!));
    const saidBefore = new Set(earlier.flatMap(names));
    for (const by of names(unit)) {
      if (saidBefore.has(by) || NOT_A_NAME.test(by)) continue;
      for (const replaced of saidBefore) {
        // A plural is the same name ("Bechstein", "Bechsteins").
        if (replaced === by || replaced.slice(0, 2) !== by.slice(0, 2) || NOT_A_NAME.test(replaced) || replaced.replace(/e?s$/, '') === by.replace(/e?s$/, '') || edits(replaced, by, 2) > 2) continue;
        // A short name ("Ian", "Iain") only one letter from the other, each said before the same surname: a short word
        // is too often another word or another name ("Alf", "All"; "Dan", "Dean"). It is kept with its surname, so
        // that a line naming another Ian is not taken for him.
        const surname = Math.min(replaced.length, by.length) < 5 ? (surnameAfter(unit.text, by) ?? '') : undefined;
        if (surname !== undefined && (edits(replaced, by, 1) > 1 || !surname || !saidWithSurname(earlier, replaced, surname))) continue;
        const [was, now] = surname ? [`${replaced} ${surname}`, `${by} ${surname}`] : [replaced, by];
        if (!out.some((o) => o.replaced === was)) out.push({ unit, replaced: was, by: now });
      }
    }
  }
  return out;
}

/** The kind of value a question asks for, by its words: the first that fits. */
const ASKS: readonly (readonly [string, RegExp])[] = [
  ['email', /\be-?mail\b/],
  ['address', /\baddress\b|\bwhere (?:does|do|is|are) (?:[\p{L}'’-]+ ){1,3}(?:live|living|staying)\b/u],
  // A count first: "How many jars … at a time?" asks how many. How long or how far a thing is, is a count of its unit.
  ['number', /\bhow many\b|\bhow (?:long|far) is\b/],
  // A train, a bus or a flight is asked for by when it leaves ("Which train am I getting to York?").
  ['time', /\bwhat time\b|\btimes?\b|\b(?:which|what) (?:train|bus|coach|ferry|flight|sailing)\b/],
  ['code', /\b(?:code|reference|ref|pin|keyword|registration|reg|(?:job|order|booking|account|ticket|case|policy|membership|invoice) number)\b/],
  ['phone', /\b(?:phone|mobile|telephone|landline|what number|which number)\b/],
  // A share is a count of its unit, whatever it is a share of ("what percentage of the hammer price").
  ['number', /\bpercent(?:age)?\b/],
  ['money', /\bhow much\b|\bcharg(?:e|es|ed|ing)\b|\b(?:price|cost|costs|rate|fee|budget|quote|deposit|rent|per head|per night|per person|per hour)\b/],
  ['number', /\bnumber of\b/],
  // Who holds a part now ("Who's my driving instructor?", "Who is playing Lady Bracknell?").
  ['person', /^(?:and |so |ok |okay )?(?:who|who['’]s|whom)\b/],
  // Where a thing is now ("Where is the makers' market held?", "What's the venue for the play?").
  ['place', /^(?:and |so |ok |okay )?where\b|\b(?:venue|location|meeting point|pick-?up point)\b/],
  ['day', /\bwhen\b|\b(?:date|day|night|deadline|due)\b/],
  // Which one of a kind of thing ("Which courier collects the orders?", "Which pitch are we on?"): its name.
  ['thing', /^(?:and |so |ok |okay )?which\s+\p{L}/u],
];
/** The unit an amount is asked per, as `perUnitAfter` names it. */
const PER_ASKED: readonly (readonly [string, RegExp])[] = [
  ['month', /\b(?:monthly|(?:a|per|each|every) month)\b/],
  ['week', /\b(?:weekly|(?:a|per|each|every) week)\b/],
  ['year', /\b(?:yearly|annual|annually|(?:a|per|each|every) year)\b/],
  ['hour', /\b(?:hourly|(?:an|per|each|every) hour)\b/],
  ['night', /\b(?:nightly|(?:a|per|each|every) night)\b/],
];
/** Words that say an address is where someone lives or has moved to. */
const LIVES_AT = /(?<![\p{L}])(?:address|lives?|living|lived|moved|moving|house|flat|home|new place)(?![\p{L}])/iu;
/** A question's words that end it without naming what it asks about ("held", "based", "these days"). */
const HEAD_NOT = new Set(['held', 'hel', 'bas', 'based', 'locat', 'happen', 'currently', 'these', 'days', 'today', 'tonight', 'doing', 'do', 'go', 'going', 'running', 'run', 'us']);
/** A question about what was, not what is ("When was it first due?", "What did it cost originally?"): no value of it is retired. */
// "first" only as when ("what was it first set at"): "the first matches", "the first day" are which ones.
// A question of what a thing was ("What time was the appointment?", "Who was the guest on the 17th?") asks what it came
// to be, as does one of what a thing came to ("How much did the service end up costing?"); one of when someone did
// something ("When did Ana start pottery?") asks of an event, whose dates are many and none replaced; "used to",
// "originally" and the like ask what was before.
const ASKS_BEFORE = /^(?:and |so )?when did\b|\b(?:used to|originally|initially|at first|first(?= (?:set|agreed|planned|booked|quoted|said|asked|priced)\b)|before|previous|previously|old|earlier)\b/;
/** A question's words that say only what kind of value it asks for. */
const ASKING = new Set(['what', 'when', 'where', 'which', 'who', 'whom', 'whose', 'how', 'much', 'many', 'does', 'did', 'was', 'were', 'had', 'has', 'have', 'will', 'the', 'for', 'and', 'are', 'our', 'your', 'his', 'her', 'their', 'now', 'currently', 'current', 'latest', 'new', 'per', 'number', 'phone', 'mobile', 'code', 'reference', 'price', 'cost', 'costs', 'rate', 'fee', 'date', 'day', 'time', 'times']);
/** A time of day as hours and minutes on a twelve-hour clock, however it is said ("half past eight", "8.30pm", "20:30" are "8:30"). */
function clockOf(value: string): string | undefined {
  const said = value.toLowerCase().trim();
  const hourOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : UNITS_SAID.indexOf(word));
  const inWords = /^(?:(a\s)?quarter|half|five|ten|twenty|twenty-five)\s(past|to)\s(\S+)$/.exec(said);
  if (inWords) {
    const minutes = { quarter: 15, half: 30, five: 5, ten: 10, twenty: 20, 'twenty-five': 25 }[said.replace(/^a\s/, '').split(/\s/)[0]!] ?? 0;
    const hour = hourOf(inWords[3]!);
    if (hour < 1) return undefined;
    return inWords[2] === 'past' ? `${hour % 12}:${String(minutes).padStart(2, '0')}` : `${(hour + 11) % 12}:${String(60 - minutes).padStart(2, '0')}`;
  }
  const oclock = /^(\S+)\so['’]clock$/.exec(said);
  if (oclock) return hourOf(oclock[1]!) > 0 ? `${hourOf(oclock[1]!) % 12}:00` : undefined;
  const digits = /^(\d{1,2})(?:[:.](\d\d))?\s?(?:([ap])\.?m\.?)?$/.exec(said);
  return digits ? `${Number(digits[1]) % 12}:${digits[2] ?? '00'}${digits[3] ? `${digits[3]}m` : ''}` : undefined;
}

/** A count said in words as it is said in digits ("Six bottles" is "6 bottles", "forty-two" is "42"). */
const UNITS_SAID = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS_SAID = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const inDigits = (value: string) =>
  value.replace(/\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(one|two|three|four|five|six|seven|eight|nine))?|(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen))\b/giu, (_, tens?: string, unit?: string, alone?: string) =>
    String(alone ? UNITS_SAID.indexOf(alone.toLowerCase()) : TENS_SAID.indexOf(tens!.toLowerCase()) * 10 + (unit ? UNITS_SAID.indexOf(unit.toLowerCase()) : 0)),
  );
/** Sentences, at most, of a line whose first sentence is read as what the rest is about. */
const SHORT_LINE_SENTENCES = 4;
/** Stems of words that say the same of a thing, each to the one it is compared as. */
const SAID_ALIKE: ReadonlyMap<string, string> = new Map(
  Object.entries({
    start: ['begin', 'beginn', 'began', 'begun', 'commenc', 'kick'],
    finish: ['end', 'wrap'],
    pick: ['collect', 'grab', 'fetch'],
    appointment: ['appt', 'appointm'],
    // Forms of a word the crude stem does not bring together.
    freez: ['frozen', 'froze'],
    pay: ['paid'],
    buy: ['bought'],
    sell: ['sold'],
    hold: ['held'],
    teach: ['taught'],
    meet: ['met'],
  }).flatMap(
    ([one, others]) => others.map((other) => [other, one] as const),
  ),
);
/** Earlier answers, at most, for the latest to be taken as what replaced them (more is a list of values, not one changed). */
const MAX_EARLIER_ANSWERS = 3;

/**
 * The values a block's lines give as the answer to a question that asks what something is now ("What time do
 * rehearsals start?", "How much is it per head?"): each value of the kind the question asks for said within eight
 * words of a word of the question (or said by whom it names). When they differ, the latest is what the thing
 * became, and each earlier one that could be the same thing is retired in favour of it (marked wherever the block
 * states it before then). Nothing when the question asks about the past, when the latest line gives two answers or
 * someone else's, when it names the thing in passing beside answers that name it plainly, or when the earlier
 * answers are more than a changed value would leave (a list of prices, not one price changed).
 */
export function answersReplaced(question: string, units: readonly SaidUnit[], names: readonly string[] = []): RetiredValue[] {
  const asked = question.toLowerCase();
  if (ASKS_BEFORE.test(asked)) return [];
  const kind = ASKS.find(([, pattern]) => pattern.test(asked))?.[0];
  if (!kind) return [];
  const words = new Set(
    asked
      // Words that say when, not what ("in the end", "at the moment", "going forward").
      .replace(/\b(?:in the end|end(?:ed|s)? up|at the moment|for now|these days|going forward|this time|at present)\b/gu, ' ')
      .split(/[^\p{L}\p{N}'’-]+/u)
      .map((word) => word.replace(/['’]s$/u, ''))
      .filter((word) => word.length >= 3 && !ASKING.has(word) && !COMMON.has(word) && !(kind === 'address' && word === 'address'))
      .map(stem),
  );
  // "What's my current mobile number?" names nothing but the kind: its word for the kind is what the number is of.
  if (words.size === 0 && kind === 'phone') for (const word of asked.match(/\b(?:mobile|landline|phone|telephone)\b/gu) ?? []) words.add(word);
  if (words.size === 0) return [];
  // Words that say the same of a thing compare as one ("start" and "begin", "pick up" and "collect").
  const same = (said: readonly string[]) => said.map((word) => SAID_ALIKE.get(word) ?? word);
  const alike = new Set(same([...words]));
  // The word a question that asks who or where ends on, of what it asks about ("lab manager" → "manager", "swimming coach" → "coach").
  // Of a part, the word before where or for what it is held ("Ana's supervisor at the warehouse" → "supervisor").
  const partOf = kind === 'person' ? asked.replace(/\s+(?:at|in|on|for|from|with|during|over)\s+[^?]*\??\s*$/u, '') : asked;
  const headOf = (from: string) => [...words].filter((word) => !HEAD_NOT.has(word) && new RegExp(`(?<![\\p{L}])${word}`, 'u').test(from)).at(-1);
  const stemHead = headOf(partOf) ?? headOf(asked);
  const head = stemHead === undefined ? undefined : same([stemHead])[0];
  const known = kind === 'person' ? knownNames(question, names) : undefined;
  // A question that asks which one of a kind names the kind after "which" ("Which dinner sitting …": "dinner", "sitting").
  const kinds = kind === 'thing' ? thingAsked(question) : [];
  if (kind === 'thing' && kinds.length === 0) return [];
  // What an amount asked for is per, when the question says ("monthly", "each month", "a week", "per night").
  const askedPer = kind === 'money' ? (PER_ASKED.find(([, pattern]) => pattern.test(asked))?.[0] ?? /\bper ([\p{L}]{3,12}?)s?\b/u.exec(asked)?.[1]) : undefined;
  const askedSums = new Set(kind === 'money' ? asked.split(/[^\p{L}]+/u).map(sumName).filter((noun): noun is string => noun !== undefined) : []);
  const answers: { id: string; at: string; value: string; shared: number; index: number; text: string; named: boolean; loose?: boolean }[] = [];
  // What a question asks the count of ("How many croissants …"): a count of it is said of the question's word.
  const counted = kind === 'number' ? /\bhow many ([\p{L}-]+)/u.exec(asked)?.[1]?.replace(/e?s$/, '') : undefined;
  const countsAsked = (value: string) => {
    const unit = counted === undefined ? undefined : unitOf(value);
    return unit !== undefined && stem(unit) === stem(counted!);
  };
  const ofQuestion = (said: readonly string[]) => new Set(same(said).filter((word) => alike.has(word))).size;
  for (const unit of units) {
    if (!unit.at) continue;
    // Said by whom the question names: a word of it.
    const bySpeaker = unit.speaker !== undefined && words.has(stem(unit.speaker.toLowerCase().split(' ')[0]!)) ? 1 : 0;
    // A reply is said of what it was asked ("Has Mr Carrow responded on price?" … "His revised figure is £41,200"):
    // the words of a question someone else put just before count as its sentence's.
    // (Read once a line, and only when a value needs them: most lines hold no value of the kind asked.)
    let replyWords: string[] | undefined;
    const askedOf = () => {
      if (replyWords) return replyWords;
      const replyTo = unit.before && unit.before.speaker !== unit.speaker && unit.before.text.includes('?') ? unit.before.text.split(/(?<=[.!?])\s+/u).filter((sentence) => sentence.includes('?')).join(' ') : '';
      return (replyWords = replyTo ? wordsAround(replyTo, 0, 0, 60, 3) : []);
    };
    let short: boolean | undefined;
    const shortLine = () => (short ??= sentencesOf(unit.text).length <= SHORT_LINE_SENTENCES);
    // The question's words the whole line says.
    let inLine: number | undefined;
    const ofLine = () => (inLine ??= ofQuestion([...wordsAround(unit.text, 0, 0, 200, 3), ...askedOf()]));
    const said = (kind === 'person' ? peopleNamed(unit.text, question, names, known) : kind === 'place' ? placesNamed(unit.text, question) : kind === 'thing' ? thingsNamed(unit.text, question, kinds) : valuesOfKind(unit.text, kind)).slice(0, MAX_ANSWERS_PER_LINE);
    for (const v of said) {
      // An amount named as another sum than the one asked for ("£350 balance" for "what is the deposit?") answers nothing.
      const sums = askedSums.size > 0 ? sumNamed(unit.text, v.index, v.value.length) : [];
      if (sums.length > 0 && !sums.some((noun) => askedSums.has(noun))) continue;
      // A question's short words count ("job", "van", "car").
      // Words said of it are in its own sentence when the line says several ("… Bellweather £850 not yet invoiced.
      // Okafor £350 balance due": "Okafor" is £350's).
      // (A list's lines are sentences of their own for values; a name or a place is read across them, as before.)
      const lists = kind !== 'person' && kind !== 'place' && kind !== 'thing';
      let [from, to] = said.length > 1 || !lists ? sentenceAround(unit.text, v.index, v.value.length, lists) : [0, unit.text.length];
      // A time or a day is said of what its own sentence or the one before says, not the next ("… has arrived every
      // morning at eight o'clock sharp. My father reports …" is no time of the father's appointment).
      if (said.length === 1 && (kind === 'time' || kind === 'day')) {
        const [start, end] = sentenceAround(unit.text, v.index, v.value.length, true);
        [from, to] = [start > 0 ? sentenceAround(unit.text, Math.max(0, start - 2), 1, true)[0] : 0, end];
      }
      // A sentence of values alone ("late shift. 2pm to 10.30pm.") is read with the one before it.
      if (from > 0 && unit.text.slice(from, to).replace(/[\d:.,apm–-]+|\b(?:to|till|until|and)\b/giu, '').trim().length < 3) from = sentenceAround(unit.text, Math.max(0, from - 2), 1, lists)[0];
      // A person or a place is said of the whole sentence ("Ivo Marsh, who sang the bass part last winter, has agreed to step in for the solo").
      const near = same(wordsAround(unit.text.slice(from, to), v.index - from, v.value.length, kind === 'person' || kind === 'place' ? 40 : 8, 3, undefined, lists));
      let shared = ofQuestion(near) + bySpeaker + (countsAsked(v.value) ? 1 : 0);
      // A value said further off in its own sentence than eight words is its answer too, when the sentence says two
      // of the question's words ("also car: dan says w the bypass mess he's gonna grab me at 7.15"): as one said near one.
      const plain = kind !== 'person' && kind !== 'place' && kind !== 'thing';
      if (shared === 0 && plain) {
        const [start, end] = sentenceAround(unit.text, v.index, v.value.length, true);
        const sentence = wordsAround(unit.text.slice(start, end), v.index - start, v.value.length, 40, 3);
        // A short line's first sentence names what its one value of the kind is of ("Greenleaf invoice bounced. … Theirs is WH-0213.").
        const opening = start > 0 && said.length === 1 && shortLine() ? wordsAround(unit.text.slice(0, sentenceAround(unit.text, 0, 1, true)[1]), 0, 0, 40, 3) : [];
        const inSentence = ofQuestion([...sentence, ...opening, ...askedOf()]);
        if (inSentence >= 2) shared = inSentence;
      }
      // A person or a place is named of many things: the question's last word of what it asks about must be said with it
      // ("kevin (lab manager)" answers "Who is the lab manager?"; "reyes moved lab meeting" does not), or two of its words.
      // A thing of the kind asked is said with the word for its kind, or named by it ("Castle Pharmacy", "pitch 22").
      const ofKind = kind === 'thing' && saidAsKind(unit.text, v, kinds);
      const ofPart = plain ? shared > 0 : kind === 'thing' ? ofKind && shared >= 1 : shared >= 2 || (head !== undefined && near.includes(head));
      if (shared > 0 && ofPart) answers.push({ id: unit.id, at: unit.at, value: v.value, shared, index: v.index, text: unit.text, named: sums.length > 0 });
      // A value of a line that says a word of the question anywhere may be one the latest replaced ("Their figure is
      // £38,500" in a line about the extension), never the latest itself: kept loose, as an earlier answer only.
      // (Amounts, codes and phone numbers only, which the earlier must match in size or series: a time or a day is said of too much.)
      else if (shared === 0 && (kind === 'money' || kind === 'code' || kind === 'phone') && ofLine() >= 1) {
        answers.push({ id: unit.id, at: unit.at, value: v.value, shared: 0, index: v.index, text: unit.text, named: sums.length > 0, loose: true });
      }
    }
  }
  // The question names its sum ("How much is Kenji being refunded?") and some answers are said as it ("a refund of
  // £18.50"): those are its answers, not the price paid or an order's total said beside the same words.
  if (answers.some((a) => a.named)) answers.splice(0, answers.length, ...answers.filter((a) => a.named));
  // The question names whom it asks about and what of theirs ("What time does Ola go swimming?"): when some answers
  // are said with what it is (two at least), those are the answers, not one said with the name alone ("collects Ola at 3:05").
  const named = new Set((question.match(/(?<=\S\s+)\p{Lu}[\p{Ll}'’-]+/gu) ?? []).map((name) => stem(name.toLowerCase().replace(/['’]s$/u, ''))));
  const thingOf = (a: { text: string; index: number; value: string }) => same(wordsAround(a.text, a.index, a.value.length, 8, 3)).some((word) => alike.has(word) && !named.has(word));
  // (Times and days only: a name is said with its address or number as often as with the word for it.)
  const ofThing = (kind === 'time' || kind === 'day') && named.size > 0 ? answers.filter(thingOf) : [];
  if (ofThing.length >= 2) answers.splice(0, answers.length, ...ofThing);
  // Codes written with letters when some are ("INV-0147"): digits alone said near the same words are other numbers.
  if (kind === 'code' && answers.some((a) => /\p{L}/u.test(a.value))) answers.splice(0, answers.length, ...answers.filter((a) => /\p{L}/u.test(a.value)));
  // "How many croissants …": when some counts are of croissants, those are the answers (not "12 sourdough" said beside).
  const ofUnit = answers.filter((a) => countsAsked(a.value));
  if (ofUnit.length >= 2) answers.splice(0, answers.length, ...ofUnit);
  if (answers.length < 2 || answers.every((a) => a.loose)) return [];
  // One value however it is written: "Sundays" and "sunday", "sat 15th" and "Saturday 15th", "7 pm" and "7pm".
  const key = (value: string) =>
    kind === 'person' ? personKey(value) : kind === 'place' ? placeKey(value) : kind === 'thing' ? thingKey(value, kinds) : kind === 'time' && clockOf(value) ? clockOf(value)! :
    // (A date said with its weekday or without is one day: "Thursday 2 October" and "2 October".)
    (kind === 'money' ? value.replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/(\d)\.00\b/, '$1') : kind === 'number' ? inDigits(value) : kind === 'day' && dayShape(value).slice(1) === '11' ? value.replace(WEEKDAY_IN, '').replace(/^[\s,]+/u, '') : value)
      .toLowerCase()
      .replace(/\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*?(?:day)?s?\b/g, '$1')
      .replace(/\s+/g, '');
  const sure = answers.filter((a) => !a.loose);
  const latestAt = sure.reduce((latest, a) => (Date.parse(a.at) > Date.parse(latest) ? a.at : latest), sure[0]!.at);
  // The value a latest line says was replaced ("finishes at 3:05 instead of 3:15") is not its answer.
  // ("was 4pm but it is 5pm now": a value after "was" too, when the line says another; "was 5:30 today" alone is the answer).
  const behindOf = (a: { text: string; index: number }) => a.text.slice(Math.max(0, a.index - 24), a.index);
  // Nor one its sentence says the speaker had wrong ("I told you the freeze was from 30 September, but …").
  const hadWrong = (a: { text: string; index: number; value: string }) => {
    const [start, end] = sentenceAround(a.text, a.index, a.value.length);
    return /(?<![\p{L}])(?:told you|i said|i thought|i['’]d written|i wrote|i keep saying|i had it as)(?![\p{L}])/iu.test(a.text.slice(start, a.index)) && /^[^.!?]*?(?<![\p{L}])but(?![\p{L}])/iu.test(a.text.slice(a.index + a.value.length, end + 1));
  };
  // Nor one the latest says is off ("the 08:10 was cancelled, I'm on the 09:40").
  const saidOff = (a: { text: string; index: number; value: string }) => /^\s*(?:\(\d{4}-\d{2}-\d{2}\)\s*)?(?:(?:was|is|has been|got|were)\s+(?:cancell?ed|scrapped|axed|pulled|dropped|off)|(?:any ?more|no longer))(?![\p{L}])/iu.test(a.text.slice(a.index + a.value.length, a.index + a.value.length + 40));
  // Nor one the latest says cannot be kept ("won't make it on the 9th").
  const missed = (a: { text: string; index: number }) => /(?<![\p{L}])(?:won['’]?t|can['’]?t|couldn['’]?t|cannot) make it(?: on| for| at)?\s*(?:the\s+)?$/iu.test(behindOf(a));
  const said = sure.filter((a) => a.at === latestAt && !hadWrong(a) && !saidOff(a) && !missed(a) && !/(?<![\p{L}])(?:instead of|rather than|not|it was|used to be|previously)\s*(?:the\s+)?$/iu.test(behindOf(a)));
  const notWas = said.filter((a) => !/(?<![\p{L}])was\s*$/iu.test(behindOf(a)));
  const latest = notWas.length > 0 ? notWas : said;
  if (latest.length === 0) return [];
  const best = Math.max(...latest.map((a) => a.shared));
  let top = [...new Set(latest.filter((a) => a.shared === best).map((a) => key(a.value)))];
  // Amounts or counts of a list said alike ("SOURDOUGH 800g — £3.10 CROISSANT — £1.10"): the one said nearest a word of
  // the question, when one is nearer than the others.
  const listed = kind === 'money' || kind === 'number' || kind === 'code';
  const distance = (a: { text: string; index: number; value: string }) => {
    const before = a.text.slice(Math.max(0, a.index - 80), a.index).split(/\s+/u).filter(Boolean).reverse();
    const after = a.text.slice(a.index + a.value.length, a.index + a.value.length + 80).split(/\s+/u).filter(Boolean);
    const of = (word: string) => alike.has(same([stem(word.toLowerCase().replace(/[^\p{L}'’-]/gu, ''))])[0]!);
    const at = (words: string[]) => words.findIndex(of);
    return Math.min(...[at(before), at(after)].map((i) => (i < 0 ? Infinity : i)));
  };
  if (top.length > 1 && listed) {
    const ranked = latest.filter((a) => a.shared === best).map((a) => ({ a, d: distance(a) }));
    const nearest = Math.min(...ranked.map((r) => r.d));
    const closest = [...new Set(ranked.filter((r) => r.d === nearest).map((r) => key(r.a.value)))];
    if (Number.isFinite(nearest) && closest.length === 1) top = closest;
  }
  // Two times said as a range ("2pm to 10.30pm"): its start, unless the question asks when it ends.
  if (top.length === 2 && kind === 'time') {
    const [first, second] = latest.filter((a) => a.shared === best).sort((a, b) => a.index - b.index);
    const asksEnd = /\b(?:finish|finishes|end|ends|until|till)\b/.test(asked);
    if (first && second && first.id === second.id && /^\s*(?:to|till|until|-|–|—)\s*$/u.test(first.text.slice(first.index + first.value.length, second.index))) {
      top = [key((asksEnd ? second : first).value)];
    } else if (first && second && first.id === second.id) {
      // "starts at 2pm and finishes at 10.30pm": the one said as the start, or as the end.
      const saidAs = (a: { text: string; index: number }) => a.text.slice(Math.max(0, a.index - 16), a.index);
      const pick = [first, second].filter((a) => (asksEnd ? /(?:finish|end|until|till)\w*\s+(?:at\s+)?$/iu : /(?:start|begin|from)\w*\s+(?:at\s+)?$/iu).test(saidAs(a)));
      if (pick.length === 1) top = [key(pick[0]!.value)];
    }
  }
  // Of people or places said alike, the one not said before ("Sandra Okafor … has agreed to step in as Lady Bracknell", not
  // "Miss Prism" she played once; "Canal Basin", not the "Elm St" the market leaves), else the first the line names.
  if (top.length > 1 && (kind === 'person' || kind === 'place' || kind === 'thing')) {
    const saidBefore = new Set(answers.filter((a) => before(a.at, latestAt)).map((a) => key(a.value)));
    const fresh = top.filter((value) => !saidBefore.has(value));
    top = fresh.length > 0 ? fresh.slice(0, 1) : top;
  }
  if (top.length !== 1) return [];
  const now = latest.find((a) => key(a.value) === top[0])!;
  // Someone else's ("his outbound ref is XJA2PN", "Theo's flight"), when the question names nobody of that name.
  const possessor = new RegExp(SOMEONE_ELSES.source, 'gu');
  const owners = [...now.text.slice(Math.max(0, now.index - 60), now.index).matchAll(possessor)].map((m) => m[0].replace(/['’]s$/u, '').toLowerCase());
  if (owners.some((owner) => !asked.includes(owner))) return [];
  // A day is said of many things: the latest must say it changed, or be said with two of the question's words.
  // (A latest line that says an answer was had wrong or is off says the change itself.)
  // (So does a line said since that says the latest, and that an earlier one was had wrong: "I told you the freeze
  // was from 30 September, but … so the freeze runs from 7 October", before "the freeze is confirmed from 7 October".)
  const saysNow = new Set(sure.filter((a) => key(a.value) === key(now.value)).map((a) => a.id));
  const wrongSince = sure.filter((a) => a.at !== latestAt && saysNow.has(a.id) && key(a.value) !== key(now.value) && (hadWrong(a) || saidOff(a)));
  const wrongLatest = sure.some((a) => a.at === latestAt && (hadWrong(a) || saidOff(a)));
  const corrected = wrongLatest || sure.some((a) => a.at === latestAt && missed(a)) || wrongSince.length > 0;
  // (Or a line said since another day was, that says the latest with a word of change: "your test is now on Monday
  // 10th March", a fortnight before "So the test is Monday 10th March".)
  const otherFirst = answers.filter((a) => !a.loose && key(a.value) !== key(now.value)).reduce<string | undefined>((first, a) => (first === undefined || before(a.at, first) ? a.at : first), undefined);
  const changedSince = (said: (a: { text: string; index: number; value: string }) => boolean) => otherFirst !== undefined && answers.some((a) => !a.loose && key(a.value) === key(now.value) && before(otherFirst, a.at) && said(a));
  if (kind === 'day' && now.shared < 2 && !corrected && !nearCue(now.text, now.index, now.value.length) && !changedSince((a) => nearCue(a.text, a.index, a.value.length))) return [];
  // People and places are named of many things: the latest must say it took the place ("new", "instead", "step in", "moving").
  // (A thing too, unless said with two of the question's words or numbered as its kind: "bay 19" for "Which parking bay …".)
  const numbered = kind === 'thing' && new RegExp(String.raw`^(?:${kinds.map(escape).join('|')})\p{L}{0,3}\s`, 'iu').test(now.value);
  // Or the latest line names the one it took over from ("Pennock could not get the part, so the garage is Marsh Autos").
  const namesEarlier = kind === 'thing' && answers.some((a) => before(a.at, now.at) && key(a.value) !== key(now.value) && new RegExp(`(?<![\\p{L}])${escape(key(a.value).split(' ')[0]!)}(?![\\p{L}])`, 'iu').test(now.text));
  // The line that said so may be any that says the latest, after another was said ("Chloe Barnes has taken over …" a
  // month before "Chloe Barnes is still your account manager").
  const tookPlace = (a: { text: string; index: number; value: string }) => nearCue(a.text, a.index, a.value.length) || PART_TAKEN.test(sentenceOf(a.text, a.index, a.value.length));
  // (Any line said since names the latest taking it, whether or not it says the question's words: "Tariq Osei is taking over my case".)
  const saidTaken = () => {
    if (otherFirst === undefined) return false;
    if (changedSince(tookPlace)) return true;
    // (A person only: a place or a thing is named in passing far more often, "switched to Kitroom Bristol" for a lens.)
    if (kind !== 'person') return false;
    const named = new RegExp(`(?<![\\p{L}])${escape(now.value)}(?![\\p{L}])`, 'giu');
    return units.some((unit) => unit.at !== undefined && before(otherFirst, unit.at) && !before(now.at, unit.at) && [...unit.text.matchAll(named)].some((m) => tookPlace({ text: unit.text, index: m.index!, value: m[0] })));
  };
  if ((kind === 'person' || kind === 'place' || (kind === 'thing' && now.shared < 2 && !numbered && !namesEarlier)) && !saidTaken()) return [];
  // So is an address ("dropped the parcel at 9 Mill Road for Mum's friend"): the latest must be said as where someone lives.
  if (kind === 'address' && now.shared < 2 && !LIVES_AT.test(now.text.slice(Math.max(0, now.index - 60), now.index + now.value.length + 30))) return [];
  // The earlier answers that could be the same thing said before: a count of the same unit, an amount of about
  // its size per the same unit (or per nothing, both).
  const textOf = new Map(units.map((unit) => [unit.id, unit.text]));
  // An amount said with no unit is per the one the question asks ("How much is the monthly payment?": "would be £77.35").
  const per = (a: { id: string; value: string }) => perUnitAfter(textOf.get(a.id) ?? '', a.value) ?? askedPer;
  const earlier = answers.filter(
    (a) =>
      before(a.at, now.at) &&
      key(a.value) !== key(now.value) &&
      // A value the latest line says too is still said ("starts at 2pm and finishes at 10.30pm" keeps 10.30pm).
      !(kind === 'time' && latest.some((l) => key(l.value) === key(a.value))) &&
      // Nor another one a line that says the latest names beside it ("now at the Old Corn Exchange, load-in on Cheap Street";
      // "adults £14, concessions £10"), unless said as what it was ("from £3.20 to £3.65", "instead of Tuesday").
      !(kind !== 'time' && answers.some((b) => b.id === a.id && key(b.value) === key(now.value)) && !/(?<![\p{L}])(?:from|instead of|rather than|not|was|were|used to be|previously)\s+(?:the\s+)?$/iu.test(a.text.slice(Math.max(0, a.index - 24), a.index))) &&
      !(kind === 'time' && sameClock(a.value, now.value)) &&
      // One person by first name or by title and surname ("Harriet Fenwick", "Ms Fenwick").
      !(kind === 'person' && a.value.split(' ').length + now.value.split(' ').length > 2 && a.value.split(' ').at(-1)!.toLowerCase() === now.value.split(' ').at(-1)!.toLowerCase()) &&
      // A thing said in fewer or more words is the same thing ("GivEnergy" and "GivEnergy 5kW Hybrid", "Unit 4 Harwood Road").
      !(kind === 'thing' && (` ${key(a.value)} `.includes(` ${key(now.value)} `) || ` ${key(now.value)} `.includes(` ${key(a.value)} `))) &&
      (kind !== 'number' || unitOf(a.value) === unitOf(now.value)) &&
      // A day said the same way: a date for a date ("14 November" for "21 November"), a weekday for a weekday.
      // (A date with its weekday or not is a date, "tues 16 june" for "18 june", when said with two of the question's words.)
      (kind !== 'day' || dayShape(a.value) === dayShape(now.value) || (a.shared >= 2 && dayShape(a.value).slice(1) === '11' && dayShape(now.value).slice(1) === '11')) &&
      (kind !== 'money' || (nearAmount(a.value, now.value) && per(a) === per(now))),
  );
  // The latest must speak of the thing about as plainly as the earlier answers do: one word of the question in
  // passing is no answer to replace three ("invoice INV-024" after "the Kestrel deposit invoice is INV-019"),
  // unless it says what it is per or counts ("it will be £22 a head with drinks"; a word of change such as "new"
  // is said of too much: "laptop serviced, €85, new fan").
  // (What the latest line itself says it is per: the unit a question asks is no plainer answer.)
  const anchored = (kind === 'money' && perUnitAfter(textOf.get(now.id) ?? '', now.value) !== undefined) || (kind === 'number' && unitOf(now.value) !== undefined);
  // (Unless the latest says a change in so many words: "I change to late shift. 2pm to 10.30pm.")
  const saysChange = corrected || CHANGE_CUE.test(now.text) || /(?<![\p{L}])chang(?:e|es|ing)(?![\p{L}])/iu.test(now.text);
  if (!anchored && !saysChange && earlier.some((a) => a.shared > now.shared + 1)) return [];
  // Codes or numbers of the same series when the block holds any ("HM-40172" for "HM-40219", not a registration
  // "KX19"; a landline for a landline, not a mobile).
  const series = (value: string) => (kind === 'phone' ? value.replace(/\D/g, '').slice(0, 3) : /^\p{L}*/u.exec(value)![0].toLowerCase());
  // Of a line's earlier amounts or counts, the one said nearest a word of the question ("£12 adults, £10 concessions").
  if (listed) {
    const byLine = new Map<string, typeof earlier>();
    for (const a of earlier) byLine.set(a.id, [...(byLine.get(a.id) ?? []), a]);
    for (const said of byLine.values()) {
      if (new Set(said.map((a) => key(a.value))).size < 2) continue;
      const ranked = said.map((a) => ({ a, d: distance(a) }));
      const nearest = Math.min(...ranked.map((r) => r.d));
      const closest = ranked.filter((r) => r.d === nearest);
      if (!Number.isFinite(nearest) || new Set(closest.map((r) => key(r.a.value))).size !== 1) continue;
      for (const r of ranked) if (r.d !== nearest) earlier.splice(earlier.indexOf(r.a), 1);
    }
  }
  // A line that only names the thing somewhere is read for an earlier answer when no line says one plainly.
  const plainly = earlier.filter((a) => !a.loose);
  if (plainly.length > 0) earlier.splice(0, earlier.length, ...plainly);
  const sameSeries = earlier.filter((a) => (kind === 'code' || kind === 'phone') && series(a.value) === series(now.value));
  // What a line since said was had wrong is what was replaced, not any other answer said before (a payment's day).
  const wrong = new Set(wrongSince.map((a) => key(a.value)));
  const replaced = wrong.size > 0 && !wrongLatest ? earlier.filter((a) => wrong.has(key(a.value))) : earlier;
  const values = [...new Set((sameSeries.length > 0 ? sameSeries : replaced).map((a) => key(a.value)))];
  if (values.length > MAX_EARLIER_ANSWERS) return [];
  return values.map((value) => {
    const was = earlier.find((a) => key(a.value) === value)!.value;
    return { itemId: `asked:${now.id}:${was}`, records: [now.id], value: was, reason: 'superseded' as const, at: now.at, now: now.value, loose: true, onlyBefore: true };
  });
}

/** Start and end of the sentence holding text[index, index + length] (a full stop inside "£412.50" ends none). */
function sentenceAround(text: string, index: number, length: number, lists = false): [number, number] {
  // With `lists`, a line of a list is a sentence of its own ("- Accounts: Blue Door, Greenleaf - Flour: Pennock"), on a
  // line of its own or labelled.
  // A list whose lines were run together ("list for may: - physio, mon 19 may - sofa delivery thu 15 may"): each dash
  // opens a line, when the text around holds two at least.
  const before = text.slice(Math.max(0, index - 400), index);
  const next = text.slice(index + length, index + length + 400);
  const dashed = lists && (before.match(/(?:^|\s)[-•]\s/gu)?.length ?? 0) + (next.match(/\s[-•]\s/gu)?.length ?? 0) >= 2;
  const stops = [...before.matchAll(dashed ? /[.!?;]\s|\n|(?:^|\s)[-•]\s/gu : lists ? /[.!?;]\s|\n|\s[-•]\s(?=\p{Lu}[\p{L} ]{0,30}:)/gu : /[.!?;]\s/gu)];
  const from = stops.length > 0 ? index - before.length + stops.at(-1)!.index! + stops.at(-1)![0].length : Math.max(0, index - 400);
  const after = (dashed ? /[.!?;](?:\s|$)|\n|\s[-•]\s/u : lists ? /[.!?;](?:\s|$)|\n|\s[-•]\s(?=\p{Lu}[\p{L} ]{0,30}:)/u : /[.!?;](?:\s|$)/u).exec(next);
  return [from, after ? index + length + after.index + (/^[.!?;]/.test(after[0]) ? 1 : 0) : Math.min(text.length, index + length + 400)];
}

/** Values said per line, at most, for the question's answers: a line listing more is no answer of one value. */
const MAX_ANSWERS_PER_LINE = 24;

/** Names of one sum of money among others: a deposit is not a balance, a fee not a refund ("price" and "cost" name any). */
const SUM_NAMES = /^(deposit|balance|fee|rate|quote|budget|bill|rent|salary|wage|premium|fine|tip|refund|charge|payment|float|excess|discount|fare|invoice|bonus|allowance|pension|subsidy|grant)s?$/;
/** A word naming a sum, said as the noun or as its verb ("refunded", "charged", "quoted", "invoiced"). */
const sumName = (word: string) => {
  const lower = word.toLowerCase();
  for (const form of [lower, lower.replace(/ed$/, ''), lower.replace(/d$/, ''), lower.replace(/ing$/, ''), lower.replace(/ing$/, 'e')]) {
    const found = SUM_NAMES.exec(form)?.[1];
    if (found) return found;
  }
  return undefined;
};
/** The names of a sum said within three words of an amount. */
function sumNamed(text: string, index: number, length: number): string[] {
  const before = text.slice(Math.max(0, index - 120), index).split(/[^\p{L}]+/u).filter(Boolean).slice(-3);
  const after = text.slice(index + length, index + length + 120).split(/[^\p{L}]+/u).filter(Boolean).slice(0, 3);
  return [...before, ...after].map(sumName).filter((noun): noun is string => noun !== undefined);
}

/** Words of a sentence that say someone or somewhere took another's place ("has agreed to step in", "market's moving: Canal Basin"). */
const PART_TAKEN = /(?<![\p{L}])(?:acting|covering\s+(?:for\s+)?\p{L}+['’]s|instead|replac\w*|tak(?:e|es|ing|en)\s+over|took\s+over|step(?:s|ping|ped)?\s+in|cover(?:s|ing)?\s+for|new|now|moving|moved|relocat\w*|switch\w*|swapp?\w*)(?![\p{L}])/iu;
/** A person said in a line as one answers "who": the first name, or the surname after a title ("Dr Shah" is "shah"). */
function personKey(value: string): string {
  const words = value.toLowerCase().split(/\s+/);
  return /^(?:dr|mr|mrs|ms|miss|prof)\.?$/.test(words[0]!) ? (words[1] ?? words[0]!) : words[0]!;
}
/** A place however it is said ("the Corn Exchange", "corn exchange", "Elm St" and "Elm Street"). */
function placeKey(value: string): string {
  return value.toLowerCase().replace(/^the\s+/, '').replace(/\b(?:street|st\.?)$/, 'st').replace(/\b(?:road|rd\.?)$/, 'rd').replace(/\s+/g, ' ');
}

/** Family called by what they are to the speaker ("Mum", "Gran"): no one who holds a part. */
const KIN_WORD = /^(?:Mum|Mom|Mam|Mummy|Mommy|Dad|Daddy|Nan|Nana|Nanna|Gran|Granny|Grandma|Grandad|Grandpa|Auntie|Aunty|Uncle|Sis|Bro)$/u;
/** Whether a name is the question's own ("Who is playing Lady Bracknell?": "Lady Bracknell" is what is asked about). */
const inQuestion = (question: string, name: string) => new RegExp(`(?<![\\p{L}])${escape(name.split(' ')[0]!)}(?![\\p{L}])`, 'iu').test(question);

/**
 * The people a line names, as answers to a question that asks who: names with their capitals (not a weekday, a
 * month, a pronoun or a word that opens the sentence as a common word does), and the names the block knows however a
 * chat cases them ("ollie"); never one the question itself names.
 */
function peopleNamed(text: string, question: string, names: readonly string[], known: RegExp | undefined): { value: string; index: number }[] {
  const out: { value: string; index: number }[] = [];
  for (const m of text.matchAll(NAMES)) {
    const value = bareName(m[0]);
    if (!value || NOT_A_NAME.test(value) || onlyColour(value) || holdsNoPart(value) || KIN_WORD.test(value) || inQuestion(question, value)) continue;
    // Part of a code ("SW-55102"), a word in capitals ("AMAZING"), or a short word a list's heading opens with ("To do:").
    if (/^[-\d]/u.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 1)) || /^\p{Lu}{4,}$/u.test(value) || FUNCTION_WORD.test(value)) continue;
    // A label a line of a list opens with ("- Deliveries: Abi, 6am") names what the line is of, not who.
    if (/^\s*:/u.test(text.slice(m.index! + m[0].indexOf(value) + value.length)) && /(?:^|[\n•-]\s*)$/u.test(text.slice(Math.max(0, m.index! - 3), m.index!))) continue;
    // A name after "from", "at" or "in" is where someone is from or works ("Dave from Roadwise"), not who.
    if (/(?<![\p{L}])(?:from|at|in|of|to|for|on|near|outside|via)\s+(?:the\s+)?$/iu.test(text.slice(Math.max(0, m.index! - 12), m.index!))) continue;
    // A capital that only opens a sentence ("Great", "Noted") names no one.
    if (!value.includes(' ') && (COMMON.has(value.toLowerCase()) || NAMES_NOTHING.has(value.toLowerCase()) || /^\p{Lu}\p{Ll}+(?:ed|ing|ly)$/u.test(value))) continue;
    if (/(?:^|[.!?:]\s+)$/u.test(text.slice(Math.max(0, m.index! - 3), m.index!)) && !value.includes(' ') && !names.some((name) => name.split(' ')[0] === value)) continue;
    out.push({ value, index: m.index! + m[0].indexOf(value) });
  }
  // Names the block knows, said in lower case.
  for (const m of known ? text.matchAll(known) : []) if (!out.some((o) => o.index === m.index)) out.push({ value: capitalise(m[0]), index: m.index! });
  return out.sort((a, b) => a.index - b.index);
}

/** The first names the block knows, as one pattern of their lower-case forms (built once per question). */
function knownNames(question: string, names: readonly string[]): RegExp | undefined {
  const firsts = [...new Set(names.map((name) => name.split(' ')[0]!).filter((first) => first.length >= 3 && /^\p{Lu}\p{Ll}+$/u.test(first) && !COMMON.has(first.toLowerCase()) && !inQuestion(question, first)).map((first) => first.toLowerCase()))];
  return firsts.length > 0 ? new RegExp(`(?<![\\p{L}'’])(?:${firsts.map(escape).join('|')})(?![\\p{L}])`, 'gu') : undefined;
}
const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Words that end a place's name in lower-case chat ("the library car park", "the co-op on dale rd"). */
const PLACE_NOUN = String.raw`(?:hall|centre|center|church|library|school|studio|gym|pub|park|car park|venue|clinic|surgery|theatre|market|pool|depot|warehouse|station|co-op|basin|exchange|arms|inn|hotel|club|café|cafe|rooms?|barn|field|ground|square|street|st|road|rd|lane|avenue|ave|office|shop|bank|garage|cinema|gate|entrance|reception)`;
/** A place a line names after a word that puts something somewhere: "at the Corn Exchange", "outside the co-op on Dale rd". */
const PLACE_AT = new RegExp(String.raw`(?<![\p{L}])(?:at|in|to|from|outside|inside|moving|moved|venue is|venue's|meet(?:ing)? (?:at|in|outside))\s*:?\s+(?:the\s+)?((?:\p{Lu}[\p{L}'’-]*)(?:\s+(?:(?:on|of|&|and)\s+)?\p{Lu}[\p{L}'’-]*){0,4}|(?:[\p{Ll}-]+\s+){0,2}${PLACE_NOUN}(?:\s+on\s+[\p{L}]+\s+(?:st|rd|road|street|lane))?)(?![\p{L}])`, 'gu');

/** A place a line names by what it is, wherever it stands: "Elm Street", "the Corn Exchange", "the library car park". */
const PLACE_ITSELF = new RegExp(String.raw`(?<![\p{L}])(?:((?:\p{Lu}[\p{L}'’-]*\s+){1,3}(?:St|Street|Rd|Road|Lane|Avenue|Ave|Hall|Centre|Center|Church|Park|Library|School|Exchange|Basin|Square|Market|Studio|Arms|Inn|Hotel|Club|House|Court|Field|Theatre|Gardens|Station|Rooms?))|the\s+((?:[\p{Ll}-]+\s+){0,2}${PLACE_NOUN}))(?![\p{L}])`, 'gu');

/** The places a line names, as answers to a question that asks where: not a day, a month or a name the question says. */
function placesNamed(text: string, question: string): { value: string; index: number }[] {
  const out: { value: string; index: number }[] = [];
  const found = [...[...text.matchAll(PLACE_AT)].map((m) => ({ said: m[1]!, index: m.index! + m[0].lastIndexOf(m[1]!) })), ...[...text.matchAll(PLACE_ITSELF)].map((m) => ({ said: (m[1] ?? m[2])!, index: m.index! + m[0].lastIndexOf((m[1] ?? m[2])!) }))];
  for (const { said, index } of found.sort((a, b) => a.index - b.index)) {
    const value = nameAlone(said.trim());
    if (value.length < 3 || NOT_A_NAME.test(value) || NOT_A_NAME.test(value.split(' ')[0]!) || inQuestion(question, value) || valuesIn(value).some((v) => v.kind === 'day' || v.kind === 'time')) continue;
    // One place said once, however two patterns read it ("at the Corn Exchange").
    if (out.some((o) => index < o.index + o.value.length && o.index < index + value.length)) continue;
    out.push({ value, index });
  }
  return out;
}

/** Words after "which" that end the kind it asks about: what is said of it ("Which courier collects …", "Which pitch are we on?"). */
const KIND_ENDS = /^(?:is|are|was|were|am|do|does|did|will|would|has|have|had|can|should|shall|must|of|at|in|on|for|to|from|with|by|the|a|an|my|our|your|his|her|their|i|we|you|he|she|they|it|gets?|goes|go|takes?|makes?|runs?|uses?|collects?|provides?|supplies|\p{L}+ed)$/u;
/** The words of a "which" question that say what kind of thing it asks about, as stems ("Which dinner sitting am I on?": "dinner", "sitt"). */
function thingAsked(question: string): string[] {
  const after = /\bwhich\s+([^?]*)/iu.exec(question)?.[1]?.split(/[^\p{L}'’-]+/u) ?? [];
  const words: string[] = [];
  for (const word of after) {
    if (!word || KIND_ENDS.test(word.toLowerCase()) || words.length === 3) break;
    words.push(word);
  }
  // A name the kind is of ("Which Leicester College campus") is not the kind.
  return words.filter((word) => word.length >= 2 && !/^\p{Lu}/u.test(word) && !COMMON.has(word)).map(stem);
}

/** A short word that names nothing, with a capital or not ("To do", "For sale"). */
const FUNCTION_WORD = /^(?:to|for|from|with|and|but|or|if|so|as|at|in|on|by|of|up|off|out|re|fwd|ps)$/iu;
/** A word that ends a place's name ("Park", "Hall"). */
const PLACE_WORD = new RegExp(`^${PLACE_NOUN}$`, 'iu');
/** Words that may stand between a kind's word and the name said of it ("the replacement plumber is Dean", "Boots: Scarpa Terra GTX"). */
const KIND_THEN_NAME = /^[\p{L}'’-]*\s*(?:(?:is|was|are|were|will be|['’]s|:|-|–|—|,|\(|the|a|an|called|named|from|at|with|via|by|using|now|then|going|gone|went|go|to|doing it)\s*){0,4}$/iu;
/** Whether a thing is named as one of the kind asked: the kind's word in its name ("Castle Pharmacy"), just after it ("St Barnabas primary"), or just before it ("plumber is Dean"). */
function saidAsKind(text: string, v: { readonly value: string; readonly index: number }, kinds: readonly string[]): boolean {
  const ofKind = (word: string) => kinds.includes(stem(word.toLowerCase().replace(/['’]s$/u, '')));
  // In its name, the word for the kind itself, or one before it that is no word for a place ("Mellor Primary" for
  // "Which primary school"; "Abbey Park" is no parking bay).
  const head = kinds.at(-1);
  if (v.value.split(/\s+/u).some((word) => ofKind(word) && (stem(word.toLowerCase()) === head || !PLACE_WORD.test(word)))) return true;
  const next = /^\s+([\p{L}'’-]+)/u.exec(text.slice(v.index + v.value.length, v.index + v.value.length + 40))?.[1];
  if (next && ofKind(next)) return true;
  const before = text.slice(Math.max(0, v.index - 60), v.index);
  const words = [...before.matchAll(/[\p{L}'’-]+/gu)];
  for (let i = words.length - 1; i >= Math.max(0, words.length - 5); i -= 1) {
    if (stem(words[i]![0].toLowerCase()) === head && KIND_THEN_NAME.test(before.slice(words[i]!.index!))) return true;
  }
  return false;
}

/** A thing's name with the words for its kind and "the" left out ("the Castle Pharmacy" and "castle" are one; "Pitch 22" is "22"). */
function thingKey(value: string, kinds: readonly string[]): string {
  const words = value.toLowerCase().replace(/^the\s+/u, '').split(/\s+/u);
  const rest = words.filter((word) => !kinds.includes(stem(word.replace(/['’]s$/u, ''))));
  return (rest.length > 0 ? rest : words).join(' ');
}

/** A name with its capitals (two or more words, or one not opening a sentence), or a number said after the kind ("pitch 22", "cabin 7218"). */
const THING_NAME = /(?<![\p{L}\p{N}'’])\p{Lu}[\p{L}\p{N}'’-]*(?:\s+(?:(?:&|and|of|de|la)\s+)?(?:\p{Lu}[\p{L}\p{N}'’-]*|\d{1,5}\p{L}{0,3}(?![\p{L}\p{N}])))*/gu;

/** The things of the kind a "which" question asks about that a line names: not a day, a month, a kin word or a name the question says. */
function thingsNamed(text: string, question: string, kinds: readonly string[]): { value: string; index: number }[] {
  const out: { value: string; index: number }[] = [];
  for (const m of text.matchAll(THING_NAME)) {
    const value = bareName(m[0].replace(/^(?:How|What|Why|Where|When|Who)(?:['’]s)?\s+/u, ''));
    // Part of a code ("LCC-58213"), or a label a list's line opens with ("Night 1: Braeside B&B").
    if (/^[-\d:]/u.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 1))) continue;
    if (!value || value.length < 2 || NOT_A_NAME.test(value) || FUNCTION_WORD.test(value) || KIN_WORD.test(value) || inQuestion(question, value) || valuesIn(value).some((v) => v.kind === 'day' || v.kind === 'time')) continue;
    const index = m.index! + m[0].indexOf(value);
    if (!value.includes(' ')) {
      const lower = value.toLowerCase();
      if (COMMON.has(lower) || NAMES_NOTHING.has(lower) || /^\p{Lu}\p{Ll}+(?:ed|ing|ly)$/u.test(value)) continue;
      // A capital that only opens a sentence names nothing.
      if (/(?:^|[.!?:]\s+|\n\s*)$/u.test(text.slice(Math.max(0, index - 3), index))) continue;
    }
    out.push({ value, index });
  }
  // The kind's word with a number after it, in any case ("pitch 22", "bay 19", "Room B12").
  const numbered = new RegExp(String.raw`(?<![\p{L}])(?:${kinds.map(escape).join('|')})\p{L}{0,3}\s+(?:no\.?\s*|number\s+|#)?\p{L}?\d{1,5}\p{L}?(?![\p{L}\p{N}])`, 'giu');
  for (const m of text.matchAll(numbered)) if (!out.some((o) => m.index! < o.index + o.value.length && o.index < m.index! + m[0].length)) out.push({ value: m[0], index: m.index! });
  return out.sort((a, b) => a.index - b.index);
}

/** A text's values of one kind; a weekday said with its date ("Thursday 4 June", "Thu, 4 June") is one day. */
function valuesOfKind(text: string, kind: string): { value: string; index: number }[] {
  // A code may be digits alone ("code is 9026 going forward"), read as a bare number.
  const values = valuesOfText(text).filter((v) => v.kind === kind || (kind === 'code' && v.kind === 'number' && /^\d{3,8}$/.test(v.value))).sort((a, b) => a.index - b.index);
  const out: { value: string; index: number }[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    const next = values[i + 1];
    if (kind === 'day' && next && /^(?:,\s?|\s)$/.test(text.slice(v.index + v.value.length, next.index)) && /^\p{L}+$/u.test(v.value)) {
      out.push({ value: text.slice(v.index, next.index + next.value.length), index: v.index });
      i += 1;
    } else out.push(v);
  }
  return out;
}

/** How a day is said: with a weekday, a day of the month, a month (each or not). */
const dayShape = (value: string) =>
  [/\b(?:mon|tue|wed|thu|fri|sat|sun)/i, /\d/, new RegExp(`\\b${MONTH}(?![a-z])`, 'i')].map((pattern) => (pattern.test(value) ? '1' : '0')).join('');

/** What an amount said in a text is per ("£160 a night" → "night", "£72/wk" → "wk"), if the words after it say. */
function perUnitAfter(text: string, value: string): string | undefined {
  const at = text.indexOf(value);
  if (at < 0) return undefined;
  // "£22 a head", "£9 per hour", "£4/kg", "30 quid each a wk"; not "£300 and" ("a" must be a word of its own).
  const unit = /^\s?(?:each\s+)?(?:(?:a|an|per)\s|\/\s?)([\p{L}]{2,12})(?![\p{L}])/iu.exec(text.slice(at + value.length))?.[1]?.toLowerCase().replace(/s$/, '');
  return unit === undefined ? undefined : (UNIT_SHORT[unit] ?? unit);
}
/** A unit said short, as it is said in full ("£72/wk" is "£72 a week"). */
const UNIT_SHORT: Readonly<Record<string, string>> = { wk: 'week', hr: 'hour', mth: 'month', mo: 'month', yr: 'year', nite: 'night', pp: 'person' };

/** A value plain enough to be taken as the same one wherever it is said: three digits, an amount, a time of day (or a count of a particular unit). */
const PLAIN_VALUE = /\d{3}|[a-z]{2,}-?\d{2,}|@|[$£€]\s?\d|\d:\d\d|\d\s?(?:am|pm)\b/i;

/**
 * The old values that records said before a change said in words hold beside its words ("For August I'm charging
 * £145 a night" before "bump August up to £160 a night"): each becomes a retired value of its own, so every line
 * said before the change that repeats it ("£145 per night, with a three-night minimum", "11:30 👍") is marked too,
 * whatever words it says it with.
 */
function valuesReplaced(units: Parameters<typeof changesSaid>[0], changes: readonly RetiredValue[]): RetiredValue[] {
  const out: RetiredValue[] = [];
  const seen = new Set<string>();
  const records = units.filter((unit) => unit.kind === 'record' && unit.at);
  const textOf = new Map(records.map((unit) => [unit.id, unit.text]));
  // Each record's values are read once, whatever the number of changes they are compared with.
  const valuesOf = new Map<string, ReturnType<typeof valuesOfText>>();
  const values = (unit: (typeof records)[number]) => valuesOf.get(unit.id) ?? valuesOf.set(unit.id, valuesOfText(unit.text)).get(unit.id)!;
  for (const r of changes) {
    if (r.replaces || r.calledOff || !r.loose) continue;
    // An amount only per the same unit as the new one ("£145 a night" for "£160 a night"): a conversation about
    // money says many amounts near the same words.
    const per = perUnitAfter(textOf.get(r.records[0]!) ?? '', r.value);
    for (const unit of records) {
      if (!before(unit.at, r.at) || r.records.includes(unit.id) || holds(unit.text, r.value)) continue;
      for (const v of othersOfItsKind(unit.text, r, values(unit))) {
        // A day is said of many things on it (the wedding and the fitting): never taken as the same one elsewhere.
        if (v.kind === 'day') continue;
        if (v.kind === 'money' && (!per || perUnitAfter(unit.text.slice(v.index), v.value) !== per)) continue;
        // A count only of the same particular thing ("2 scoops" for "1.5 scoops"); a bare number only as a code
        // for a code (three digits or more, no unit either side).
        const counted = unitOf(v.value);
        if (v.kind === 'number' && (counted !== unitOf(r.value) || (counted ? counted.length < 4 || GENERAL_UNIT.test(counted) : !/^\d{3,}$/.test(v.value)))) continue;
        if (v.kind !== 'number' && !PLAIN_VALUE.test(v.value)) continue;
        const key = `${v.value.toLowerCase()}#${r.itemId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ itemId: `${r.itemId}:was:${v.value}`, records: [], value: v.value, reason: 'superseded', at: r.at, now: r.now!, loose: true, onlyBefore: true, ...(v.kind === 'money' && per ? { per } : {}) });
        if (out.length >= MAX_CHANGES_SAID) return out;
      }
    }
  }
  return out;
}

/** Colours: a value of their own kind ("sage green" for "navy blue"). */
const COLOUR = 'terracotta|red|orange|yellow|green|blue|purple|pink|black|white|grey|gray|brown|navy|teal|maroon|burgundy|claret|mustard|sage|cream|beige|gold|silver|bronze|copper|lilac|mauve|turquoise|olive|coral|ivory|charcoal|khaki|lavender|magenta|fuchsia|crimson|mint|peach|violet|indigo|cobalt|cyan|emerald|scarlet|aqua|plum|ochre|taupe';
const COLOUR_AT = new RegExp(`^(?:(?:light|dark|pale|dusky|dusty|bright|deep|forest|royal|baby|${COLOUR}) )?(?:${COLOUR})(?![\\p{L}])`, 'iu');
/** A value that is a colour and nothing more ("navy", "dark green"), not a name that opens with one ("Olive Branch Kitchen", "Rose Cottage"). */
const onlyColour = (value: string) => COLOUR_AT.exec(value.trim())?.[0].length === value.trim().length;
const COLOURS = new RegExp(`(?<![\\p{L}])(?:(?:light|dark|pale|dusky|dusty|bright|deep|forest|royal|baby|${COLOUR}) )?(?:${COLOUR})(?![\\p{L}])`, 'giu');
/** A name as said: capitalised words, with "&", "and" or "of" between ("Crisp & Co", "Luca's Trattoria", "Mrs Okafor"). */
const NAME_AT = /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{L}'’-]*(?: (?:(?:&|and|of) )?\p{Lu}[\p{L}'’-]*)*/u;
const NAMES = /(?<![\p{L}\p{N}'’])(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{L}'’-]*(?: (?:(?:&|and|of) )?\p{Lu}[\p{L}'’-]*)*/gu;
/** What ends a thing's part ("Bronwen's retiring", "swift are fully booked", "the Anchor flooded", "mustard's out of stock"). */
const ENDED = /^(?:\s+(?:downstairs|upstairs|next door|down the road|over the road|across the road|office|branch|shop|store|site|depot|warehouse|studio|venue|clinic|surgery|centre|center))?(?:['’]s)?(?:\s+(?:has|have|is|are|was|were|had|just|been|all|completely|apparently|obviously|clearly|sadly|definitely|really|now|finally|officially|also|(?:had|has|have|having) to|(?:wants?|wanting|needs?|going|decided) to|gonna))*\s+(?:(?:taken|fallen|fell|been taken) ill|had\s+(?:a\s+(?:fall|stroke|heart\s+attack|bad\s+fall)|an?\s+(?:accident|op|operation))|unable\s+to|(?:been\s+offered,?\s+and\s+(?:has\s+)?accepted,?|accepted|taken|landed)\s+a\s+(?:new\s+)?(?:job|position|post|role)(?=\s+(?:with|at|in|as)\s)|signed off(?=\s+(?:sick|ill|work|for|until|till|with)(?![\p{L}])|\s*[.,;!—–-]|$)|out(?=\s*(?:[.!;]|$)|\s+for\s+(?:the\s+(?:summer|season|year|month|rest\s+of\s+\p{L}+)|good|a\s+while|(?:\p{L}+|\d+)\s+(?:weeks|months))(?![\p{L}]))|left|leaving|retir\w+|resign\w*(?!\s+(?:herself|himself|themselves|myself|ourselves|yourself|to)\b)|(?:given|handed|handing|giving|put)\s+(?:in\s+)?(?:(?:his|her|their)\s+)?(?:resignation|notice)|reassigned|redeployed|quit\w*|gone(?!\s+(?:independent|freelance|self-employed|solo|part-time|full-time|quiet|viral|public|private|vegan|vegetarian|up|down)(?![\p{L}-]))|cancell?ed|away|off sick|off ill|not (?:very |feeling )?well|unwell|ill|poorly|sick(?!\s+(?:of|and|to))|in hospital|injured|off the road|(?:fully|double)[- ]booked|step(?:s|ped|ping)? (?:down|back|aside)|stood (?:down|aside)|standing (?:down|aside)|let (?:me|us|them|everyone) down|on (?:annual |maternity |paternity |sick )?leave|(?:starting|started|starts|going on|gone on|off on) (?:her |his |their )?(?:annual |maternity |paternity |parental |sick )leave(?: early)?|(?:pulled|pulling|dropped|dropping|bowed|bowing|pull|drop|bow) out|withdr(?:awn|ew|aw|awing|aws)(?=\s*(?:[.,;:!—–-]|$)|\s+(?:from|as|because|after|so)(?![\p{L}]))|(?:moved|moving|moves) out(?!\s+of\s+(?:the\s+)?(?:way|picture|frame))|(?:handed|handing|hands|hand)\s+(?:it\s+|them\s+|(?:the|his|her|their)\s+[\p{L}-]+\s+)?over(?!\s+to\s+(?:me|us|you)(?![\p{L}]))|bought out|(?:gone|went|going) bust|(?:moved|moving|transferred|transferring) over to|(?:moved|moving) (?:teams|departments|to (?:a |another |a different |a new |the )?(?:team|department|role|branch|office|site|region)(?![\p{L}]))|(?:moved|moving|relocated|relocating) (?:away(?! from)|abroad|(?:back )?to \p{L}[\p{L}-]+(?= for (?:work|a (?:new )?job|good)(?![\p{L}])(?![^.;!?]*\bstill\b)))|folded|(?:ceased|stopped|ceasing|stopping) trading|(?:gone|went|going) (?:under|into (?:administration|liquidation|receivership))|closed|shut|closing|shutting|flooded|broke|broken|snapped|died|out of stock|back[- ]?ordered|on back[- ]?order|discontinued|sold out|working that|unavailable|(?:will\s+)?no\s+longer\s+(?:be\s+)?(?:matching|sponsoring|supporting|funding|supplying|running|doing|handling|covering|available|involved|able)|(?:can['’]?t|cannot|couldn['’]?t|won['’]?t|doesn['’]?t|does not)(?:\s+(?:be\s+able\s+to|really|now|any\s?more|after\s+all))?(?!\s+(?:say|believe|wait|stand|remember|imagine|tell|think|see|hear|sleep|decide|understand|resist|bear|cope|breathe|stop|find|afford|figure|explain|face|eat|drink|sit|help\s+it|get\s+over|thank|be\s+bothered)(?![\p{L}]))|stopped)(?![\p{L}])/iu;
/** Words before a thing that say it is over ("out of maroon", "not Kirkgate", "scratch the lemon"). */
const ENDED_BEFORE = /(?<![\p{L}])(?:(?:handed|handing|gave|given|giving|put|putting)\s+(?:in\s+)?(?:my|her|his|their)\s+notice(?:\s+in)?\s+(?:at|to)|(?:resigned|resigning)\s+from|(?:scratch|scrap|ditch|forget)\s+(?:the\s+)?(?:thing|bit|idea|plan|part|stuff)\s+(?:about|with|for|of)|out of|(?:taken|taking|took|takes)\s+over\s+from|scratch|scrap|ditch|ditched|dumped|cancell?ed(?:\s+(?:on|with))?|cancell?ing|jump(?:ing|ed)?\s+ship\s+from|switch(?:ing|ed)\s+away\s+from|(?:stopped|quit)\s+using|sacked|fired|instead of|rather than|replacing|not|no more)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?$/iu;
/** Words that relay what someone else said or wrote: the "my" after them is theirs, not the speaker's. */
const RELAYED = /(?<![\p{L}])(?:(?:she|he|they|\p{Lu}\p{Ll}+)\s+(?:said|says|told|tells|wrote|writes|emailed|texted|messaged|rang|called|mentioned)|said (?:she|he|they)|["“”])(?![\p{L}])/u;
/** A speaker saying their own part ends: "it's my last day today", "my last day is Friday", "I'm retiring at Easter". */
const MY_PART_ENDS = /(?<![\p{L}])(?:it['’]?s my last day|my last day (?:is|will be|here)|i['’]?m (?:retiring|stepping down|stepping back|going on (?:maternity|paternity|parental) leave|leaving (?:the|this) (?:company|firm|practice|team|agency|business|office|role|job))|i (?:won['’]?t|will no longer) be (?:looking after|handling|managing|dealing with) (?:your|the|this))(?![\p{L}])/iu;
/** Words that introduce what replaced it ("switched to", "went with", "swapped for the", "moved it to", "rebooked with"). */
const REPLACED_WITH = /(?<![\p{L}])(?:(?:starting|starts|started|joining|joined)\s+(?:at|with)|(?:switch|swapp?|chang|mov|go|gone|went|going|rebook|book|replac|opt|settl|chose|choose|dealing)\w*\s+(?:it\s+|them\s+|over\s+|us\s+|things\s+)?(?:to|with|for|by)|(?:account|case|ticket|claim|file|order|booking|project|application|request|complaint|query|enquiry)\s+(?:was|were|has been|have been|is being|got|['’]s been)\s+(?:reassigned|transferred|passed|handed)(?:\s+over)?\s+to|(?:switch|swapp?|chang|mov|transferr?|rebook|reassign)\w*\s+(?:the|our|your|my|their|her|his|this|that)\s+(?:[\p{L}'’-]+\s+){1,2}(?:over\s+)?to)\s+(?:the\s+|a\s+|an\s+|our\s+|their\s+|her\s+|his\s+|my\s+)?/giu;
/** "the new head chef is Tomasz", "new person looking after me is Nadia". */
const NEW_ONE_IS = /(?<![\p{L}])new\s+(?:[\p{L}'’-]+\s+){1,4}?(?:is|will be|['’]s)\s+(?:(?:called|named)\s+)?/giu;
/** Words that bring in what takes the place of a thing whose part ended ("I've found Curtain Call Hire", "booked Vila Lumena"). */
const BROUGHT_IN = /(?<![\p{L}])(?:found|hired|booked|signed up|brought in|got hold of|managed to (?:get|book|find))\s+(?:us\s+)?(?:the\s+|a\s+|an\s+)?/giu;
/** "Agata is taking over", "Nadia's stepping in", "Hamish Grant was elected": someone in the part of one who left it. */
const TAKING_OVER = /^(?:['’]s|\s+(?:is|are|has|have|will be|was|were|has been|had been|got))\s+(?:(?:taking|taken|took|takes|stepping|stepped)\s+(?:(?:it|this|that|them)\s+)?(?:over|in)|(?:elected|appointed|voted\s+in|co-opted|brought\s+in|drafted\s+in))(?![\p{L}])/iu;
/**
 * Said of a name in the record that ended another's part ("Alina's gone to Bristol, so Hamish is looking after her
 * accounts now", "my colleague Rhys will look after your tenancy"): who took it on, when what is looked after is work
 * (accounts, a file, a case, clients; not "her cat"). Not read in a later record, where it may be anything looked after
 * ("Omar is covering her half of the rent").
 */
const LOOKING_AFTER = /^(?:['’]s|['’]ll|\s+(?:is|are|will|will be|has been))\s+(?:(?:now|also)\s+)?(?:looking after|look after|dealing with)\s+(?:(?:your|our|her|his|their|the)\s+(?:[\p{L}-]+\s+)?(?:account|accounts|file|files|case|cases|tenancy|books|clients?|patients|round|work|portfolio|claim|application|team|class|pupils)|us|you)(?![\p{L}])/iu;
/** A sentence that says what replaced something. */
const REPLACING_CUE = /(?<![\p{L}])(?:instead|now|new|successor|succeeded by|promoted (?:to|into)|(?:moved|transferred|put)\s+(?:(?:me|us|him|her|them)\s+)?(?:onto|on to)|(?:put|paired|booked)\s+(?:me|us|him|her|them)\s+(?:in\s+)?with|taking over|takes over|stepping in|step(?:s|ped|ping)? into the breach|in (?:their|her|his) place|covering|covers|filling in|standing in|(?:going to|gonna|will|['’]ll) (?:do|run|cover|handle|take|look after|be looking after) (?:it|the|that|your|our|their)|from now on|going forward|from (?:next|this) (?:week|month|term|season)|replac\w+|(?:taking|takes|took|taken) (?:on )?(?:the|her|his|their|that) (?:role|part|job|place|spot|slot)|(?:picking|picks|picked) up (?:the|her|his|their|that|it|this)|(?<!(?:should|would|could|if|whether|says?|said|be)\s+)(?:doing|running|handling|covering) (?:it|that|them)(?=\s+(?:now|instead|from|going forward|for now)|\s*(?:[.,;!]|$)))(?![\p{L}])|(?<=(?<![\p{L}])(?:she|he|they))['’]ll (?:do|run|cover|handle|take) (?:it|that|over)(?:\s+on)?(?![\p{L}])/iu;
/** Capitalised words that name nothing replaced: pronouns, days, months, and words a sentence opens with. */
const NOT_A_NAME = /^(?:I|(?:I|It|That|There|Here|What|He|She|Who|We|They|You)['’]\p{Ll}+|The|A|An|This|That|These|Those|There|Then|They|Their|She|He|His|Her|We|Our|You|Your|My|It|Its|Mon|Mondays?|Tue|Tues|Tuesdays?|Wed|Wednesdays?|Thu|Thurs|Thursdays?|Fri|Fridays?|Sat|Saturdays?|Sun|Sundays?|Jan|January|Feb|February|Mar|March|Apr|April|May|Jun|June|Jul|July|Aug|August|Sep|Sept|September|Oct|October|Nov|November|Dec|December|Ok|Okay|Oh|Thanks|Yes|No|Yep|Yeah|Also|So|But|And|Or|If|When|After|Before|Since|Until|Once|While|Sadly|Luckily|Anyway|Sorry|Hi|Hey|Just|Still|Now|New|Next|Apparently|Actually|Hopefully|Unfortunately|Fyi|Btw|Quick|Update|Bit|Good|Great|Well|Please|Noted|Got|Sure|Could|Would|Can|Will|Shall|Should|Let|Let['’]s|What|How|Why|Where|Who|Is|Are|Do|Does|Did|Has|Have|Any|Maybe|Perhaps|Get|Go|Try|Use|Ask|Call|Ring|Send|Tell|Make|Take|Keep|Put|Bring|Check|Buy|Order|See|Look|Remember|Someone|Somebody|Everyone|Everybody|Anyone|Anybody|Nobody|Only|Assistant|User|Year|Christmas|Xmas|Easter|Halloween|Eve|Boxing|Eid|Diwali|Hanukkah|Passover|Valentine['’]?s)$/u;
/** Lower-case words too common to name a thing replaced ("she's away", "it's off"). */
const NOT_NAMED = /^(?:i|you|he|she|it|we|they|that|this|which|who|there|one|everyone|someone|all|mine|yours|what|then|so|and|but|or|now|today|tomorrow|also|just|still|is|are|was|were|has|have|had|been|being|got|completely|apparently|totally|already|downstairs|upstairs|door|road)$/iu;
/** Said so after where they live ("dave downstairs is away", "gary's left"), not an adverb ("said yes straight away"). */
const SAID_SO = /^(?:\s+(?:downstairs|upstairs|next door|down the road|over the road|across the road))?(?:['’]s|\s+(?:has|have|is|are|was|were|had|just|been))(?![\p{L}])/u;
/** A name's words without the words a sentence opens with ("Also Dave" is Dave). */
// "Oh and Kwame" is Kwame: the joining word goes with the opening one.
const bareName = (name: string) => name.replace(/['’]s$/u, '').split(' ').reduce((kept, word) => (kept.length === 0 && (NOT_A_NAME.test(word) || /^(?:and|&|of)$/.test(word)) ? kept : [...kept, word]), [] as string[]).join(' ');

/** A record that may say something's part ended, read further only then (most records say nothing of the kind). */
const MAY_REPLACE = /['’]s out\b|absence|(?:did|done) (?:his|her|their) |had an? |unable to|accepted|stead|in (?:her|his|their) place|(?:covering|standing in|filling in|deputi[sz]ing|subbing) for|notice|resign|no longer|trading|under|administration|liquidation|receivership|left|leaving|over from|(?:teams|departments)\b|different (?:team|department|role)|retir|reassigned|redeployed|quit|gone|cancel|step\w* (?:down|back|aside)|let (?:me|us|them|everyone) down|on (?:annual |maternity |paternity |sick )?leave|(?:maternity|paternity|parental|sick|annual) leave|stood down|standing down|(?:pulled|pulling|dropped|dropping|bowed|bowing|bought) out|bust|signed off|withdr|moved out|moving out|moves out|hand\w* (?:\w+ ){0,2}over|folded|away|off sick|off ill|not (?:very |feeling )?well|unwell|\bill\b|poorly|sick|hospital|injured|hurt|off the road|booked|closed|shut|closing|shutting|flooded|broke|snapped|died|out of|back[- ]?order|discontinued|sold out|working that|unavailable|can['’]?t|cannot|couldn|won['’]?t|doesn|does not|stopped|scratch|scrap|ditch|instead of|rather than|replacing|not |no more|(?:switch|swapp?|chang|mov|go|gone|went|going|chose|choose|opt)\w*\s+(?:it\s+)?(?:to|with|for)\s/i;
/** How far from a name the words that end it, or introduce it, are read: a few words, never the whole record. */
const NEAR = 80;
const ahead = (text: string, at: number) => text.slice(at, at + NEAR);
/** A person who opens a sentence and hurt themselves in it ("Rufus came off his bike and broke his wrist"): out of their part. */
const HURT = /^[^.!?\n]{0,50}?(?<![\p{L}])(?:broke|broken|fractured|sprained|injured|hurt|did|done)\s+(?:his|her|their)\s+(?:wrist|arm|leg|ankle|foot|hand|back|hip|knee|collarbone|shoulder|neck|elbow)(?![\p{L}])/iu;
const behind = (text: string, at: number) => text.slice(Math.max(0, at - NEAR), at);

/** Words that go with a verb and name nothing ("found out there's", "going to take the van"). */
const PARTICLE = /^(?:out|up|in|on|off|about|there|here|back|over|away|down|what|how|why|where|if|whether)$/;

/** The name or colour that starts a place in a text, if one does. */
function valueAt(text: string, colour: boolean, lowerCase: boolean): string | undefined {
  if (colour) return COLOUR_AT.exec(text)?.[0];
  const said = NAME_AT.exec(text)?.[0];
  if (said) return bareName(said) || undefined;
  if (!lowerCase) return undefined;
  // In lower-case chat ("our new agent is denise", "went with hartley hire"), up to two words.
  const words = /^[\p{Ll}][\p{L}'’-]+(?: (?!instead|now|from|for|on|at|and|but|so|because|which|same|too|as|then)[\p{Ll}][\p{L}'’-]+)?/u.exec(text)?.[0];
  const first = words?.split(' ')[0] ?? '';
  return words && !NOT_NAMED.test(first) && !COMMON.has(first) && !NAMES_NOTHING.has(first) && !PARTICLE.test(first) ? words.replace(/['’]s$/u, '') : undefined;
}

/** A text's sentences, each with where it starts. */
function sentencesOf(text: string): { start: number; text: string }[] {
  return [...text.matchAll(/[^.!?]+(?:[.!?]+|$)/g)].map((m) => ({ start: m.index!, text: m[0] }));
}

/**
 * What a record says was replaced, by name or colour: the thing whose part ended ("Bronwen's retiring", "swift are
 * fully booked", "out of maroon", "not Kirkgate") and what took its place in the same record ("Agata is taking
 * over", "went with Hartley Hire instead", "we've gone for teal", "Headingley branch"). Each pair once.
 */
export function namesReplaced(text: string): { replaced: string; by: string; thing?: string }[] {
  const lowerCase = lowerCaseChat(text);
  const out: { replaced: string; by: string; thing?: string }[] = [];
  for (const old of namesEnded(text)) {
    const by = replacementOf(text, old, lowerCase);
    if (fitsAsReplacement(old.value, by)) out.push({ replaced: old.value, by: by!, ...(old.thing ? { thing: old.thing } : {}) });
  }
  for (const pair of namesInPlaceOf(text)) if (!out.some((o) => o.replaced.toLowerCase() === pair.replaced.toLowerCase())) out.push(pair);
  return out;
}

/** A person named as the one whose place is taken: "in Mr Beane's absence", "in her place", "covering for Dana Whitlock". */
const IN_PLACE_OF = /(?<![\p{L}])(?:(?:in|during)\s+((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s)?\p{Lu}[\p{L}-]+(?:\s\p{Lu}[\p{L}-]+)?)['’]s?\s+(?:absence|place|stead)|(?:covering|standing in|filling in|deputi[sz]ing|subbing)\s+for\s+((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s)?\p{Lu}[\p{L}-]+(?:\s\p{Lu}[\p{L}-]+)?))(?![\p{L}])/gu;

/**
 * "Ms Priya Raman will handle my return in Mr Beane's absence": the one whose place is named, replaced by the other
 * name its sentence says (the one nearest, before it or after). The part need not have been said to end.
 */
function namesInPlaceOf(text: string): { replaced: string; by: string }[] {
  const out: { replaced: string; by: string }[] = [];
  for (const m of text.matchAll(IN_PLACE_OF)) {
    const replaced = bareName(m[1] ?? m[2]!);
    if (!replaced || NOT_A_NAME.test(replaced) || holdsNoPart(replaced)) continue;
    const [start, stop] = sentenceAround(text, m.index!, m[0].length);
    const sentence = text.slice(start, stop);
    const others = [...sentence.matchAll(NAMES)]
      .filter((n) => start + n.index! + n[0].length <= m.index! || start + n.index! >= m.index! + m[0].length)
      .map((n) => ({ name: bareName(n[0]), at: start + n.index! }))
      .filter((n) => n.name && !NOT_A_NAME.test(n.name) && !onlyColour(n.name) && !holdsNoPart(n.name));
    const by = others.sort((a, b) => Math.abs(a.at - m.index!) - Math.abs(b.at - m.index!))[0]?.name;
    if (fitsAsReplacement(replaced, by)) out.push({ replaced, by: by! });
  }
  return out;
}

/** A record that may say an old value beside its new one, read further only then. */
const PAIR_CUE = /\((?:was|previously|formerly|originally|not|used to be)\s|\b(?:it['’]?s|its|it is|that['’]?s|thats|that is)\s+[\p{L}'’-]{3,},?\s+not\s+\p{L}|\b(?:it['’]?s|it is|that['’]?s|that is)\s+not\s|\b(?:nvm|never\s?mind|ignore|forget)\s|\bfrom\s.{1,60}?\sto\s|\binstead of\s|\brather than\s|,\s+not\s+(?:the|our|a|an)\s|\d(?:st|nd|rd|th),?\s+not\s|\d\p{L}?,?\s+not\s+\p{L}{3,}\s+\p{L}?\d|\b(?:can['’]?t|cannot|won['’]?t|couldn['’]?t|unable to)\s+(?:do|make)\s|\b(?:scratch|scrap|ditch)\s/isu;
/** The words of a thing given up or a place left ("swapped", "replaced", "over", "fell through", "off", "no more", "moving", "now"), tested apart: one alternation of words is read fast. */
const THING_CUE = /\b(?:swap\w*|switch\w*|trad(?:e|ed|ing)|exchang\w*|replac\w*|over|through|cancell?ed|binned|scrapped|axed|pulled|dropped|off|more|out|mov(?:ed|ing)|relocat\w*|now)\b/iu;
/** "its Ruairi not Rory", "that's Gareth, not Gary": a name said with the one it corrects (lower-case chat read with its names recased). */
const NAME_NOT_NAME = /(?<![\p{L}])(?:[Ii]t['’]?s|[Ii]ts|[Ii]t is|[Tt]hat['’]?s|[Tt]hats|[Tt]hat is)\s+(\p{Lu}[\p{Ll}'’-]{2,})\s*,?\s+not\s+(\p{Lu}[\p{Ll}'’-]{2,})(?![\p{L}])/gu;
/** One of a numbered series said with the one it replaces: "Hall 7, not Hall 4", "gate B12 not gate B9", "Room 3 instead of Room 5". */
const HEADED_PAIR = /(?<![\p{L}\p{N}])(\p{L}{3,})\s+(\p{L}?\d{1,4}\p{L}?)\s*,?\s+(?:not|instead of|rather than)\s+(?:the\s+)?\1\s+(\p{L}?\d{1,4}\p{L}?)(?![\p{L}\p{N}])/giu;
/** "it's the 16th not the 9th": a day of the month said with the one it replaces. */
const ORDINAL_PAIR = /(?<![\p{L}\p{N}])(\d{1,2}(?:st|nd|rd|th))\s*,?\s+(?:not|instead of|rather than)\s+(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))(?![\p{L}\p{N}])/giu;
/** "they can't do the 22nd now, they're coming on the 28th of April instead": a day of the month that no longer suits. */
const CANT_DO_DAY = /(?<![\p{L}])(?:can['’]?t|cannot|won['’]?t|couldn['’]?t|unable to)\s+(?:do|make)\s+(?:it\s+)?(?:on\s+)?(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))(?![\p{L}\p{N}])/giu;
/** "scratch the velvet - … oxblood leather instead": a thing set aside in lower-case words, up to where its clause ends. */
const SCRATCHED = /(?<![\p{L}])(?:scratch|scrap|ditch)\s+(?:the\s+)?((?:[\p{Ll}-]{3,}\s+)?[\p{Ll}-]{4,})(?=\s*(?:[-—–,.;:!]|$))/gu;
/** What a record chose after setting a thing aside: "oxblood leather instead", "go with the blue ones". */
const CHOSEN = /(?:^|[-—–,.;:!?]\s*|\s(?:so|and|but|then|just)\s+)((?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+)\s+instead(?![\p{L}])|(?<![\p{L}])(?:go|going|went|gone)\s+(?:with|for)\s+(?:the\s+)?((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)(?=\s*(?:[-—–,.;:!?]|$))/giu;
/** A thing of one to four words, up to where its clause ends. */
const PAIR_THING = String.raw`((?:[^\s,;:.!?()—–]+\s+){0,3}?[^\s,;:.!?()—–]+)`;
const PAIR_THING_END = String.raw`(?=\s*(?:[,;:.!?()—–\n]|-\s|$)|\s+(?:because|as|since|for|from|on|at|in|by|via|with|until|till|and|but|so|after|before|this|next|last|now|instead|starting|yesterday|today|tomorrow|tonight|earlier|already|again|too|then)(?![\p{L}]))`;
/** "we swapped the lasagne for a veggie chilli", "switching my Tuesday shift for a Thursday": one thing given up for another. */
const SWAPPED_FOR = new RegExp(String.raw`(?<![\p{L}])(?:swap|switch|trad|exchang)\w*\s+(?:out\s+)?(?!(?:to|from|over|back|off|on|in|into|onto|out|it|them|this|that|places|seats|sides|shifts|numbers)(?![\p{L}]))(?:the\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?${PAIR_THING}\s+(?:out\s+)?for\s+(?:a\s+|an\s+|the\s+|some\s+)?${PAIR_THING}${PAIR_THING_END}`, 'giu');
/** "they replaced the Hub X2 with the Hub X5 Pro": one thing put in another's place. */
const REPLACED_BY = new RegExp(String.raw`(?<![\p{L}])replac(?:e|es|ed|ing)\s+(?:the\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?${PAIR_THING}\s+(?:with|by)\s+(?:a\s+|an\s+|the\s+|some\s+)?${PAIR_THING}${PAIR_THING_END}`, 'giu');
/** "went with the bookbinding class over the woodworking taster": one thing chosen over another. */
const CHOSEN_OVER = new RegExp(String.raw`(?<![\p{L}])(?:(?:went|gone|going|go|goes)\s+(?:with|for)|(?:opted|opting)\s+for|settled\s+on|chose|chosen|choosing|picked|picking|prefer(?:red|s)?)\s+(?:the\s+|a\s+|an\s+)?${PAIR_THING}\s+over\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?${PAIR_THING}${PAIR_THING_END}`, 'giu');
/** A sentence that asks or weighs a change rather than says one was made. */
const ONLY_WEIGHED = /\?|(?<![\p{L}])(?:could|would|should|might|may|maybe|perhaps|if|shall|whether|unless|thinking of|considering|wondering)(?![\p{L}])/iu;
/** What follows "over" that is a time or a way, not a thing set aside ("over the weekend", "over the phone"). */
const OVER_NOT_A_THING = /^(?:weekend|summer|winter|spring|autumn|christmas|easter|holidays?|break|years?|months?|weeks?|days?|night|time|phone|email|e-mail|text|zoom|teams|video|top|there|here|it|that|this|them|him|her|everything|anything|lunch|dinner|breakfast|coffee|drinks?)(?![\p{L}])/iu;
/** "the raffle fell through", "woodworking taster's off", "quiz night got binned", "no more lasagne": a thing set aside, said before what takes its place. */
const SET_ASIDE = new RegExp(String.raw`(?<![\p{L}])(?:no\s+more\s+(?:the\s+)?${PAIR_THING}(?=\s*[,;:—–-]|\s+(?:then|so|now|it['’]?s|its)(?![\p{L}]))|(?:(?:the|our|my|their)\s+)?${PAIR_THING}\s*(?:(?:['’]s|\s+is|\s+has)\s+(?:been\s+)?(?:off(?=\s*(?:[,;:.!?—–-]|$)|\s+(?:so|now|then|and|but|sadly|unfortunately|completely|altogether|for\s+good)(?![\p{L}]))|cancell?ed|scrapped|axed|binned|dropped)|\s+(?:fell|has\s+fallen|had\s+fallen)\s+through|\s+(?:got|was|were)\s+(?:cancell?ed|binned|scrapped|axed|pulled|dropped)|\s+(?:didn['’]?t|did\s+not)\s+work\s+out)|(?<=(?:^|[.!?:;—–]\s*|\s-\s+))${PAIR_THING}\s+(?:cancell?ed|scrapped|axed|called\s+off)(?=\s*(?:[.,;:!—–-]|$)))(?![\p{L}])`, 'giu');
/** Where or when a thing taken up is held, after its name ("a plant sale at the fair", "a quiz in the back room on Friday"): not part of the thing. */
const WHERE_TAIL = String.raw`(?:\s+(?:at|in|on|for|from|by)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+|their\s+)?(?:[^\s,;:.!?()—–]+\s+){0,2}?[^\s,;:.!?()—–]+)?`;
/** What is taken up in a thing's place, after it was set aside: "so we're doing a cake stall", "it's a ceilidh now", "chilli it is". */
const TAKEN_UP = new RegExp(
  String.raw`^\s*(?:[,;:—–-]\s*(?:(?:so|and|but|now|instead|then)\s+)?|\.\s+|\s+(?:so|and|now|instead|then)\s+)(?:(?:(?:we['’]re|we\s+are|we['’]ll\s+be|i['’]m|i\s+am|they['’]re|they\s+are)\s+(?:doing|having|getting|going\s+with|going\s+for|booked|booking|running|trying)|(?:it['’]?s|its|it\s+is|it['’]ll\s+be)|(?:doing|having|getting|going\s+with|going\s+for|booked|booking|running|trying))\s+(?:a\s+|an\s+|the\s+|some\s+)?((?:[^\s,;:.!?()—–]+\s+){0,3}?[^\s,;:.!?()—–]+)${WHERE_TAIL}(?:\s+(?:instead|now|it\s+is|then))?|(?:a\s+|an\s+|the\s+|some\s+)?((?:[^\s,;:.!?()—–]+\s+){0,3}?[^\s,;:.!?()—–]+)${WHERE_TAIL}\s+(?:instead|now|it\s+is|then))(?=\s*(?:[,;:.!?()—–\n]|$))`,
  'iu',
);
/** What a record took up after setting a thing aside, said as a deed or as what holds from now: "Entered the Riverside 10k instead", "Oat soap from today." */
const TAKEN_INSTEAD = new RegExp(
  String.raw`(?:^|[.!?;:—–-]\s+|\s(?:so|and|but|then|just)\s+)(?:(?:(?:we|i|they)\s+(?:['’]ve\s+|have\s+)?)?(?:entered|booked|signed\s+up\s+for|chose|picked|got|bought|ordered|went\s+(?:for|with)|doing|having|getting|using)\s+(?:the\s+|a\s+|an\s+|some\s+)?((?:[\p{L}\d'’-]+\s+){0,3}?[\p{L}\d'’-]+)\s+instead|((?:[\p{L}\d'’-]+\s+){0,3}?[\p{L}\d'’-]+)\s+(?:from\s+(?:today|tomorrow|now(?:\s+on)?|next\s+\p{L}+|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|it\s+is))(?=\s*(?:[.,;!?]|$))`,
  'giu',
);
/** The first thing a text says it took up instead. */
function takenInstead(text: string): string | undefined {
  for (const m of text.matchAll(CHOSEN)) if (m[1] ?? m[2]) return m[1] ?? m[2];
  for (const m of text.matchAll(TAKEN_INSTEAD)) if (m[1] ?? m[2]) return m[1] ?? m[2];
  return undefined;
}
/** A place a thing is now at or moving to, said in so many words: "we're at the Corn Exchange now", "market's moving: Canal Basin". */
const NOW_AT_PLACE = /(?<![\p{L}])(?:(?:[Ww]e['’]re|[Ww]e\s+are|[Ii]t['’]?s|[Ii]t\s+is|[Tt]hey['’]re|[Tt]hey\s+are|[\p{L}]+['’]s|is|are)\s+(?:now\s+)?(?:at|in)\s+(?:the\s+)?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,3})\s+now|(?:[Mm]oving|[Mm]oved|[Rr]elocat\w+|[Ss]witching|[Ss]witched)(?:\s+(?:over\s+)?to|\s*:)\s+(?:the\s+)?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,3})|[Nn]ow\s+(?:at|in)\s+(?:the\s+)?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,3}))(?![\p{L}])/gu;
/** A place named as the reason a thing moved: "Elm St", "St Aldhelm's Church Hall", "the church hall('s boiler)". */
const PLACE_SAID = /(?<![\p{L}])(?:((?:\p{Lu}[\p{L}'’-]+\s+){1,3}(?:St|Street|Rd|Road|Lane|Avenue|Ave|Hall|Centre|Center|Church|Park|Library|School|Exchange|Basin|Square|Market|Studio|Arms|Inn|Hotel|Club|House|Court|Field|Theatre|Gardens))|the\s+((?:[\p{Ll}-]+\s+){0,2}(?:hall|centre|center|church|library|school|studio|gym|pub|park|venue|clinic|surgery|theatre|market|pool|depot|warehouse)))(?=['’]s|[^\p{L}]|$)/gu;
/** Words that give a reason in a sentence. */
const REASON = /(?<![\p{L}])(?:since|because|as|so|due to|cos|coz|after)(?![\p{L}])/iu;
/**
 * A thing now at a new place, said with the old place as the reason it moved: "We're at the Corn Exchange now, since
 * the church hall's boiler can't be replaced" (church hall → Corn Exchange); "Elm St being resurfaced from May, so
 * market's moving: Canal Basin" (Elm St → Canal Basin). The other place the sentence names, nearest the new one.
 */
function placesMovedFrom(text: string): { replaced: string; by: string }[] {
  const out: { replaced: string; by: string }[] = [];
  for (const sentence of sentencesOf(text)) {
    if (!REASON.test(sentence.text)) continue;
    for (const m of sentence.text.matchAll(NOW_AT_PLACE)) {
      const by = nameAlone(m[1] ?? m[2] ?? m[3]!);
      const from = m.index!;
      const to = from + m[0].length;
      const old = [...sentence.text.matchAll(PLACE_SAID)]
        .filter((p) => p.index! + p[0].length <= from || p.index! >= to)
        // A place said to find the new one by ("the Scout hut behind the library") is no place it left.
        .filter((p) => !/(?<![\p{L}])(?:behind|near|nearby|next to|opposite|beside|by|off|across from|round the corner from|round from|up from|down from|past|inside|within)\s+$/iu.test(sentence.text.slice(Math.max(0, p.index! - 24), p.index!)))
        .map((p) => ({ place: (p[1] ?? p[2]!).trim(), at: p.index! }))
        .filter((p) => !by.toLowerCase().includes(p.place.toLowerCase()) && !p.place.toLowerCase().includes(by.toLowerCase()))
        .sort((a, b) => Math.abs(a.at - from) - Math.abs(b.at - from))[0];
      if (old && by.length >= 3) out.push({ replaced: old.place, by });
    }
  }
  return out;
}
/** "nvm the £25 thing, it's £18 each now", "ignore the 7pm, make it 7.30": a value set aside in passing, then its replacement (not "don't forget the 7pm"). */
const NEVER_MIND = /(?<![\p{L}])(?<!\b(?:don['’]?t|do not|never)\s+)(?:nvm|never\s?mind|ignore|forget)\s+(?:about\s+)?(?:the\s+|my\s+|that\s+)?([£$€]?\d[\d.,:]*(?:\s?(?:[ap]\.?m\.?|each|pp|ppl|people|quid|pounds|k))?)(?:\s+(?:thing|bit|one|figure|number|idea))?\s*[,;:—–-]?\s+/giu;
/** "(was Wed 14 May)", "(previously Greenleaf)": the old value in brackets after the new one. */
const PAIR_IN_BRACKETS = /\((?:was|previously|formerly|originally|not|used to be)\s+([^()\n]{2,40}?)\s*\)/giu;
/** "switched from Aquagen Labs to Tayside Genomics": a word of change, then from one to the other. */
const PAIR_FROM_TO = /(?<![\p{L}])(?:switch|chang|mov|swapp?|updat|shift|transferr?|upgrad|downgrad|rebook|reassign|relocat)\w*\s+(?:[\p{L}'’-]+\s+){0,3}?from\s+((?:[^\s,;:.!?()—–]+\s+){0,4}?[^\s,;:.!?()—–]+)\s+to\s+((?:[^\s,;:.!?()—–]+\s+){0,4}?[^\s,;:.!?()—–]+)(?=\s*(?:[,;:.!?()—–\n]|$)|\s+(?:because|as|since|for|from|on|at|in|by|via|with|until|till|and|but|so|after|before|this|next|now|instead|starting)(?![\p{L}]))/giu;
/** "instead of Thursday 15 May", "rather than the layby", ", not the layby": the old value after the words that set it aside. */
const PAIR_INSTEAD = /(?:(?<![\p{L}])(?:instead of|rather than)|,\s+not(?=\s+(?:the|our|a|an)\s))\s+((?:[^\s,;:.!?()—–]+\s+){0,4}?[^\s,;:.!?()—–]+)(?=\s*(?:[,;:.!?()—–\n]|$))/giu;
/**
 * "it's not the twenty-first, it's — hang on — the twenty-eighth of June", "that's not Gary, it's Gareth": a value
 * denied, then the one that holds, after "it's" (an aside between dashes may come first).
 */
const NOT_BUT_IT_IS = /(?<![\p{L}])(?:it['’]?s|it is|that['’]?s|that is)\s+not\s+((?:[^\s,;:.!?()—–]+\s+){0,3}?[^\s,;:.!?()—–]+)\s*[,;—–]\s*(?:but\s+)?(?:it['’]?s|it is|it['’]?ll be|it will be)\s+/giu;
/** Words said after a value that are none of it ("it's gareth apparently lol", "the Kings Arms now"). */
const TRAILING_FILLER = /(?:\s+(?:now|apparently|lol|haha|tho|though|then|instead|again|actually|anyway|btw|this year|this time))+\s*$/iu;
/** What "it's not …" denies when it denies no value: a reason, a manner, a judgement ("not about the money", "not fair"). */
const NOT_A_VALUE = /^(?:about|because|like|as|worth|fair|true|easy|hard|right|wrong|funny|ideal|perfect|enough|personal|over|urgent|cheap|great|my|your|his|her|their|our|(?:the|a|an)\s+(?:end|point|problem|issue|reason|case|thing|idea|worst|best))(?![\p{L}])/iu;
/** A short aside the speaker makes before the value ("— hang on, let me find the email —"). */
const ASIDE = /^(?:[—–]|--?)[^—–\n]{0,80}?\s(?:[—–]|--?)\s+/u;
/** Words that open an old value said in brackets or after "instead of" and say it is no value ("(was going to be …)", "instead of just …"). */
const NO_PAIR = /^(?:going|gonna|supposed|meant|told|said|just|only|really|so|very|too|not|never|it|that|this|that's|it's|thinking|hoping|asked|wondering|waiting|planning|trying|being|doing|having|getting|me|you|him|her|them|us|one|ones|some|any|all|nothing|something|anything|everything|usual|normal|before|earlier|yesterday|today|last|next|same|a bit|kind|sort|fine|ok|okay|good|great|nice|lovely|busy|tired|late|early|bad|worse|better|sure|problem|issue|idea|thing)(?![\p{L}])/iu;
/** Words that open a phrase and name nothing of its value ("the", "on"). */
const LEADING = /^(?:(?:the|a|an|our|their|his|her|my|your|on|at|in|for|to|with|by|is|now|be|meet|use|go|get)\s+)+/iu;

/** Who does a thing and the doing, before the thing taken up: "we're doing (a cake stall)", "I'm getting (the blue one)". */
const DOER_BEFORE = /^(?:(?:we|i|they|you|he|she)(?:['’](?:re|m|ll|ve|d)|\s+(?:are|am|will|have|had|would))?\s+(?:(?:be|been)\s+)?)?(?:doing|having|getting|(?:going|went|gone|opted|opting)\s+(?:with|for)|booked|booking|running|trying|using|taking|picked|chose)\s+/iu;

/** The value a record's words name as the new one, before `at`: one of the old value's kind, else the last few words of its clause. */
function newSaidBefore(text: string, at: number, old: string): string | undefined {
  // A stop not found is no start ("we're …" would lose its first two letters to "-1 + 3").
  const start = Math.max(0, at - 160, ...['\n', ' - ', '•', '. ', '; '].map((stop) => (text.lastIndexOf(stop, at - 1) >= 0 ? text.lastIndexOf(stop, at - 1) + stop.length : 0)));
  const clause = text.slice(start, at);
  const kind = valuesIn(old)[0]?.kind;
  if (kind) {
    const same = valuesIn(clause).filter((v) => v.kind === kind && v.value.toLowerCase() !== old.toLowerCase()).at(-1);
    return same?.value;
  }
  const tail = clause.replace(/\s+\([^()]*\)/g, '').split(/[,:—–]/).at(-1)!.trim().split(/\s+/).slice(-6).join(' ');
  const words = tail
    .replace(/^.*?(?:(?<![\p{L}])(?:now|to|with|is|meet|use|go)\s+)/iu, '')
    .replace(DOER_BEFORE, '')
    .replace(LEADING, '')
    .replace(/[\s,.;:!?]+$/, '');
  return words.length >= 3 && !NO_PAIR.test(words) ? words : undefined;
}

/** An old value as said, without the words that open it ("the layby" is "layby"), if it can be one. */
function oldValueOf(said: string): string | undefined {
  const value = said.trim().replace(LEADING, '').replace(/[\s,.;:!?]+$/, '');
  if (value.length < 3 || NO_PAIR.test(value) || value.split(/\s+/).length > 5) return undefined;
  // A bare number ("12 not 14") could be any number a line says.
  if ((/^\d[\d.,]*$/.test(value) && !/^\d{3,}$/.test(value)) || new RegExp(`^(?:${NUMBER_WORDS}|one)$`, 'iu').test(value)) return undefined;
  return value;
}

/**
 * Old and new values a record says side by side: "now 8:10 (was 8:50)", "survey 1 now Friday 16th May … (was Wed
 * 14 May)", "eDNA lab switched from Aquagen Labs to Tayside Genomics", "Tuesday the 20th at 3:45pm, instead of
 * Thursday 15 May", "meet in the farmyard behind the grain store, not the layby". The old words are exact, so a line
 * said before that holds them, however cased, is marked with the new.
 */
export function pairsSaid(said: string): { replaced: string; by: string }[] {
  // A day the service anchored beside the words that said it ("(was Tue 16 June (2026-06-16))") is no word of either value.
  const text = said.replace(ANCHORED_DAY, '');
  const out: { replaced: string; by: string }[] = [];
  const add = (replaced: string | undefined, by: string | undefined) => {
    if (!replaced || !by || by.toLowerCase().includes(replaced.toLowerCase()) || replaced.toLowerCase().includes(by.toLowerCase())) return;
    if (!out.some((o) => o.replaced.toLowerCase() === replaced.toLowerCase())) out.push({ replaced, by });
  };
  for (const m of text.matchAll(PAIR_IN_BRACKETS)) {
    const old = oldValueOf(m[1]!);
    if (old) add(old, newSaidBefore(text, m.index!, old));
  }
  for (const m of text.matchAll(PAIR_FROM_TO)) add(oldValueOf(m[1]!), oldValueOf(m[2]!));
  // Before "instead of" is read alone, which would take "Room 3 instead of Room 5" apart at the wrong word.
  for (const m of text.matchAll(HEADED_PAIR)) if (!NOT_A_UNIT.test(m[1]!)) add(`${m[1]} ${m[3]}`, `${m[1]} ${m[2]}`);
  for (const m of text.matchAll(PAIR_INSTEAD)) {
    const old = oldValueOf(m[1]!);
    if (old) add(old, newSaidBefore(text, m.index!, old));
  }
  for (const m of text.matchAll(ORDINAL_PAIR)) add(m[2], m[1]);
  for (const m of text.matchAll(NAME_NOT_NAME)) if (!NOT_A_NAME.test(m[1]!) && !NOT_A_NAME.test(m[2]!)) add(m[2], m[1]);
  for (const m of text.matchAll(NOT_BUT_IT_IS)) {
    // "it's not about the money, it's the principle", "it's not my fault" deny no value.
    if (NOT_A_VALUE.test(m[1]!.trim())) continue;
    // A value of a kind is that value alone ("£4 on the door" denies £4), however short ("£4").
    const valued = valuesIn(m[1]!)[0];
    const old = valued?.value ?? oldValueOf(m[1]!);
    if (!old) continue;
    // What follows "it's", past an aside, up to the end of its sentence.
    const rest = text.slice(m.index! + m[0].length, m.index! + m[0].length + 160).replace(ASIDE, '');
    const after = rest.slice(0, rest.search(/[.!?](?:\s|$)|\n/u) + 1 || rest.length);
    const same = valued ? valuesIn(after).find((v) => v.kind === valued.kind)?.value : undefined;
    const phrase = (/^[^,;:.!?()—–\n]+/u.exec(after)?.[0] ?? '').replace(TRAILING_FILLER, '');
    add(old, same ?? oldValueOf(phrase));
  }
  for (const m of text.matchAll(NEVER_MIND)) {
    const old = valuesIn(m[1]!)[0];
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 80);
    if (old) add(oldValueOf(m[1]!), valuesIn(after).find((v) => v.kind === old.kind)?.value);
  }
  for (const m of text.matchAll(CANT_DO_DAY)) {
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 160);
    add(m[1], valuesIn(after).find((v) => v.kind === 'day')?.value);
  }
  for (const m of text.matchAll(SCRATCHED)) {
    const old = oldValueOf(m[1]!);
    if (!old) continue;
    const chosen = takenInstead(text.slice(m.index! + m[0].length, m.index! + m[0].length + 200));
    add(old, chosen ? newThing(chosen) : undefined);
  }
  // A swap asked about or weighed ("Could Bethany swap Tuesday for Thursday?") is none made.
  const made = (m: RegExpMatchArray) => !ONLY_WEIGHED.test(text.slice(...sentenceAround(text, m.index!, m[0].length)));
  // Each read only when its words are there (most records hold none of them).
  for (const pair of MOVED_CUE.test(text) && REASON.test(text) ? placesMovedFrom(text) : []) add(pair.replaced, pair.by);
  for (const m of SWAP_CUE.test(text) ? text.matchAll(SWAPPED_FOR) : []) if (made(m)) add(oldValueOf(m[1]!), newThing(m[2]!));
  for (const m of /replac/iu.test(text) ? text.matchAll(REPLACED_BY) : []) if (made(m)) add(oldValueOf(m[1]!), newThing(m[2]!));
  for (const m of /\sover\s/iu.test(text) ? text.matchAll(CHOSEN_OVER) : []) if (made(m) && !OVER_NOT_A_THING.test(m[2]!)) add(oldValueOf(m[2]!), newThing(m[1]!));
  for (const m of SET_ASIDE_CUE.test(text) ? text.matchAll(SET_ASIDE) : []) {
    if (!made(m)) continue;
    const old = oldValueOf(m[1] ?? m[2] ?? m[3]!);
    // One word that names any of its kind ("the meeting got cancelled") would mark every meeting said before.
    if (!old || (!/\s/.test(old) && GENERIC_THING.test(old))) continue;
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 160);
    const up = TAKEN_UP.exec(after);
    const taken = up?.[1] ?? up?.[2] ?? takenInstead(after);
    add(old, taken ? newThing(taken) : undefined);
  }
  return out;
}

/** The words each reading of a thing given up needs, tested first. */
const MOVED_CUE = /(?<![\p{L}])(?:now|moving|moved|relocat\w*|switch\w*)(?![\p{L}])/iu;
const SWAP_CUE = /(?<![\p{L}])(?:swap|switch|trad|exchang)\w*\s.{1,60}?\sfor\s/isu;
const SET_ASIDE_CUE = /(?<![\p{L}])(?:off|cancell?ed|scrapped|axed|binned|dropped|pulled|through|no\s+more|work\s+out|called\s+off)(?![\p{L}])/iu;
/** Words that name any thing of their kind, not one thing: set aside alone, they say which one no more than "it". */
const GENERIC_THING = /^(?:meeting|call|appointment|session|class|lesson|event|plan|booking|order|delivery|visit|shift|job|party|trip|date|day|time|slot|option|idea|thing|one|stuff|arrangement|deal|offer)s?$/iu;

/** A thing named as what takes another's place, if it names one: not "a new one", "another", "something else". */
function newThing(said: string): string | undefined {
  const value = oldValueOf(said.replace(TRAILING_FILLER, ''));
  return value && !/^(?:new|another|fresh|spare|different|better|other|something|someone|somewhere)(?![\p{L}])|(?<![\p{L}])ones?$/iu.test(value) ? value : undefined;
}

/** Words after which a lower-case word is read as a name the block knows. */
const NAME_BEFORE = String.raw`(?<![\p{L}])(?:with|and|to|from|by|is|was|called|named|met|meet|replacement|ask|tell|told|asked|thanks|thx|ty|hi|hey|cheers|its|it's|thats|that's|not|nephew|niece|son|daughter|brother|sister|mum|mom|dad|wife|husband|partner|friend|colleague|boss|cousin|neighbour|neighbor)\s+`;
/** What may follow a lower-case word read as a name. */
const NAME_AFTER = String.raw`['’]?s(?![\p{L}])|\s+(?:is|was|has|had|said|says|will|would|can|cant|can't|could|did|does|doesnt|doesn't|isnt|isn't|and|or|not|lol|(?:wants|needs|decided|has got) to|gonna|downstairs|upstairs|next door|texted|emailed|e-mailed|messaged|wrote|phoned|rang|called|left|quit|off sick|off ill|off work|unwell|poorly|(?:doing|handling|running|covering) (?:it|that)|from (?:work|uni|school|church|next door|the office)|taking over|stepping (?:down|back|in)|leaving|retiring)(?![\p{L}])|\s*[,.!?;:]|\s*$`;
/**
 * Records typed in lower case ("dave downstairs is away … his nephew yusuf said hell do it instead") with the
 * people the block knows by name written with their capitals, so that a change of who does something is read as
 * it is when typed with them. Only names of three letters or more that are no common word, only in records
 * with no capitalised sentence, and only where the name stands as a word.
 */
function recasedNames(units: readonly SaidUnit[], names: readonly string[]): readonly SaidUnit[] {
  const known = [...new Set(names.flatMap((name) => name.split(/\s+/)).filter((word) => /^\p{Lu}\p{Ll}{2,}$/u.test(word) && !COMMON.has(word.toLowerCase()) && !NOT_NAMED.test(word)))];
  if (known.length === 0) return units;
  const byLower = new Map(known.map((name) => [name.toLowerCase(), name]));
  // Only where a name stands: before what a person does or is ("dave's", "yusuf is", "rory lol"), or after a word that
  // brings one in ("thx sue", "his nephew yusuf", "not rory"); "mark the date", "bill the landlord", "drew up" stay words.
  const alternatives = `(?:${[...byLower.keys()].map(escape).join('|')})`;
  const pattern = new RegExp(`(?<![\\p{L}'’])(?:(?<=${NAME_BEFORE}|^)${alternatives}(?![\\p{L}])|${alternatives}(?=${NAME_AFTER}))`, 'gu');
  // A name of two words or more, said whole ("kemi adeyemi came"), is that name wherever it stands.
  const whole = [...new Set(names.filter((name) => /^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)+$/u.test(name)))];
  const wholeByLower = new Map(whole.map((name) => [name.toLowerCase(), name]));
  const wholePattern = whole.length > 0 ? new RegExp(`(?<![\\p{L}'’])(?:${[...wholeByLower.keys()].map(escape).join('|')})(?![\\p{L}])`, 'gu') : undefined;
  return units.map((unit) => {
    if (unit.kind !== 'record' || !lowerCaseChat(unit.text)) return unit;
    const named = wholePattern ? unit.text.replace(wholePattern, (said) => wholeByLower.get(said) ?? said) : unit.text;
    const text = named.replace(pattern, (word) => byLower.get(word) ?? word);
    return text === unit.text ? unit : { ...unit, text };
  });
}

/** Chat typed in lower case ("went with hartley hire"): no sentence opens with a capital. */
const lowerCaseChat = (text: string) => !/[.!?] \p{Lu}|^\p{Lu}/u.test(text);

/** Whether a name found as what took another's place can be: not an acronym for a name ("no VAT needed"), not the old one again. */
function fitsAsReplacement(old: string, by: string | undefined): boolean {
  // "our contact from mon 24th" in lower-case chat: a pronoun is no one who took a place.
  if (!by || (ACRONYM.test(by) && !ACRONYM.test(old)) || /^(?:us|we|me|i|you|him|her|them|they|it|one|someone|anyone|everyone)$/i.test(by)) return false;
  return !by.toLowerCase().includes(old.toLowerCase()) && !old.toLowerCase().includes(by.toLowerCase());
}

/** Words that end a person's part for good, not for a while ("stepping down", "retired", "left"; not "off sick"). */
const PART_ENDS_FOR_GOOD = /^(?:['’]s)?(?:\s+(?:has|have|is|was|had|just|been|finally|officially|now|also|sadly))*\s+((?:left|leaving|retired|retiring|(?:resigned|resigning)(?!\s+(?:herself|himself|themselves|myself|ourselves|yourself|to)\b)|quit|quitting|step(?:s|ped|ping)\s+(?:down|aside)|stood\s+(?:down|aside)|standing\s+(?:down|aside)|(?:moved|moving)\s+(?:teams|departments))(?:\s+(?:as|from)\s+(?:(?:our|the|their|his|her)\s+)?[\p{Ll}-]+(?:\s+[\p{Ll}-]+){0,2})?)(?![\p{L}])/u;
const PART_ENDS_FOR_GOOD_CUE = /(?<![\p{L}])(?:left|leaving|retired|retiring|resigned|resigning|quit|quitting|stepping|stepped|steps|stood|standing|moved|moving)(?![\p{L}])/iu;

/** What may follow "left" or "leaving" when a part ended ("left us", "is leaving the club", "left in March"; not "left the keys", "leaving for Spain"). */
const LEFT_FOR_GOOD = /^(?:\s*(?:[.,;:!?)—–-]|$)|\s+(?:and|but|so|as|from|for good|us|me|them|last|yesterday|today|this|at the end|in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|(?:the|our|their|his|her) (?:company|firm|team|club|committee|group|school|practice|agency|business|job|role|post|board|band|choir|league|council|charity|office|shop|surgery))(?![\p{L}]))/iu;
/** The people a record says ended their part for good, by name (capitalised), with the words that say so. */
function partsEndedForGood(text: string): { name: string; said: string }[] {
  const out: { name: string; said: string }[] = [];
  for (const m of text.matchAll(NAMES)) {
    const name = bareName(m[0]);
    if (!name || NOT_A_NAME.test(name) || onlyColour(name) || holdsNoPart(name) || out.some((o) => o.name === name)) continue;
    const end = m.index! + m[0].replace(/['’]s$/u, '').length;
    const rest = ahead(text, end);
    const said = PART_ENDS_FOR_GOOD.exec(rest);
    if (!said) continue;
    // Not what someone left or quit ("Tom left the keys", "Kez quit smoking"): a part ends said to its end, or with what it was.
    const next = rest.slice(said.index + said[0].length);
    if (/^(?:left|leaving|quit|quitting)$/u.test(said[1]!) && !LEFT_FOR_GOOD.test(next)) continue;
    out.push({ name, said: said[1]!.trim() });
  }
  return out;
}

/** The names and colours a record says ended ("Bronwen's retiring", "out of maroon", "I've cancelled Hollis"), each once. */
function namesEnded(text: string): { value: string; index: number; colour: boolean; thing?: string }[] {
  const ended: { value: string; index: number; colour: boolean; thing?: string }[] = [];
  const add = (value: string, index: number, colour: boolean, thing?: string) => {
    if (!ended.some((e) => e.value.toLowerCase() === value.toLowerCase())) ended.push({ value, index, colour, ...(thing ? { thing } : {}) });
  };
  // Said before the words that end it: a name, a colour (with the thing it was the colour of), or in lower-case chat a word.
  // A colour and the thing it was the colour of ("red harness snapped"), a colour said over ("out of maroon"), or a
  // colour said before another one the record goes for ("the sage looked washed out, so I've gone for navy blue").
  const chosen = [...text.matchAll(REPLACED_WITH)].map((m) => ({ at: m.index!, colour: COLOUR_AT.exec(ahead(text, m.index! + m[0].length))?.[0] })).filter((c) => c.colour);
  for (const m of text.matchAll(COLOURS)) {
    const rest = ahead(text, m.index! + m[0].length);
    const thing = /^ ([\p{Ll}]{3,})(?![\p{L}])/u.exec(rest)?.[1];
    const thingEnded = thing !== undefined && ENDED.test(ahead(text, m.index! + m[0].length + thing.length + 1));
    const goneFor = chosen.some((c) => c.at > m.index! && c.colour!.toLowerCase() !== m[0].toLowerCase());
    if (thingEnded || ENDED.test(rest) || ENDED_BEFORE.test(behind(text, m.index!)) || goneFor) add(m[0], m.index!, true, thingEnded ? thing : undefined);
  }
  for (const m of text.matchAll(NAMES)) {
    const name = bareName(m[0]);
    if (!name || onlyColour(name)) continue;
    if (holdsNoPart(name)) continue;
    // Where the name starts (after the words a sentence opens with) and ends (before its "'s").
    const end = m.index! + m[0].replace(/['’]s$/u, '').length;
    const at = end - name.length;
    // "a firm out of Truro" says where it is from, not that it ran out.
    const hurt = HURT.test(ahead(text, end)) && /(?:^|[.!?:\n\]]\s*|(?<![\p{L}])(?:so|and|but|because|cos|then)\s+)$/u.test(behind(text, at));
    if (hurt || ENDED.test(ahead(text, end)) || endedBySaying(ahead(text, end)) || (ENDED_BEFORE.test(behind(text, at)) && !FROM_PLACE.test(behind(text, at)))) add(name.replace(/^(?:The|A|An) /u, ''), at, false);
  }
  // "Sandra Whitlock emailed. She's leaving the market office …", "poor Brenda … so she's out for the summer": a part
  // ended by "she" or "he", of the last person the record named before it (within its sentence or the two before).
  let stops: number[] | undefined;
  for (const m of text.matchAll(PRONOUN_ENDED)) {
    // What follows the pronoun first: most "she"s end nothing.
    if (!ENDED.test(text.slice(m.index! + /^(?:she|he)/iu.exec(m[0])![0].length))) continue;
    stops ??= [...text.matchAll(/[.!?]\s+/gu)].map((b) => b.index!);
    const stopsBefore = stops.filter((at) => at < m.index!);
    const start = Math.max(0, m.index! - 400, stopsBefore.at(-3) ?? 0);
    // A person: no firm or place ("Kowalski", "Fairfield Bowls Club"), no pair ("Ken and I"), no word that only opens a sentence ("Want me to …").
    const named = [...text.slice(start, m.index!).matchAll(NAMES)]
      .filter((n) => n[0].includes(' ') || !/(?:^|[.!?:]\s+)$/u.test(text.slice(Math.max(0, start + n.index! - 3), start + n.index!)))
      .map((n) => bareName(n[0]))
      .filter((name): name is string => !!name && !NOT_A_NAME.test(name) && !onlyColour(name) && !holdsNoPart(name) && !KIN_WORD.test(name) && /^\p{Lu}/u.test(name) && !/\s(?:and|&)\s|\s(?:Club|Ltd|Limited|Hardware|Council|Centre|Hall|Market|Office|Co|Company|Group|Services|Bank|School|College|Hospital|Surgery|Church|Logistics|Lane|Road|Street)$/u.test(name));
    const last = named.at(-1);
    // "Dave has left Kowalski, he's gone to …": the one the sentence already said left, said again.
    if (ended.some((e) => e.index >= start && e.index < m.index!)) continue;
    if (last) add(last, text.lastIndexOf(last, m.index!), false);
  }
  // "Shutterbox Rentals have put their prices up … So I'm getting it from Kitroom Bristol instead": the one name that
  // opens a sentence of the record, with what it has or is, before the name said with "instead", is what that replaced.
  const instead = /(?<![\p{L}])instead(?![\p{L}])/iu.exec(text);
  if (ended.length === 0 && instead) {
    const subjects = [...text.slice(0, instead.index).matchAll(NAMES)].filter((m) => {
      const name = bareName(m[0]);
      return name && !NOT_A_NAME.test(name) && /(?:^|[.!?]\s+)$/u.test(text.slice(Math.max(0, m.index! - 3), m.index!)) && /^\s+(?:have|has|are|is|were|was)\s/u.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 8));
    });
    const chosen = INSTEAD_AFTER_NAME.exec(text.slice(0, instead.index + instead[0].length))?.[1];
    if (subjects.length === 1 && chosen && bareName(subjects[0]![0]) !== chosen) add(bareName(subjects[0]![0])!, subjects[0]!.index!, false);
  }
  // A word typed in lower case said before what ended it ("gary's left", "swift are fully booked"): a line names it
  // only with its capital ("Swift Vans"), which keeps "the shop's closed" from marking every line about a shop.
  // Said so ("okafor is away", "gary's left"), not an adverb ("said yes straight away").
  // Only in a sentence typed in lower case: where a sentence opens with a capital, a word without one is a thing
  // ("Quayside's main printer has broken down"). Where each sentence opens, read once.
  const openings = [0, ...[...text.matchAll(/[.!?]\s+/gu)].map((b) => b.index! + b[0].length)];
  let sentence = 0;
  for (const m of text.matchAll(/(?<![\p{L}'’])([\p{Ll}][\p{L}-]{2,})(?=(?:['’]s)?\s)/gu)) {
    const word = m[1]!;
    while (sentence + 1 < openings.length && openings[sentence + 1]! <= m.index!) sentence += 1;
    if (/^\p{Lu}/u.test(text.slice(openings[sentence]!, openings[sentence]! + 1))) continue;
    if (NOT_NAMED.test(word) || COMMON.has(word) || COLOUR_AT.test(word)) continue;
    // A word after "your", "the" is a thing ("your account was reassigned"), not a name typed in lower case.
    if (/(?<![\p{L}])(?:the|a|an|your|my|our|their|his|her|its)\s+$/iu.test(behind(text, m.index!))) continue;
    const rest = ahead(text, m.index! + word.length);
    // ("rota's out" is published: only a name is out of its part.)
    if (ENDED.test(rest) && SAID_SO.test(rest) && !/^(?:['’]s)?\s+out(?![\p{L}])/u.test(rest)) add(word, m.index!, false);
    // Typed without its apostrophe ("gareths left", "megans off sick"): only a person's leaving or being out of action.
    else if (/^\p{Ll}{3,}s$/u.test(word) && !COMMON.has(word.slice(0, -1)) && !NOT_NAMED.test(word.slice(0, -1)) && PERSON_OUT.test(rest)) add(word.slice(0, -1), m.index!, false);
  }
  return ended;
}

/** Family by the names family call them. */
const KIN = /^(?:Mum|Mom|Mam|Mummy|Mommy|Dad|Daddy|Nan|Nana|Nanna|Gran|Granny|Grandma|Grandmother|Grandad|Granddad|Grandpa|Grandfather)$/u;
/**
 * A name whose part cannot be read as ended: "told Keith I'm leaving" (the one leaving is the speaker, not the name
 * before "I"), "since Mum left" (family come and go, and hold no part another takes over).
 */
const holdsNoPart = (name: string) => /\sI(?:['’]\p{Ll}+)?$/u.test(name) || KIN.test(name);

/** Words that open a new clause: a name's part is not read across them. */
const JOINER = String.raw`(?:so|but|because|cos|then|when|while|if|which|who|and)(?![\p{L}])`;
/** A few words of a clause after a name, then who they are: "ParcelRun have told us they", "Ana rang, she", "Julie emailed this morning to say she". */
const THEN_PRONOUN = new RegExp(String.raw`^(?:,?\s+(?!${JOINER})[\p{L}'’]+){1,6}?,?\s+(?:they|she|he)(?![\p{L}])`, 'iu');
/** Lower-case words after a name, then "and" going on with them: "Tomasz has a new job with weekend shifts and". */
const THEN_AND = new RegExp(String.raw`^(?:\s+(?![Ss]o|[Bb]ut|[Bb]ecause|[Tt]hen|[Ww]hich|[Ww]ho|[Aa]nd)(?:\p{Ll}[\p{L}'’-]*)){1,12}?\s+and(?=\s)`, 'u');
/** What a clause says they cannot do, never what they choose not to ("won't charge us", "doesn't mind"). */
const CANNOT = /^(?:\s+(?:can['’]?t|cannot|couldn['’]?t)|(?:\s+(?:has|have)|['’]s|['’]ve)\s+(?:had\s+to\s+(?:drop|pull)|dropped|pulled)\s+out|(?:\s+(?:is|are)|['’]s|['’]re)\s+(?:leaving|retiring|stepping (?:down|aside|back)|standing (?:down|aside)|off sick|off ill|away|unwell|ill|in hospital|(?:not|no longer)\s+(?:able|available|well)))(?![\p{L}])/iu;
/**
 * The part of someone named ended a few words on, by what they cannot do or where they are: "ParcelRun have told
 * us they can't take it", "Ana rang, she's off sick", "Tomasz has a new job … and can't lead bikes".
 */
function endedBySaying(words: string): boolean {
  // Chat's "shes", "hes", "theyre" are read as written out.
  const rest = words.replace(/(?<![\p{L}])(she|he)s(?![\p{L}])/giu, '$1’s').replace(/(?<![\p{L}])theyre(?![\p{L}])/giu, 'they’re');
  // "Quayside's main printer has broken down and": what belongs to the name is said of it.
  const owned = rest.replace(/^['’]s(?=\s)/u, '');
  const said = THEN_PRONOUN.exec(owned) ?? THEN_AND.exec(owned);
  if (!said) return false;
  // "… and said they simply can't take on any more", "… and they can't get a part": who cannot is said again.
  const after = owned.slice(said[0].length).replace(/^\s+(?:(?:said|say|says|told us|told me)\s+(?:that\s+)?)?(?:they|she|he)(?=\s)(?:\s+(?:simply|just|really|now|still))?/iu, '');
  return CANNOT.test(after) && ENDED.test(after);
}

/** A person out of their part, said straight after their name ("gareths left", "megans hurt her wrist"). */
const PERSON_OUT = /^\s+(?:(?:has|have|just|now|gone and)\s+)*(?:left|quit|resigned|retired|leaving|retiring|off sick|off ill|hurt (?:her|his|their)|injured|broke (?:her|his|their)|on (?:sick |maternity |paternity )?leave)(?![\p{L}])/iu;

/** Words that put one thing in another's place, read in a later record ("Get the SM7B instead"; not "Joss is covering the rent"). */
const IN_ITS_PLACE = /(?<![\p{L}])(?:instead|replac\w+|taking over|takes over|took over|take over|stepping in|stepped in|step in|steps in|in (?:her|his|their|its) place)(?![\p{L}])/iu;

/** Every sentence, as one that brings a new name in: an answer to "who takes their place?" needs no word of its own. */
const ANY_SENTENCE = /^/u;

/** Whether a record asks someone else, in a question, who or what takes a place, or for a change's new value ("Have you an alternative framer in view?"). */
function asksForChange(asking: SaidUnit, answer: SaidUnit): boolean {
  if (asking.speaker !== undefined && asking.speaker === answer.speaker) return false;
  return changesAsked(asking.text).length > 0 || WHO_IN_MIND.test(asking.text);
}
/** A question after someone to take a part, asked of a person only ("Do you have anyone in mind for her Saturdays?"). */
const WHO_IN_MIND = /(?<![\p{L}])(?:anyone|anybody|someone|somebody)\s+in\s+mind(?![\p{L}])[^?]*\?/iu;

/** Said when a part ended, of someone to come who is not named yet: "firm sending someone else", "name tbc". */
const SOMEONE_TO_COME = /(?<![\p{L}])(?:(?:sending|send|sent|finding|find|getting|arranging|arrange|booking|book)\s+(?:us\s+|me\s+)?(?:someone|somebody)\s+else|(?:someone|somebody)\s+else\s+(?:is\s+|will\s+be\s+)?(?:coming|covering|doing it|taking over)|(?:name|replacement|cover)\s+(?:tbc|tba|to be confirmed|to be announced)|(?:replacement|successor)\s+(?:hasn['’]t|has not|hasnt|isn['’]t|is not|not|yet to be|still to be)\s+(?:been\s+|yet\s+)*(?:announced|named|confirmed|appointed|found))(?![\p{L}])/iu;
/** Said of someone who did the part in the end: "kemi adeyemi came", "Mo turned up", "Dana did it". */
const CAME_AND_DID = /^\s+(?:came|come|turned up|showed up|arrived|did it|did the|has done|was here|is coming|will come|will be coming|sent over)(?![\p{L}])/iu;
/** Said just before a name, of the part it now holds: "Met the new market manager this morning. Neil Arkwright, …". */
const NEW_PART_BEFORE = /(?<![\p{L}])new\s+(?!(?:job|role|position|post|life|home|house|flat|baby|chapter|adventure|start|year|venture|career)(?![\p{L}]))(?:[\p{Ll}-]+\s+){0,2}[\p{Ll}-]{3,}(?:\s+(?:is|was|['’]s|called|named))?(?:\s+[^\s.!?]+){0,3}?\s*[.!?:,—–-]?\s*$/u;
/** How long after, and how many records on, a name said to come later may be given. */
const TO_COME_MS = 21 * 86_400_000;
const TO_COME_RECORDS = 80;

/**
 * A part ended with someone to come not named yet ("ray off sick. back injury. firm sending someone else." … "same
 * slot. name tbc."): the first name a later record says came, or did it, where that record shares a word of the thing
 * with the records that said so ("electrician's name to be confirmed" … four days on "electrician done wed. kemi
 * adeyemi came").
 */
function nameComingLater(records: readonly SaidUnit[], ended: number, old: string): { unit: SaidUnit; by: string } | undefined {
  const around = records.slice(ended, ended + 1 + FOLLOW_UP_RECORDS);
  if (!around.some((r) => SOMEONE_TO_COME.test(r.text))) return undefined;
  // (Words of four letters or more: "wed", "tbc" and the like name no thing.)
  const words = (text: string) => thingWords(text).filter((word) => word.length >= 4);
  const said = around.map((r) => ({ unit: r, words: new Set(words(r.text)) }));
  const from = Date.parse(records[ended]!.at!);
  for (const later of records.slice(ended + 1, ended + 1 + TO_COME_RECORDS)) {
    if (Date.parse(later.at!) - from > TO_COME_MS) break;
    // A word of the thing said by another of the records around the part's end.
    if (!words(later.text).some((word) => said.some((r) => r.unit !== later && r.words.has(word)))) continue;
    for (const m of later.text.matchAll(NAMES)) {
      const by = bareName(m[0]);
      if (!by || NOT_A_NAME.test(by) || holdsNoPart(by) || !fitsAsReplacement(old, by)) continue;
      if (CAME_AND_DID.test(later.text.slice(m.index! + m[0].length, m.index! + m[0].length + 30)) || NEW_PART_BEFORE.test(later.text.slice(Math.max(0, m.index! - 80), m.index!))) return { unit: later, by };
    }
  }
  return undefined;
}

/** "She's", "he has", "she is" opening what may end a part (read on with ENDED after the pronoun). */
const PRONOUN_ENDED = /(?<![\p{L}])(?:[Ss]he|[Hh]e)(?:['’]s|\s+is|\s+has|\s+had|\s+was)?(?=\s)/gu;
/** A successor named as the new holder of a part: "is our new treasurer", "as their new manager". */
const SUCCESSOR_SAID = /(?<![\p{L}])(?:is|are|as|be)\s+(?:(?:our|the|their|your|his|her|my)\s+)?new\s+\p{Ll}[\p{Ll}-]+/u;

/** How soon after a part ended a later record may name what took it, and how many ranked records later at most. */
const FOLLOW_UP_MS = 2 * 86_400_000;
const FOLLOW_UP_RECORDS = 4;

/**
 * A part ended in one record and taken in one of the next few ("Marta's pulled out" … next day "new flatmate is
 * Keiko"; "the Procaster is back-ordered" … "Get the Shure SM7B instead"): a name, never a colour, that the record
 * ending it names no replacement for, paired with the first name a record of the next two days (among the next few
 * the block ranked) introduces as a replacement, when the ending record does not name it already.
 */
function namesReplacedLater(units: readonly SaidUnit[]): { unit: SaidUnit; replaced: string; by: string }[] {
  const records = units.filter((unit) => unit.kind === 'record' && unit.at).sort((a, b) => a.at!.localeCompare(b.at!));
  const out: { unit: SaidUnit; replaced: string; by: string }[] = [];
  records.forEach((unit, i) => {
    if (!MAY_REPLACE.test(unit.text)) return;
    const lowerCase = lowerCaseChat(unit.text);
    for (const old of namesEnded(unit.text)) {
      // A record that names a successor however it says so ("Ann Marsh (plot 12) is our new treasurer") needs none later.
      if (old.colour || replacementOf(unit.text, old, lowerCase) || SUCCESSOR_SAID.test(unit.text)) continue;
      for (const [k, later] of records.slice(i + 1, i + 1 + FOLLOW_UP_RECORDS).entries()) {
        if (Date.parse(later.at!) - Date.parse(unit.at!) > FOLLOW_UP_MS) break;
        // Read as if the old name were said after the whole record: only the words that bring a new one in count.
        const gone = { value: old.value, index: later.text.length + 1, colour: false };
        const by =
          replacementOf(later.text, gone, lowerCaseChat(later.text), IN_ITS_PLACE) ??
          // Or the answer to someone else asking who or what takes its place, in the record that said the part ended or
          // the one after it ("Do you have a backup in mind?" … "a friend of hers, Obi, who does it properly"): a name
          // of its first sentences, not one naming a kind of thing ("at the Probus lunch").
          (k <= 1 && asksForChange(k === 0 ? unit : records[i + k]!, later) ? replacementOf(sentencesOf(later.text).slice(0, ANSWER_SENTENCES - 1).map((x) => x.text).join(' '), gone, lowerCaseChat(later.text), ANY_SENTENCE) : undefined);
        if (!fitsAsReplacement(old.value, by) || holds(unit.text, by!)) continue;
        out.push({ unit: later, replaced: old.value, by: by! });
        break;
      }
      if (!out.some((o) => o.replaced === old.value)) {
        const taken = nameComingLater(records, i, old.value);
        if (taken) out.push({ unit: taken.unit, replaced: old.value, by: taken.by });
      }
    }
  });
  return out;
}

/**
 * A name said as what a thing is now ("Tom's conference has moved to Glasgow", "He's going as Paddington now", "keys
 * from our Hillgate office instead"), the one it replaced left unsaid. Changed in so many words: a verb of moving or
 * switching with "has", "is" or "'s" before it, "going as" in a record that says something changed, or "instead".
 */
const NOW_NAMED = /(?<![\p{L}])(?:(?:has|have|had|is|are|was|were|['’]s|['’]ve)\s+(?:now\s+|just\s+|been\s+)*(?:moved|switched|changed|relocated|transferred)\s+(?:over\s+)?to|(?:going|dressing up|dressed up|coming|goes|go)\s+as|now\s+(?:(?:take|takes|taking)\s+place\s+|be\s+held\s+|held\s+|based\s+|located\s+)?(?:at|in)|(?:they['’]?re|they are|it['’]?s|it is)\s+(?:at|on|in)(?=\s+(?:the\s+)?\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3}\s+now(?![\p{L}])))\s+(?:the\s+|our\s+|a\s+|an\s+|their\s+)?(?=\p{Lu})/gu;
/** A name said as who or what holds a part now: "<Name> is now your <part>", "your <part> is now <Name>". */
const ROLE_NOW = /(?<![\p{L}])(?:((?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{L}'’-]{0,30}(?: (?:(?:&|and|of) )?\p{Lu}[\p{L}'’-]{0,30}){0,3}) (?:is|are) now (?:your|the|our|my|his|her|their) ((?:new )?\p{Ll}[\p{Ll}-]{0,30}(?: \p{Ll}[\p{Ll}-]{0,30}){0,2}?)(?=[.,;!?]|$| for| from| and| instead)|(?:your|the|our|my|his|her|their) (\p{L}[\p{Ll}-]{0,30}(?: \p{L}[\p{Ll}-]{0,30})?) is now ((?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?\p{Lu}[\p{L}'’-]{0,30}(?: \p{Lu}[\p{L}'’-]{0,30}){0,3}))/gu;

/** A question after a change of a part: "a change of consultant as well?", "a new physio too?", "a different coach?". */
const PART_CHANGE_ASKED = /(?<![\p{L}])(?:change|switch)\s+of\s+(\p{Ll}[\p{Ll}-]+)(?:\s+(?:as well|too|also))?\s*\?\s*$|(?<![\p{L}])(?:a\s+)?(?:new|different)\s+(\p{Ll}[\p{Ll}-]+)(?:\s+(?:as well|too|also))?\s*\?\s*$/u;
/** "Yes. Dr Bassi.", "yep, Femi from the rehab team": yes, then a name, opening the reply. */
const YES_AND_NAME = /^\s*(?:[Yy]es|[Yy]ep|[Yy]eah|[Yy]up|[Cc]orrect)[.,!:;—–-]*\s+((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s)?\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+){0,2})(?=\s*[.,;!]|\s+(?:from|of|at|is|will|who)(?![\p{L}])|\s*$)/u;

/** The words just before a name that make it what a line says a thing was ("in Leeds", "be the Gruffalo", "our Market Street office"). */
const SLOT_BEFORE = /(?<![\p{L}])(?:in|at|to|from|as|with|the|our|their|my|his|her|your|be|by|via|through)\s+$/iu;
/** Earlier lines' names compared with one said now, at most (the latest line naming one wins). */
const MAX_NOW_NAMED = 8;

/** A sentence's words as a thing's words are compared: lower case, stemmed, no common word, no word of change. */
function thingWords(text: string): string[] {
  return text
    .split(/[^\p{L}'’-]+/u)
    .map((word) => word.toLowerCase().replace(/(?:'s|’s)$/u, ''))
    .filter((word) => word.length >= 3 && !COMMON.has(word) && !NAMES_NOTHING.has(word) && !/['’]/.test(word) && !CHANGE_CUE.test(word) && !CHANGE_WORD.test(word))
    .map(stem)
    .filter((word) => word.length >= 3 && !COMMON.has(word) && !KIND_WORDS.has(word) && !FUNCTION_WORDS.has(word));
}
/** Short words that say nothing of what a sentence is about. */
const FUNCTION_WORDS = new Set(['the', 'and', 'but', 'for', 'not', 'has', 'had', 'his', 'her', 'him', 'she', 'our', 'you', 'are', 'was', 'its', 'who', 'why', 'how', 'all', 'any', 'can', 'did', 'got', 'get', 'let', 'may', 'one', 'out', 'own', 'too', 'way', 'yes', 'yet', 'bit', 'lot', 'mean']);
/** A name without the weekdays, months and the like said after it ("Leeds Monday 10 …" is Leeds). */
const nameAlone = (name: string) => name.split(' ').reduceRight((kept, word) => (kept.length === 0 && NOT_A_NAME.test(word) ? kept : [word, ...kept]), [] as string[]).join(' ');

/**
 * Names said as what a thing is now, with the name it replaced read from an earlier line about the same thing: a
 * sentence that says two of the words of the new name's sentence (or the one before it; the one, when that is all
 * they say) and, after "in", "as", "the"
 * or the like, another name; the one nearest those words. Lines before it naming the old name with one of those words
 * are marked. Not for a record whose change was read already (the old name said in it: `namesReplaced`).
 */
function namesNowSaid(units: readonly SaidUnit[], read: readonly RetiredValue[]): { unit: SaidUnit; replaced: string; by: string; alongside: string[] }[] {
  const records = units.filter((unit) => unit.kind === 'record' && unit.at);
  // Each earlier record's sentences and their words are read once, however many names said now they are compared with.
  const sentencesOfRecord = new Map<string, { text: string; words: string[] }[]>();
  const sentencesRead = (unit: SaidUnit) => {
    let read = sentencesOfRecord.get(unit.id);
    if (!read) sentencesOfRecord.set(unit.id, (read = sentencesOf(withoutAsides(unit.text)).map((sentence) => ({ text: sentence.text, words: thingWords(sentence.text) }))));
    return read;
  };
  const out: { unit: SaidUnit; replaced: string; by: string; alongside: string[] }[] = [];
  for (const unit of records) {
    if (out.length >= MAX_NOW_NAMED) break;
    if (read.some((r) => r.records.includes(unit.id) && r.replaces)) continue;
    const text = withoutAsides(unit.text);
    const sentences = sentencesOf(text);
    const found: { by: string; index: number }[] = [];
    for (const m of CHANGE_CUE.test(text) ? text.matchAll(NOW_NAMED) : []) {
      // "going as" is no change said by itself: the record must say so elsewhere ("changed his mind", "now").
      if (/as\s+(?:\S+\s+)?$/u.test(m[0]) && !CHANGE_CUE.test(text.slice(0, m.index!) + text.slice(m.index! + m[0].length))) continue;
      // What moved is a thing ("Tom's conference has moved", "the gig's moved"), not someone ("Ben has moved to
      // Manchester", "she's moved to"): the word before is no name and no pronoun.
      const said = text.slice(Math.max(0, m.index! - 40), m.index!);
      const mover = /(\p{L}+)\s*$/u.exec(said)?.[1] ?? '';
      if (/^\p{Lu}/u.test(mover) || /^(?:i|we|you|he|she|they|who)$/i.test(mover)) continue;
      // "we're now in Lisbon": nor a pronoun said with its verb, but for someone "going as" a character.
      if (!/as\s+(?:\S+\s+)?$/u.test(m[0]) && /(?<![\p{L}])(?:i|we|you|he|she|they)['’]?(?:m|re|s|ll|ve)\s*$/iu.test(said)) continue;
      const by = nameAlone(bareName(NAME_AT.exec(text.slice(m.index! + m[0].length))?.[0] ?? ''));
      if (by && !NOT_A_NAME.test(by)) found.push({ by, index: m.index! + m[0].length });
    }
    for (const m of /instead/i.test(text) ? text.matchAll(NAMES) : []) {
      const by = nameAlone(bareName(m[0]));
      const end = m.index! + m[0].replace(/['’]s$/u, '').length;
      if (by && !NOT_A_NAME.test(by) && INSTEAD_AFTER.test(ahead(text, end))) found.push({ by, index: m.index! });
    }
    // "So Bramble Supply is now your wax supplier", "your midday walker is now Obi": a name said as who or what holds a
    // part now. The earlier holder is a name said next to the part's last word ("Tasha, our walker", "walker is Tasha").
    let head: string | undefined;
    for (const m of found.length === 0 ? text.matchAll(ROLE_NOW) : []) {
      const by = nameAlone(bareName(m[1] ?? m[4] ?? ''));
      const role = thingWords((m[2] ?? m[3] ?? '').toLowerCase());
      if (!by || NOT_A_NAME.test(by) || role.length === 0) continue;
      found.push({ by, index: m.index! });
      head = role[role.length - 1];
      break;
    }
    // "Does that mean a change of consultant as well?" … "Yes. Dr Bassi.": a name given in answer to a change of a part
    // asked after, by someone else, holds the part now.
    const part = found.length === 0 && unit.before && unit.before.speaker !== unit.speaker ? PART_CHANGE_ASKED.exec(unit.before.text.slice(-200)) : null;
    const answer = part ? YES_AND_NAME.exec(text) : null;
    if (part && answer) {
      const by = nameAlone(bareName(answer[1]!));
      const role = thingWords((part[1] ?? part[2]!).toLowerCase());
      if (by && !NOT_A_NAME.test(by) && role.length > 0) {
        found.push({ by, index: answer.index + answer[0].length - answer[1]!.length });
        head = role[role.length - 1];
      }
    }
    const said = found[0];
    if (!said) continue;
    const at = sentences.findIndex((sentence) => said.index >= sentence.start && said.index < sentence.start + sentence.text.length);
    const byWords = new Set(thingWords(said.by));
    const thing = new Set(head ? [head] : thingWords(sentences.slice(Math.max(0, at - 1), at + 1).map((sentence) => sentence.text).join(' ')).filter((word) => !byWords.has(word)));
    // "the offsite has moved to Cardiff, same date": one word of the thing is enough when it is all the sentence says.
    if (thing.size === 0) continue;
    const needed = head ? 1 : Math.min(2, thing.size);
    let best: { replaced: string; at: string; shared: string[] } | undefined;
    for (const earlier of records) {
      if (!before(earlier.at, unit.at!) || (best && !before(best.at, earlier.at!))) continue;
      for (const sentence of sentencesRead(earlier)) {
        const words = sentence.words;
        const shared = [...new Set(words.filter((word) => thing.has(word)))];
        if (shared.length < needed) continue;
        // The name after "in", "as", "the" nearest a shared word, that is neither the new name nor a word of the thing.
        let nearest: { name: string; distance: number } | undefined;
        for (const m of sentence.text.matchAll(NAMES)) {
          const name = nameAlone(bareName(m[0]).replace(/^(?:The|A|An) /u, ''));
          // A part's holder is named next to the part ("Tasha, our walker", "the walker is Tasha"), in a slot or not.
          if (head) {
            if (!name || NOT_A_NAME.test(name) || (ACRONYM.test(name) && !ACRONYM.test(said.by)) || holds(unit.text, name) || !fitsAsReplacement(name, said.by)) continue;
            // Said as the holder: "Tasha, our walker", "Maureen, who's their adoption coordinator", "the walker is Tasha",
            // "Walker: Tasha" (not "venue (still unknown), Big Smoke BBQ": a list goes on after a comma).
            const part = `${escape(head)}\\p{L}*`;
            const after = new RegExp(`^(?:['’]s)?\\s*,?\\s*(?:who(?:['’]s| is)\\s+|is\\s+)?(?:our|the|my|their|your|his|her)\\s+(?:[\\p{L}-]+\\s+){0,2}?${part}(?![\\p{L}])`, 'iu');
            const beforeIt = new RegExp(`(?<![\\p{L}])${part}\\s*(?:(?:is|was)\\s+|[:—–]\\s*|\\s-\\s+)(?:now\\s+)?$`, 'iu');
            if (after.test(sentence.text.slice(m.index! + m[0].length, m.index! + m[0].length + 60)) || beforeIt.test(sentence.text.slice(Math.max(0, m.index! - 40), m.index!))) nearest = { name, distance: 0 };
            continue;
          }
          if (!name || NOT_A_NAME.test(name) || !SLOT_BEFORE.test(sentence.text.slice(Math.max(0, m.index! - 12), m.index!))) continue;
          if (thingWords(name).every((word) => thing.has(word)) || holds(unit.text, name) || !fitsAsReplacement(name, said.by)) continue;
          const distance = Math.min(...shared.map((word) => {
            const where = sentence.text.toLowerCase().search(new RegExp(`(?<![\\p{L}])${escape(word)}`, 'u'));
            return where < 0 ? Infinity : Math.abs(where - m.index!);
          }));
          if (!nearest || distance < nearest.distance) nearest = { name, distance };
        }
        if (nearest) best = { replaced: nearest.name, at: earlier.at!, shared };
      }
    }
    // Who held a part is replaced wherever named before ("under Mr Okafor", their contact); a name said as what a
    // thing was, only beside that thing's words ("the conference in Leeds", not every line naming Leeds).
    if (best) out.push({ unit, replaced: best.replaced, by: said.by, alongside: head ? [] : [...thing] });
  }
  return out;
}

/** A line of a list: a label of two to five words, a colon, and a short value, up to the end of the line or item. */
const LIST_LINE = /(?:^|\n|\s[-•*]\s|;\s*|:\s+(?=[-•*]\s))\s*(?:[-•*]\s*)?(\p{L}[\p{L}'’-]*(?:[ \t]+[\p{L}'’-]+){1,4}):[ \t]*([^\n;:]{1,40}?)[ \t]*(?=$|\n|;|\s[-•*]\s)/gu;
/** The label and value of each list line of a text. */
function listLines(text: string): { label: string; said: string; value: string }[] {
  return [...text.matchAll(LIST_LINE)].map((m) => ({ label: m[1]!.toLowerCase(), said: m[1]!, value: m[2]!.trim() })).filter((line) => line.value.split(/\s+/).length <= 5 && /\p{L}|\d/u.test(line.value));
}

/**
 * A list line that a later list, said to be updated ("Updated April jobs: … - CD audit: Ilse"), gives another value:
 * the earlier line as said ("CD audit: Tobias") is what was replaced, the later one what replaced it. Only labels of
 * two words or more ("stock take", not "Venue"), so that one event's "Time:" never replaces another's.
 */
function listLinesChanged(units: readonly SaidUnit[]): { unit: SaidUnit; replaced: string; by: string }[] {
  const records = units.filter((unit) => unit.kind === 'record' && unit.at).sort((a, b) => a.at!.localeCompare(b.at!));
  const out: { unit: SaidUnit; replaced: string; by: string }[] = [];
  // Each record's list lines are read once, however many later lists they are compared with.
  const lists = records.map((unit) => (unit.text.includes(':') ? listLines(unit.text) : []));
  records.forEach((unit, i) => {
    const lines = lists[i]!;
    if (lines.length === 0 || !/\b(?:updated?|changed?|new|now|instead|revised|amended|corrected|swapped|switched)\b/i.test(unit.text)) return;
    for (const earlierLines of lists.slice(0, i)) {
      for (const was of earlierLines) {
        const now = lines.find((line) => line.label === was.label);
        if (!now || now.value.toLowerCase() === was.value.toLowerCase()) continue;
        const replaced = `${was.said}: ${was.value}`;
        if (!out.some((o) => o.replaced.toLowerCase() === replaced.toLowerCase())) out.push({ unit, replaced, by: `${now.said}: ${now.value}` });
      }
    }
  });
  return out;
}

/** "out of" said of where something is from ("Kestrel RF, out of Truro", "a firm based out of Leeds"). */
const FROM_PLACE = /(?:,|(?<![\p{L}])(?:based|operating|working|runs?|running|comes?|coming|flies|flying|drives?|driving))\s+out of\s+(?:the\s+)?$/iu;
/** Capitals alone: an acronym ("VAT", "BBC"). */
const ACRONYM = /^\p{Lu}{2,}$/u;
/** A word that labels what follows ("Updated: …", "Logged: …", "Noted: …"), as an assistant's acknowledgement opens: no name. */
const LABEL_AHEAD = /^:(?!\d)/;
const labelWord = (word: string) => /^\p{Lu}\p{Ll}{3,}(?:ed|ing)$/u.test(word) || /^(?:Done|Note|Notes|Reminder|Summary|Draft|Update|Plan|Status|Fyi)$/u.test(word);
/** Text with what it says in brackets blanked out, at the same length: an aside names no choice ("SM7B (approved by Maya) instead of the Rode"). */
const withoutAsides = (text: string) => text.replace(/\([^()]*\)/g, (aside) => ' '.repeat(aside.length));

/** Who is said to move or go, just before "moving to …": a person, not the thing moved ("moved it to", "we've moved the party to"). */
const MOVER = /\b(?:she|he|they)(?:['’]s|['’]re|\s+is|\s+are|\s+has|\s+have|\s+was|\s+were|\s+will\s+be)?(?:\s+(?:now|just|finally|also|already))?\s*$/i;

/** The words before a value that say something else was chosen in its place ("charcoal, not ivory"). */
const INSTEAD_BEFORE = /(?:(?<![\p{L}])(?:instead of|rather than)|,\s*(?:and\s+)?not)\s+(?:the\s+|a\s+|an\s+|our\s+)?$/iu;

/** A name's next words that say it is what was chosen in place of another: "Hillgate office instead", "Tamsin instead". */
// One word between, at most, and no verb ("Tamsin from Spanish is coming instead": Spanish is not who comes).
/** A name said just before "instead", at the end of what is given ("getting it from Kitroom Bristol instead"). */
const INSTEAD_AFTER_NAME = /(\p{Lu}[\p{L}'’-]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}'’-]*)*)\s+instead$/u;
const INSTEAD_AFTER = /^(?:['’]s)?(?:\s+(?!(?:is|are|was|were|will|would|can|could|coming|going|doing|does|do|did|has|have|had)(?![\p{L}]))\p{Ll}+)?\s+instead(?![\p{L}])/u;

/** "her replacement is owen pritchard", "his successor will be Dr Hale": who took the place, said next. */
const SUCCESSOR_IS = /(?<![\p{L}])(?:replacement|successor)\s+(?:is|will be|['’]s)\s+(?:(?:called|named)\s+)?/giu;

/** The words just before a name said as where someone or something now is ("at Monzo", "with Becky"; not "from Spanish"). */
const TAKEN_SLOT = /(?<![\p{L}])(?:at|with|to|as|for|joined|joining)\s+$/iu;

/** What took the place of a thing whose part ended, said in the same record: by the words that introduce it, else the first of its kind in a sentence that says something replaced it. */
function replacementOf(text: string, old: { value: string; index: number; colour: boolean }, lowerCase: boolean, cues = REPLACING_CUE): string | undefined {
  const other = (value: string | undefined) => (value && value.toLowerCase() !== old.value.toLowerCase() && !old.value.toLowerCase().includes(value.toLowerCase()) ? value : undefined);
  for (const pattern of [REPLACED_WITH, NEW_ONE_IS, BROUGHT_IN, SUCCESSOR_IS]) {
    for (const m of text.matchAll(pattern)) {
      // Someone who left going somewhere ("Fiona is leaving the firm. She's moving to London") names where they went.
      if (pattern === REPLACED_WITH && !old.colour && /^(?:mov|go|gone|went|relocat)/i.test(m[0]) && /\bto\s/i.test(m[0]) && MOVER.test(behind(text, m.index!).replace(old.value, 'she'))) continue;
      // "a small change for the stall", "a swap with Jo": the word of change is a noun, and names nothing chosen.
      if (pattern === REPLACED_WITH && /(?<![\p{L}])(?:a|an|the|one|small|big|quick|slight|minor|little|last-minute)\s+$/iu.test(behind(text, m.index!))) continue;
      const found = other(valueAt(ahead(text, m.index! + m[0].length), old.colour, lowerCase));
      if (found) return found;
    }
  }
  const kinds = old.colour ? COLOURS : NAMES;
  // "claret ribbons on the medals instead of navy", "Mo rather than Gary": what replaced it is said just before, in its sentence.
  if (INSTEAD_BEFORE.test(behind(text, old.index))) {
    const start = Math.max(0, text.lastIndexOf('.', old.index - 1) + 1, old.index - NEAR);
    const before = [...withoutAsides(text.slice(start, old.index)).matchAll(new RegExp(kinds.source, kinds.flags))].map((m) => (old.colour ? m[0] : bareName(m[0]))).filter((v) => v && !(!old.colour && (NOT_A_NAME.test(v) || onlyColour(v))));
    const found = other(before.at(-1));
    if (found) return found;
  }
  for (const m of text.matchAll(kinds)) {
    const value = old.colour ? m[0] : bareName(m[0]);
    const end = m.index! + m[0].replace(/['’]s$/u, '').length;
    const takes = TAKING_OVER.test(ahead(text, end)) || (cues === REPLACING_CUE && LOOKING_AFTER.test(ahead(text, end)));
    if (!old.colour && value && takes && other(value) && !NOT_A_NAME.test(value)) return value;
    // "keys from our Hillgate office instead": the name just before "instead" is what took the place.
    if (value && m.index !== old.index && INSTEAD_AFTER.test(ahead(text, end)) && other(value) && !NOT_A_NAME.test(value)) return value;
  }
  // The sentences that say something replaced something, read once.
  // A sentence whose only word of replacing is "new" names what is new just after it ("our new guy Dan"), not whoever
  // took something new on ("Gordon's taken on a new apprentice, a girl called Jade": neither replaced anyone).
  const cued = sentencesOf(text).flatMap((sentence) => {
    const cue = cues.exec(sentence.text);
    if (!cue) return [];
    const onlyNew = [...sentence.text.matchAll(new RegExp(cues.source, 'giu'))].every((c) => c[0].toLowerCase() === 'new');
    const after = sentence.start + cue.index + cue[0].length;
    if (!onlyNew) return [{ start: sentence.start, end: sentence.start + sentence.text.length, cue: after }];
    // "Good luck with the new job!": what is new is the leaver's, not someone after them.
    if (/^\s+(?:job|role|position|post|life|home|house|flat|baby|chapter|adventure|start|year|venture|career)(?![\p{L}])/iu.test(text.slice(after))) return [];
    return [{ start: after, end: after + (/^(?:\s+[^\s,;]+){0,5}/u.exec(text.slice(after))?.[0].length ?? 0), cue: after }];
  });
  // A name said after the sentence's word of replacing first ("Change of plan: the caterer is now Olive Branch Kitchen"),
  // then any other name of the sentence.
  const matches = [...text.matchAll(kinds)];
  const afterCue = (m: RegExpMatchArray) => cued.some((sentence) => m.index! >= sentence.cue && m.index! < sentence.end);
  // Before the cue, a name in a slot ("she's at Monzo now", "with Becky instead") before one doing something ("Dara's moved jobs").
  const inSlot = (m: RegExpMatchArray) => TAKEN_SLOT.test(text.slice(Math.max(0, m.index! - 12), m.index!));
  const beforeCue = matches.filter((m) => !afterCue(m));
  for (const m of [...matches.filter(afterCue), ...beforeCue.filter(inSlot), ...beforeCue.filter((m) => !inSlot(m))]) {
    const value = old.colour ? m[0] : bareName(m[0]);
    if (!value || m.index === old.index || (!old.colour && (NOT_A_NAME.test(value) || onlyColour(value) || (ACRONYM.test(value) && !ACRONYM.test(old.value)) || (labelWord(value) && LABEL_AHEAD.test(text.slice(m.index! + m[0].length)))))) continue;
    // Read with no word of replacing, a name that only says which of a kind ("at the Probus lunch") takes no part.
    if (cues === ANY_SENTENCE && /(?<![\p{L}])(?:the|a|an|our|their|his|her|my)\s+$/iu.test(text.slice(Math.max(0, m.index! - 8), m.index!)) && /^\s+\p{Ll}{3,}/u.test(text.slice(m.index! + m[0].length))) continue;
    // Nor the one who put a name forward ("Owen suggested Bethany Cole"): the one put forward took the part.
    if (!old.colour && /^\s+(?:suggested|recommended|proposed|nominated|put forward|said|says|thinks|reckons|asked)(?![\p{L}])/iu.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 16))) continue;
    // Nor the part a person takes, named after "as" ("has agreed to step in as Lady Bracknell").
    if (!old.colour && /(?<![\p{L}])as\s+$/iu.test(text.slice(Math.max(0, m.index! - 4), m.index!)) && matches.some((o) => o.index! < m.index! && o.index !== old.index)) continue;
    // Nor a word that opens a sentence as a verb or a common word does ("Messaged a few people. Callum Reid can do it.").
    if (cues === ANY_SENTENCE && /(?:^|[.!?]\s+)$/u.test(text.slice(Math.max(0, m.index! - 3), m.index!)) && !m[0].includes(' ') && (/^\p{Lu}\p{Ll}{2,}(?:ed|ing)$/u.test(m[0]) || COMMON.has(m[0].toLowerCase()) || NAMES_NOTHING.has(m[0].toLowerCase()))) continue;
    // A colour said after the one whose part ended ("red harness snapped … got her an orange harness").
    if (old.colour && m.index! > old.index && other(value)) return value;
    if (!old.colour && cued.some((sentence) => m.index! >= sentence.start && m.index! < sentence.end) && other(value)) return value;
  }
  return undefined;
}

/** Whether a line names a thing a record said was replaced (a name as a name, with its capital; a colour with its thing), and not what replaced it. */
function namesOld(text: string, r: RetiredValue): boolean {
  const old = r.replaces!;
  if (holds(text, r.value)) return false;
  // A value ("3 laps", "£85", "two A3 prints") is named however it is cased.
  // So is a list's line ("CD audit: Tobias").
  // A weekday pair also needs a word of what moved ("bins"), which it carries as `about`.
  if (r.pairSaid && r.about?.length) {
    const sameDay = [...text.matchAll(WEEKDAY_IN)].some((m) => m[0].slice(0, 3).toLowerCase() === old.slice(0, 3).toLowerCase());
    return sameDay && r.about.some((word) => new RegExp(`(?<![\\p{L}])${escape(word)}(?:s|es|e|ed|ing)?(?![\\p{L}])`, 'iu').test(text));
  }
  if (r.alongside && !r.alongside.some((word) => new RegExp(`(?<![\\p{L}])${escape(word)}`, 'iu').test(text))) return false;
  if (r.pairSaid || /\d/.test(old) || old.includes(':') || new RegExp(`^(?:${NUMBER_WORDS})\\s`, 'iu').test(old)) return holds(text, old);
  if (onlyColour(old)) return holds(text, old) && (!r.replacesThing || new RegExp(`(?<![\\p{L}])${escape(r.replacesThing.slice(0, 4))}`, 'iu').test(text));
  const named = old.replace(/(?<![\p{L}])\p{Ll}/gu, (c) => c.toUpperCase());
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(calledBy(named))}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/**
 * What a line must say to name someone: someone named by title and surname ("Mrs Ellery") is named by the surname
 * however fully a line says it ("Mrs Janet Ellery", "Ellery"); anyone else by the name as said.
 */
function calledBy(name: string): string {
  return /^(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.? (\p{Lu}[\p{L}'’-]+)$/u.exec(name)?.[1] ?? name;
}

/** A value in brackets just after another ("now 20 cases (240 bottles)", "£780 (≈ €900)"): the same value said again in other units. */
function restated(text: string, index: number): boolean {
  return /\d[^()\d]{0,20}\(\s*[~≈]?\s*$/u.test(text.slice(Math.max(0, index - 30), index));
}

/** Whether a word of change is said within six words of a place in a text, in the same sentence. */
function nearCue(text: string, index: number, length: number): boolean {
  // Six words either side, within the sentence, read from a window around the value (never the whole record).
  const from = Math.max(0, index - 300);
  const window = text.slice(from, index + length + 300);
  const at = index - from;
  // A line of a list is a sentence of its own ("- Bring 80 juice next market\n- New card reader"), on one line or not.
  const start = Math.max(...['. ', '! ', '? ', '\n', ' - '].map((stop) => window.lastIndexOf(stop, at)), -1) + 1;
  const ends = ['. ', '! ', '? ', '\n', ' - '].map((stop) => window.indexOf(stop, at + length)).filter((end) => end >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : window.length;
  const before = window.slice(start, at).trim().split(/\s+/).slice(-6).join(' ');
  const after = window.slice(at + length, end).trim().split(/\s+/).slice(0, 6).join(' ');
  return CHANGE_CUE.test(before) || CHANGE_CUE.test(after);
}

/**
 * Whether a line holds the day a later value names as the service wrote it beside the words that said it ("21 May
 * (2026-05-21)" for "21st may", "Saturday 14th March (2026-03-14)" for "the 14th"): the line says the new day, in
 * other words.
 */
function writesDayOf(text: string, r: RetiredValue): boolean {
  if (!/\(\d{4}-\d{2}-\d{2}\)/.test(text) || valuesOfText(r.value)[0]?.kind !== 'day' || WEEKDAY_WORD_ONLY.test(r.value)) return false;
  const iso = resolveDate(r.value, r.at, true)?.iso;
  return iso !== undefined && text.includes(`(${iso})`);
}

/** Whether a value is the end of "from … to …" in a sentence that says a change ("push the RSVP deadline back from 1st May to 15th May"). */
function movedFromTo(text: string, value: { readonly index: number; readonly value: string }): boolean {
  if (!/(?<![\p{L}])from\s+[^.!?;]{1,30}?\s+to\s+$/iu.test(text.slice(Math.max(0, value.index - 45), value.index))) return false;
  return CHANGE_CUE.test(sentenceOf(text, value.index, value.value.length));
}

/** Whether a line holds, within five words of a value of the same kind as a changed one (and not that value), a word said around it. */
function nearSameKind(text: string, r: RetiredValue, at?: string): boolean {
  // A line that holds the new value too says it ("at £22 with £11 of materials").
  return !holds(text, r.value) && othersOfItsKind(text, r, undefined, at).length > 0;
}

/** A day and a month ("Tue 10 Feb", "17th of March", "March 9"), for the day a value names. */
const DAY_AND_MONTH = /(?<![\p{L}\p{N}])(?:(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?)(?![\p{L}\p{N}])/iu;

/**
 * The date a day said in a line names: the one written beside it ("Saturday (2026-09-19)", as records are dated
 * when indexed), else its day and month in the year nearest the day the line was said. None for a weekday or a day of
 * the month said alone with no date beside it.
 */
function dateNamed(text: string, v: { value: string; index: number }, at: string): string | undefined {
  const written = /^\s?\((\d{4}-\d{2}-\d{2})\)/.exec(text.slice(v.index + v.value.length, v.index + v.value.length + 14));
  if (written) return written[1];
  const m = DAY_AND_MONTH.exec(v.value);
  const said = Date.parse(at);
  if (!m || Number.isNaN(said)) return undefined;
  const month = 'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf((m[2] ?? m[3])!.toLowerCase()) / 3;
  const day = Number(m[1] ?? m[4]);
  const year = new Date(said).getUTCFullYear();
  const nearest = [year - 1, year, year + 1].map((y) => Date.UTC(y, month, day)).reduce((a, b) => (Math.abs(a - said) <= Math.abs(b - said) ? a : b));
  return new Date(nearest).getUTCDate() === day ? new Date(nearest).toISOString().slice(0, 10) : undefined;
}

/** Whether a day (YYYY-MM-DD, if known) had gone by on the instant a change was said. */
const goneBy = (day: string | undefined, said: string) => day !== undefined && day < said.slice(0, 10);

/** A count of a unit particular enough to say what is counted ("90 tickets", not "30 people"). */
function countsParticular(value: string): boolean {
  const unit = unitOf(value);
  return unit !== undefined && unit.length >= 4 && !GENERAL_UNIT.test(unit);
}

/** Units too general to say what is counted ("30 people" and "45 people" may be two parties). */
const GENERAL_UNIT = /^(?:people|person|guest|time|minute|min|hour|hr|day|week|month|year|kid|child|children|thing|item|each|other|more|less|percent|%|one|way|am|pm|st|nd|rd|th)$/i;

/**
 * The values of a line of the same kind as a changed one, not it, that the change speaks of: with a word said
 * around the new value within five words of them, or a count of the same particular unit ("2 scoops" for
 * "1.5 scoops"). Not a value that is itself said to change: that line is a change of its own, not what this one replaced.
 * `named`: the thing was named already (by the question a reply answers), so a value need not be said near its words.
 */
function othersOfItsKind(text: string, r: RetiredValue, values = valuesOfText(text), at?: string, named = false): { kind: string; value: string; index: number }[] {
  // A time with a dot is one only after words that say so ("at 9.15"): the value alone is read as the time it was.
  const kind = valuesOfText(r.value)[0]?.kind ?? (/^[012]?\d\.[0-5]\d$/.test(r.value) ? 'time' : undefined);
  if (!kind || !values.some((v) => v.kind === kind)) return [];
  const about = new Set(r.about ?? []);
  const unit = kind === 'number' ? unitOf(r.value) : undefined;
  const particular = kind === 'number' && countsParticular(r.value);
  // The words said around a value the record says beside the new one speak of that value ("lands 10:50", when the
  // record said "check-in from 12:00 … now we land at 10:50"), not of what changed.
  // Read only when a value of the kind is left to be read by its words: most lines hold none.
  let claimed: Set<string> | undefined;
  const claimedWords = () => {
    const besides = new Set((r.besides ?? []).map((value) => value.toLowerCase()));
    return (claimed ??= new Set(values.filter((v) => besides.has(v.value.toLowerCase())).flatMap((v) => wordsAround(text, v.index, v.value.length, 5))));
  };
  return values.filter(
    (v) =>
      v.kind === kind &&
      v.value.toLowerCase() !== r.value.toLowerCase() &&
      // A count of something and a bare number (a code, a reading) are not one value said twice; nor are two
      // amounts far apart ("£145 plus VAT" is no earlier price of a £3.30 coffee).
      (kind !== 'number' || (likeNumber(v.value, r.value) && unitOf(v.value) === unit)) &&
      (kind !== 'money' || nearAmount(v.value, r.value)) &&
      (kind !== 'time' || !sameClock(v.value, r.value)) &&
      // A day gone by when the change was said is no day it moved from ("minutes, Tue 10 Feb" for a meeting moved
      // on 26 February): what is put off is still to come.
      (kind !== 'day' || at === undefined || !goneBy(dateNamed(text, v, at), r.at)) &&
      !nearCue(text, v.index, v.value.length) &&
      // (Words too common to name a thing are read too when a change asked for was said with them: "start instead?")
      (named ||
        (particular && unitOf(v.value) === unit) ||
        // A word right beside the value is its own, whatever else the line says near it ("Tickets are £9, or £7 for concessions").
        [...wordsAround(text, v.index, v.value.length, 5, 4, ASKED_WORDS), ...referentWords(text, v.index)].some((word) => about.has(word) && (!claimedWords().has(word) || wordsAround(text, v.index, v.value.length, 2, 4, ASKED_WORDS).includes(word)))),
  );
}

/**
 * "The walk first, then. It is to take place on Saturday 9 May": a value in a sentence that opens with "it" or "this"
 * (within a few words of it) is of what the sentence before named last, so that sentence's last words are read with it.
 */
function referentWords(text: string, index: number): string[] {
  const start = Math.max(text.lastIndexOf('. ', index), text.lastIndexOf('! ', index), text.lastIndexOf('? ', index));
  if (start < 0 || index - start > 60 || !/^[.!?]\s+(?:it|this|that)(?:['’]s|\s+(?:is|was|will|would|has|had|shall))\b/i.test(text.slice(start, index))) return [];
  return wordsAround(text.slice(0, start), start, 0, 6);
}

/** Whether two times are one time said two ways ("4pm", "4:00", "16:00", "four o'clock"); a time without am or pm may be either. */
function sameClock(a: string, b: string): boolean {
  const read = (said: string) => {
    // A time said in words ("half past eight") as its clock reading.
    const time = /^\d/.test(said.trim()) ? said : (clockOf(said) ?? said);
    const m = /^([012]?\d)(?:[:.]([0-5]\d))?\s?([ap])?/i.exec(time.trim());
    return m ? { hour: Number(m[1]), minute: Number(m[2] ?? 0), half: m[3]?.toLowerCase() } : undefined;
  };
  const [x, y] = [read(a), read(b)];
  if (!x || !y || x.minute !== y.minute) return false;
  const hours = (t: { hour: number; half?: string | undefined }) => (t.half ? [(t.hour % 12) + (t.half === 'p' ? 12 : 0)] : [t.hour % 24, (t.hour % 12) + 12]);
  return hours(x).some((h) => hours(y).includes(h));
}

/** Words of a closed task's title a marker names it by. */
const MARKED_TITLE_WORDS = 6;

/** The marker of a line stating retired values: what each became and since when, or that it was marked wrong or outdated. */
export function retiredMarker(found: RetiredValue | readonly RetiredValue[]): string {
  let all = Array.isArray(found) ? (found as readonly RetiredValue[]) : [found as RetiredValue];
  const day = (r: RetiredValue) => r.at.slice(0, 10);
  const wrong = all.find((r) => r.reason === 'wrong');
  if (wrong) return `(marked wrong on ${day(wrong)})`;
  const outdated = all.find((r) => r.reason === 'outdated');
  if (outdated) return `(no longer true since ${day(outdated)})`;
  // A request since done or called off says only that: a value the line states is said by the other markers.
  const closed = all.filter((r) => r.reason === 'closed');
  // The task is named: a record asking for it may say other things too ("Refund came. Can you confirm the warranty date?").
  const task = (r: RetiredValue) => {
    const words = r.value.split(/\s+/);
    return words.length > MARKED_TITLE_WORDS ? `${words.slice(0, MARKED_TITLE_WORDS).join(' ')} …` : r.value;
  };
  if (closed.length > 0 && closed.length === all.length) return `(later: ${[...new Set(closed.map((r) => `${r.now} on ${day(r)}: ${task(r)}`))].join('; ')})`;
  all = all.filter((r) => r.reason !== 'closed');
  const settled = all.filter((r) => r.reason !== 'contested');
  if (settled.length === 0) {
    // Nothing says which holds: the line says what was said since, and when.
    const said = [...new Set(all.map((r) => `${r.now}, on ${day(r)}`))];
    return `(contested: later said ${said.join('; ')})`;
  }
  // A value a record said (loose) that an item says too is said once, by the item, with its date.
  all = settled.filter((r) => !r.loose || !settled.some((o) => !o.loose && o.now !== undefined && r.now !== undefined && holds(o.now, r.now)));
  // One phrase per item and day: a new role and a new employer said together read "head of design at Quillstone".
  const groups = new Map<string, RetiredValue[]>();
  for (const r of all.filter((r) => r.now)) groups.set(`${r.itemId}#${day(r)}`, [...(groups.get(`${r.itemId}#${day(r)}`) ?? []), r]);
  // Several values in one line (a summary of a day) each name the one they replace: "218 → 312".
  const several = groups.size > 1;
  const later = [...groups.values()].map((group) => {
    const role = group.find((r) => r.field === 'role')?.now;
    const organisation = group.find((r) => r.field === 'organisation')?.now;
    const phrase = role && organisation ? `${role} at ${organisation}` : [...new Set(group.map((r) => r.now!))].join(', ');
    // A `later` value names what the thing became, not what the line said.
    const was = [...new Set(group.filter((r) => r.reason !== 'later').map((r) => r.value))].join(', ');
    // A value read from a record in the block says only what it became (the record is dated in the history): few tokens.
    if (group.every((r) => r.loose)) return phrase;
    return `${several && was ? `${was} → ` : ''}${phrase}, from ${day(group[0]!)}`;
  });
  // "Kestrel RF" says "Kestrel" already.
  const distinct = [...new Map(later.map((phrase) => [phrase.toLowerCase(), phrase])).values()];
  const phrases = distinct.filter((phrase) => !distinct.some((other) => other.length > phrase.length && new RegExp(`(?<![\\p{L}\\p{N}£$€.,])${escape(phrase)}(?![\\p{L}\\p{N}]|[.,]\\d)`, 'iu').test(other)));
  return phrases.length > 0 ? `(later: ${phrases.join('; ')})` : `(superseded on ${day(all[0]!)})`;
}

/**
 * The retired values a history line (a record or a summary) states, if any:
 * by evidence (the record it was read from) or by its words, unless the line
 * also states what replaced it (the correction itself). Newest first. A fact
 * or a task line is read by its words alone, for other items' values.
 */
export function retiredIn(
  line: { readonly id: string; readonly kind: string; readonly text: string; readonly label?: string | undefined; readonly speaker?: string | undefined; readonly at?: string | undefined; readonly before?: { readonly text: string } | undefined },
  retired: readonly RetiredValue[],
): RetiredValue[] {
  // A contact whose part a record said ended ("Gareth's left the agency … new person is Nadia"): what replaced them.
  // So is one that gives a number a change said in words replaced ("changed their box office line, it's now …").
  // And one that gives an e-mail address the question's latest answer, or a change said in words, replaced.
  // An address said before a new one of the same owner, the earlier one read in another batch (`mailOf`).
  const mailReplaced = retired.filter((r) => r.mailOf !== undefined && !r.records.includes(line.id) && r.itemId !== line.id && (line.kind === 'contact' || line.kind === 'fact' || line.kind === 'task' || (line.at !== undefined && before(line.at, r.at))) && olderMailOf(line.text, r.mailOf, r.mailDomain));
  if (line.kind === 'contact') {
    const numberReplaced = retired.filter(
      (r) =>
        (r.loose && r.reason === 'superseded' && (/\d{3}/.test(r.value) || r.value.includes('@')) && states(line.text, r.value) && !(r.now && states(line.text, r.now))) ||
        // An e-mail address said as replaced ("we've got a proper email now. hello@…"), in the contact's "Reach:".
        (r.reason === 'later' && r.replaces?.includes('@') && holds(line.text, r.replaces) && !holds(line.text, r.value)),
    );
    const replaced = [...numberReplaced, ...mailReplaced];
    return line.label ? [...retiredNaming(line.id, line.label, retired), ...retired.filter((r) => r.replaces && !onlyColour(r.replaces) && namesOld(line.label!, r)), ...replaced] : replaced;
  }
  // A current fact or task can state another item's retired value ("you can write to her at" an e-mail since replaced).
  const item = line.kind === 'fact' || line.kind === 'task';
  if (line.kind !== 'record' && line.kind !== 'summary' && !item) return [];
  const found = [...retired.filter((r) => r.reason !== 'later' && statesValue(line, r, item)), ...mailReplaced];
  // A task's line is read for other items' values only; a fact's also for a later value of the same thing. A value
  // carried from another line (`carriedFrom`) leaves the line to be read for its own changes too.
  const carried = found.filter((r) => r.itemId.startsWith(CARRIED));
  if (found.length > carried.length || line.kind === 'task') return found;
  // Said before a current value was, of the same thing, with another value of its kind: what it is now, beside it.
  // A summary's clauses are dated ("2026-03-07 [r21]: …"): each is read as said on its day.
  const parts = line.kind === 'summary' ? summaryClauses(line.text) : [];
  // A short reply names its thing by the question it answers ("still £65 for the full service?" … "yeah £65 for now").
  const replied = line.kind === 'record' && line.before && line.text.split(/\s+/).length <= SHORT_REPLY_WORDS ? line.before.text.slice(-REPLIED_TO) : '';
  const question = ASKED_BEFORE.test(replied) ? `${replied} ` : '';
  const asked = question + line.text;
  const said: { at: string; text: string; from?: number }[] = parts.length > 0 ? parts : line.at ? [{ at: line.at, text: asked, from: question.length }] : [];
  if (said.length === 0) return carried;
  // A word of the thing, or whom it is about, must be in the line before anything costlier is read (a view of
  // 10,000 facts reads every fact line against every later value).
  const lower = asked.toLowerCase();
  const has = (word: string) => lower.includes(word.slice(0, 4));
  const mayName = (r: RetiredValue) =>
    r.replaces ? lower.includes(calledBy(r.replaces).toLowerCase()) : r.loose ? (r.about ?? []).some(has) || lower.includes(unitOf(r.value)?.slice(0, 4) ?? '\u0000') : (r.subject !== undefined && `${lower} ${line.speaker ?? ''}`.toLowerCase().includes(r.subject.toLowerCase())) || (r.about ?? []).filter((word) => !PRICE_WORDS.has(word)).every(has);
  return [...carried, ...retired.filter(
    (r) =>
      r.reason === 'later' &&
      !r.contactOnly &&
      mayName(r) &&
      r.itemId !== line.id &&
      !r.records.includes(line.id) &&
      !states(line.text, r.value) &&
      said.some(({ at, text, from }) => before(at, r.at) && speaksOf(text, r, r.subject !== undefined, at, from) && (!r.subject || holds(text, r.subject) || holds(line.speaker ?? '', r.subject))) &&
      !writesDayOf(line.text, r),
  )];
}

/** A question, in the last words of the record a reply answers. */
const ASKED_BEFORE = /\?\s*$/u;
/** How much of the record a reply answers is read for its question. */
const REPLIED_TO = 200;
/** The longest reply read with the question it answers: a longer one names its own thing. */
const SHORT_REPLY_WORDS = 16;

/**
 * A record that says a change itself, cut for the block to the clauses that state the old value ("the swim gala on
 * Sunday 14 June clashes with the regional finals …" of a message ending "we have moved the gala to Sunday 21 June"):
 * the changes it said whose new value the cut left out, while the cut still states another value of that kind near
 * their words. The whole record holds the new value, so `retiredIn` leaves its own changes out, and the cut line would
 * show the old one bare. (The values said beside the new one are read as any other here: the cut is what is left.)
 */
export function changesCutAway(line: { readonly id: string; readonly text: string }, cut: string, retired: readonly RetiredValue[]): RetiredValue[] {
  if (cut === line.text) return [];
  return retired.filter(
    (r) =>
      r.reason === 'later' && r.loose && !r.replaces && !r.calledOff && r.records.includes(line.id) && holds(line.text, r.value) && !holds(cut, r.value) &&
      // Said before the new value, as what a change moves from is.
      othersOfItsKind(cut, { ...r, besides: [] }).some((v) => {
        const at = line.text.indexOf(v.value);
        return at >= 0 && at < line.text.indexOf(r.value);
      }),
  );
}

/** The id prefix of a value carried from another line. */
const CARRIED = 'carried:';

/**
 * A change read on one line of a block, carried to the others (stop 56): the old value each marked line states
 * exactly, as the records said it (a name or value said to be replaced, an earlier answer to the question, or the
 * value of the same kind a change in words was read against; an item's old value keeps its own rule), as a value of
 * its own retired in favour of the same new one, so that every other line said before the change that states it is
 * marked too, whatever words it says around it ("£12 is giving them away … they're still our mugs", an open task
 * "order 10 bags from Ashcombe Clay"). Not a day said alone (a weekday, a month's day: said of many things), nor a
 * thing called off; a value a change in words was read against, or one of three characters or fewer ("£12"), only in
 * lines holding a word the change was said with.
 */
export function carriedFrom(text: string, found: readonly RetiredValue[]): RetiredValue[] {
  const out: RetiredValue[] = [];
  for (const r of found) {
    // Only what records said: an item's old value is marked by the item's own rule (whose value it is).
    if (!r.now || !r.loose || r.calledOff || r.reason === 'wrong' || r.reason === 'outdated' || r.reason === 'contested') continue;
    // Read against a change in words: the value of the same kind the words reached.
    const inWords = !r.replaces && r.reason === 'later';
    const olds = r.replaces ? [r.replaces] : !inWords ? [r.value] : othersOfItsKind(text, r).map((v) => v.value);
    for (const old of olds) {
      const value = old.trim();
      if (/^\d{4}-\d{2}-\d{2}$/.test(value) || DAY_VALUE.test(value) || !/\d|\p{Lu}|@/u.test(value) || holds(value, r.now) || holds(r.now, value)) continue;
      // A time or an amount is said of many things ("4pm", "£460"): one reached by a change in words, or a short
      // one, is carried only to lines holding a word the change was said with.
      const near = inWords || value.length < 4;
      const about = (r.about ?? []).filter((word) => word.length >= 3).map((word) => word.slice(0, 4));
      if (near && about.length === 0) continue;
      // A name read against the earlier line about the same thing (`namesNowSaid`) only where a word of that thing is.
      const within = near ? about : r.alongside ? r.alongside.map((word) => word.slice(0, 4)) : undefined;
      out.push({ itemId: `${CARRIED}${r.itemId}:${value}`, records: [], value, reason: 'superseded', at: r.at, now: r.now, loose: true, onlyBefore: true, ...(within ? { within } : {}) });
    }
  }
  return out;
}

function statesValue(
  line: { readonly id: string; readonly kind: string; readonly text: string; readonly speaker?: string | undefined; readonly at?: string | undefined },
  r: RetiredValue,
  item: boolean,
): boolean {
  if (item && r.itemId === line.id) return false;
  // A summary's clauses are dated: the one that holds the value says when it was said (the summary's own day may be later).
  const saidAt = line.kind === 'summary' ? (dayOfClause(line.text, r.value) ?? line.at) : line.at;
  if (r.onlyBefore && !before(saidAt, r.at)) return false;
  // A closed task's title is no value said elsewhere: only the records asking for it are marked.
  if (r.reason === 'closed') return line.kind === 'record' && r.records.includes(line.id);
  if (r.per && perUnitAfter(line.text, r.value) !== r.per) return false;
  if (r.within && !r.within.some((word) => startsWord(line.text, word))) return false;
  if (r.now && (states(line.text, r.now) || (SHORT_DIGITS.test(r.now.trim()) && holds(line.text, r.now)))) return false;
  const evidence = line.kind === 'record' && r.records.includes(line.id);
  if (evidence && (r.reason === 'wrong' || r.reason === 'outdated')) return true;
  // Said in so many words. A short value with a digit ("9th", "£12", "5pm") is taken as said of it only before it
  // was replaced, beside the words naming what it is of ("tickets are £12", not "parking was £12").
  const said =
    states(line.text, r.value) ||
    (SHORT_DIGITS.test(r.value.trim()) && before(saidAt, r.at) && holds(line.text, r.value) && (r.onlyBefore === true || ((r.about ?? []).length > 0 && r.about!.every((word) => holds(line.text, word) || holds(line.text, `${word}s`)))));
  // A common word must come with whom it is about, named in the line or saying it (Dana's retired "vegetarian" is not
  // every line that says vegetarian); a value no common word could be says it alone ("Saved: locker combination 4417").
  // A summary names no speaker: a value corrected by name of nothing else ("its the 19th not the 18th") is taken as
  // said of it in a clause of the same day.
  const sameDay = line.kind === 'summary' && r.onlyBefore === true && dayOfClause(line.text, r.value) === r.at.slice(0, 10);
  if (!said) return false;
  if (evidence || sameDay) return true;
  // A day is said of many things: a retired "Tuesday" of the first bowl is not every Tuesday its speaker names.
  if (/\p{L}/u.test(r.value) && DAY_VALUE.test(r.value.trim()) && (r.about ?? []).length > 0 && !r.about!.some((word) => holds(line.text, word) || holds(line.text, `${word}s`))) return false;
  return distinctive(r.value) || !r.subject || (r.subject.length >= 2 && (holds(line.text, r.subject) || holds(line.speaker ?? '', r.subject)));
}

/** Where a summary's clause starts: its day, then the records it cites, if it says ("2026-03-07 [r21]: ", "2026-03-07 [r21] "). */
const CLAUSE_MARK = /(?<![(\p{L}\p{N}-])(\d{4}-\d{2}-\d{2})(?![\p{N}-])(?: \[([^\]]+)\])?:? ?/gu;

/**
 * A summary's text as its dated clauses ("2026-03-07 [r21]: rent is £68 a year; 2026-03-09: …", or as a context
 * line shows it, "2026-03-07 [r21] rent is … [r22] …"), each with its day and the first records it cites; a day
 * read beside the words that said it ("next Monday (2026-03-16)") starts none.
 */
export function summaryClauses(text: string): { at: string; ids: string[]; text: string }[] {
  const marks = [...text.matchAll(CLAUSE_MARK)];
  return marks.map((mark, i) => ({ at: mark[1]!, ids: mark[2] ? mark[2].split(', ') : [], text: text.slice(mark.index! + mark[0].length, marks[i + 1]?.index ?? text.length) }));
}


/** The day a summary's clause holding `value` is dated with ("2026-01-06: … the 18th …"), if it is. */
function dayOfClause(text: string, value: string): string | undefined {
  const at = new RegExp(`(^|[^\\p{L}\\p{N}])${escape(value.trim())}($|[^\\p{L}\\p{N}])`, 'iu').exec(text)?.index;
  if (at === undefined) return undefined;
  return [...text.slice(0, at + 1).matchAll(/\b(\d{4}-\d{2}-\d{2})\b/g)].at(-1)?.[1];
}

const SHORT_DIGITS = /^(?=\S*\d)\S{2,3}$/u;

/** Words that say an e-mail address changed, not only that one is new to the conversation ("our new client contact is …"). */
const MAIL_CHANGED = /(?<![\p{L}])(?:(?:switched|changed|moved|updated|swapped)\s+(?:(?:my|our|his|her|their|the)\s+)?(?:e-?mail|address)|(?:my|our|his|her|their)\s+(?:new\s+)?e-?mail(?:\s+address)?\s+(?:is|['’]s)\s+(?:now\b)?|new\s+e-?mail(?:\s+address)?\s+(?:is|['’]s|for)|(?:proper|different|new)\s+e-?mail\s+now|e-?mail(?:\s+address)?\s+(?:has\s+)?changed|from now on|instead of (?:the\s+)?(?:old|gmail|hotmail|outlook))(?![\p{L}])/iu;

/** Said after a new address, of the one it replaces: "the old one will keep working", "use the new one from now on". */
const MAIL_OLD_AFTER = /(?<![\p{L}])(?:the old (?:one|address|e-?mail)|use (?:the|this) new (?:one|address|e-?mail))(?![\p{L}])/iu;

/** Whether a text says an e-mail address of `address`'s owner other than `address` itself, and not `address`. */
function olderMailOf(text: string, address: string, sameDomain = false): boolean {
  if (!text.includes('@') || holds(text, address)) return false;
  return valuesOfText(text).some((v) => v.kind === 'email' && v.value.toLowerCase() !== address.toLowerCase() && sameOwner(v.value, address, sameDomain));
}

/** Mail services anyone may have an address at: a shared domain there says nothing of who owns an address. */
const SHARED_MAIL = /^(?:gmail|googlemail|outlook|hotmail|live|msn|yahoo|ymail|icloud|me|mac|aol|btinternet|btopenworld|sky|virginmedia|talktalk|protonmail|proton|fastmail|gmx|mail|zoho)\./i;

/**
 * Whether two e-mail addresses are one owner's: the names before the @ share a word of four letters or more and
 * the rest agree ("helen.ward" and "h.ward"; not "per.ward", another Ward), a word of one's name is the other's
 * domain ("lowlanddrift.bookings@gmail.com" and "hello@lowlanddrift.com"), or both are a business's mailboxes at
 * one domain that is no mail service's or institution's ("accounts@" and "finance@"; not two colleagues).
 */
function sameOwner(a: string, b: string, sameDomain = false): boolean {
  const [localA, domainA] = a.toLowerCase().split('@') as [string, string];
  const [localB, domainB] = b.toLowerCase().split('@') as [string, string];
  const [fewer, more] = [localA, localB].map((local) => local.split(/[^a-z]+/).filter(Boolean)).sort((x, y) => x.length - y.length) as [string[], string[]];
  const shared = fewer.some((word) => word.length >= 4 && more.includes(word));
  if (shared && fewer.every((word) => more.some((other) => other.startsWith(word) || word.startsWith(other)))) return true;
  // A name's own domain taken up ("lowlanddrift.bookings@gmail.com", then "hello@lowlanddrift.com").
  const ownDomain = (local: string, domain: string) => !SHARED_MAIL.test(domain) && local.split(/[^a-z]+/).some((word) => word.length >= 5 && domain.split('.')[0] === word);
  if (ownDomain(localA, domainB) || ownDomain(localB, domainA)) return true;
  // One business's mailboxes ("accounts@…" then "finance@…"), not two people who work there; any two of its addresses
  // when the words said the old one is given up (`sameDomain`).
  return domainA === domainB && !SHARED_MAIL.test(domainA) && !INSTITUTION.test(domainA) && (sameDomain || (ROLE_MAILBOX.test(localA) && ROLE_MAILBOX.test(localB)));
}

/** Domains many unrelated people have addresses at: a health service, universities, schools, government. */
const INSTITUTION = /(?:^|\.)(?:nhs\.net|nhs\.uk|ac\.uk|sch\.uk|gov\.uk|edu|edu\.au|gov|mil)$/i;
/** The mailbox of a function, not a person ("accounts@", "hello@", "bookings@"). */
const ROLE_MAILBOX = /^(?:accounts?|finance|billing|invoices?|payments?|info|hello|hi|office|admin|bookings?|reservations|support|help|sales|enquiries|inquiries|contact|team|studio|orders?|reception|mail|post)$/i;

/** Whether a line said at `at` came before `than` (instants compared, whatever their offsets; no date, no). */
function before(at: string | undefined, than: string): boolean {
  return at !== undefined && timeOf(at) < timeOf(than);
}

/** Times parsed once per text: a block compares the same few dozen times thousands of times. ISO times are short. */
const TIMES = new Map<string, number>();
const MAX_TIMES = 5_000;
function timeOf(at: string): number {
  let time = TIMES.get(at);
  if (time === undefined) {
    if (TIMES.size >= MAX_TIMES) TIMES.clear();
    TIMES.set(at, (time = Date.parse(at)));
  }
  return time;
}

const DAY_VALUE = /^(?:(?:on |the )?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?,? ?)?(?:(?:the )?[0-3]?\d(?:st|nd|rd|th)?(?: of)? ?)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)?\.?(?: [0-3]?\d(?:st|nd|rd|th)?)?$/i;

/**
 * A value no common word could be: a name, a number of three digits or more (a code, a phone number; not a
 * bare date), an e-mail, or three words or more. An age or a count ("25") needs whom it is about.
 */
function distinctive(value: string): boolean {
  const words = value.trim();
  // A day ("2026-04-19", "April 19", "Thursday", "the 5th") is said of many things.
  if (/^\d{4}-\d{2}-\d{2}$/.test(words) || DAY_VALUE.test(words)) return false;
  return /\p{Lu}|@|\d{3}/u.test(words) || words.split(/\s+/).length >= 3;
}

/**
 * The retired values of other items that are this contact's name: "my
 * dentist is Dr. Moreau", superseded by "my dentist is Dr. Brennan now",
 * leaves Dr. Moreau a contact, whose line is then marked with what replaced
 * the fact (`(later: Dr. Brennan, from …)`).
 */
export function retiredNaming(contactId: string, name: string, retired: readonly RetiredValue[]): RetiredValue[] {
  const named = (value: string | undefined) => value !== undefined && value.trim().toLowerCase() === name.trim().toLowerCase();
  return retired.filter((r) => r.itemId !== contactId && r.reason !== 'changed' && r.reason !== 'later' && r.reason !== 'closed' && named(r.value) && !named(r.now));
}

/**
 * Whether a contact is known only through a value that no longer holds: its
 * name was a replaced value ("my dentist is Dr. Moreau") and every record
 * behind it is that value's evidence. Such a contact is no part of the current
 * state; the records stay in the history, marked.
 */
export function knownOnlyAsRetired(contact: { readonly id: string; readonly name: string; readonly evidence: readonly string[] }, retired: readonly RetiredValue[]): boolean {
  const naming = retiredNaming(contact.id, contact.name, retired).filter((r) => r.reason !== 'contested');
  if (naming.length === 0 || contact.evidence.length === 0) return false;
  const behind = new Set(naming.flatMap((r) => r.records));
  return contact.evidence.every((id) => behind.has(id));
}

/**
 * Whether a contact's sentence states one of that contact's retired values (and not what replaced it):
 * its own (an old employer), or, given the contact's name, a retired fact about them ("Sam lives in Lyon"
 * after "I now live in Paris" from Sam).
 */
export function statesRetired(contactId: string, sentence: string, retired: readonly RetiredValue[], name?: string): boolean {
  return retired.some((r) => concerns(r, contactId, name) && states(sentence, r.value) && !(r.now && states(sentence, r.now)));
}

function concerns(r: RetiredValue, contactId: string, name: string | undefined): boolean {
  if (r.reason === 'later' || r.reason === 'closed') return false;
  return r.itemId === contactId || (name !== undefined && r.subject !== undefined && r.reason !== 'changed' && r.subject === name.split(' ')[0]);
}

/**
 * Whether a contact's "Lately" (the dated line of the last record that named them, "2026-02-19: So on a single £18
 * candle …") says what a later record changed: read as that record's line is, and then left out of the contact,
 * whose line is what holds now.
 */
export function latelyOutdated(lately: string, retired: readonly RetiredValue[]): boolean {
  const dated = /^(\d{4}-\d{2}-\d{2}):\s*([\s\S]*)$/u.exec(lately.trim());
  return dated !== null && retiredIn({ id: 'lately', kind: 'record', text: dated[2]!, at: `${dated[1]}T00:00:00Z` }, retired).length > 0;
}

/** A contact's text (biography, "Lately") without the sentences, or the "Said:" clauses, that state a value the contact no longer has. */
export function currentText(contactId: string, text: string, retired: readonly RetiredValue[], name?: string): string {
  if (!retired.some((r) => concerns(r, contactId, name))) return text;
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => {
      const said = sentence.match(/^Said: (.*)\.$/);
      if (!said) return statesRetired(contactId, sentence, retired, name) ? '' : sentence;
      const clauses = said[1]!.split('; ').filter((clause) => !statesRetired(contactId, clause, retired, name));
      return clauses.length > 0 ? `Said: ${clauses.join('; ')}.` : '';
    })
    .filter(Boolean)
    .join(' ');
}
