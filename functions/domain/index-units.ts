/**
 * Units of the retrieval index: everything an agent can recall, each with
 * the record ids it rests on. A raw record is an observation (its speaker,
 * time and text, relative dates anchored against its own time); a contact,
 * fact or task carries its evidence ids; a summary its range and its sources
 * (base level: record ids) or children (higher levels: summary ids).
 */
import { withFigures } from './amounts.js';
import { anchorAllDates, withoutAnchoredDates } from './dates.js';
import { LEVEL_NAMES, type Ladder } from './ladders.js';
import { projectOf } from './scope.js';
import { citedRun, labelledDay, withoutCitations } from './summary-lines.js';

/** A sentence's end: a full stop that does not close a title or an abbreviation ("Dr.", "St.", "Inc."). */
const HEADLINE = /^(?:[^.]|(?<=\b(?:Dr|Mr|Mrs|Ms|Prof|St|Inc|Ltd|Co|Corp|Jr|Sr))\.)*\.\s*/;

/**
 * A contact's biography without the headline that opens it ("Dr. Moreau.",
 * "Priya: sales director at Globex."): the line already names them and their
 * work. A biography that does not open so ("Priya joined Globex in May.") is kept whole.
 */
export function biographyBeyondName(name: string, biography: string): string {
  const rest = biography.slice(name.length);
  if (!name || !biography.startsWith(name) || !/^[.:]/.test(rest)) return biography;
  return rest.replace(HEADLINE, '');
}

