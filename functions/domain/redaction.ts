/**
 * Redaction of secrets and configured PII in text, before anything is derived
 * from it. Pure and synchronous: the service's own rules live here; findings
 * of the secretlint preset (functions/use-cases/redaction.ts) are passed in
 * as spans and merged with them. Every pattern is linear in its input: no
 * nested quantifiers, every repetition bounded or over a class that cannot
 * overlap what follows it.
 */

export type PiiMode = 'keep' | 'mask' | 'drop';

export interface RedactionPolicy {
  readonly email: PiiMode;
  readonly phone: PiiMode;
  /** Postal addresses: street lines, P.O. boxes and postcodes. @default 'keep' */
  readonly address?: PiiMode;
}

export const DEFAULT_REDACTION_POLICY: RedactionPolicy = { email: 'keep', phone: 'keep', address: 'keep' };

const modeOf = (policy: RedactionPolicy, kind: keyof RedactionPolicy): PiiMode => policy[kind] ?? 'keep';

/** One stretch of text to replace: `[start, end)` and the placeholder's type. */
export interface Finding {
  readonly start: number;
  readonly end: number;
  /** `secret:<kind>` or `pii:<kind>`. */
  readonly type: string;
}

export interface Redacted {
  readonly text: string;
  /** Replacements by type (`secret:password` → 2). */
  readonly counts: Readonly<Record<string, number>>;
}

/** Zero-width characters and bidirectional controls: invisible, so text can hide instructions or split a secret with them. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u180E]/g;
/** C0 and C1 controls other than tab, newline and carriage return. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Unicode NFKC, invisible and control characters removed: the form every screen and every stored string sees. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(CONTROL, '');
}

interface Rule {
  readonly type: string;
  readonly pattern: RegExp;
  /** Capture groups that hold the value to replace, the first that matched wins (the whole match when absent). */
  readonly groups?: readonly number[];
  /** A further check on the matched text (Luhn, digit counts). */
  readonly accept?: (value: string) => boolean;
}

/** Values after "password is" that are words, not passwords ("the password is wrong"). */
const NOT_A_VALUE = new Set([
  'a', 'an', 'the', 'in', 'on', 'at', 'not', 'no', 'wrong', 'correct', 'right', 'incorrect', 'invalid', 'expired', 'same', 'still',
  'too', 'very', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'written', 'saved', 'stored', 'required', 'needed', 'missing',
  'changed', 'reset', 'set', 'empty', 'blank', 'secret', 'private', 'unknown', 'there', 'here', 'what', 'something', 'being', 'also',
  'now', 'just', 'only', 'easy', 'hard', 'weak', 'strong', 'long', 'short', 'case', 'sensitive',
]);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const SECRET_RULES: readonly Rule[] = [
  {
    type: 'secret:private-key',
    // The body's class excludes '-', so the match stops at the END line (or the text's end).
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[A-Za-z0-9+/=\s:,.]*(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----)?/g,
  },
  { type: 'secret:connection-string', pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,256}:[^\s@/]{1,256}@[^\s"'<>]{1,512}/g },
  { type: 'secret:bearer-token', pattern: /\b[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{16,4096}=*)/g, groups: [1] },
  { type: 'secret:token', pattern: /\beyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,4096}/g },
  { type: 'secret:aws-access-key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { type: 'secret:api-key', pattern: /\bsk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,512}/g },
  { type: 'secret:api-key', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}|xox[abprs]-[A-Za-z0-9-]{10,255}|AIza[0-9A-Za-z_-]{35}|[rs]k_(?:live|test)_[0-9A-Za-z]{16,255}|npm_[A-Za-z0-9]{36})\b/g },
  {
    type: 'secret:password',
    // "my password is hunter2", "wifi password: x", "the PIN for the door is 4411", "api key = abc".
    pattern:
      /\b(?:pass(?:word|code|phrase)?|passwd|pwd|pin(?: code| number)?|api[ _-]?key|secret[ _-]?key|access[ _-]?key|private[ _-]?key)(?:[ \t]+(?:for|to|of)[ \t]+[^\n:=]{1,40}?)?[ \t]*(?:(?:is|was|will be|is now|=|:|->)[ \t]*)(?:"([^"\n]{1,128})"|'([^'\n]{1,128})'|\u201C([^\u201D\n]{1,128})\u201D|([^\s"'\u201C\u201D\u2018\u2019]{1,128}))/gi,
    groups: [1, 2, 3, 4],
    accept: (value) => !NOT_A_VALUE.has(value.replace(/[.,;!?)]+$/, '').toLowerCase()) && value.replace(/[.,;!?)]+$/, '') !== '',
  },
  {
    type: 'secret:card-number',
    pattern: /(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])/g,
    accept: (value) => {
      const digits = value.replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhn(digits);
    },
  },
];

