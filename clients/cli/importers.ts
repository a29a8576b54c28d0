/**
 * Files the CLI imports, turned into events: JSON Lines of events, the
 * LoCoMo-style corpus the evaluation reads (scripts/eval/corpus.ts parses
 * it), and a plain chat export (`speaker: text` per line, dated from a start
 * time at a fixed interval). Parsing is pure; ids are the client's
 * deterministic ones, so importing the same file again sends the same ids.
 */
import { parseCorpus, turnEvent } from '../../scripts/eval/corpus.js';
import type { EventInput } from '../typescript/src/index.js';

export class ImportError extends Error {}

export type ImportFormat = 'jsonl' | 'locomo' | 'chat';

export interface ImportBatch {
  readonly agentId: string;
  readonly events: EventInput[];
}

export function detectFormat(file: string, text: string): ImportFormat {
  if (/\.jsonl$/i.test(file)) return 'jsonl';
  if (/\.json$/i.test(file)) return 'locomo';
  const first = text.trimStart();
  if (first.startsWith('[')) return 'locomo';
  if (first.startsWith('{')) return text.trim().includes('\n') ? 'jsonl' : 'locomo';
  return 'chat';
}

/** `30s`, `2m`, `1h`, `500ms` or a number of seconds. */
export function parseInterval(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new ImportError(`--interval ${JSON.stringify(value)} must be like 30s, 2m, 1h or 500ms`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

export function parseJsonLines(text: string): EventInput[] {
  const events: EventInput[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ImportError(`line ${index + 1}: not valid JSON`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ImportError(`line ${index + 1}: must be a JSON object (one event)`);
    const event = value as Record<string, unknown>;
    events.push({ type: 'message', role: 'user', ...event } as EventInput);
  });
  return events;
}

export interface ChatOptions {
  /** ISO date-time of the first line. */
  readonly start: string;
  readonly intervalMs: number;
  /** Speakers whose lines are the assistant's; everyone else is a user. */
  readonly assistants?: readonly string[];
}

/**
 * One `speaker: text` line per message; a line without a speaker continues
 * the previous message. The speaker's name leads the content (several people
 * share the user role) and is kept in `metadata.speaker`.
 */
export function parseChat(text: string, options: ChatOptions): EventInput[] {
  const start = Date.parse(options.start);
  if (!/T\d\d:\d\d/.test(options.start) || Number.isNaN(start)) throw new ImportError(`--start ${JSON.stringify(options.start)} must be an ISO date-time, e.g. 2026-11-02T09:00:00Z`);
  const assistants = new Set((options.assistants ?? []).map((name) => name.toLowerCase()));
  const lines: { speaker: string; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const match = /^([^:]{1,80}):\s*(.*)$/.exec(line);
    if (match && match[2]!.length > 0) lines.push({ speaker: match[1]!.trim(), text: match[2]! });
    else if (lines.length > 0) lines[lines.length - 1]!.text += `\n${line}`;
    else throw new ImportError(`line ${index + 1}: must be "speaker: text"`);
  });
  return lines.map((line, index) => ({
    type: 'message',
    role: assistants.has(line.speaker.toLowerCase()) ? 'assistant' : 'user',
    content: `${line.speaker}: ${line.text}`,
    timestamp: new Date(start + index * options.intervalMs).toISOString(),
    metadata: { speaker: line.speaker },
  }));
}

/** A LoCoMo-style corpus: each sample is its own agent (its sample id), unless one agent is named for a one-sample file. */
export function parseLocomo(text: string, agentId?: string): ImportBatch[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ImportError('not valid JSON (a LoCoMo-style corpus is one JSON document; use .jsonl for one event per line)');
  }
  let samples;
  try {
    samples = parseCorpus(raw);
  } catch (error) {
    throw new ImportError((error as Error).message);
  }
  if (agentId !== undefined && samples.length > 1) throw new ImportError(`the corpus holds ${samples.length} conversations; leave out --agent to import each as its own agent`);
  return samples.map((sample) => ({ agentId: agentId ?? sample.id, events: sample.turns.map((turn) => turnEvent(turn)) }));
}
