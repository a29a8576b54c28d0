/**
 * Date helpers over chrono-node, pure: relative expressions resolved against
 * the time a record was written, so text read months later needs no
 * arithmetic. Used by the local model adapter and by the retrieval index.
 */
import * as chrono from 'chrono-node';

/** Resolves the first date in `text` against `reference`; returns an ISO date (YYYY-MM-DD). */
export function resolveDate(text: string, reference: string, forward = false): { iso: string; text: string } | undefined {
  // In chat, "bc" is "because" ("moved to nov 5 bc the dr is out"), never an era: no year before 1000 is meant.
  // Chat's "tues", "weds", "thur" read as the weekdays they are, in the same number of characters.
  // An amount is no time of day ("refund £18.50 tomorrow" is due tomorrow, not at 18:50).
  const said = text
    .replace(AMOUNT, (amount) => ' '.repeat(amount.length))
    .replace(ERA, (era) => ' '.repeat(era.length))
    .replace(TIME_OF_DAY_AS_MODIFIER, (words) => ' '.repeat(words.length))
    .replace(CHAT_WEEKDAY, (day) => `${CHAT_WEEKDAYS[day.toLowerCase()]!}${' '.repeat(day.length - 3)}`);
  const [result] = chrono.parse(said, new Date(reference), { forwardDate: forward });
  if (!result) return bareDayOfMonth(text, reference);
  const date = result.start.date();
  if (date.getUTCFullYear() < 1000) return undefined;
  const iso = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
  // The words as written ("next tues", not the "next tue" read), so a caller can find and cut them.
  const end = result.index + result.text.trimEnd().length;
  const whole = end + (/^\p{L}*/u.exec(text.slice(end))?.[0].length ?? 0);
  return { iso, text: text.slice(result.index, whole) };
}

const CHAT_WEEKDAY = /\b(?:tues|weds|thur)\b/gi;
/** An amount of money, with its pence ("£18.50", "$1,200.00"). */
const AMOUNT = /[£$€]\s?\d[\d,]*(?:\.\d+)?/g;
/** "the night off", "the morning train", "the evening shift": a time of day naming a thing, not a day. */
const TIME_OF_DAY_AS_MODIFIER = /\bthe (?:morning|night|evening|afternoon)(?= (?!(?:before|after|of|at|in|on|to|and|or|but|so|when|then|with|for|by|is|was|will|i|we|you|he|she|they)\b)\p{Ll})/giu;
const CHAT_WEEKDAYS: Readonly<Record<string, string>> = { tues: 'tue', weds: 'wed', thur: 'thu' };
const ERA = /\b(?:b\.?c\.?e?|a\.?d\.?)(?=[^\p{L}]|$)/giu;

/** "the 14th" alone: that day of the reference's month, or of the next month when it has passed. */
function bareDayOfMonth(text: string, reference: string): { iso: string; text: string } | undefined {
  const match = /\b(?:the )?([0-3]?\d)(?:st|nd|rd|th)\b/i.exec(text);
  if (!match) return undefined;
  const day = Number(match[1]);
  const at = new Date(reference);
  if (day < 1 || day > 31 || Number.isNaN(at.getTime())) return undefined;
  let year = at.getUTCFullYear();
  let month = at.getUTCMonth();
  if (day < at.getUTCDate()) {
    month += 1;
    if (month > 11) {
      month = 0;
      year += 1;
    }
  }
  const candidate = new Date(Date.UTC(year, month, day));
  if (candidate.getUTCMonth() !== month) return undefined;
  return { iso: candidate.toISOString().slice(0, 10), text: match[0] };
}

const NUMBER_WORDS = 'a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|\\d+';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** The weekdays as written out, and as chat shortens them where the short form is no other word ("on tues", "thurs"). */
const WEEKDAY_WORDS = `${WEEKDAYS}|tues|weds|thurs|thur`;
/**
 * Chat's shortest weekdays, which are also words ("sat at the desk", "the sun"), only where nothing else is meant: after
 * "on" ("sent my first 6a boulder on mon"), and "mon" or "fri" ending a sentence ("started new job mon", "fri.").
 */
const SHORT_WEEKDAY = String.raw`(?<=\bon )(?<!\b(?:come|go|hang|hold) on )(?:mon|tue|wed|thu|fri|sat(?! nav)|sun)|(?<!\b(?:mon|tue|tues|wed|weds|thu|thurs|fri|sat|sun),? )(?:mon|fri)(?=\s*(?:[.!?]|$))`;
/** A weekday's `getUTCDay()` number, from its name written out or shortened. */
const weekdayNumber = (name: string) => WEEKDAY_INDEX.findIndex((day) => day.startsWith(name.toLowerCase().slice(0, 3)));
const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
/** Relative time expressions a reader cannot place without the date they were said on. */
const RELATIVE_BACK = new RegExp(`\\b(?:yesterday|yday|yest|the day before yesterday|last night|(?:${NUMBER_WORDS}) (?:days?|weeks?|months?|years?) ago|last (?:week|weekend|month|year|nite|${WEEKDAYS})|this past (?:weekend|${WEEKDAYS}))\\b`, 'i');
const FORWARD = `tomorrow|tmrw|tmr|2moro|the day after tomorrow|next (?:week|weekend|month|year|${WEEKDAYS}|mon|tues?|weds?|thu|thurs?|fri|sat|sun)|in (?:${NUMBER_WORDS}) (?:days?|weeks?|months?)|by tomorrow`;
const RELATIVE_FORWARD = new RegExp(`\\b(?:${FORWARD})\\b`, 'i');
/** As above, with "by Friday" read forwards whatever the tense, as summaries have always read it. */
const RELATIVE_FORWARD_BY_WEEKDAY = new RegExp(`\\b(?:${FORWARD}|by (?:${WEEKDAYS}))\\b`, 'i');

