/**
 * Local contact extraction: people, their organisation and role (and changes
 * to them), relationships to the user, preferences and channels; then a
 * biography (stable) and a running summary (recent) for every contact the
 * batch mentions, within a token budget.
 */
import type { ContactOp } from '../../../domain/memory.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { RELATION_PATTERN, RELATION_REVERSE_PATTERN, cleanName, countTokens, isSmallTalk, personNames, sentences, trimPhrase } from './text.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';

const SUMMARY_TOKENS = 120;
const ORG = `[A-Z][\\p{L}&.'-]*(?: (?:[A-Z][\\p{L}&.'-]*|of|and|&))*`;
const NAME = `[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?`;
const JOIN_VERBS = `(?:has |had )?(?:just |recently )?(?:joined|moved to|started at|started working at|is now at|now works at|works at|switched to|went to work at|took a job at|is working at|(?:got|started|landed|took|accepted|has) (?:a |an )?(?:new )?(?:job|position|role) (?:at|with))`;
const ROLE_TAIL = `(?: (?:last|this) (?:week|month|year)| yesterday| recently| today)?(?:,? as (?:an? |the |their |our )?([A-Za-z][\\p{L} -]*?))?(?=[.,;!?]|$| (?:last|this|next|yesterday|today|on|in|since|after|before|and)\\b)`;
const JOB_PATTERN = new RegExp(`\\b(${NAME}|[Ss]he|[Hh]e|[Tt]hey) ${JOIN_VERBS} (${ORG})${ROLE_TAIL}`, 'gu');
const ROLE_AT_PATTERN = new RegExp(`\\b(${NAME}) (?:is|was|became) (?:now )?(?:the|an?|our|their) ([a-z][\\p{L} -]*?) (?:at|of|for) (${ORG})`, 'gu');
const PREFERENCE_PATTERN = new RegExp(`\\b(${NAME}|[Ss]he|[Hh]e) (?:really )?(likes|loves|prefers|enjoys|hates|dislikes|is allergic to|can't stand) ([^.,;!?]+)`, 'gu');
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE_PATTERN = /(?:\+\d{1,3}[\s-]?)?(?:\(\d{2,4}\)[\s-]?)?\d{3}[\s-]?\d{3,4}[\s-]?\d{0,4}/g;