/** Street types written after the street's name ("Baker Street", "Elm Rd"). */
const STREET_AFTER = 'Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|Court|Ct|Way|Place|Pl|Square|Sq|Terrace|Close|Crescent|Parkway|Pkwy|Highway|Hwy|Row|Mews|Gardens|Grove';
/** Street types written before it ("Rue de Rivoli", "Calle Mayor"). */
const STREET_BEFORE = 'Rue|Avenue|Boulevard|Chemin|Allée|Impasse|Quai|Calle|Avenida|Paseo|Via|Viale|Piazza|Rua|Praça|Plaza|Carrer|Travessa';
/** The same, as written after a number in French, Spanish or Portuguese ("12 rue de Rivoli"). */
const STREET_BEFORE_LOWER = 'rue|avenue|boulevard|chemin|allée|impasse|quai|calle|avenida|paseo|rua|praça|plaza|carrer|travessa';
/** A word of a street's name: capitalised, or one of the particles names are joined with. */
const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}'-]{0,30}|d[aeiou]s?|del|la|le|les|l'\p{Lu}[\p{L}-]{0,30}|d'\p{Lu}[\p{L}-]{0,30})`;

/** Postal addresses. Every repetition is bounded and ends at a character its class cannot contain. */
const ADDRESS_PATTERNS: readonly RegExp[] = [
  // 221B Baker Street, 12 North Elm Rd: a number, one to four capitalised words, a street type.
  new RegExp(String.raw`\b\d{1,5}[A-Za-z]?,? (?:\p{Lu}[\p{L}'-]{0,30} ){1,4}(?:${STREET_AFTER})\b\.?`, 'gu'),
  // 12 rue de Rivoli, 3, Calle Mayor: a number, a street type, one to four words of its name.
  new RegExp(String.raw`\b\d{1,5}[a-z]?,? (?:${STREET_BEFORE}|${STREET_BEFORE_LOWER})(?: ${NAME_WORD}){1,4}`, 'gu'),
  // Rue de Rivoli 12, Calle Mayor 3: a street type, one to four words of its name, a number.
  new RegExp(String.raw`\b(?:${STREET_BEFORE})(?: ${NAME_WORD}){1,4},? \d{1,5}[a-z]?\b`, 'gu'),
  // Hauptstraße 5, Keizersgracht 123, Dorfgasse 7a: one compound word ending in a street type, a number.
  /\b\p{Lu}[\p{L}-]{1,30}(?:straße|strasse|str\.|gasse|weg|allee|platz|gracht|straat|laan|plein|kade|vej|gatan|vägen|veien|gata)\.? \d{1,5}[a-z]?\b/gu,
  // P.O. Box 4410, PO Box 12.
  /\bP\.? ?O\.? Box \d{1,7}\b/g,
  // UK postcodes (SW1A 1AA, NW1 6XE).
  /\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b/g,
  // A city, a US state and a ZIP code (Springfield, IL 62701; Austin, TX 78701-1234).
  /\p{Lu}[\p{L}.'-]{1,30}, (?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]) \d{5}(?:-\d{4})?\b/gu,
];

const PII_RULES: Readonly<Record<'email' | 'phone', Rule>> = {
  email: { type: 'pii:email', pattern: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g },
  phone: {
    type: 'pii:phone',
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4}(?![\w])/g,
    accept: (value) => {
      const digits = value.replace(/\D/g, '').length;
      // Dates (2026-11-02) and times are not phone numbers.
      return digits >= 7 && digits <= 15 && !/^\d{4}-\d{2}-\d{2}$/.test(value) && !/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(value);
    },
  },
};