/** The date `anchorRelativeDates` and `anchorAllDates` put after an expression: "(2025-01-14)", "(2024-11)", "(2024)". */
export const ANCHORED_DATE = /\(\d{4}(?:-\d{2}){0,2}\)/;

/**
 * A text without the dates `anchorRelativeDates` put in it: what search
 * reads. The dates are for the reader and for date questions (read from the
 * text itself); as words they only lengthen a turn and move its embedding.
 */
export function withoutAnchoredDates(text: string): string {
  return text.replace(/ \(\d{4}(?:-\d{2}){0,2}\)/g, '');
}

/**
 * The first relative time expression in a sentence followed by the date it
 * means, said at `reference`: "Yesterday I ran" → "Yesterday (2025-01-14) I
 * ran", "last year" → "last year (2024)", "two months ago" → "(2024-11)".
 * Memory read weeks later then needs no arithmetic. Sentences without one are
 * returned unchanged. Summaries use this alone: their lines are few and
 * bounded in tokens.
 */
export function anchorRelativeDates(sentence: string, reference: string): string {
  return anchorSeasons(anchorFirstRelative(anchorWeeksAhead(sentence, reference), reference, RELATIVE_FORWARD_BY_WEEKDAY), reference);
}

/** "last summer", "this spring", "next autumn": a season said by where it stands from the day it was said. */
const SEASON = /\b(last|this|next|this past) (spring|summer|autumn|fall)\b(?! \()/gi;
/** The months (0-11) each season ends in: what has not ended by the day said is still "this" one. */
const SEASON_ENDS: Readonly<Record<string, number>> = { spring: 4, summer: 7, autumn: 10, fall: 10 };

/**
 * A season said relative to the day it was said is followed by its year: "last summer (2023)", "next spring
 * (2025)". Winter spans two years and is left as said.
 */
function anchorSeasons(sentence: string, reference: string): string {
  const said = new Date(reference);
  if (Number.isNaN(said.getTime())) return sentence;
  return sentence.replace(SEASON, (words, which: string, season: string) => {
    const year = said.getUTCFullYear();
    const started = said.getUTCMonth() >= SEASON_ENDS[season.toLowerCase()]! - 2;
    const ended = said.getUTCMonth() > SEASON_ENDS[season.toLowerCase()]!;
    const when = which.toLowerCase();
    const of = when === 'next' ? (started ? year + 1 : year) : when === 'this' ? year : ended ? year : year - 1;
    return `${words} (${of})`;
  });
}

/**
 * `anchorRelativeDates`, and also every weekday and day of the month named
 * alone ("on Wednesday", "by the 14th") and every day and month said without
 * a year ("June 23"), read by the tense they are told in:
 * what a raw record's line shows. `surrounding` is the whole message, for a
 * fragment with no verb of its own ("tuesday night.").
 */
export function anchorAllDates(sentence: string, reference: string, surrounding?: string, previous?: string): string {
  const told: Told | undefined = surrounding === undefined ? undefined : { message: surrounding, ...(previous !== undefined ? { previous } : {}) };
  return rangesInOrder(anchorSeasons(anchorHolidays(anchorMonthDays(anchorDaysOfMonth(anchorWeekdays(anchorFirstRelative(anchorWeeksAhead(sentence, reference), reference, RELATIVE_FORWARD), reference, told), reference, told), reference, told), reference, told), reference));
}

/** A dated day, then "to" and a weekday dated before it ("Friday the 31st (2025-10-31) to Sunday (2025-10-05)"). */
const RANGE_TO_WEEKDAY = new RegExp(`\\((\\d{4}-\\d{2}-\\d{2})\\)(,?\\s+(?:to|until|till|through|thru|-|–)\\s+(?:the\\s+)?(${WEEKDAYS})(?:['’]s)?(?:\\s+(?:morning|afternoon|evening|night))?\\s+)\\((\\d{4}-\\d{2}-\\d{2})\\)`, 'gi');

/** The weekday that ends a range is the first one after the day that starts it. */
function rangesInOrder(sentence: string): string {
  return sentence.replace(RANGE_TO_WEEKDAY, (whole, from: string, between: string, name: string, to: string) => {
    if (to >= from) return whole;
    const start = Date.parse(`${from}T00:00:00Z`);
    const offset = ((WEEKDAY_INDEX.indexOf(name.toLowerCase()) - new Date(start).getUTCDay() + 7) % 7) || 7;
    return `(${from})${between}(${new Date(start + offset * DAY_MS).toISOString().slice(0, 10)})`;
  });
}

/**
 * Where a sentence was said: its whole message, and the message before it in
 * the conversation, whose tense a reply without one of its own takes ("how'd
 * the interview go" → "Tuesday. fine I think.": last Tuesday).
 */
interface Told {
  readonly message: string;
  readonly previous?: string;
}

function anchorFirstRelative(sentence: string, reference: string, forwards: RegExp): string {
  for (const [pattern, forward] of [[RELATIVE_BACK, false], [forwards, true]] as const) {
    const match = pattern.exec(sentence);
    if (!match) continue;
    // "a week tomorrow (2023-10-16)", "Thursday next week (2025-08-07)": its words were dated as one phrase.
    if ([...sentence.matchAll(WEEK_AHEAD_DATED)].some((dated) => dated.index <= match.index && match.index < dated.index + dated[0].length)) return sentence;
    // "800 grams down in two weeks", "more difference in three months than she expected": a span of time, not a
    // day it ends on, when what was done in it is measured or told of as past.
    if (forward && /^in /i.test(match[0]) && (MEASURED_IN.test(sentence.slice(Math.max(0, match.index - 30), match.index)) || toldOfThePast(clauseAround(sentence, match.index, match.index + match[0].length, CLAUSE_BREAK)) === true)) return sentence;
    // Chat's short forms are read as the words they stand for.
    const said = match[0].replace(/^by /i, '').replace(/^(?:yday|yest)$/i, 'yesterday').replace(/^(?:tmrw|tmr|2moro)$/i, 'tomorrow').replace(/^last nite$/i, 'last night');
    const resolved = resolveDate(said, reference, forward);
    if (!resolved || resolved.iso === reference.slice(0, 10)) return sentence;
    const end = match.index + match[0].length;
    // "last year" is a year and "two months ago" a month: a day would say more than was said.
    const unit = /\byears?\b/i.test(match[0]) ? 4 : /\bmonths?\b/i.test(match[0]) ? 7 : 10;
    return `${sentence.slice(0, end)} (${resolved.iso.slice(0, unit)})${sentence.slice(end)}`;
  }
  return sentence;
}

/** What is measured over a span, or has not happened in one ("35 seconds off in one week", "I haven't run in 5 days"). */
const MEASURED_IN = /\b(?:down|off|up|lost|gained|dropped|more|less|better|faster|slower|difference|haven't|hasn't|hadn't|havent|hasnt|never)\b[^.!?]{0,25}$/i;

/**
 * A weekday named alone ("on Wednesday", "by Tuesday afternoon", "Friday
 * night", "the Saturday before last") means the one before the day it was
 * said when its clause tells of the past ("Theo lost his first tooth on
 * Wednesday") and the next one otherwise ("we leave for Portugal on
 * Wednesday"). Plural and habitual forms ("on Tuesdays", "every Monday") and
 * weekdays already anchored or qualified by last/next/this past are left.
 */
const WEEKDAY_ALONE = new RegExp(`(?<!\\b(?:last|next|past|every|each|other|of|first|second|third|fourth|following|folowing) )\\b(the )?(${WEEKDAY_WORDS}|${SHORT_WEEKDAY})\\b(?!s\\b| \\(| (?:mornings|afternoons|evenings|nights)\\b| of\\b| after\\b| (?:next )?week\\b|,? (?:the )?\\d|,? (?:${MONTHS})\\b)( before last)?`, 'gi');
/** Where a clause ends: punctuation, or a conjunction joining two clauses. */
const CLAUSE_BREAK = /[.,;:!?()\u2013\u2014]|\s-\s|\b(?:(?<!\b(?:hundred|thousand) )and|but|because|while|when|then)\b/gi;
/** The future said outright: it outweighs any past-tense word in the clause ("I'll be so relieved on Friday"). */
const FUTURE_CUE = /\b(?:will|won't|shall|gonna|going to|plan(?:ning)? to|hope to|can't wait|tomorrow|starts|(?<!\b(?:the|a|my|our|your|his|her|their|did|didn't|couldn't|to) )(?:start|begin|begins)(?! (?:of|date|time|line)\b))\b|\b(?:am|is|are|i'm|we're|you're|they're|he's|she's)(?: \w+ly)? (?:having|getting|flying|leaving|meeting|seeing|taking|driving|travell?ing|heading|coming|hosting|visiting|playing)\b|\bstarting\b(?! to\b)|(?<!\b(?:was|were|been) )\bdue\b(?! to\b)|'ll\b/i;
const PAST_IRREGULAR = /\b(?:how|what|where)'d\b|\b(?:was|were|did|didn't|had|went|got|came|lost|found|took|made|told|said|bought|sold|met|saw|ran|won|left|brought|fell|broke|gave|spent|felt|thought|caught|drove|flew|wrote|ate|drank|slept|woke|began|swam|sang|sat|stood|heard|kept|paid|sent|built|knew|threw|wore|rode|chose|forgot|taught|fought|held|became|hung|shook|stole|led|lent|meant|stuck|dug|tore|blew|grew|drew|dealt|rang|sank|spoke|stung|swore|swung|understood|wept|bent|froze|slid|spun|struck|sought|hid|burnt|learnt|spilt|spelt|dreamt|leapt|knelt|smelt|ago)\b/i;
/** A verb whose past is its present ("I hurt my finger on Sunday"), told of the past when said with its subject and no "if" ("I'll" is a future already). */
const PAST_SAME_FORM = /(?<!\bif )\b(?:i|he|she|we|they)(?: just| actually| finally| accidentally| only)? (?:hurt|cut|hit|quit|shut|split|burst|upset|cost)\b/i;
/** A regular past tense; an "-ed" adjective after a linking word ("so excited", "I'm booked") is not one. */
const PAST_REGULAR = /(?<!\b(?:am|is|are|be|been|being|so|very|really|too|get|getting|feel|feeling|i'm|we're|you're|they're|\w+'s) )\b[a-z]{2,}ed\b/gi;
const NOT_PAST = new Set(['need', 'indeed', 'bed', 'red', 'shed', 'speed', 'feed', 'seed', 'weed', 'hundred', 'sacred', 'naked', 'wicked', 'embed', 'proceed', 'exceed', 'succeed', 'breed', 'greed', 'reed', 'deed', 'heed', 'steed', 'bled', 'fled', 'sled', 'wed', 'ted', 'ned', 'fred', 'ed']);

function clauseAround(sentence: string, start: number, end: number, breaks: RegExp): string {
  let from = 0;
  let to = sentence.length;
  for (const match of sentence.matchAll(breaks)) {
    if (match.index + match[0].length <= start) from = match.index + match[0].length;
    else if (match.index >= end) {
      to = match.index;
      break;
    }
  }
  return sentence.slice(from, to);
}

/** "I've got an interview", "got to go": a present, not a past. */
const GOT_PRESENT = /\b(?:'ve|have|has|i|we|you|they) got\b|\bgot (?:to|a lot)\b|\bgotta\b/gi;

/**
 * "my left eye", "on the left", "leftovers": the side, not the verb, in the message a reply answers ("a date for
 * your left eye?"). Within a message "left" stays a sign of the past, as it most often is.
 */
const LEFT_SIDE = /\b(?:the|my|his|her|your|their|our|its) left\b|\bleft(?:[- ](?:eye|hand(?:ed)?|side|hip|knee|leg|arm|foot|ear|wrist|shoulder|turn|lane|wing|field|over|overs)\b|overs\b)/gi;

/** A verb of being in the present: "is", "are", "am" and their short forms. */
const PRESENT_COPULA = /\b(?:is|are|am)\b|\b(?:i'm|we're|you're|they're|it's|that's|he's|she's)\b/i;

/**
 * Writing a day down is no sign the day is past: "I've saved your race date as April 19", "I have recorded March
 * 20 as your go-live date", "booked physio for feb 3" are said before the day they name.
 */
const RECORDED = /\b(?:saved|noted|recorded|added(?= (?:your|it to|that to|this to|them to)\b)|updated(?= your\b)|marked(?=\s+(?:\S+\s+){0,3}as\b)|(?:re-?|double-?)?booked|(?:re-?)?scheduled|reserved|confirmed|logged|pencil(?:l)?ed|arranged|planned|registered|bumped|postponed)\b/gi;
/** `RECORDED` for one test (no global state). */
const RECORDED_ONCE = new RegExp(RECORDED.source, 'i');
/** A day moved to another is moved to one to come: "party moved to may 16", "they pushed it back to the 14th", "I've moved your physio to Thursday". */
const MOVED_TO_DAY = new RegExp(`\\b(?:moved|pushed|shifted|changed)(?: (?:it|that|this|them|us|me|(?:your|my|our|his|her|their|the) [a-z'’-]+(?: [a-z'’-]+)?))?(?: back| forward| up)? to (?=(?:the )?(?:[0-3]?\\d|${MONTHS}|${WEEKDAYS})\\b)`, 'gi');

/** Words just before a day that set it for something, or say it is the new one. */
const SET_FOR_DAY = new RegExp(`(?:\\b(?:(?:re-?|double-?)?booked|(?:re-?)?scheduled|reserved|pencil(?:l)?ed|arranged|registered)(?: (?!for\\b)[\\w'’-]+){0,4} for|\\beffective(?: from)?|\\bnow|\\b(?:moved|pushed|shifted|changed|postponed|rescheduled|bumped|delayed|put back|brought forward)\\b.{0,40}\\b(?:from|to))\\s+(?:the\\s+)?(?:(?:${WEEKDAYS}),?\\s+(?:the\\s+)?)?$`, 'i');

/** Whether a clause tells of the past, of the future, or (no cue either way) neither. */
function toldOfThePast(clause: string): boolean | undefined {
  if (FUTURE_CUE.test(clause)) return false;
  const text = clause.replace(GOT_PRESENT, ' ').replace(RECORDED, ' ').replace(MOVED_TO_DAY, ' ');
  if (PAST_IRREGULAR.test(text) || PAST_SAME_FORM.test(text)) return true;
  for (const match of text.matchAll(PAST_REGULAR)) if (!NOT_PAST.has(match[0].toLowerCase())) return true;
  // "the opening is confirmed for Sunday 1 June": a clause told in the present speaks of what is to come;
  // "I'm still thinking about Saturday" speaks of what goes on from before.
  return PRESENT_COPULA.test(text) && !/\bstill\b/i.test(text) ? false : undefined;
}

/** Where a sentence ends, within a line that holds several. */
const SENTENCE_BREAK = /[.!?]+/g;

/**
 * The tense a date named at `start..end` is told in: its own clause's, else
 * its sentence's, else, for a fragment that is no question, the message's
 * ("baby came early! tuesday night."), else the future ("dinner on the 14th?").
 */
function pastAt(sentence: string, start: number, end: number, surrounding: Told | undefined): boolean {
  // "home since thursday", "sore ever since the 4th": what has gone on since a day began before it was said.
  if (/\bsince\s+(?:last\s+)?$/i.test(sentence.slice(Math.max(0, start - 12), start)) || /^since\b/i.test(sentence.slice(start, end))) return true;
  // "tuesday just gone": the one before.
  if (/^\s*(?:just\s+)?gone\b/i.test(sentence.slice(end, end + 12))) return true;
  // "booked them for March 29", "effective April 7", "now April 21", "pushed from March 28 to April 4": a day set
  // for something, or a new day it moved to, is one to come, whatever else the sentence tells of.
  if (SET_FOR_DAY.test(sentence.slice(Math.max(0, start - 60), start))) return false;
  // Only the text near the date is read, so a long text naming many dates costs time in proportion to its length.
  const from = Math.max(0, start - TENSE_WINDOW);
  const near = sentence.slice(from, end + TENSE_WINDOW);
  const clause = toldOfThePast(clauseAround(near, start - from, end - from, CLAUSE_BREAK));
  if (clause !== undefined) return clause;
  const own = clauseAround(near, start - from, end - from, SENTENCE_BREAK);
  const told = toldOfThePast(own);
  if (told !== undefined) return told;
  // "dinner on the 14th?", "drinks friday night or sat?": a question about a day is a plan.
  const question = /\?/.test(sentence.slice(end, end + 40).split(/[.!]/)[0]!);
  // A sentence that opens with the day and tells no tense of its own is an answer in brief ("Wednesday, at twelve
  // past three in the morning, three days late."), however long: its message says when.
  const opensWithIt = () => OPENS_WITH_DAY.test(near.slice(0, start - from).split(/[.!?]+/).at(-1)!);
  if (question || surrounding === undefined || (own.trim().split(/\s+/).length > 4 && !opensWithIt())) return false;
  // A fragment after a day written down is that day ("I rebooked Lisbon officially. September 20 to 28.").
  const at = whereInMessage(sentence, surrounding.message);
  const said = at > 0 ? surrounding.message.slice(Math.max(0, at - REPLIED_TO), at).split(SENTENCE_BREAK).filter((s) => s.trim()).at(-1) : undefined;
  if (said !== undefined && RECORDED_ONCE.test(said) && toldOfThePast(said) === undefined) return false;
  // A message that tells no tense at all is a reply: it is told in the tense of what it answers (its last words).
  return messageTense(surrounding.message) ?? (surrounding.previous === undefined || surrounding.message.split(/\s+/).length > REPLY_WORDS ? undefined : toldOfThePast(surrounding.previous.slice(-REPLIED_TO).replace(LEFT_SIDE, ' '))) ?? false;
}

/**
 * Where a sentence stands in its message, found once per sentence: every day named in it asks again, and finding a
 * long sentence anew each time would take time in the square of its length.
 */
let lastFound: { sentence: string; message: string; at: number } | undefined;
function whereInMessage(sentence: string, message: string): number {
  if (lastFound?.sentence !== sentence || lastFound.message !== message) lastFound = { sentence, message, at: message.indexOf(sentence) };
  return lastFound.at;
}

/** How much of the message before a reply is read for its tense: its end, where the question it answers is. */
const REPLIED_TO = 200;
/** The longest message read as a reply in brief ("Tuesday. fine I think. panel of 3"); a longer one tells its own news. */
const REPLY_WORDS = 12;

/** What may come before a day that opens its sentence: nothing, or "on", "the", "it was" and the like. */
const OPENS_WITH_DAY = /^\s*(?:(?:it was|that was|on|the|oh|just|erm|um)[\s,]+){0,2}$/i;

/** How far either side of a date its clause and sentence are looked for. */
const TENSE_WINDOW = 240;
/** The tense of a message's opening (read once per message, however many fragments it has). */
let lastMessage: { text: string; past: boolean | undefined } | undefined;
function messageTense(message: string): boolean | undefined {
  if (lastMessage?.text !== message) lastMessage = { text: message, past: toldOfThePast(message.slice(0, 1_000)) };
  return lastMessage.past;
}

/** Weekday names in `getUTCDay()` order. */
export const WEEKDAY_INDEX = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MS = 86_400_000;
/** How far from the day it was said a date without a year is placed, at most. */
const NINE_MONTHS = 274 * DAY_MS;

/**
 * Each match of `pattern` in `sentence` followed by the date `dateOf` gives it (` (2025-01-14)`), said on the
 * UTC day `today`; `dateOf` also says where the date goes when it is not right after the match (`end`), or
 * gives nothing to leave the match as it is.
 */
function insertDates(sentence: string, reference: string, pattern: RegExp, dateOf: (match: RegExpMatchArray & { index: number }, today: Date) => { end: number; at: number } | undefined): string {
  const said = new Date(reference);
  if (Number.isNaN(said.getTime())) return sentence;
  const today = new Date(Date.UTC(said.getUTCFullYear(), said.getUTCMonth(), said.getUTCDate()));
  let out = '';
  let last = 0;
  for (const match of sentence.matchAll(pattern)) {
    const date = dateOf(match as RegExpMatchArray & { index: number }, today);
    if (!date) continue;
    out += `${sentence.slice(last, date.end)} (${new Date(date.at).toISOString().slice(0, 10)})`;
    last = date.end;
  }
  return out + sentence.slice(last);
}

/**
 * Days said a week on from another, as British speech says them: "a week today", "a week tomorrow", "a week on
 * Friday", "Friday week", "the Monday after next", and a weekday of the week to come ("Thursday next week", "next
 * week on Thursday"). Each is one day to come, dated as a whole, so none of its words is dated alone.
 */
const WEEK_AHEAD = new RegExp(`\\ba week (?:today|tomorrow|tmrw|tmr|2moro|on (${WEEKDAY_WORDS}))\\b|(?<!\\b(?:every|each|other|last) )\\b(?:the )?(${WEEKDAY_WORDS}) (?:(week)(?! ago)|(after next)|(next week))\\b|\\bnext week,? (?:on )?(${WEEKDAY_WORDS})\\b`, 'gi');
/** A phrase `anchorWeeksAhead` has dated. */
const WEEK_AHEAD_DATED = new RegExp(`(?:${WEEK_AHEAD.source}) \\(\\d{4}-\\d{2}-\\d{2}\\)`, 'gi');

function anchorWeeksAhead(sentence: string, reference: string): string {
  return insertDates(sentence, reference, WEEK_AHEAD, (match, today) => {
    const [whole, onDay, dayWeek, week, afterNext, nextWeek, weekDay] = match;
    const end = match.index + whole.length;
    const day = today.getTime();
    // The first such weekday after the day said.
    const next = (name: string) => day + (((weekdayNumber(name) - today.getUTCDay() + 7) % 7) || 7) * DAY_MS;
    if (onDay) return { end, at: next(onDay) + 7 * DAY_MS };
    if (/(?:tomorrow|tmrw|tmr|2moro)$/i.test(whole)) return { end, at: day + 8 * DAY_MS };
    if (/today$/i.test(whole)) return { end, at: day + 7 * DAY_MS };
    if (dayWeek && (week || afterNext)) return { end, at: next(dayWeek) + 7 * DAY_MS };
    // A weekday of next week: the week that starts on the first Monday after the day said.
    const name = nextWeek ? dayWeek! : weekDay!;
    return { end, at: next('monday') + ((weekdayNumber(name) + 6) % 7) * DAY_MS };
  });
}

function anchorWeekdays(sentence: string, reference: string, surrounding: Told | undefined): string {
  return insertDates(sentence, reference, WEEKDAY_ALONE, (match, today) => {
    const [whole, , name, beforeLast] = match;
    // "the Monday after the party" or "the first Monday of June": a day this rule cannot place.
    if (match[1] && !beforeLast) return undefined;
    const end = match.index + whole.length;
    const past = beforeLast ? true : pastAt(sentence, match.index, end, surrounding);
    const target = weekdayNumber(name!);
    const offset = past ? -(((today.getUTCDay() - target + 7) % 7) || 7) - (beforeLast ? 7 : 0) : ((target - today.getUTCDay() + 7) % 7) || 7;
    // A part of the day or a possessive said after it stays with it: "Tuesday afternoon (2024-04-02)", "saturday's (2024-04-27) run".
    const part = /^(?:'s|’s| (?:morning|afternoon|evening|night)\b)/i.exec(sentence.slice(end))?.[0] ?? '';
    return { end: end + part.length, at: today.getTime() + offset * DAY_MS };
  });
}

/** "on the 14th", "by the 3rd", "Sunday the 16th": a day of the month named alone, without its month. */
const DAY_OF_MONTH_ALONE = new RegExp(`\\b(?:on|by|until|till|for|from|since|(?:${WEEKDAYS}),?) the ([0-3]?\\d)(?:st|nd|rd|th)\\b(?! \\(| of\\b|,? (?:${MONTHS})\\b)`, 'gi');

/**
 * A day of the month named alone means that day in the month it was said,
 * or the month before when its clause tells of the past and the day has not
 * come yet ("it was on the 28th", said on the 3rd), or the month after when
 * it is still to come and has passed ("dinner on the 14th?", said on the 20th).
 */
function anchorDaysOfMonth(sentence: string, reference: string, surrounding: Told | undefined): string {
  return insertDates(sentence, reference, DAY_OF_MONTH_ALONE, (match, today) => {
    const day = Number(match[1]);
    // "the 3rd – 5th": the first day is dated after the range.
    const range = /^(?:-|\s?–\s?)(?:the )?[0-3]?\d(?:st|nd|rd|th)?\b/.exec(sentence.slice(match.index + match[0].length, match.index + match[0].length + 16));
    const end = match.index + match[0].length + (range ? range[0].length : 0);
    if (day < 1 || day > 31 || day === today.getUTCDate()) return undefined;
    const past = pastAt(sentence, match.index, end, surrounding);
    const shift = past ? (day > today.getUTCDate() ? -1 : 0) : day < today.getUTCDate() ? 1 : 0;
    let candidate = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + shift, day);
    // "Thursday the 14th": the weekday says which month, of the one before, this one and the next, when the tense
    // chose one where the 14th is another day.
    const named = new RegExp(`^(${WEEKDAYS}),?`, 'i').exec(match[0]);
    if (named && new Date(candidate).getUTCDay() !== WEEKDAY_INDEX.indexOf(named[1]!.toLowerCase())) {
      const fits = [-1, 0, 1].map((m) => Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + m, day)).filter((t) => new Date(t).getUTCDate() === day && new Date(t).getUTCDay() === WEEKDAY_INDEX.indexOf(named[1]!.toLowerCase()));
      if (fits.length > 0) candidate = fits.reduce((a, b) => (Math.abs(a - today.getTime()) <= Math.abs(b - today.getTime()) ? a : b));
    }
    // The 31st of a 30-day month is no day at all.
    return new Date(candidate).getUTCDate() === day ? { end, at: candidate } : undefined;
  });
}

/** A day of the year (`on`, per year) said on `now`: the last one for the past, else the next one. */
function occurrence(on: (year: number) => number, year: number, now: number, past: boolean): number {
  return past ? (on(year) <= now ? on(year) : on(year - 1)) : on(year) >= now ? on(year) : on(year + 1);
}

const MONTH_INDEX: Readonly<Record<string, number>> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
/** Words that report what was said or meant ("I said code freeze was june 9"). */
const REPORTED_WORDS = /\b(?:said|says|thought|told|wrote|heard|mentioned|supposed to|meant to)\b/i;
/** Words that report what someone said of a day to come, with a deadline ("emailed saying … before 18 July"). */
const REPORTED_DEADLINE_WORDS = /\b(?:said|says|saying|told|wrote|heard|mentioned|promised|agreed|confirmed|warned|emailed|texted|rang)\b/i;
/** A day said as a deadline ("before 18 July", "by June 9"): what is to come, whatever tense the news of it was told in. */
const DEADLINE_BEFORE = /\b(?:before|by|until|till|ahead of|no later than)\s+(?:the\s+)?$/i;
/** "June 23", "23 June", "the 7th of March": a day and a month said without a year. */
const MONTH_DAY = new RegExp(`\\b(?:(${MONTHS}) ([0-3]?\\d)(?:st|nd|rd|th)?|([0-3]?\\d)(?:st|nd|rd|th)?(?: of)? (${MONTHS}))\\b(?!,? \\d{4}|,? '\\d\\d| \\(|:\\d| (?:next|this|last) year)`, 'gi');

/** A weekday just before a day and month ("Sunday 1 June", "Sunday, June 1"). */
/** A weekday said before a date, written out or short as chat writes it ("sat 14th june"). */
const WEEKDAY_BEFORE = new RegExp(`\\b(${WEEKDAYS}|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun),? (?:the )?$`, 'i');

/**
 * A day and a month said without a year ("moving launch to June 23") take the
 * year that puts them nearest the day they were said: the one gone when the
 * sentence tells of the past, the one to come otherwise, unless that is more
 * than nine months off ("the party was great, back on 20 August" said in March).
 * A weekday said with them picks, of the years around, the nearest where the
 * date falls on that weekday ("the opening is Sunday 1 June", said in April 2025
 * beside a past verb, is 2025's Sunday, not 2024's Saturday), within nine months.
 */
function anchorMonthDays(sentence: string, reference: string, surrounding: Told | undefined): string {
  return insertDates(sentence, reference, MONTH_DAY, (match, today) => {
    // Chat writes months in lower case ("april 19", "feb 3"); "may", "mar" and "march" are often verbs, so in lower
    // case they count only after a word that introduces a day ("on may 9", "moved to may 16", "the 9th of may").
    const monthWord = match[1] ?? match[4]!;
    if (!/^\p{Lu}/u.test(monthWord) && /^ma(?:y|r|rch)$/i.test(monthWord) && !(match[4] || /\b(?:on|for|to|by|until|till|since|from|before|after|in|is|was|the|thru|through|sat|sun|mon|tue|tues|wed|thu|thurs|fri|saturday|sunday|monday|tuesday|wednesday|thursday|friday),? $/i.test(sentence.slice(Math.max(0, match.index - 12), match.index)))) return undefined;
    const month = MONTH_INDEX[monthWord.slice(0, 3).toLowerCase()]!;
    const day = Number(match[2] ?? match[3]);
    if (day < 1 || day > 31) return undefined;
    // "june 19-21": the first day is dated after the range, which stays as written.
    // A hyphen joins a range only without spaces ("june 19 - 30 guests" is a count).
    const range = /^(?:-|\s?–\s?)[0-3]?\d(?:st|nd|rd|th)?\b/.exec(sentence.slice(match.index + match[0].length, match.index + match[0].length + 12));
    const end = match.index + match[0].length + (range ? range[0].length : 0);
    const past = pastAt(sentence, match.index, end, surrounding);
    const on = (year: number) => Date.UTC(year, month, day);
    const year = today.getUTCFullYear();
    const now = today.getTime();
    let when = occurrence(on, year, now, past);
    if (!past && when - now > NINE_MONTHS) when = on(year) <= now ? on(year) : on(year - 1);
    // "I said code freeze was june 9", said on June 2: what was said of a day a week off is of that one, not last
    // year's (only in reported words: "my dad passed away on May 2" stays in the past).
    // So is a day some weeks off said as a deadline in reported words ("Podium emailed saying they can't get the
    // medals to us before 18 July", said on 20 June).
    const told = sentence.slice(Math.max(0, match.index - TENSE_WINDOW), end);
    const deadline = DEADLINE_BEFORE.test(sentence.slice(Math.max(0, match.index - 20), match.index)) && REPORTED_DEADLINE_WORDS.test(told);
    const ahead = deadline ? 62 : REPORTED_WORDS.test(told) ? 14 : 0;
    if (past && now - when > NINE_MONTHS && on(year) > now && on(year) - now <= ahead * DAY_MS) when = on(year);
    // "Sunday 1 June": the weekday says which year, when the tense chose one where it falls on another day.
    const named = WEEKDAY_BEFORE.exec(sentence.slice(Math.max(0, match.index - 12), match.index));
    if (named) {
      const weekday = WEEKDAY_INDEX.findIndex((name) => name.startsWith(named[1]!.toLowerCase().slice(0, 3)));
      const fits = [year - 1, year, year + 1].map(on).filter((t) => new Date(t).getUTCDay() === weekday && new Date(t).getUTCDate() === day && Math.abs(t - now) <= NINE_MONTHS);
      if (new Date(when).getUTCDay() !== weekday && fits.length > 0) when = fits.reduce((a, b) => (Math.abs(a - now) <= Math.abs(b - now) ? a : b));
    }
    if (new Date(when).getUTCDate() !== day || when === now) return undefined;
    return { end, at: when };
  });
}

/** Holidays on a fixed day, by the names people call them: [month index, day]. */
const HOLIDAYS: ReadonlyArray<readonly [RegExp, number, number]> = [
  [/^new year'?s eve$/i, 11, 31],
  [/^new year'?s(?: day)?$/i, 0, 1],
  [/^valentine'?s(?: day)?$/i, 1, 14],
  [/^st\.? patrick'?s day$/i, 2, 17],
  [/^(?:the )?(?:fourth|4th) of july$|^independence day$/i, 6, 4],
  [/^hallowe'?en$/i, 9, 31],
  [/^guy fawkes(?: night| day)?$|^bonfire night$/i, 10, 5],
  [/^christmas eve$/i, 11, 24],
  [/^christmas(?: day)?$|^xmas(?: day)?$/i, 11, 25],
  [/^boxing day$/i, 11, 26],
];
const HOLIDAY = /(?<!\bfather )\b(?:new year'?s(?: eve| day)?|valentine'?s(?: day)?|st\.? patrick'?s day|(?:the )?(?:fourth|4th) of july|independence day|hallowe'?en|guy fawkes(?: night| day)?|bonfire night|christmas(?: eve| day)?|xmas(?: day)?|boxing day)\b(?! \(|'?s? (?:party|tree|present|presents|dinner|lunch|market|jumper|shopping|list|break|holidays?|songs?|lights|decorations|resolutions?|plans?|costumes?|cards?|concerts?|do|fair|show|jumpers?)\b| \d{4}| on (?:the \d|monday|tuesday|wednesday|thursday|friday|saturday|sunday))/gi;

/**
 * A holiday on a fixed day ("I began on New Year's Day", "back by Christmas Eve") is dated as a day and month
 * said without a year is: the last one when its clause tells of the past, the next one otherwise, within nine
 * months. The holiday as a season or a thing ("the Christmas party", "Christmas shopping") is left.
 */
function anchorHolidays(sentence: string, reference: string, surrounding: Told | undefined): string {
  return insertDates(sentence, reference, HOLIDAY, (match, today) => {
    const holiday = HOLIDAYS.find(([name]) => name.test(match[0]));
    if (!holiday) return undefined;
    const [, month, day] = holiday;
    const end = match.index + match[0].length;
    const past = pastAt(sentence, match.index, end, surrounding);
    const year = today.getUTCFullYear();
    const now = today.getTime();
    const on = (y: number) => Date.UTC(y, month, day);
    const when = occurrence(on, year, now, past);
    if (when === now || Math.abs(when - now) > NINE_MONTHS) return undefined;
    return { end, at: when };
  });
}
