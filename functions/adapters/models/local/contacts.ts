/**
 * Local contact extraction: people, their organisation and role (and changes
 * to them), relationships to the user, preferences and channels; then a
 * biography (stable) and a running summary (recent) for every contact the
 * batch mentions, within a token budget.
 */
import type { ContactOp } from '../../../domain/memory.js';
import type { UpdaterInput } from '../../../ports/model.js';
import nlp from 'compromise';
import { DEEP_SENTENCES_PER_RECORD, RELATION_PATTERN, RELATION_REVERSE_PATTERN, authorOf, cleanName, countTokens, heldSentences, isHypothetical, isSmallTalk, personNames, restoreDots, trimPhrase } from './text.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';

const SUMMARY_TOKENS = 120;
/** An organisation: capitalised words, with "of", "&", "and" between them ("University of Glasgow", "Fontaine & Fils"). Bounded, so linear. */
const ORG = `\\p{Lu}[\\p{L}\\p{N}&'’\\u2024-]*(?: (?:of |& |and |de )?\\p{Lu}[\\p{L}\\p{N}&'’\\u2024-]*){0,5}`;
const NAME = `(?:(?:Dr|Mr|Mrs|Ms|Prof)\\u2024? )?\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+){0,2}`;
const WHO = `(${NAME}|[Ss]he|[Hh]e|[Tt]hey|I|and)`;
/** A role: lower-case words or acronyms ("head of purchasing", "IT manager", "CFO"). */
const ROLE_STOP = '(?:last|this|next|yesterday|today|tomorrow|now|there|since|until|on|in|from|starting|and|but|so|at|for|with|after|before|when|because|which|who)';
const ROLE = `((?!(?:she|he|they|i|we|it|who|and|but|so|then|there)\\b)(?:[a-z]+|[A-Z]{2,5})(?: (?!${ROLE_STOP}\\b)(?:[a-z]+|[A-Z]{2,5})){0,4})`;
const ARTICLES = `(?:(?:the|a|an|their|our|his|her|its|new) ){0,2}`;
const WHEN = `(?: (?:last|this|next) (?:week|month|year)| yesterday| recently| today| these days| now| on \\p{Lu}[a-z]+day)?`;
const AS_ROLE = `(?:,? as ${ARTICLES}${ROLE})?`;
/** Nouns that make a bare phrase a job title ("promoted to purchasing director"), so "she is now happy" is not one. */
const JOB_NOUN = /\b(?:pharmacist|plumber|electrician|paramedic|dentist|surgeon|pilot|carpenter|mechanic|barista|librarian|therapist|midwife|paralegal|journalist|photographer|translator|officer|manager|director|head|lead|leader|engineer|designer|developer|scientist|analyst|nurse|doctor|teacher|chef|founder|ceo|cfo|coo|cto|cio|president|vp|partner|consultant|researcher|assistant|accountant|lawyer|architect|editor|writer|owner|specialist|coordinator|administrator|secretary|agent|representative|buyer|recruiter|professor|lecturer|controller|strategist|producer|technician|supervisor|chair|principal|captain|chief)s?\b/i;

interface RoleRule {
  readonly pattern: RegExp;
  /** Capture group numbers: who, organisation, role (0 when the rule has none). */
  readonly who: number;
  readonly org: number;
  readonly role: number;
  /** The role must read as a job title (rules without an organisation to anchor them). */
  readonly jobNoun?: boolean;
  /** The role is a department someone runs ("runs purchasing"). */
  readonly department?: boolean;
  /** The organisation is one they left. */
  readonly leaves?: boolean;
}

