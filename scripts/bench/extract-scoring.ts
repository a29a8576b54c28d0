/**
 * Scoring extracted memory against a corpus's ground truth (the rules are
 * written out in docs/design/extraction.md): names normalised (NFC, case and
 * diacritics folded, titles dropped) and resolved to the corpus's people;
 * contacts scored as claims (the person, their organisation, their role);
 * facts matched on subject + attribute + value with tolerant comparisons;
 * tasks on title overlap + final state. Matching is one-to-one and greedy.
 */
import * as chrono from 'chrono-node';
import type { ContactItem, FactItem, MemoryItem, TaskItem } from '../../functions/domain/memory.js';
import type { ExpectedTruth } from '../corpus/extract/types.js';

export interface Score {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
}

export interface StoreScores {
  readonly contacts: Score;
  readonly facts: Score;
  readonly tasks: Score;
  /** What went wrong, for the report and for reading failures. */
  readonly misses: readonly string[];
}

export const precision = (s: Score) => (s.tp + s.fp === 0 ? 1 : s.tp / (s.tp + s.fp));
export const recall = (s: Score) => (s.tp + s.fn === 0 ? 1 : s.tp / (s.tp + s.fn));
export const f1 = (s: Score) => {
  const p = precision(s);
  const r = recall(s);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
};
export const addScores = (a: Score, b: Score): Score => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });

const TITLES = /^(?:dr|mr|mrs|ms|miss|prof|sir|dame)\.?\s+/;
const ORG_SUFFIXES = /\s+(?:inc|ltd|llc|plc|gmbh|co|corp|sa|ag)$/;
const ARTICLES = /^(?:the|a|an|my|our|their|his|her)\s+/;

/** Case, diacritics, punctuation and leading articles folded: "Zoë" (either encoding) and "zoe" compare equal. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(ARTICLES, '');
}

export function normaliseName(name: string): string {
  return normaliseText(name).replace(TITLES, '');
}

function stem(word: string): string {
  return word.length > 4 ? word.replace(/(?:ing|ed|es|s)$/, '') : word;
}

const STOP = new Set(['the', 'a', 'an', 'to', 'for', 'of', 'on', 'in', 'and', 'my', 'me', 'by', 'with', 'at', 'this', 'that', 'it', 'i', 'you', 'your', 'our', 'user', 'about', 'from']);

export function contentWords(text: string): Set<string> {
  return new Set(normaliseText(text).split(' ').filter((w) => w.length > 1 && !STOP.has(w)).map(stem));
}

/** Whole-word containment either way, after folding (and corporate suffixes dropped). */
export function tolerantEqual(a: string, b: string): boolean {
  const left = normaliseText(a).replace(ORG_SUFFIXES, '');
  const right = normaliseText(b).replace(ORG_SUFFIXES, '');
  if (!left || !right) return false;
  if (left === right) return true;
  return ` ${left} `.includes(` ${right} `) || ` ${right} `.includes(` ${left} `);
}

const ATTRIBUTE_GROUPS: readonly (readonly string[])[] = [
  ['lives in', 'home city', 'city', 'home', 'residence', 'location', 'based in', 'lives', 'hometown', 'live in', 'office', 'located in', 'moved to'],
  ['birthday', 'date of birth', 'born', 'birth date', 'dob'],
  ['allergy', 'allergic', 'allergies', 'allergic to'],
  ['wife', 'partner', 'spouse', 'husband'],
  ['cat', 'pet', 'pet name', 'dog'],
  ['diet', 'dietary', 'food'],
  ['hobby', 'hobbies', 'pastime', 'sport', 'activity'],
  ['plan', 'subscription', 'tier', 'account plan'],
  ['device', 'equipment', 'hardware', 'router', 'model', 'product'],
  ['date', 'when', 'day', 'scheduled', 'time', 'scheduled for'],
  ['favourite restaurant', 'restaurant', 'favorite restaurant'],
];

