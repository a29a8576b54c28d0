/**
 * The evaluation corpus format (documented in docs/EVAL.md): LoCoMo's JSON as
 * published, a list of samples, each with a `conversation` (`speaker_a`,
 * `speaker_b`, `session_N` turn lists, `session_N_date_time` strings) and
 * `qa` items (`question`, `answer`, `evidence` dia_ids, `category`). Two
 * optional extensions: `conversation.roles` maps a speaker to an event role,
 * and a qa item's `stale` lists superseded values that must not be presented
 * as current.
 *
 * Parsing turns a file into samples of timestamped turns and questions, or
 * fails naming the sample, field and rule.
 */
import { z } from 'zod';
import { AGENT_ID_PATTERN } from '../../functions/domain/agent-key.js';
import { EVENT_ID_PATTERN } from '../../functions/domain/events.js';
import { monthIndex } from '../corpus/calendar.js';

export interface CorpusTurn {
  /** The corpus's dia_id (made unique within its sample): the event id. */
  readonly id: string;
  readonly speaker: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** The speaker's name leads the posted content: both speakers share a role, so the role cannot tell them apart. */
  readonly named: boolean;
  /** ISO timestamp: the session's date and time, plus 30 s per turn. */
  readonly at: string;
  readonly session: number;
}

export interface CorpusQuestion {
  readonly question: string;
  /** Absent for LoCoMo's adversarial questions, which have no answer in the conversation. */
  readonly answer?: string;
  readonly evidence: readonly string[];
  readonly category: string;
  /** Superseded values: only the corrected answer may be presented as current. */
  readonly stale: readonly string[];
}

export interface CorpusSample {
  readonly id: string;
  readonly speakers: readonly [string, string];
  readonly turns: readonly CorpusTurn[];
  readonly questions: readonly CorpusQuestion[];
}

/** LoCoMo's numeric categories, named as in its evaluation code. */
export const LOCOMO_CATEGORIES: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
  '5': 'adversarial',
};

export const TURN_SPACING_MS = 30_000;

const turnSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().min(1),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const qaSchema = z.looseObject({
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]).optional(),
  adversarial_answer: z.union([z.string(), z.number()]).optional(),
  evidence: z.array(z.string()).default([]),
  category: z.union([z.number(), z.string()]),
  stale: z.array(z.string()).optional(),
});

const sampleSchema = z.looseObject({
  sample_id: z.union([z.string(), z.number()]).optional(),
  conversation: z.looseObject({
    speaker_a: z.string().min(1),
    speaker_b: z.string().min(1),
    roles: z.record(z.string(), z.enum(['user', 'assistant'])).optional(),
  }),
  qa: z.array(qaSchema).default([]),
});

export class CorpusError extends Error {}

/**
 * A session's date and time: LoCoMo's `1:56 pm on 8 May, 2023` (read as UTC),
 * or any ISO 8601 date-time.
 */
export function parseSessionDate(value: string): string | undefined {
  const locomo = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i.exec(value);
  if (locomo) {
    const [, hh, mm, half, dd, month, yyyy] = locomo;
    const index = monthIndex(month!);
    if (index < 0) return undefined;
    const hour = (Number(hh) % 12) + (half!.toLowerCase() === 'pm' ? 12 : 0);
    const at = Date.UTC(Number(yyyy), index, Number(dd), hour, Number(mm));
    const check = new Date(at);
    return check.getUTCDate() === Number(dd) ? check.toISOString() : undefined;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    // Without an offset, UTC (as LoCoMo's times are read), not this machine's zone.
    const at = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
    if (!Number.isNaN(at)) return new Date(at).toISOString();
  }
  return undefined;
}

/** Evidence as published is sometimes `"D8:6; D9:17"` in one string: split it. */
function evidenceIds(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(/[;,\s]+/)).filter((id) => id.length > 0);
}

const agentSafe = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');

export function parseCorpus(input: unknown): CorpusSample[] {
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw new CorpusError('corpus: must hold at least one sample');
  return list.map((raw, index) => parseSample(raw, index));
}

