/**
 * Local extractive summaries within a token budget: the most informative
 * sentences of the sources (named people, dates and numbers, commitments,
 * decisions and facts score high; small talk and instruction-like text are
 * dropped), kept in time order, each with its date and the record it came
 * from (domain/summary-lines.ts). Relative dates in raw
 * records ("yesterday", "last Tuesday", "by Friday") are anchored with the
 * date they mean, so the summary reads right long after.
 */
import { looksLikeInstruction } from '../../../domain/instructions.js';
import { formatSummaryLine, parseSummaryLine, summaryTokens } from '../../../domain/summary-lines.js';
import type { SummaryInput } from '../../../ports/model.js';
import { anchorRelativeDates, countTokens, isSmallTalk, sentences } from './text.js';

const SIGNALS: readonly [RegExp, number][] = [
  [/\b(remind|need to|have to|must|deadline|due|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next))\b/i, 3],
  [/\b(joined|moved|started|left|hired|promoted|married|born|birthday|anniversary|decided|agreed|booked|signed|sent|finished|completed|cancelled)\b/i, 3],
  [/\b(my|our) [a-z]+ (is|are|was)\b/i, 2],
  [/\b(i (love|like|prefer|hate|live|work))\b/i, 2],
  [/\d/, 1],
  [/(?<!^)\b[A-Z][a-z]+/, 2],
];

const MIN_SCORE = 2;

function score(sentence: string, role: string | undefined): number {
  let total = role === 'user' ? 1 : 0;
  for (const [pattern, weight] of SIGNALS) if (pattern.test(sentence)) total += weight;
  return total + Math.min(2, sentence.split(' ').length / 12);
}

export function summariseExtractively(input: SummaryInput): { text: string } {
  const candidates: { at: string; ids: readonly string[]; order: number; text: string; score: number }[] = [];
  let order = 0;
  for (const source of input.sources) {
    for (const line of source.text.split('\n')) {
      // Child summaries carry "YYYY-MM-DD [ids]: sentence" lines; keep their own dates and ids. A record cites itself.
      const dated = parseSummaryLine(line);
      const at = dated ? dated.date : source.at.slice(0, 10);
      const ids = dated ? dated.ids : source.role !== undefined ? [source.id] : [];
      for (const sentence of sentences(dated ? dated.text : line)) {
        if (isSmallTalk(sentence) || looksLikeInstruction(sentence) || /^no notable activity/i.test(sentence)) continue;
        const value = score(sentence, source.role);
        // A sentence with no signal at all (no name, date, number, decision or commitment) is filler.
        if (value < MIN_SCORE) continue;
        candidates.push({ at, ids, order: order++, text: dated ? sentence : anchorRelativeDates(sentence, source.at), score: value });
      }
    }
  }
  const seen = new Set<string>();
  const kept: typeof candidates = [];
  let tokens = 0;
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score || a.order - b.order)) {
    const key = candidate.text.toLowerCase();
    if (seen.has(key)) continue;
    // Each id counts as a short one: a long id does not crowd out the lines it cites.
    const cost = summaryTokens(formatSummaryLine({ date: candidate.at, ids: candidate.ids, text: candidate.text }), countTokens) + 1;
    if (tokens + cost > input.maxTokens) continue;
    seen.add(key);
    kept.push(candidate);
    tokens += cost;
  }
  if (kept.length === 0) return { text: `No notable activity from ${input.from} to ${input.to}.` };
  return { text: kept.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order).map((c) => formatSummaryLine({ date: c.at, ids: c.ids, text: c.text })).join('\n') };
}