export function attributeMatches(expected: string, predicted: string): boolean {
  const e = normaliseText(expected);
  const p = normaliseText(predicted);
  if (!p) return false;
  if (e === p || tolerantEqual(e, p)) return true;
  if (ATTRIBUTE_GROUPS.some((group) => group.includes(e) && group.some((word) => word === p || ` ${p} `.includes(` ${word} `)))) return true;
  const ew = contentWords(e);
  return [...contentWords(p)].some((w) => ew.has(w));
}

function isoOf(value: string, reference: Date): { iso: string; hasYear: boolean } | undefined {
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return { iso: value.slice(0, 10), hasYear: true };
  const [parsed] = chrono.parse(value, reference);
  if (!parsed || !parsed.start.isCertain('day')) return undefined;
  const d = parsed.start.date();
  const iso = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { iso, hasYear: parsed.start.isCertain('year') };
}

/** Values equal when their text matches tolerantly, or when both read as the same day (month and day when a year is missing). */
export function valueMatches(expected: string, predicted: string): boolean {
  if (tolerantEqual(expected, predicted)) return true;
  const reference = new Date('2026-01-01T00:00:00Z');
  const e = isoOf(expected, reference);
  const p = isoOf(predicted, reference);
  if (!e || !p) return false;
  return e.iso === p.iso || ((!e.hasYear || !p.hasYear) && e.iso.slice(5) === p.iso.slice(5));
}

/** The person key a name refers to, if any (full name, alias, first name or contact id). */
export function resolvePerson(truth: ExpectedTruth, name: string): string | undefined {
  const wanted = normaliseName(name);
  if (!wanted) return undefined;
  for (const [key, names] of Object.entries(truth.people)) {
    if (names.some((n) => normaliseName(n) === wanted)) return key;
  }
  for (const [key, names] of Object.entries(truth.people)) {
    if (names.some((n) => normaliseName(n).split(' ')[0] === wanted || normaliseName(n).replace(/ /g, '') === wanted.replace(/ /g, ''))) return key;
  }
  return undefined;
}

interface FlatFact {
  subject: string;
  attributes: string[];
  values: string[];
  label: string;
}

/** Any table shape flattened: subject from a subject-like column, attribute candidates, value candidates. */
export function flattenFact(fact: FactItem): FlatFact {
  const row = fact.row;
  const subjectColumn = ['subject', 'person', 'contact', 'who', 'entity', 'name'].find((c) => row[c]);
  const subject = subjectColumn ? row[subjectColumn]! : '';
  const rest = Object.entries(row).filter(([c, v]) => c !== subjectColumn && v !== null && v !== '');
  const attributeColumns = ['attribute', 'property', 'key', 'field', 'polarity', 'relation', 'type'];
  const attributes = [...rest.filter(([c]) => attributeColumns.includes(c)).map(([, v]) => v!), fact.table.replace(/_/g, ' '), ...rest.filter(([c]) => !attributeColumns.includes(c)).map(([c]) => c.replace(/_/g, ' '))];
  const values = rest.filter(([c]) => !attributeColumns.includes(c)).map(([, v]) => v!);
  return { subject, attributes, values, label: `${fact.table}(${Object.entries(row).map(([c, v]) => `${c}=${v}`).join(', ')})` };
}

export function scoreMemory(truth: ExpectedTruth, items: readonly MemoryItem[]): StoreScores {
  const live = items.filter((item) => item.status !== 'archived');
  const misses: string[] = [];
  return {
    contacts: scoreContacts(truth, live.filter((i): i is ContactItem => i.kind === 'contact'), misses),
    facts: scoreFacts(truth, live.filter((i): i is FactItem => i.kind === 'fact'), misses),
    tasks: scoreTasks(truth, live.filter((i): i is TaskItem => i.kind === 'task'), misses),
    misses,
  };
}

