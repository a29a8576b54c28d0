/**
 * Local fact extraction into two tables, `profile` (subject, attribute,
 * value) and `preferences` (subject, preference, polarity). Small talk,
 * questions and instruction-like text are skipped; a remark corrected later
 * in the batch is dropped in favour of the correction; date values are
 * resolved against the message's own timestamp into a `date` column, which is
 * added to `profile` (existing rows migrated) the first time it is needed.
 */
import type { FactOp, FactTable } from '../../../domain/memory.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { isCorrection, isSmallTalk, resolveDate, sentences, trimPhrase } from './text.js';

const PROFILE: FactTable = { name: 'profile', columns: ['subject', 'attribute', 'value'], key: ['subject', 'attribute'] };
const PREFERENCES: FactTable = { name: 'preferences', columns: ['subject', 'preference', 'polarity'], key: ['subject', 'preference'] };
const DATE_ATTRIBUTES = /birthday|anniversary|date|deadline|wedding|due|appointment|flight|trip|start/i;

interface Candidate {
  table: 'profile' | 'preferences';
  row: Record<string, string | null>;
  statement: string;
  correction: boolean;
  evidence: string[];
}

const VALUE = `([^.,;!?]+?)`;
const END = `(?=[.,;!?]|$| (?:and|but|so|since|because)\\b)`;
const PATTERNS: { pattern: RegExp; build: (m: RegExpMatchArray) => Omit<Candidate, 'correction' | 'evidence' | 'statement'> | undefined }[] = [
  {
    pattern: new RegExp(`\\bmy (?!name\\b)([a-z][a-z ]{1,30}?) (?:is|are) (?:now )?(?:actually )?${VALUE}${END}`, 'giu'),
    build: (m) => profile('user', m[1]!, m[2]!),
  },
  { pattern: new RegExp(`\\bmy name is ${VALUE}${END}`, 'giu'), build: (m) => profile('user', 'name', m[1]!) },
  { pattern: new RegExp(`\\bi (?:now )?live in ${VALUE}${END}`, 'giu'), build: (m) => profile('user', 'home city', m[1]!) },
  { pattern: new RegExp(`\\bi(?:'ve| have)? (?:just )?moved to ${VALUE}${END}`, 'giu'), build: (m) => profile('user', 'home city', m[1]!) },
  { pattern: new RegExp(`\\bi work (?:at|for) ${VALUE}${END}`, 'giu'), build: (m) => profile('user', 'employer', m[1]!) },
  { pattern: new RegExp(`\\bi(?:'m| am) (?:a|an) ((?:[a-z]+ ){0,2}(?:engineer|designer|teacher|doctor|nurse|lawyer|developer|manager|writer|student|founder|consultant|architect|analyst|researcher|chef|artist))\\b`, 'giu'), build: (m) => profile('user', 'occupation', m[1]!) },
  { pattern: /\bi(?:'m| am) (vegetarian|vegan|pescatarian|gluten[- ]free|lactose intolerant)\b/giu, build: (m) => profile('user', 'diet', m[1]!) },
  { pattern: new RegExp(`\\bi(?:'m| am) allergic to ${VALUE}${END}`, 'giu'), build: (m) => preference('user', m[1]!, 'allergic') },
  {
    pattern: new RegExp(`\\b([A-Z][\\p{L}-]+)'s (birthday|anniversary|phone number|address|email|favou?rite [a-z]+) is (?:on )?${VALUE}${END}`, 'gu'),
    build: (m) => profile(m[1]!, m[2]!, m[3]!),
  },
  {
    pattern: new RegExp(`\\bi (?:really |absolutely )?(?:like|love|prefer|enjoy|adore) ${VALUE}${END}`, 'giu'),
    build: (m) => preference('user', m[1]!, 'likes'),
  },
  {
    pattern: new RegExp(`\\bi (?:really )?(?:hate|dislike|can't stand|cannot stand|don't like|do not like) ${VALUE}${END}`, 'giu'),
    build: (m) => preference('user', m[1]!, 'dislikes'),
  },
  { pattern: new RegExp(`\\bmy favou?rite ([a-z]+) is ${VALUE}${END}`, 'giu'), build: (m) => profile('user', `favourite ${m[1]}`, m[2]!) },
];

function profile(subject: string, attribute: string, value: string) {
  const cleanValue = trimPhrase(value.replace(/^(?:actually|now|still) /i, ''));
  if (!cleanValue || cleanValue.split(' ').length > 8) return undefined;
  return { table: 'profile' as const, row: { subject: subject.toLowerCase() === 'i' ? 'user' : subject, attribute: trimPhrase(attribute.toLowerCase()), value: cleanValue } };
}

function preference(subject: string, what: string, polarity: string) {
  const item = trimPhrase(what.replace(/^(to |the )/i, ''));
  if (!item || item.split(' ').length > 8 || /^(it|that|this|you)$/i.test(item)) return undefined;
  return { table: 'preferences' as const, row: { subject, preference: item.toLowerCase(), polarity } };
}

/** "Actually it's the 5th" corrects the previous fact's value without naming the attribute. */
const BARE_CORRECTION = new RegExp(`^(?:actually|sorry|correction|no wait|wait,? no)[,:]? (?:it'?s|it is|that'?s|that is|i meant) (?:actually )?${VALUE}(?:,? not [^.!?]+)?[.!]?$`, 'iu');

export function extractFacts(input: UpdaterInput): { ops: FactOp[] } {
  const candidates: Candidate[] = [];
  for (const record of input.records) {
    if (record.type !== 'message' || record.role === 'assistant' || record.role === 'tool') continue;
    for (const sentence of sentences(record.content)) {
      if (isSmallTalk(sentence) || sentence.trim().endsWith('?') || looksLikeInstruction(sentence)) continue;
      const correction = isCorrection(sentence);
      let matched = false;
      for (const { pattern, build } of PATTERNS) {
        for (const match of sentence.matchAll(pattern)) {
          const found = build(match);
          if (!found) continue;
          matched = true;
          const candidate = { ...found, row: withDate(found.row, record.timestamp), statement: trimPhrase(sentence), correction, evidence: [record.id] };
          supersedeWithinBatch(candidates, candidate);
          candidates.push(candidate);
        }
      }
      const bare = !matched && correction ? BARE_CORRECTION.exec(sentence) : null;
      const previous = candidates[candidates.length - 1];
      if (bare && previous && previous.table === 'profile') {
        const row = withDate({ ...previous.row, value: trimPhrase(bare[1]!) }, record.timestamp);
        candidates.pop();
        candidates.push({ ...previous, row, statement: `${previous.row.attribute} of ${previous.row.subject}: ${row.value} (corrected)`, correction: true, evidence: [...previous.evidence, record.id] });
      }
    }
  }

  const ops: FactOp[] = [];
  const tables = new Map(input.tables.map((t) => [t.name, t]));
  for (const wanted of [PROFILE, PREFERENCES]) {
    if (!tables.has(wanted.name) && candidates.some((c) => c.table === wanted.name)) {
      ops.push({ op: 'create_table', table: wanted.name, columns: [...wanted.columns], key: [...wanted.key] });
      tables.set(wanted.name, wanted);
    }
  }
  if (candidates.some((c) => c.row.date) && !tables.get('profile')?.columns.includes('date')) {
    ops.push({ op: 'add_column', table: 'profile', column: 'date', default: null });
  }
  for (const candidate of candidates) {
    ops.push({
      op: 'add',
      table: candidate.table,
      row: candidate.row,
      statement: candidate.statement,
      ...(candidate.correction ? { correction: true } : {}),
      confidence: candidate.correction ? 0.85 : 0.7,
      evidence: candidate.evidence,
    });
  }
  return { ops };
}

function withDate(row: Record<string, string | null>, timestamp: string): Record<string, string | null> {
  if (row.attribute === undefined || !DATE_ATTRIBUTES.test(row.attribute ?? '')) return row;
  const date = resolveDate(row.value ?? '', timestamp);
  return date ? { ...row, date: date.iso } : row;
}

/** Within one batch, a correction replaces the remark it corrects. */
function supersedeWithinBatch(candidates: Candidate[], next: Candidate): void {
  if (!next.correction) return;
  const key = (c: Candidate) => `${c.table}\u0000${c.row.subject}\u0000${c.row.attribute ?? c.row.preference}`;
  for (let i = candidates.length - 1; i >= 0; i -= 1) {
    if (key(candidates[i]!) === key(next)) {
      next.evidence.unshift(...candidates[i]!.evidence);
      candidates.splice(i, 1);
    }
  }
}
