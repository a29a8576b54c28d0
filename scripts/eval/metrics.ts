/**
 * Memory-quality measures of one injected context against one question, and
 * their averages. Pure: the harness supplies what the context traced back to
 * and its text.
 */
import * as chrono from 'chrono-node';
import { MONTH_NAMES, monthIndex } from '../corpus/calendar.js';
import { indexTerms } from '../../functions/domain/terms.js';

/** Lower case, punctuation and articles removed, whitespace collapsed: SQuAD-style answer normalisation. */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The whole normalised answer appears in the normalised context, on word boundaries. */
export function answerContained(answer: string, context: string): boolean {
  const needle = normaliseText(answer);
  if (needle.length === 0) return false;
  return ` ${normaliseText(context)} `.includes(` ${needle} `);
}

/** The share of the answer's distinct normalised tokens that appear in the context. */
export function answerTokenShare(answer: string, context: string): number {
  const wanted = new Set(normaliseText(answer).split(' ').filter(Boolean));
  if (wanted.size === 0) return 0;
  const present = new Set(normaliseText(context).split(' '));
  let found = 0;
  for (const token of wanted) if (present.has(token)) found += 1;
  return found / wanted.size;
}

/**
 * Characters that can continue an id (LoCoMo's `D1:3`, a repeated turn's
 * `D2:3#2`, ids like `msg-17` or `evt_9.2`): an id is printed only where
 * neither neighbour is one of them.
 */
const ID_CHAR = /[\p{L}\p{N}_:#@+\-./]/u;
/**
 * Punctuation that may follow an id and still end it when nothing id-like
 * comes after: a sentence's `.` or `:` ("see D1:3.", "D1:3: she said") and
 * markdown emphasis (`_D1:3_`). Only `_` may open one the same way.
 */
const CLOSING = new Set(['.', ':', '_']);
const OPENING = new Set(['_']);

/**
 * Whether `id` is printed in `text` as a whole token: `D1:3` is printed in
 * `(D1:3)`, `[D1:3]`, `evidence D1:3, D4:2`, `_D1:3_` and at the end of a
 * sentence, but not inside `D1:30`, `D11:3`, `D1:3#2`, `D1:3_2` or `XD1:3`.
 * Case-sensitive, as ids are.
 */
export function idPrinted(text: string, id: string): boolean {
  if (id.length === 0) return false;
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    const before = text[at - 1];
    const beforeThat = text[at - 2];
    const opens = before !== undefined && OPENING.has(before) && (beforeThat === undefined || !ID_CHAR.test(beforeThat));
    if (before !== undefined && ID_CHAR.test(before) && !opens) continue;
    const after = text[at + id.length];
    if (after === undefined || !ID_CHAR.test(after)) return true;
    const next = text[at + id.length + 1];
    if (CLOSING.has(after) && (next === undefined || !ID_CHAR.test(next))) return true;
  }
  return false;
}

/** The ids, of those given, that `text` prints as whole tokens. */
export function printedIds(text: string, ids: readonly string[]): Set<string> {
  return new Set(ids.filter((id) => idPrinted(text, id)));
}

/**
 * Strict evidence recall: the share of evidence turns whose id the injected
 * text prints. Nothing is expanded: a summary that covers a turn without
 * printing its id does not count.
 */
export function strictRecall(evidence: readonly string[], text: string): number {
  return evidenceRecall(evidence, printedIds(text, evidence));
}

/**
 * The words printed with an id: each line that prints it, whole, except in a run of cited lines
 * (`[D3:2] … [D3:6] …`, an item's `[date · D3:5] …`), where an id inside brackets has the words from its bracket
 * to the next one.
 */
export function wordsBeside(text: string, id: string): string {
  const words: string[] = [];
  for (const line of text.split('\n')) {
    if (!idPrinted(line, id)) continue;
    const brackets = [...line.matchAll(/\[([^\]]+)\]/g)];
    const own = brackets.findIndex((b) => idPrinted(b[1]!, id));
    if (own < 0) {
      words.push(line);
      continue;
    }
    const from = brackets[own]!.index! + brackets[own]![0].length;
    words.push(line.slice(from, brackets[own + 1]?.index ?? line.length).trim());
  }
  return words.join('\n');
}

/**
 * Grounded evidence recall: an evidence turn counts only when its id is printed beside at least half of that
 * turn's content words (stemmed, stop words left out), so an id printed without what it stands for does not.
 */
