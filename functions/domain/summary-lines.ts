/**
 * The lines of an extractive summary (the local model's and the verbatim
 * one): each dated and citing the records it was taken from,
 * `2026-11-02 [D3:5]: Booked the venue.`, so the evidence behind every line
 * stays with it up the ladders (a week's line keeps the record ids of the day
 * it came from) and into the context block. Record ids are printable ASCII
 * without spaces (domain/events.ts), so a space ends one.
 */

export interface SummaryLine {
  readonly date: string;
  /** Record ids the line rests on; empty for a line written before lines cited them. */
  readonly ids: readonly string[];
  readonly text: string;
}

const LINE = /^(\d{4}-\d{2}-\d{2})(?: \[(\S+(?:, \S+)*)\])?: (.*)$/s;

export function formatSummaryLine(line: SummaryLine): string {
  return `${line.date}${line.ids.length > 0 ? ` [${line.ids.join(', ')}]` : ''}: ${line.text}`;
}

/** A dated line, with the ids it cites; undefined for a line that is not one. */
export function parseSummaryLine(line: string): SummaryLine | undefined {
  const match = LINE.exec(line.trim());
  return match ? { date: match[1]!, ids: match[2] ? match[2].split(', ') : [], text: match[3]! } : undefined;
}

/** The date a summary's label already shows: a day's (time ladder, level 0); its lines need not repeat it. */
export function labelledDay(summary: { readonly ladder?: string; readonly level?: number }, from: string | undefined): string | undefined {
  return summary.ladder === 'time' && summary.level === 0 ? from?.slice(0, 10) : undefined;
}

/**
 * A summary of dated lines citing their records, as one compact run for a
 * context line: the date once per day, then `[ids] text` ("2026-11-02 [D3:5]
 * Booked the venue. [D3:7] Paid the deposit."; no date before the first line
 * when it is `dateShown`, a day's label). A dated line that cites nothing (a
 * day summarised verbatim without its ids, to fit its bound) is kept with its
 * date alone ("2026-11-03: Paid."). Undefined when a line is not a dated one
 * or none cites a record (a model's summary): the caller cites the summary's
 * sources instead.
 */
export function citedRun(text: string, dateShown?: string): string | undefined {
  const parsed = text.split('\n').filter((l) => l.trim()).map(parseSummaryLine);
  if (parsed.length === 0 || parsed.some((l) => !l) || parsed.every((l) => l!.ids.length === 0)) return undefined;
  return joinRun((parsed as SummaryLine[]).map((l) => ({ ...l, text: l.text.trim() })), dateShown);
}

/** The text without the ids its lines cite (as stored, or as a run): what search and embeddings read of a summary. */
export function withoutCitations(text: string): string {
  return text
    .replace(/^(\d{4}-\d{2}-\d{2}) \[\S+(?:, \S+)*\]: /gm, '$1: ')
    .replace(/(^|\s)\[\S+(?:, \S+)*\] /g, '$1')
    // A contact's "Said:" clause ends with the id it was read from: "has two dogs [D1:19];".
    .replace(/ \[\S+(?:, \S+)*\](?=[;.]|$)/gm, '');
}

/**
 * What an extractive summary's lines cost against a level's bound: their words and dates, and each id they cite
 * as a short one (`ID_TOKENS`, what " [D3:5]" or ", conv2-13" costs). A long id (a client's 34-character event id
 * is about 25 tokens) then neither crowds out the lines it cites nor makes a quiet day a model call.
 */
export const ID_TOKENS = 5;

export function summaryTokens(text: string, countTokens: (text: string) => number): number {
  let ids = 0;
  for (const line of text.split('\n')) ids += parseSummaryLine(line)?.ids.length ?? 0;
  return countTokens(ids > 0 ? withoutCitations(text) : text) + ids * ID_TOKENS;
}

/** One line of a cited run: its date (the last one the run states before it, if any), the ids it cites, its text. */
export interface RunPart {
  readonly date?: string;
  readonly ids: readonly string[];
  readonly text: string;
}

/** Where a part of a run starts: "2026-11-02 [r1] ", "[r2, r3] ", or a part citing nothing, "2026-11-03: ". */
const RUN_MARK = /(?:^|\s)(?:(?:(\d{4}-\d{2}-\d{2}) )?\[(\S+(?:, \S+)*)\] |(\d{4}-\d{2}-\d{2}): )/g;

/** The lines of a cited run (`citedRun`), each with the date stated before it, if any. */
export function splitRun(run: string): RunPart[] {
  const marks = [...run.matchAll(RUN_MARK)];
  let date: string | undefined;
  return marks.map((mark, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.index : run.length;
    date = mark[1] ?? mark[3] ?? date;
    return { ...(date ? { date } : {}), ids: mark[2] ? mark[2].split(', ') : [], text: run.slice(mark.index + mark[0].length, end).trim() };
  });
}

/** Parts of a run joined again, each date stated where it changes (`dateShown`: the date already said). */
export function joinRun(parts: readonly RunPart[], dateShown?: string): string {
  let lastDate = dateShown;
  return parts
    .map((part) => {
      // A part citing nothing always states its date: it is what marks where the part starts.
      if (part.ids.length === 0) {
        lastDate = part.date ?? lastDate;
        return lastDate ? `${lastDate}: ${part.text}` : part.text;
      }
      const head = part.date && part.date !== lastDate ? `${part.date} [${part.ids.join(', ')}]` : `[${part.ids.join(', ')}]`;
      lastDate = part.date ?? lastDate;
      return `${head} ${part.text}`;
    })
    .join(' ');
}

/** The ids a rendered run cites. */
export function runIds(run: string): string[] {
  return [...run.matchAll(RUN_MARK)].flatMap((mark) => (mark[2] ? mark[2].split(', ') : []));
}