function parseSample(raw: unknown, index: number): CorpusSample {
  const parsed = sampleSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CorpusError(`sample ${index}: ${issue.path.join('.') || '(root)'} ${issue.message}`);
  }
  const sample = parsed.data;
  const id = agentSafe(String(sample.sample_id ?? `sample-${index + 1}`)) || `sample-${index + 1}`;
  if (!AGENT_ID_PATTERN.test(id)) throw new CorpusError(`sample ${index}: sample_id ${JSON.stringify(sample.sample_id)} cannot be made an agent id`);
  const conversation = sample.conversation as Record<string, unknown>;
  const roles = sample.conversation.roles ?? {};
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
  if (sessions.length === 0) throw new CorpusError(`sample ${id}: conversation has no session_N lists`);

  const roleOf = (speaker: string) => roles[speaker] ?? 'user';
  const named = roleOf(sample.conversation.speaker_a) === roleOf(sample.conversation.speaker_b);
  const seen = new Map<string, number>();
  const turns: CorpusTurn[] = [];
  for (const session of sessions) {
    const when = conversation[`session_${session}_date_time`];
    const start = typeof when === 'string' ? parseSessionDate(when) : undefined;
    if (!start) throw new CorpusError(`sample ${id}: session_${session}_date_time ${JSON.stringify(when)} must be like "1:56 pm on 8 May, 2023" or an ISO date-time`);
    const list = z.array(turnSchema).safeParse(conversation[`session_${session}`]);
    if (!list.success) {
      const issue = list.error.issues[0]!;
      throw new CorpusError(`sample ${id}: session_${session}.${issue.path.join('.')} ${issue.message}`);
    }
    list.data.forEach((turn, i) => {
      // Published files repeat a dia_id now and then: later copies get a suffix, so every turn is its own event.
      const copies = (seen.get(turn.dia_id) ?? 0) + 1;
      seen.set(turn.dia_id, copies);
      const turnId = copies === 1 ? turn.dia_id : `${turn.dia_id}#${copies}`;
      if (!EVENT_ID_PATTERN.test(turnId)) throw new CorpusError(`sample ${id}: session_${session}[${i}].dia_id ${JSON.stringify(turn.dia_id)} must be printable ASCII without spaces`);
      const caption = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : '';
      const text = `${turn.text}${caption}`.trim();
      if (text.length === 0) return;
      turns.push({
        id: turnId,
        speaker: turn.speaker,
        role: roleOf(turn.speaker),
        text,
        named,
        at: new Date(Date.parse(start) + i * TURN_SPACING_MS).toISOString(),
        session,
      });
    });
  }
  turns.sort((a, b) => a.at.localeCompare(b.at) || a.session - b.session);

  const known = new Set(turns.map((turn) => turn.id));
  const questions: CorpusQuestion[] = sample.qa.map((qa) => {
    const answer = qa.answer ?? undefined;
    const category = String(qa.category);
    return {
      question: qa.question,
      ...(answer !== undefined ? { answer: String(answer) } : {}),
      // Evidence that names no turn of the conversation (a typo in the source) cannot be traced: it is dropped.
      evidence: [...new Set(evidenceIds(qa.evidence))].filter((evidenceId) => known.has(evidenceId)),
      category: LOCOMO_CATEGORIES[category] ?? category,
      stale: qa.stale ?? [],
    };
  });
  return { id, speakers: [sample.conversation.speaker_a, sample.conversation.speaker_b], turns, questions };
}

/**
 * A turn as it is posted. When both speakers have the same role (LoCoMo's two
 * people), the speaker's name leads the content, so what each said stays
 * attributable; the name is in `metadata.speaker` either way.
 */
export function turnEvent(turn: CorpusTurn) {
  return {
    id: turn.id,
    type: 'message' as const,
    role: turn.role,
    content: turn.named ? `${turn.speaker}: ${turn.text}` : turn.text,
    timestamp: turn.at,
    interactionId: `session-${turn.session}`,
    metadata: { speaker: turn.speaker },
  };
}

/** A turn as a baseline shows it, dated like the system's lines. */
export function turnLine(turn: CorpusTurn): string {
  return `- [${turn.at.slice(0, 16).replace('T', ' ')}] ${turn.speaker}: ${turn.text.replace(/\s+/g, ' ')} (${turn.id})`;
}