export function groundedRecall(evidence: readonly string[], text: string, turnText: (id: string) => string | undefined): number {
  if (evidence.length === 0) return 0;
  const grounded = evidence.filter((id) => {
    if (!idPrinted(text, id)) return false;
    const wanted = new Set(indexTerms(turnText(id) ?? ''));
    if (wanted.size === 0) return true;
    const shown = new Set(indexTerms(wordsBeside(text, id)));
    let found = 0;
    for (const term of wanted) if (shown.has(term)) found += 1;
    return found / wanted.size >= 0.5;
  });
  return grounded.length / evidence.length;
}

/** The share of evidence turns among the turns the context traces back to. */
export function evidenceRecall(evidence: readonly string[], traced: ReadonlySet<string>): number {
  if (evidence.length === 0) return 0;
  return evidence.filter((id) => traced.has(id)).length / evidence.length;
}


const MONTH_PATTERN = [...MONTH_NAMES.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`), 'Sept'].join('|');

function dayForms(year: number, month: number, day: number): string[] {
  const name = MONTH_NAMES[month - 1]!;
  return [`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, `${day} ${name} ${year}`, `${name} ${day}, ${year}`, `${name} ${day} ${year}`];
}

/**
 * The absolute forms a date in an answer can take in a context, as precisely
 * as the answer gives it: `2023-05-07`, `7 May 2023`, `May 7, 2023` for a day;
 * `2023-05`, `May 2023` for a month; the year alone. A date written in the
 * answer is taken as written ("the week before 9 June 2023" is anchored by
 * 9 June 2023, the date a reader is given); other phrasings go to chrono,
 * read from `reference`. Undefined when the answer holds no date.
 */
export function answerDateForms(answer: string, reference: string): string[] | undefined {
  const dayMonthYear = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (${MONTH_PATTERN}),? (\\d{4})\\b`, 'i').exec(answer);
  if (dayMonthYear) return dayForms(Number(dayMonthYear[3]), monthIndex(dayMonthYear[2]!) + 1, Number(dayMonthYear[1]));
  const monthDayYear = new RegExp(`\\b(${MONTH_PATTERN}) (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'i').exec(answer);
  if (monthDayYear) return dayForms(Number(monthDayYear[3]), monthIndex(monthDayYear[1]!) + 1, Number(monthDayYear[2]));
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(answer);
  if (iso) return dayForms(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const monthYear = new RegExp(`\\b(${MONTH_PATTERN}),? (\\d{4})\\b`, 'i').exec(answer);
  if (monthYear) {
    const month = monthIndex(monthYear[1]!) + 1;
    const name = MONTH_NAMES[month - 1]!;
    return [`${monthYear[2]}-${String(month).padStart(2, '0')}`, `${name} ${monthYear[2]}`, `${name}, ${monthYear[2]}`];
  }
  const parsed = chrono.parse(answer, new Date(reference))[0];
  if (parsed && parsed.start.isCertain('day') && parsed.start.isCertain('month')) {
    return dayForms(parsed.start.get('year')!, parsed.start.get('month')!, parsed.start.get('day')!);
  }
  const year = /\b(19|20)\d{2}\b/.exec(answer);
  return year ? [year[0]] : undefined;
}

/**
 * The ids a context line cites: a memory line's `evidence A, B, C` and
 * `summary ID`, a raw turn's trailing `(D1:3)`.
 */
export function citedIds(line: string): string[] {
  const ids: string[] = [];
  for (const match of line.matchAll(/evidence ([^)_]+)/g)) ids.push(...match[1]!.split(',').map((id) => id.trim()).filter(Boolean));
  for (const match of line.matchAll(/summary ([^\s)_]+)/g)) ids.push(match[1]!);
  const turn = /\(([^()\s]+)\)\s*$/.exec(line);
  if (turn) ids.push(turn[1]!);
  return ids;
}

/**
 * A temporal answer is anchored when a line of the context that cites the
 * question's evidence (directly, or through a summary of it) states the
 * answer's date in an absolute form: the reader need not work it out from
 * "yesterday" and the line's own date.
 */
export function dateAnchored(forms: readonly string[], context: string, citesEvidence: (id: string) => boolean, evidence: readonly string[] = []): boolean {
  return context
    .split('\n')
    // Cited the old way (a trailing "(D1:3)", "evidence …", "summary …") or printed as the block prints ids now ("- D1:3 Sam: …", "[2025-01-06 · D1:3]").
    .filter((line) => citedIds(line).some(citesEvidence) || printedIds(line, evidence).size > 0)
    .some((line) => forms.some((form) => line.toLowerCase().includes(form.toLowerCase())));
}

/** A value appears in the text as a whole phrase (normalised). */
export function mentions(text: string, value: string): boolean {
  return answerContained(value, text);
}