function scoreContacts(truth: ExpectedTruth, contacts: readonly ContactItem[], misses: string[]): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const expectedByKey = new Map(truth.contacts.map((c) => [resolvePerson(truth, c.name)!, c]));
  const seen = new Set<string>();
  for (const contact of contacts) {
    const key = [contact.name, ...contact.aliases].map((n) => resolvePerson(truth, n)).find(Boolean);
    const expected = key ? expectedByKey.get(key) : undefined;
    if (!expected) {
      // People the truth knows only as a fact's value (a dentist, a wife) or as a participant it does not list are neither rewarded nor penalised.
      const valueOfFact = truth.facts.some((f) => [contact.name, ...contact.aliases].some((n) => tolerantEqual(f.value, n) || tolerantEqual(normaliseName(f.value), normaliseName(n))));
      if (key === undefined && !valueOfFact) {
        fp += 1;
        misses.push(`contact: unexpected "${contact.name}"`);
      }
      continue;
    }
    if (seen.has(key!)) {
      fp += 1;
      misses.push(`contact: duplicate "${contact.name}"`);
      continue;
    }
    seen.add(key!);
    tp += 1;
    for (const field of ['organisation', 'role'] as const) {
      const want = expected[field];
      const got = contact[field];
      if (want && got && tolerantEqual(want, got)) tp += 1;
      else {
        if (got) fp += 1;
        if (want) fn += 1;
        if (want || got) misses.push(`contact ${expected.name}: ${field} expected "${want ?? ''}", got "${got ?? ''}"`);
      }
    }
  }
  for (const expected of truth.contacts) {
    if (seen.has(resolvePerson(truth, expected.name)!)) continue;
    fn += 1 + (expected.organisation ? 1 : 0) + (expected.role ? 1 : 0);
    misses.push(`contact: missing "${expected.name}"`);
  }
  return { tp, fp, fn };
}

function subjectMatches(truth: ExpectedTruth, expected: string, predicted: FlatFact): boolean {
  if (expected in truth.people) return resolvePerson(truth, predicted.subject) === expected;
  // A thing ("quarterly review"): named as the subject, or as the attribute of a dated row.
  const want = contentWords(expected);
  const covers = (text: string) => {
    const words = contentWords(text);
    return want.size > 0 && [...want].every((w) => words.has(w));
  };
  return covers(predicted.subject) || predicted.attributes.some(covers);
}

function scoreFacts(truth: ExpectedTruth, facts: readonly FactItem[], misses: string[]): Score {
  const flat = facts.map(flattenFact);
  const used = new Set<number>();
  let tp = 0;
  for (const expected of truth.facts) {
    const index = flat.findIndex(
      (f, i) =>
        !used.has(i) &&
        subjectMatches(truth, expected.subject, f) &&
        (f.attributes.some((a) => attributeMatches(expected.attribute, a)) || !(expected.subject in truth.people)) &&
        f.values.some((v) => valueMatches(expected.value, v)),
    );
    if (index >= 0) {
      used.add(index);
      tp += 1;
    } else misses.push(`fact: missing ${expected.subject} / ${expected.attribute} = ${expected.value}`);
  }
  flat.forEach((f, i) => {
    if (!used.has(i)) misses.push(`fact: unexpected ${f.label}`);
  });
  return { tp, fp: flat.length - used.size, fn: truth.facts.length - tp };
}

export function titleMatches(expected: string, predicted: string): boolean {
  const e = contentWords(expected);
  const p = contentWords(predicted);
  if (e.size === 0 || p.size === 0) return false;
  let shared = 0;
  for (const w of e) if (p.has(w)) shared += 1;
  return (2 * shared) / (e.size + p.size) >= 0.5;
}

function scoreTasks(truth: ExpectedTruth, tasks: readonly TaskItem[], misses: string[]): Score {
  const used = new Set<number>();
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const expected of truth.tasks) {
    const index = tasks.findIndex((t, i) => !used.has(i) && titleMatches(expected.title, t.title));
    if (index < 0) {
      fn += 1;
      misses.push(`task: missing "${expected.title}" (${expected.state})`);
      continue;
    }
    used.add(index);
    if (tasks[index]!.state === expected.state) tp += 1;
    else {
      fp += 1;
      fn += 1;
      misses.push(`task "${expected.title}": expected ${expected.state}, got ${tasks[index]!.state}`);
    }
  }
  tasks.forEach((t, i) => {
    if (!used.has(i)) {
      fp += 1;
      misses.push(`task: unexpected "${t.title}" (${t.state})`);
    }
  });
  return { tp, fp, fn };
}