function findAll(text: string, rule: Rule): Finding[] {
  const findings: Finding[] = [];
  const pattern = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('d', '')}d`);
  for (const match of text.matchAll(pattern)) {
    const indices = match.indices!;
    const group = rule.groups?.find((index) => indices[index] !== undefined);
    const span = group !== undefined ? indices[group] : rule.groups ? undefined : indices[0];
    if (!span) continue;
    let [start, end] = span;
    let value = text.slice(start, end);
    if (group !== undefined) {
      // Sentence punctuation after a stated value is not part of it.
      const trimmed = value.replace(/[.,;!?)]+$/, '');
      end = start + trimmed.length;
      value = trimmed;
    }
    if (end <= start) continue;
    if (rule.accept && !rule.accept(group !== undefined ? value : match[0])) continue;
    findings.push({ start, end, type: rule.type });
  }
  return findings;
}

/** The service's own findings in `text` under `policy` (secrets always; PII unless kept). */
export function findSensitive(text: string, policy: RedactionPolicy = DEFAULT_REDACTION_POLICY): Finding[] {
  const findings = SECRET_RULES.flatMap((rule) => findAll(text, rule));
  for (const kind of Object.keys(PII_RULES) as (keyof typeof PII_RULES)[]) {
    if (modeOf(policy, kind) !== 'keep') findings.push(...findAll(text, PII_RULES[kind]));
  }
  if (modeOf(policy, 'address') !== 'keep') {
    for (const pattern of ADDRESS_PATTERNS) findings.push(...findAll(text, { type: 'pii:address', pattern }));
  }
  return findings;
}

/**
 * Replaces every finding by its typed placeholder (`[secret:password]`;
 * PII in `drop` mode by nothing). Overlapping findings are merged into the
 * first one; `findings` from elsewhere (secretlint) join the service's own.
 */
export function redactText(text: string, policy: RedactionPolicy = DEFAULT_REDACTION_POLICY, findings: readonly Finding[] = []): Redacted {
  const all = [...findings, ...findSensitive(text, policy)].sort((a, b) => a.start - b.start || b.end - a.end);
  if (all.length === 0) return { text, counts: {} };
  const counts: Record<string, number> = {};
  let output = '';
  let cursor = 0;
  for (const finding of all) {
    if (finding.start < cursor) {
      // Overlaps the previous replacement: extend it rather than leave a tail of the secret.
      if (finding.end > cursor) cursor = finding.end;
      continue;
    }
    output += text.slice(cursor, finding.start);
    const drop = finding.type.startsWith('pii:') && modeOf(policy, finding.type.slice(4) as keyof RedactionPolicy) === 'drop';
    output += drop ? '' : `[${finding.type}]`;
    counts[finding.type] = (counts[finding.type] ?? 0) + 1;
    cursor = finding.end;
  }
  output += text.slice(cursor);
  return { text: output, counts };
}

const PLACEHOLDER = /\[((?:secret|pii):[a-z-]{1,40})\]/g;

/**
 * The placeholders redaction left in these texts, by type (dropped PII leaves
 * none, so it is not counted): what an audit entry notes, never the secret.
 */
export function placeholderCounts(texts: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const text of texts) for (const match of text.matchAll(PLACEHOLDER)) counts[match[1]!] = (counts[match[1]!] ?? 0) + 1;
  return counts;
}

