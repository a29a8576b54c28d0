/**
 * Text helpers for the local model adapter, over well-kept NLP libraries:
 * compromise (person names, verb lemmas) and chrono-node (relative dates,
 * resolved against each message's own timestamp).
 */
import nlp from 'compromise';
import { countTokens } from '../../../commons/tokens.js';

export { countTokens };

export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

const SMALL_TALK = [
  /^(hi|hey|hello|good (morning|afternoon|evening)|thanks|thank you|cheers|ok(ay)?|cool|great|nice|lol|haha|bye|see you|talk (soon|later)|sure|yes|no|yeah|nope)\b[\s!.,]*$/i,
  /\bhow are you\b|\bhow('s| is) it going\b|\bwhat'?s up\b/i,
  /\b(the )?weather\b|\b(it'?s|so) (sunny|rainy|cold|hot|warm)\b/i,
  /\bhave a (good|great|nice) (day|weekend|evening|one)\b/i,
];

/** Greetings, thanks, weather and other remarks with nothing to keep. */
export function isSmallTalk(sentence: string): boolean {
  const words = sentence.split(/\s+/).filter(Boolean);
  return words.length < 3 || SMALL_TALK.some((pattern) => pattern.test(sentence));
}

/** "Actually, ...", "Sorry, I meant ...", "Correction: ..." */
export function isCorrection(sentence: string): boolean {
  return /^(actually|correction|sorry,? i meant|sorry,? it'?s|no wait|wait,? no|i was wrong|i misspoke|to correct myself)\b/i.test(sentence.trim());
}

export { anchorRelativeDates, resolveDate } from '../../../domain/dates.js';

const NOT_NAMES = new Set(
  [
    'i', 'me', 'you', 'we', 'they', 'he', 'she', 'it', 'the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'monday', 'tuesday',
    'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
    'september', 'october', 'november', 'december', 'today', 'tomorrow', 'yesterday', 'hi', 'hey', 'hello', 'thanks', 'ok', 'okay',
    'actually', 'also', 'and', 'but', 'so', 'please', 'can', 'could', 'would', 'remind', 'ai', 'assistant', 'user', 'mom', 'dad',
    'christmas', 'easter', 'god', 'sorry', 'yes', 'no', 'great', 'cool', 'nice', 'good', 'well', 'just', 'maybe', 'sure', 'let',
  ].map((word) => word.toLowerCase()),
);

const RELATIONS = 'sister|brother|wife|husband|partner|boss|manager|colleague|coworker|friend|mother|father|son|daughter|cousin|neighbou?r|assistant|client|doctor|dentist|lawyer|accountant|mentor|landlord|aunt|uncle|niece|nephew|girlfriend|boyfriend|fiancée?|roommate|teammate';
export const RELATION_PATTERN = new RegExp(`\\b[Mm]y (?:(?:new|old|best|former) )?(${RELATIONS}),? ([A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?)`, 'gu');
export const RELATION_REVERSE_PATTERN = new RegExp(`\\b([A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?),? (?:is|was) my (?:(?:new|old|best|former) )?(${RELATIONS})\\b`, 'gu');

const NAME = `[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?`;
const MENTION_PATTERN = new RegExp(`\\b(?:with|to|from|met|meet|meeting|call|called|email|emailed|text|texted|told|asked|invite|invited|and|for|about|thank|thanked) (${NAME})`, 'gu');

export function cleanName(raw: string): string | undefined {
  const name = raw
    .replace(/['’]s$/u, '')
    .replace(/[.,;:!?)"]+$/u, '')
    .replace(/^(?:my |the )/i, '')
    .replace(new RegExp(`^(?:${RELATIONS}) `, 'iu'), '')
    .trim();
  if (!name || !/^[A-Z]/u.test(name)) return undefined;
  const words = name.split(' ');
  if (words.some((word) => NOT_NAMES.has(word.toLowerCase()))) return undefined;
  if (words.length > 3) return undefined;
  return name;
}

/**
 * Person names in a sentence: compromise's people, names after a relation
 * ("my sister Elena") and names after verbs and prepositions that take a
 * person ("met Priya"), minus organisations found in the same sentence.
 */
export function personNames(sentence: string, organisations: readonly string[] = []): string[] {
  const found = new Set<string>();
  const doc = nlp(sentence);
  for (const raw of doc.people().out('array') as string[]) {
    const name = cleanName(raw);
    if (name) found.add(name);
  }
  for (const pattern of [RELATION_PATTERN, MENTION_PATTERN]) {
    for (const match of sentence.matchAll(pattern)) {
      const name = cleanName(match[pattern === RELATION_PATTERN ? 2 : 1]!);
      if (name) found.add(name);
    }
  }
  for (const match of sentence.matchAll(RELATION_REVERSE_PATTERN)) {
    const name = cleanName(match[1]!);
    if (name) found.add(name);
  }
  const orgs = organisations.map((org) => org.toLowerCase());
  // Drop a bare first name when the full name is also present.
  const names = [...found].filter((name) => !orgs.some((org) => org.includes(name.toLowerCase())));
  return names.filter((name) => !names.some((other) => other !== name && other.startsWith(`${name} `)));
}

/** The infinitive form of the verbs in a phrase ("sent the contract" → "send the contract"). */
export function toInfinitive(phrase: string): string {
  const doc = nlp(phrase);
  doc.verbs().toInfinitive();
  return doc.text();
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function trimPhrase(text: string): string {
  return text
    .replace(/^[\s,:;-]+|[\s,.;:!?-]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