interface Observation {
  name: string;
  role?: string;
  organisation?: string;
  relationships: { type: string; to: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
  evidence: string[];
  mentions: { timestamp: string; sentence: string }[];
}

interface KnownContact {
  alias: string;
  name: string;
  aliases: string[];
  role?: string;
  organisation?: string;
  relationships: { type: string; to: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
  summary: string;
}

export function extractContacts(input: UpdaterInput): { ops: ContactOp[] } {
  const observations = new Map<string, Observation>();
  const observe = (rawName: string, recordId: string): Observation | undefined => {
    const name = cleanName(rawName);
    if (!name) return undefined;
    // "Dana" after "Dana Whitfield" (or the other way round) is the same person.
    const key = [...observations.keys()].find((known) => sameName(known, name)) ?? name;
    let observation = observations.get(key);
    if (!observation) {
      observation = { name, relationships: [], preferences: [], channels: [], evidence: [], mentions: [] };
      observations.set(key, observation);
    }
    if (name.split(' ').length > observation.name.split(' ').length) observation.name = name;
    if (!observation.evidence.includes(recordId)) observation.evidence.push(recordId);
    return observation;
  };

  for (const record of input.records) {
    let lastPerson: Observation | undefined = record.contact?.name ? observe(record.contact.name, record.id) : undefined;
    for (const sentence of sentences(record.content)) {
      if (isSmallTalk(sentence) || looksLikeInstruction(sentence)) continue;
      const organisations: string[] = [];
      for (const match of sentence.matchAll(JOB_PATTERN)) organisations.push(trimPhrase(match[2]!));
      for (const match of sentence.matchAll(ROLE_AT_PATTERN)) organisations.push(trimPhrase(match[3]!));
      const named = personNames(sentence, organisations).map((name) => observe(name, record.id)).filter((o): o is Observation => !!o);
      for (const observation of named) observation.mentions.push({ timestamp: record.timestamp, sentence });
      if (named.length > 0) lastPerson = named[named.length - 1];
      const subject = (who: string) => (/^(she|he|they)$/i.test(who) ? lastPerson : observe(who, record.id));

      for (const match of sentence.matchAll(JOB_PATTERN)) {
        const person = subject(match[1]!);
        if (!person) continue;
        person.organisation = trimPhrase(match[2]!);
        if (match[3]) person.role = trimPhrase(match[3]);
        if (!person.mentions.some((m) => m.sentence === sentence)) person.mentions.push({ timestamp: record.timestamp, sentence });
      }
      for (const match of sentence.matchAll(ROLE_AT_PATTERN)) {
        const person = observe(match[1]!, record.id);
        if (!person) continue;
        person.role = trimPhrase(match[2]!);
        person.organisation = trimPhrase(match[3]!);
      }
      for (const match of sentence.matchAll(RELATION_PATTERN)) {
        const person = observe(match[2]!, record.id);
        if (person) addUnique(person.relationships, { type: match[1]!.toLowerCase(), to: 'user' }, (r) => r.type);
      }
      for (const match of sentence.matchAll(RELATION_REVERSE_PATTERN)) {
        const person = observe(match[1]!, record.id);
        if (person) addUnique(person.relationships, { type: match[2]!.toLowerCase(), to: 'user' }, (r) => r.type);
      }
      for (const match of sentence.matchAll(PREFERENCE_PATTERN)) {
        const person = subject(match[1]!);
        if (person) addUnique(person.preferences, `${match[2]} ${trimPhrase(match[3]!)}`, (p) => p.toLowerCase());
      }
      const target = named.length === 1 ? named[0] : named.length === 0 ? lastPerson : undefined;
      if (target) {
        for (const email of sentence.match(EMAIL_PATTERN) ?? []) addUnique(target.channels, { type: 'email', value: email }, (c) => c.value.toLowerCase());
        for (const phone of sentence.replace(EMAIL_PATTERN, '').match(PHONE_PATTERN) ?? []) {
          if (phone.replace(/\D/g, '').length >= 7) addUnique(target.channels, { type: 'phone', value: phone.trim() }, (c) => c.value);
        }
      }
    }
  }

  const known = input.existing as unknown as KnownContact[];
  const ops: ContactOp[] = [];
  for (const observation of observations.values()) {
    const match = known.find((contact) => [contact.name, ...contact.aliases].some((name) => sameName(name, observation.name)));
    const merged = {
      name: match && match.name.length >= observation.name.length ? match.name : observation.name,
      role: observation.role ?? match?.role,
      organisation: observation.organisation ?? match?.organisation,
      relationships: dedupe([...(match?.relationships ?? []), ...observation.relationships], (r) => r.type),
      preferences: dedupe([...(match?.preferences ?? []), ...observation.preferences], (p) => p.toLowerCase()),
      channels: dedupe([...(match?.channels ?? []), ...observation.channels], (c) => c.value.toLowerCase()),
    };
    const biography = biographyOf(merged);
    const summary = runningSummary(observation.mentions, match?.summary ?? '');
    const fields = {
      ...(observation.role ? { role: observation.role } : {}),
      ...(observation.organisation ? { organisation: observation.organisation } : {}),
      ...(observation.relationships.length ? { relationships: observation.relationships } : {}),
      ...(observation.preferences.length ? { preferences: observation.preferences } : {}),
      ...(observation.channels.length ? { channels: observation.channels } : {}),
      biography,
      ...(summary ? { summary } : {}),
    };
    if (match) {
      const longer = observation.name.length > match.name.length && sameName(match.name, observation.name);
      ops.push({ op: 'update', target: match.alias, changes: { ...fields, ...(longer ? { name: observation.name } : {}) }, evidence: observation.evidence });
    } else {
      ops.push({ op: 'add', contact: { name: observation.name, ...fields }, evidence: observation.evidence });
    }
  }
  return { ops };
}

/** "Dana" and "Dana Whitfield" are the same name; "Dana" and "Dan" are not. */
function sameName(a: string, b: string): boolean {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  return left === right || left.startsWith(`${right} `) || right.startsWith(`${left} `);
}

function addUnique<T>(list: T[], value: T, key: (v: T) => string): void {
  if (!list.some((existing) => key(existing) === key(value))) list.push(value);
}

function dedupe<T>(list: T[], key: (v: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of list) seen.set(key(value), value);
  return [...seen.values()];
}

export function biographyOf(contact: {
  name: string;
  role?: string | undefined;
  organisation?: string | undefined;
  relationships: { type: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
}): string {
  const parts: string[] = [];
  const work = [contact.role, contact.organisation ? `at ${contact.organisation}` : undefined].filter(Boolean).join(' ');
  parts.push(work ? `${contact.name}: ${work}.` : `${contact.name}.`);
  if (contact.relationships.length) parts.push(`The user's ${contact.relationships.map((r) => r.type).join(' and ')}.`);
  if (contact.preferences.length) parts.push(`${capitaliseFirst(contact.preferences.slice(-3).join('; '))}.`);
  if (contact.channels.length) parts.push(`Reach: ${contact.channels.map((c) => `${c.type} ${c.value}`).join(', ')}.`);
  return parts.join(' ');
}

function capitaliseFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The newest mentions first, dated, until the token budget is spent; older summary lines fill what is left. */
export function runningSummary(mentions: { timestamp: string; sentence: string }[], previous: string): string {
  const lines = [...mentions]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .map((mention) => `${mention.timestamp.slice(0, 10)}: ${mention.sentence}`);
  const candidates = dedupe([...lines, ...previous.split('\n').filter(Boolean)], (line) => line);
  const kept: string[] = [];
  let tokens = 0;
  for (const line of candidates) {
    const cost = countTokens(line) + 1;
    if (tokens + cost > SUMMARY_TOKENS) break;
    kept.push(line);
    tokens += cost;
  }
  return kept.join('\n');
}