const ROLE_RULES: readonly RoleRule[] = [
  // "José Álvarez, the head of purchasing at Ferrotek", "Oluwaseun here, operations director at Adeyemi Logistics"
  { pattern: new RegExp(`\\b(${NAME})(?: here)?, ${ARTICLES}${ROLE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "she works nights as a paramedic", "works at boots as a pharmacist": the role, wherever (or whoever) the employer is
  { pattern: new RegExp(`\\b${WHO} (?:now )?works? (?:(?:(?!\\bas\\b)[^.,;!?]){1,30} )?as ${ARTICLES}${ROLE}(?=[.,;!?]|$| (?:now|there|these days)\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  // "Mark O'Neill (procurement lead, Brightwell Inc.)", "Priti (head of sales at Greenway)"
  { pattern: new RegExp(`\\b(${NAME}) \\(${ROLE}, (${ORG})\\)`, 'gu'), who: 1, role: 2, org: 3 },
  { pattern: new RegExp(`\\b(${NAME}) \\((?:the |their )?${ROLE} (?:at|of|for) (?:the )?(${ORG})\\)`, 'gu'), who: 1, role: 2, org: 3 },
  // "she is the CFO at Brightwell", "I'm a nurse at St. Mary's Hospital", "is now COO at Koru Labs"
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are| was| has been| became)(?: now| also| currently| still)? ${ARTICLES}${ROLE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "works at Ferrotek as a buyer", "she works for Koru Labs, COO"
  { pattern: new RegExp(`\\b${WHO} (?:now )?(?:works?|is working|am working|cooks|teaches) (?:at|for|with) (?:the )?(${ORG})(?:${WHEN})(?:,? as ${ARTICLES}${ROLE}|, ${ARTICLES}${ROLE}(?=[.!;]|$))?`, 'gu'), who: 1, org: 2, role: 3 },
  // "joined Koru Labs as COO", "moved to Orbital", "starts at Halden Group next week as their new head of sourcing"
  {
    pattern: new RegExp(`\\b${WHO}(?: |(?=['’]))(?:(?:has |had |just )?(?:left|quit) (?:the )?${ORG},? (?:and |to )?)?(?:has |had |have |just |recently |finally |also )*(?:joined|moved to|switched to|went to|starts at|started at|is starting at|(?:got|started|landed|took|accepted|has|have|found) (?:a |an |the )?(?:new )?(?:job|position|role|post) (?:at|with)|is now at|is at|'m at|am at|'m now at|am now at|'s at|is with|'m joining|am joining|is joining|started working at|went to work at|opened|founded|started|runs) (?:the )?(${ORG})${WHEN}${AS_ROLE}`, 'gu'),
    who: 1,
    org: 2,
    role: 3,
  },
  // "has taken a job as head of sourcing with Halden Group"
  { pattern: new RegExp(`\\b${WHO} (?:has )?(?:taken|took|accepted|got|landed) ${ARTICLES}(?:job|position|role|post) as ${ARTICLES}${ROLE} (?:at|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // Chat drops the subject: "Started at Bristol Royal Infirmary on Monday!" is the author's news.
  { pattern: new RegExp(`^(?:(?:[Jj]ust|[Ff]inally|[Oo]fficially) )?(?:[Ss]tarted (?:at|with)|[Jj]oined|[Ss]tarted working at) (?:the )?(${ORG})${WHEN}${AS_ROLE}`, 'gu'), who: 0, org: 1, role: 2 },
  // "I got the nurse job at St. Mary's Hospital"
  { pattern: new RegExp(`\\b${WHO} (?:got|landed|accepted|took|was offered) (?:the|a|an) (?:new )?${ROLE} (?:job|position|role|post) (?:at|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "opened his own place, Osteria Luca"
  { pattern: new RegExp(`\\b${WHO} (?:has )?(?:opened|started|founded|launched) (?:his|her|their|my) own (?:place|business|company|restaurant|shop|studio|firm)?,? (${ORG})`, 'gu'), who: 1, org: 2, role: 0 },
  // "I met José Álvarez from Ferrotek", "spoke with Søren from Kestrel Bank"
  { pattern: new RegExp(`\\b(${NAME}) from (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0 },
  // "promoted to purchasing director", "was made COO", "has been named head of sourcing at X"
  { pattern: new RegExp(`\\b${WHO} (?:got |was |has been |'s been |have been |was just |has just been )?(?:promoted to|made|named|appointed|elected) ${ARTICLES}${ROLE}(?: (?:at|of) (?:the )?(${ORG}))?`, 'gu'), who: 1, role: 2, org: 3, jobNoun: true },
  // "I'm now chief operating officer", "José is purchasing director now", "he is a chef there"
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are) now ${ARTICLES}${ROLE}(?=[.,;!]|$| so\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are) ${ARTICLES}${ROLE} (?:now|there|over there)\\b`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  { pattern: new RegExp(`\\b[Mm]y title (?:changed|is now)[,:;]? (?:I am|I'm|i am|i'm) (?:now )?${ARTICLES}${ROLE}`, 'gu'), who: 0, role: 1, org: 0 },
  // "Priya is no longer at Brightwell", "Mark left Brightwell": who the next pronoun is, and an organisation they are not at any more.
  { pattern: new RegExp(`\\b${WHO}(?: is no longer (?:at|with)| (?:has |had |just )?(?:left|quit)) (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0, leaves: true },
  // "I look after IT for Nowak Studio"
  { pattern: new RegExp(`\\b${WHO} (?:look|looks) after ([A-Z]{2,5}|[a-z]+(?: [a-z]+)?) (?:for|at) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3, department: true },
  { pattern: new RegExp(`\\(I am ${ARTICLES}${ROLE}\\)`, 'gu'), who: 0, role: 1, org: 0 },
  // "he runs purchasing there", "who leads the data team", "is in charge of logistics over there"
  { pattern: new RegExp(`\\b${WHO} (?:runs|leads|heads|manages|heads up|is in charge of|looks after) ((?:the )?[a-z][a-z]+(?: [a-z]+){0,2}?)(?= there| over there| at | for |[.,;!]|$)`, 'gu'), who: 1, role: 2, org: 0, department: true },
  { pattern: new RegExp(`\\b(${NAME}), who (?:runs|leads|heads|manages) ((?:the )?[a-z][a-z]+(?: [a-z]+){0,2}?)(?=[.,;!]|$)`, 'gu'), who: 1, role: 2, org: 0, department: true },
];
const PREFERENCE_PATTERN = new RegExp(`\\b(${NAME}|[Ss]he|[Hh]e) (?:really )?(likes|loves|prefers|enjoys|hates|dislikes|is allergic to|can't stand) ([^.,;!?]+)`, 'gu');
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE_PATTERN = /(?:\+\d{1,3}[\s-]?)?(?:\(\d{2,4}\)[\s-]?)?\d{3}[\s-]?\d{3,4}[\s-]?\d{0,4}/g;
/** Words that end an organisation's capture but are not part of it. */
const ORG_TAIL = /(?: (?:Ltd|Inc|Co|Corp)(?=\.))?(?: (?:[Ll]ast|[Tt]his|[Nn]ext|[Tt]oday|[Yy]esterday|[Nn]ow|[Tt]here))+$/u;

interface Observation {
  name: string;
  role?: string;
  organisation?: string;
  relationships: { type: string; to: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
  evidence: string[];
  mentions: { timestamp: string; sentence: string }[];
  /** Said by or about them as a person (a role, a relation, a speaker): a name compromise missed is still kept. */
  personal: boolean;
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

function cleanOrg(raw: string): string | undefined {
  const org = trimPhrase(raw.replace(ORG_TAIL, ''));
  if (!org || /^(?:I|He|She|They|We|It|There|Here|Now|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/i.test(org)) return undefined;
  return org;
}

export function extractContacts(input: UpdaterInput): { ops: ContactOp[] } {
  const observations = new Map<string, Observation>();
  const observe = (rawName: string, recordId: string): Observation | undefined => {
    const name = cleanName(rawName);
    if (!name || /^(?:Dr|Mr|Mrs|Ms|Prof)\.?$/.test(name)) return undefined;
    // "Dana" after "Dana Whitfield" (or the other way round) is the same person.
    const key = [...observations.keys()].find((known) => sameName(known, name)) ?? name;
    let observation = observations.get(key);
    if (!observation) {
      observation = { name, relationships: [], preferences: [], channels: [], evidence: [], mentions: [], personal: false };
      observations.set(key, observation);
    }
    if (name.split(' ').length > observation.name.split(' ').length) observation.name = name;
    if (!observation.evidence.includes(recordId)) observation.evidence.push(recordId);
    return observation;
  };
  /** Organisations and places seen in the batch: a capitalised word that is one of them is not a person. */
  const organisations = new Set<string>((input.existing as unknown as KnownContact[]).flatMap((c) => (c.organisation ? [c.organisation.toLowerCase()] : [])));
  const places = new Set<string>();
  const knownNames = (input.existing as unknown as KnownContact[]).flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  /** The last person named in the batch, for "he runs purchasing there". */
  let lastPerson: Observation | undefined;

  for (const record of input.records) {
    const author = authorOf(record);
    const speaker = author.name ? observe(author.name, record.id) : undefined;
    if (speaker) speaker.personal = true;
    for (const [index, held] of heldSentences(author.content).entries()) {
      if (isSmallTalk(held) || looksLikeInstruction(held)) continue;
      const sentence = restoreDots(held);
      const deep = index < DEEP_SENTENCES_PER_RECORD;
      if (deep) {
        const doc = nlp(sentence);
        for (const place of doc.places().out('array') as string[]) places.add(trimPhrase(place).toLowerCase());
        for (const org of doc.organizations().out('array') as string[]) organisations.add(trimPhrase(org).toLowerCase());
      }
      const hypothetical = isHypothetical(held);
      const found: { at: number; who: string; org?: string; role?: string; department: boolean; leaves: boolean }[] = [];
      if (!hypothetical) {
        for (const rule of ROLE_RULES) {
          for (const match of held.matchAll(rule.pattern)) {
            const who = rule.who === 0 ? 'I' : match[rule.who]!;
            const org = rule.org ? (match[rule.org] ? cleanOrg(match[rule.org]!) : undefined) : undefined;
            const role = rule.role && match[rule.role] ? trimPhrase(match[rule.role]!.replace(/^the /, '')) : undefined;
            if (rule.jobNoun && role && !JOB_NOUN.test(role)) continue;
            if (role && /^(?:no longer|not|never|still|also|just|about|going|leaving|moving)\b/.test(role)) continue;
            // "works twice as fast as the other developer", "as hard as any nurse": a comparison, not a role.
            if (role && /\bas\b/.test(role)) continue;
            // "Maya's visiting the weekend of Oct 17", "Sam's coming with Maya": what someone is doing is not a role.
            if (role && !rule.department && /^\p{L}+ing\b/u.test(role) && !JOB_NOUN.test(role)) continue;
            if (!org && !role) continue;
            if (org && places.has(org.toLowerCase()) && !role) continue;
            if (org) organisations.add(org.toLowerCase());
            found.push({ at: match.index ?? 0, who, ...(org ? { org } : {}), ...(role ? { role } : {}), department: rule.department ?? false, leaves: rule.leaves ?? false });
          }
        }
      }
      const orgNames = [...organisations];
      const named = (deep ? personNames(sentence, orgNames) : [])
        .filter((name) => !places.has(name.toLowerCase()) && !organisations.has(name.toLowerCase()))
        // A question or a hypothetical ("should I call Tom?") mentions people already known; it introduces no one.
        .filter((name) => !hypothetical || [...observations.keys()].some((known) => sameName(known, cleanName(name) ?? name)) || knownNames.some((known) => sameName(known, cleanName(name) ?? name)))
        .map((name) => observe(name, record.id))
        .filter((o): o is Observation => !!o);
      for (const observation of named) observation.mentions.push({ timestamp: record.timestamp, sentence });
      const subject = (who: string): Observation | undefined => {
        if (/^(?:she|he|they)$/i.test(who)) return lastPerson;
        if (who === 'I') return speaker;
        if (organisations.has(who.toLowerCase())) return undefined;
        return observe(who, record.id);
      };
      // A sentence's own named people come first for its pronouns; then the last one named before it.
      const before = lastPerson;
      if (named.length > 0) lastPerson = named[0];
      // In reading order, so "Priya left Brightwell; she moved to Koru Labs" gives "she" to Priya.
      let current: Observation | undefined;
      for (const fact of found.sort((a, b) => a.at - b.at)) {
        const pronoun = /^(?:she|he|they|and)$/i.test(fact.who);
        const opensWithPronoun = /^(?:she|he|they)\b/i.test(sentence);
        const person = pronoun ? (current ?? (fact.who === 'and' && !opensWithPronoun ? undefined : (lastPerson ?? before))) : subject(fact.who);
        if (!person) continue;
        current = person;
        if (fact.leaves) {
          // Leaving clears the organisation (and the role held there) unless the same sentence names the next one.
          if (fact.org && person.organisation?.toLowerCase() === fact.org.toLowerCase()) person.organisation = undefined;
          person.personal = true;
          continue;
        }
        person.personal = true;
        if (fact.org) person.organisation = fact.org;
        if (fact.role) person.role = fact.department ? fact.role.replace(/^the /, '') : fact.role;
        if (!person.mentions.some((m) => m.sentence === sentence)) person.mentions.push({ timestamp: record.timestamp, sentence });
      }
      if (named.length > 0) lastPerson = named[named.length - 1];
      for (const match of held.matchAll(RELATION_PATTERN)) {
        const person = observe(match[2]!, record.id);
        if (person) {
          person.personal = true;
          addUnique(person.relationships, { type: match[1]!.toLowerCase(), to: author.key }, (r) => r.type);
        }
      }
      for (const match of held.matchAll(RELATION_REVERSE_PATTERN)) {
        const person = observe(match[1]!, record.id);
        if (person) {
          person.personal = true;
          addUnique(person.relationships, { type: match[2]!.toLowerCase(), to: author.key }, (r) => r.type);
        }
      }
      for (const match of held.matchAll(PREFERENCE_PATTERN)) {
        const person = subject(match[1]!);
        if (person) addUnique(person.preferences, `${match[2]} ${trimPhrase(match[3]!)}`, (p) => p.toLowerCase());
      }
      const target = named.length === 1 ? named[0] : named.length === 0 ? (speaker ?? lastPerson) : undefined;
      if (target) {
        for (const email of sentence.match(EMAIL_PATTERN) ?? []) addUnique(target.channels, { type: 'email', value: email }, (c) => c.value.toLowerCase());
        for (const phone of sentence.replace(EMAIL_PATTERN, '').match(PHONE_PATTERN) ?? []) {
          if (phone.replace(/\D/g, '').length >= 7) addUnique(target.channels, { type: 'phone', value: phone.trim() }, (c) => c.value);
        }
      }
    }
  }
  // A name that turned out to be an organisation or a place (and was never described as a person) is not a contact.
  for (const [key, observation] of observations) {
    const lower = observation.name.toLowerCase();
    if (!observation.personal && (places.has(lower) || [...organisations].some((org) => org === lower || org.includes(lower)))) observations.delete(key);
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
