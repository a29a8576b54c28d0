/**
 * Date helpers over chrono-node, pure: relative expressions resolved against
 * the time a record was written, so text read months later needs no
 * arithmetic. Used by the local model adapter and by the retrieval index.
 */
import * as chrono from 'chrono-node';

/** Resolves the first date in `text` against `reference`; returns an ISO date (YYYY-MM-DD). */
export function resolveDate(text: string, reference: string, forward = false): { iso: string; text: string } | undefined {
  // In chat, "bc" is "because" ("moved to nov 5 bc the dr is out"), never an era: no year before 1000 is meant.
  const [result] = chrono.parse(text.replace(ERA, (era) => ' '.repeat(era.length)), new Date(reference), { forwardDate: forward });
  if (!result) return bareDayOfMonth(text, reference);
  const date = result.start.date();
  if (date.getUTCFullYear() < 1000) return undefined;
  const iso = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
  return { iso, text: result.text.trimEnd() };
}

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
/** Relative time expressions a reader cannot place without the date they were said on. */
const RELATIVE_BACK = new RegExp(`\\b(?:yesterday|the day before yesterday|last night|(?:${NUMBER_WORDS}) (?:days?|weeks?|months?|years?) ago|last (?:week|weekend|month|year|${WEEKDAYS})|this past (?:weekend|${WEEKDAYS}))\\b`, 'i');
const RELATIVE_FORWARD = new RegExp(`\\b(?:tomorrow|the day after tomorrow|next (?:week|weekend|month|year|${WEEKDAYS})|in (?:${NUMBER_WORDS}) (?:days?|weeks?|months?)|by (?:${WEEKDAYS}|tomorrow))\\b`, 'i');

/** The date `anchorRelativeDates` puts after an expression: "(2025-01-14)", "(2024-11)", "(2024)". */
export const ANCHORED_DATE = /\(\d{4}(?:-\d{2}){0,2}\)/;

/**
 * The first relative time expression in a sentence followed by the date it
 * means, said at `reference`: "Yesterday I ran" → "Yesterday (2025-01-14) I
 * ran", "last year" → "last year (2024)", "two months ago" → "(2024-11)".
 * Memory read weeks later then needs no arithmetic. Sentences without one are
 * returned unchanged.
 */
export function anchorRelativeDates(sentence: string, reference: string): string {
  for (const [pattern, forward] of [[RELATIVE_BACK, false], [RELATIVE_FORWARD, true]] as const) {
    const match = pattern.exec(sentence);
    if (!match) continue;
    const resolved = resolveDate(match[0].replace(/^by /i, ''), reference, forward);
    if (!resolved || resolved.iso === reference.slice(0, 10)) return sentence;
    const end = match.index + match[0].length;
    // "last year" is a year and "two months ago" a month: a day would say more than was said.
    const unit = /\byears?\b/i.test(match[0]) ? 4 : /\bmonths?\b/i.test(match[0]) ? 7 : 10;
    return `${sentence.slice(0, end)} (${resolved.iso.slice(0, unit)})${sentence.slice(end)}`;
  }
  return sentence;
}