export interface QuestionScore {
  readonly category: string;
  /** Expanded: evidence traced through items and summaries. */
  readonly recall?: number;
  readonly hit?: boolean;
  /** Strict: evidence ids printed in the injected text. */
  readonly strictRecall?: number;
  readonly strictHit?: boolean;
  /** Evidence ids printed beside at least half of their turn's content words. */
  readonly groundedRecall?: number;
  readonly contained?: boolean;
  /** Contained with dates compared in one form (the answer's 7 May 2023 as 2023-05-07 too). */
  readonly containedDates?: boolean;
  readonly tokenShare?: number;
  readonly anchored?: boolean;
  readonly tokens: number;
  /** Distinct ids of the corpus's turns the text prints (strictly, as evidence is counted). */
  readonly citedIds?: number;
}

/** Each measure is null when no question of the group has what it needs (evidence, an answer, a dated answer). */
export interface Aggregate {
  readonly questions: number;
  /** Mean strict evidence recall (evidence ids printed in the text) over questions with evidence: the primary measure. */
  readonly strictRecall: number | null;
  /** Mean grounded recall (`groundedRecall`), over questions with evidence, when turn texts were given. */
  readonly groundedRecall: number | null;
  /** Share of questions with evidence where at least one evidence id was printed. */
  readonly strictHitRate: number | null;
  /** Mean expanded evidence recall (traced through items and summaries) over questions with evidence. */
  readonly recall: number | null;
  /** Share of questions with evidence where at least one evidence turn was traced. */
  readonly hitRate: number | null;
  /** Share of answered questions whose normalised answer the context contains. */
  readonly answerContained: number | null;
  /** The same, with dates compared in one form. */
  readonly answerContainedDates: number | null;
  readonly answerTokenShare: number | null;
  /** Share of temporal questions with a dated answer whose date the context holds in absolute form. */
  readonly dateAnchoring: number | null;
  readonly temporalWithDates: number;
  readonly meanTokens: number;
  /** Tokens of the block per turn id it cites (summed over questions): what one piece of evidence costs. */
  readonly tokensPerCitedId: number | null;
}

/** The mean, or null for no values (a measure with nothing to score). */
export const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

export function aggregate(scores: readonly QuestionScore[]): Aggregate {
  const withEvidence = scores.filter((s) => s.recall !== undefined);
  const answered = scores.filter((s) => s.contained !== undefined);
  const temporal = scores.filter((s) => s.anchored !== undefined);
  return {
    questions: scores.length,
    strictRecall: mean(withEvidence.map((s) => s.strictRecall ?? 0)),
    groundedRecall: mean(withEvidence.filter((s) => s.groundedRecall !== undefined).map((s) => s.groundedRecall!)),
    strictHitRate: mean(withEvidence.map((s) => (s.strictHit ? 1 : 0))),
    recall: mean(withEvidence.map((s) => s.recall!)),
    hitRate: mean(withEvidence.map((s) => (s.hit ? 1 : 0))),
    answerContained: mean(answered.map((s) => (s.contained ? 1 : 0))),
    answerContainedDates: mean(answered.map((s) => (s.containedDates ? 1 : 0))),
    answerTokenShare: mean(answered.map((s) => s.tokenShare!)),
    dateAnchoring: mean(temporal.map((s) => (s.anchored ? 1 : 0))),
    temporalWithDates: temporal.length,
    meanTokens: mean(scores.map((s) => s.tokens)) ?? 0,
    tokensPerCitedId: perCitedId(scores),
  };
}

function perCitedId(scores: readonly QuestionScore[]): number | null {
  const counted = scores.filter((s) => s.citedIds !== undefined);
  const ids = counted.reduce((sum, s) => sum + s.citedIds!, 0);
  return ids === 0 ? null : counted.reduce((sum, s) => sum + s.tokens, 0) / ids;
}

/** The answer in the text, with a date compared in each absolute form (`7 May 2023`, `2023-05-07`, `May 7, 2023`). */
export function answerContainedDates(answer: string, text: string, reference: string): boolean {
  if (answerContained(answer, text)) return true;
  const forms = answerDateForms(answer, reference);
  return forms !== undefined && forms.some((form) => text.toLowerCase().includes(form.toLowerCase()));
}

/** Overall and per category. */
export function aggregateByCategory(scores: readonly QuestionScore[]): Record<string, Aggregate> {
  const categories = [...new Set(scores.map((s) => s.category))].sort();
  return Object.fromEntries([['overall', aggregate(scores)], ...categories.map((category) => [category, aggregate(scores.filter((s) => s.category === category))])]);
}