export const UNIT_KINDS = ['record', 'contact', 'fact', 'task', 'summary'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export interface IndexUnit {
  /** The record id, item id or summary id. */
  readonly id: string;
  readonly kind: UnitKind;
  /** The text as it is rendered: one line's worth, relative dates anchored. */
  readonly text: string;
  /** When it was said (records), last sourced (items) or the start of its range (time summaries). Absent when unknown. */
  readonly at?: string;
  /** Who said it (records). */
  readonly speaker?: string;
  /** Groups units of one conversation (interaction id, else the day), for diversity. */
  readonly session?: string;
  /** Record ids (items; base summaries' sources) or child summary ids (higher summaries). Records cite themselves. */
  readonly evidence: readonly string[];
  /** A short label shown before the text: a contact's name, a summary's level and range. */
  readonly label?: string;
  /** Items: active, draft, conflict. Tasks: also `open`/`done` in `state`. */
  readonly status?: string;
  readonly state?: string;
  readonly confidence?: number;
  /** Items: unverified, verified (refuted items are never indexed). Absent in segments written before verification. */
  readonly verification?: string;
  readonly ladder?: Ladder;
  readonly level?: number;
  readonly sequence?: number;
  /** Names the unit is about (a contact's name and aliases; a task's owner): scope and person matching. */
  readonly about?: string;
  /** The project a record names, or an item belongs to (domain/scope.ts); absent when agent-wide. */
  readonly project?: string;
  /** A summary whose text cites the records of each of its lines inline ("[D3:5] …"): its line needs no other citation. */
  readonly cites?: boolean;
  /** A record counted but not consolidated yet (read path only, never stored in a segment). */
  readonly pending?: boolean;
}

/** The record fields a unit is built from (a raw record satisfies it). */
export interface RecordLike {
  readonly id: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly role: string;
  readonly content: string;
  readonly interactionId?: string;
  readonly contact?: { readonly id?: string; readonly name?: string };
  /** The event's own `speaker` (API field `events[].speaker`). */
  readonly speaker?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const squash = (text: string) => text.replace(/```/g, "'''").replace(/\s+/g, ' ').trim();

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Who said a record: the event's `speaker`, else `metadata.speaker` (how clients named speakers before the field
 * existed), else the contact it was with (for their messages), else its role.
 */
export function speakerOf(record: RecordLike): string {
  if (record.speaker?.trim()) return record.speaker.trim().slice(0, 80);
  const named = record.metadata?.speaker;
  if (typeof named === 'string' && named.trim()) return named.trim().slice(0, 80);
  if (record.role === 'user' && record.contact?.name) return record.contact.name;
  return record.role;
}

/** `previous`: the record said just before, whose tense a reply with none of its own is read in (for its dates). */
export function recordUnit(record: RecordLike, previous?: RecordLike): IndexUnit {
  const speaker = speakerOf(record);
  let content = record.content;
  // Content that repeats its speaker ("Caroline: ...") says it once, in the line's citation.
  const prefix = `${speaker}:`;
  if (content.startsWith(prefix)) content = content.slice(prefix.length);
  const session = sessionOf(record);
  const replyTo = saidBefore(record, previous)?.content;
  const text = squash(splitSentences(content).map((sentence) => withFigures(anchorAllDates(sentence, record.timestamp, content, replyTo))).join(' '));
  return {
    id: record.id,
    kind: 'record',
    text,
    at: record.timestamp,
    speaker,
    session,
    evidence: [],
    sequence: record.sequence,
    ...(projectOf(record.metadata) ? { project: projectOf(record.metadata)! } : {}),
    ...(record.contact?.name || record.contact?.id ? { about: [record.contact.name, record.contact.id].filter(Boolean).join(' ') } : {}),
  };
}

/** The conversation a record belongs to: its interaction, else its day. */
const sessionOf = (record: RecordLike) => record.interactionId ?? record.timestamp.slice(0, 10);

/** The record said just before this one, when it was said in the same conversation (what a reply answers). */
export function saidBefore(record: RecordLike, previous: RecordLike | undefined): RecordLike | undefined {
  return previous && sessionOf(previous) === sessionOf(record) ? previous : undefined;
}

/** A sentence of fewer words is read with the next one (the last with the one before) as one of a record's parts. */
export const SENTENCE_MIN_WORDS = 5;
/** Parts of one record, at most: a pasted document's sentences are read in as many runs of neighbours. */
export const MAX_RECORD_SENTENCES = 16;

/**
 * What the embedding model reads of a long record's sentences, each on its
 * own (`Speaker: sentence`, anchored dates left out): a turn that rambles over
 * several pieces of news is one vector diluted by all of them, and a question
 * about one finds it by that sentence. Sentences shorter than
 * `SENTENCE_MIN_WORDS` words join the next. None for a record of one part;
 * at most `MAX_RECORD_SENTENCES` (a longer record's sentences are read in runs).
 */
export function recordSentences(unit: IndexUnit): string[] {
  if (unit.kind !== 'record') return [];
  const parts: string[] = [];
  let carry = '';
  for (const sentence of splitSentences(unit.text)) {
    carry = carry ? `${carry} ${sentence}` : sentence;
    if (carry.split(/\s+/).length >= SENTENCE_MIN_WORDS) {
      parts.push(carry);
      carry = '';
    }
  }
  if (carry && parts.length > 0) parts[parts.length - 1] = `${parts.at(-1)!} ${carry}`;
  if (parts.length < 2) return [];
  const per = Math.ceil(parts.length / MAX_RECORD_SENTENCES);
  const runs = per === 1 ? parts : Array.from({ length: Math.ceil(parts.length / per) }, (_, i) => parts.slice(i * per, (i + 1) * per).join(' '));
  return runs.map((part) => `${unit.speaker ?? ''}: ${withoutAnchoredDates(part)}`);
}

/** A record with at most this many index terms (speaker included) is a short reply: "yep", "june 14, in Denver", "sent. with interest". */
export const SHORT_REPLY_TERMS = 8;

/**
 * The turn a reply answers, as the dense ranking should read it with the reply: for a short reply, the whole
 * previous record of the same session said by someone else ("Amy: why won't gran eat grapes?" before "Josh: she
 * says they're too much effort"); for a longer one, only the question that record ends on ("Dana: And sleep?"
 * before "Owen: Bad. I'd say five and a half, maybe six hours a night…"), since an answer seldom repeats what
 * it was asked. Undefined for a record that says enough on its own, the first of a session, or a speaker going on.
 * The line shows only the reply.
 */
export function replyContext(unit: IndexUnit, ownTerms: number, previous: IndexUnit | undefined): string | undefined {
  if (!answers(unit, previous)) return undefined;
  if (ownTerms <= SHORT_REPLY_TERMS) return `${previous.speaker ?? ''}: ${previous.text}`;
  const question = closingQuestion(previous.text);
  return question ? `${previous.speaker ?? ''}: ${question}` : undefined;
}

/**
 * The question a reply answers ("How's sleep with the review coming up?" before "Still about seven and a half"),
 * whose words lexical search also finds the reply by: the reply holds the answer, the question its subject.
 */
export function answeredQuestion(unit: IndexUnit, previous: IndexUnit | undefined): string | undefined {
  return answers(unit, previous) ? closingQuestion(previous.text) : undefined;
}

/** Capitalised words that name a time, not a person. */
const NOT_A_NAME = /^(?:I|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|OK|Ok)$/;

/**
 * Who a record's opening "she" or "he" is, when the turn before it (same session, anyone) names one person:
 * "Tell me what Sandra said." before "She said I'd made more difference than she expected…". Across a bare
 * question back it is the turn before that: "did you hear about Rachel" / "no?" / "she's leaving, offer from
 * Canvasly". A name is a capitalised word inside a sentence (not its first word, not a day or a month); two or
 * more, and nothing is said. Lexical search then finds the record by the name too; the line still shows only
 * the record. `earlier(n)` is the record n turns before this one, if known.
 */
export function pronounReferent(unit: IndexUnit, earlier: (turnsBack: number) => IndexUnit | undefined): string | undefined {
  if (unit.kind !== 'record' || unit.sequence === undefined) return undefined;
  if (!/^(?:\S+ ){0,3}?(?:she|he)\b/i.test(unit.text.trim())) return undefined;
  const turn = (back: number) => {
    const record = earlier(back);
    return record?.kind === 'record' && record.session === unit.session && record.sequence === unit.sequence! - back ? record : undefined;
  };
  let previous = turn(1);
  if (previous && bareQuestion(previous)) previous = turn(2);
  if (!previous) return undefined;
  const named = namesIn(previous.text);
  return named.size === 1 ? [...named][0] : undefined;
}

/** A turn that only asks back ("no?", "does she?", "why??"): ends on a question mark, at most two words. */
function bareQuestion(unit: IndexUnit): boolean {
  const text = unit.text.trim();
  return /\?$/.test(text) && text.split(/\s+/).length <= 2;
}

/** Capitalised words inside sentences (a sentence's first word is capitalised whatever it is). */
function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const sentence of splitSentences(text)) {
    const words = sentence.split(/\s+/).slice(1);
    for (const word of words) {
      const bare = word.replace(/^[^\p{L}]+|(?:['’]s)?[^\p{L}]*$/gu, '');
      if (/^\p{Lu}\p{Ll}+$/u.test(bare) && !NOT_A_NAME.test(bare)) names.add(bare);
    }
  }
  return names;
}

/** `unit` is a record said right after `previous`, in the same session, by someone else. */
function answers(unit: IndexUnit, previous: IndexUnit | undefined): previous is IndexUnit {
  if (unit.kind !== 'record' || previous?.kind !== 'record') return false;
  return previous.session === unit.session && previous.speaker !== unit.speaker && previous.sequence !== undefined && previous.sequence === (unit.sequence ?? 0) - 1;
}

/** The question a turn ends on ("That's a lovely perk. Where's their office?" → "Where's their office?"), if it does. */
export function closingQuestion(text: string): string | undefined {
  const last = splitSentences(text.trim()).at(-1);
  return last && last.endsWith('?') ? last : undefined;
}

/** The summary fields a unit is built from (a stored summary satisfies it). */
export interface SummaryLike {
  readonly id: string;
  readonly ladder: Ladder;
  readonly level: number;
  readonly from: string;
  readonly to: string;
  readonly text: string;
  readonly sources: readonly string[];
  readonly children: readonly string[];
  readonly empty: boolean;
}

/** A summary as a unit; empty markers are not units. */
export function summaryUnit(summary: SummaryLike): IndexUnit | undefined {
  if (summary.empty || !summary.text.trim()) return undefined;
  const name = LEVEL_NAMES[summary.ladder][summary.level] ?? `level ${summary.level}`;
  const span = summary.from === summary.to ? summary.from : `${summary.from} to ${summary.to}`;
  // Lines that cite their records become one run with the ids inline (a day's label already has its date).
  const cited = citedRun(summary.text, labelledDay(summary, summary.from));
  return {
    id: summary.id,
    kind: 'summary',
    text: squash(cited ?? summary.text.replace(/\n/g, '; ')),
    ...(cited ? { cites: true } : {}),
    ...(summary.ladder === 'time' ? { at: `${summary.from}T00:00:00.000Z` } : {}),
    session: `summary:${summary.ladder}:${summary.level}`,
    evidence: summary.level === 0 ? [...summary.sources] : [...summary.children],
    label: summary.ladder === 'time' ? `${name} ${span}` : `${name} #${span}`,
    ladder: summary.ladder,
    level: summary.level,
  };
}

const str = (value: unknown) => (value === undefined || value === null ? '' : squash(String(value)));
const ids = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

/** A change only a tool record stated: shown as a question beside the value, never as the value. */
export const proposalText = (proposed: unknown) =>
  proposed && typeof proposed === 'object' && Object.keys(proposed).length > 0
    ? ` (to verify: a tool record says ${Object.entries(proposed as Record<string, unknown>).map(([k, v]) => `${k} ${str(v)}`).join(', ')})`
    : '';

/** A store item as a view holds it (see `compactItem`), as a unit. */
export function itemUnit(kind: 'contact' | 'fact' | 'task', item: Readonly<Record<string, unknown>>): IndexUnit {
  const common = {
    id: str(item.id),
    kind,
    evidence: ids(item.evidence),
    status: str(item.status) || 'active',
    confidence: Number(item.confidence ?? 0.5),
    ...(item.verification ? { verification: str(item.verification) } : {}),
    ...(item.project ? { project: str(item.project) } : {}),
  };
  if (kind === 'contact') {
    const work = [str(item.role), item.organisation ? `at ${str(item.organisation)}` : ''].filter(Boolean).join(' ');
    const lately = str(String(item.summary ?? '').split('\n')[0]);
    const biography = biographyBeyondName(str(item.name), str(item.biography));
    const aliases = ids(item.aliases);
    return {
      ...common,
      label: str(item.name),
      text: squash(`${work ? `${work}. ` : ''}${biography}${lately ? ` Lately: ${lately}` : ''}${proposalText(item.proposed)}`),
      at: str(item.lastMentionedAt ?? item.sourceAt ?? item.updatedAt),
      about: [str(item.id), str(item.name), ...aliases].join(' '),
    };
  }
  if (kind === 'task') {
    const open = item.state === 'open';
    const state = open ? `open${item.due ? `, due ${str(item.due)}` : ''}` : `${str(item.state)}${item.due ? `, was due ${str(item.due)}` : ''}`;
    return {
      ...common,
      label: state,
      text: `${str(item.title)} (owner: ${str(item.owner)})${proposalText(item.proposed)}`,
      at: str(item.sourceAt ?? item.updatedAt),
      state: str(item.state),
      about: str(item.owner),
    };
  }
  const row = (item.row as Record<string, string | null> | undefined) ?? {};
  return {
    ...common,
    text: str(item.statement),
    at: str(item.sourceAt ?? item.updatedAt),
    about: Object.values(row).filter(Boolean).join(' '),
  };
}

/** Words a question uses for a kind of item rather than for its content ("what tasks are open?"). */
const KIND_WORDS: Partial<Record<UnitKind, string>> = { task: 'task to-do todo', contact: 'contact person', fact: 'fact' };

/** What lexical search reads of a unit: its label, speaker, text, who it is about, and its kind's own words. */
export function searchText(unit: IndexUnit): string {
  return [unit.label, unit.speaker, withoutAnchoredDates(unit.kind === 'record' ? unit.text : withoutCitations(unit.text)), unit.about, KIND_WORDS[unit.kind]].filter(Boolean).join(' ');
}
