/**
 * The ingest request: what an agent may post, and the rules it must follow.
 * Validation covers the whole request before anything is written.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AGENT_ID_PATTERN } from './agent-key.js';
import { ValidationError, type FieldIssue } from './errors.js';
import { PROJECT_PATTERN, PROJECT_RULE } from './scope.js';

export const MAX_EVENTS_PER_REQUEST = 100;
/** Largest accepted request body; above it the API answers 413. */
export const MAX_REQUEST_BYTES = 1_048_576;
export const MAX_CONTENT_CHARS = 32_768;
export const MAX_METADATA_BYTES = 8_192;
export const EVENT_ID_PATTERN = /^[\x21-\x7E]{1,128}$/;

const required = (rule: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : rule;

const printableId = (what: string) =>
  z
    .string({ error: required(`${what} must be a string`) })
    .regex(EVENT_ID_PATTERN, { error: 'must be 1 to 128 printable ASCII characters without spaces' });

const contactSchema = z
  .strictObject(
    {
      id: printableId('contact id').optional(),
      name: z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(200, { error: 'must be at most 200 characters' })
        .optional(),
    },
    { error: required('must be an object with id and/or name') },
  )
  .refine((contact) => contact.id !== undefined || contact.name !== undefined, {
    error: 'must have an id or a name',
  });

const metadataSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_METADATA_BYTES, {
    error: `must serialise to at most ${MAX_METADATA_BYTES} bytes`,
  })
  .superRefine((value, context) => {
    // The project scopes what is learnt from the event (domain/scope.ts): a bad one is refused, not ignored.
    if (value.project !== undefined && (typeof value.project !== 'string' || !PROJECT_PATTERN.test(value.project))) {
      context.addIssue({ code: 'custom', path: ['project'], message: PROJECT_RULE });
    }
  });

export const eventSchema = z.strictObject(
  {
    id: printableId('id').meta({ description: '1 to 128 printable ASCII characters without spaces (`D1:3`, a UUID); unique per agent: a retry with the same id and content is a duplicate, with other content a 409' }),
    type: z.enum(['message', 'action'], { error: required('must be one of message, action') }).meta({ description: 'Batches are counted in messages; actions (tool calls and their outcomes) share the sequence' }),
    role: z
      .enum(['user', 'assistant', 'tool', 'system'], {
        error: required('must be one of user, assistant, tool, system'),
      })
      .meta({ description: "Who said it: an assistant's words are read as the assistant's (an acknowledgement confirms a task, never closes it)" }),
    content: z
      .string({ error: required('must be a string') })
      .refine((text) => text.trim().length > 0, { error: 'must be non-empty text' })
      .refine((text) => text.length <= MAX_CONTENT_CHARS, {
        error: `must be at most ${MAX_CONTENT_CHARS} characters`,
      })
      .meta({ description: `Non-empty text, at most ${MAX_CONTENT_CHARS} characters` }),
    timestamp: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-30T09:15:00Z' })
      .optional()
      .meta({ description: 'ISO 8601 with a time zone, at most 24 hours ahead of the server clock; the server time when absent (kept on retries). Relative dates in the text are read against it' }),
    interactionId: printableId('interactionId').optional().meta({ description: 'One conversation or session (same characters as id); without it, records further apart than INTERACTION_IDLE_MINUTES start a new one' }),
    contact: contactSchema.optional().meta({ description: 'Who the message is from or about: an id, a name (at most 200 characters), or both' }),
    /** Who wrote the record when several people share a role (a group chat): first-person statements are theirs. */
    speaker: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(200, { error: 'must be at most 200 characters' })
      .optional()
      .meta({ description: 'Who wrote it when several people share a role (a group chat): first-person statements are theirs' }),
    metadata: metadataSchema.optional().meta({ description: 'A JSON object of at most 8,192 bytes serialised; `project` scopes what is learnt from the record' }),
  },
  { error: required('must be an object') },
);

export type IncomingEvent = z.infer<typeof eventSchema>;

export const ingestRequestSchema = z.strictObject(
  {
    events: z
      .array(eventSchema, { error: required('must be an array of events') })
      .min(1, { error: 'must hold at least 1 event' })
      .max(MAX_EVENTS_PER_REQUEST, { error: `must hold at most ${MAX_EVENTS_PER_REQUEST} events` })
      .meta({ description: `1 to ${MAX_EVENTS_PER_REQUEST} events, ids unique within the request; unknown fields are refused` }),
  },
  { error: 'must be a JSON object with an events array' },
);

/** Renders a zod path as `events[3].contact.name`. */
export function fieldPath(path: readonly PropertyKey[], root = 'body'): string {
  if (path.length === 0) return root;
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

export function issuesFromZod(error: z.ZodError, root = 'body'): FieldIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { field: fieldPath(issue.path, root), rule: `unknown field(s): ${issue.keys.join(', ')}` };
    }
    return { field: fieldPath(issue.path, root), rule: issue.message };
  });
}

/** Validates an agent id taken from the path. */
export function parseAgentId(agentId: string | undefined): string {
  if (agentId === undefined || !AGENT_ID_PATTERN.test(agentId)) {
    throw new ValidationError([
      {
        field: 'agentId',
        rule: 'must be 1 to 64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit',
      },
    ]);
  }
  return agentId;
}

/**
 * Parses and validates an ingest body. Throws a ValidationError naming every
 * offending field; returns the events in request order.
 */
export function parseIngestRequest(body: unknown): IncomingEvent[] {
  const result = ingestRequestSchema.safeParse(body);
  if (!result.success) throw new ValidationError(issuesFromZod(result.error));
  const events = result.data.events;
  const firstIndexById = new Map<string, number>();
  const duplicates: FieldIssue[] = [];
  events.forEach((event, index) => {
    const first = firstIndexById.get(event.id);
    if (first === undefined) firstIndexById.set(event.id, index);
    else duplicates.push({ field: `events[${index}].id`, rule: `must be unique in the request; repeats events[${first}].id` });
  });
  if (duplicates.length > 0) throw new ValidationError(duplicates);
  return events;
}

/**
 * A stable hash of an event as the client sent it, so a retry with the same id
 * is recognised and a reuse of the id for other content is refused. The
 * timestamp is left out: the server fills it when it is absent, and clients
 * that stamp events at send time give a retry a fresh one; the first accepted
 * timestamp is kept.
 */
export function contentHash(event: IncomingEvent): string {
  const { timestamp: _timestamp, ...identity } = event;
  return createHash('sha256').update(canonicalJson(identity)).digest('base64url');
}

/** The hash claims were written with before the timestamp was left out; still accepted for those claims. */
export function legacyContentHash(event: IncomingEvent): string {
  return createHash('sha256').update(canonicalJson(event)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** How far ahead of the server's clock an event's timestamp may be (client clock skew). */
export const MAX_TIMESTAMP_AHEAD_MS = 24 * 3_600_000;

/**
 * Refuses timestamps more than a day ahead of the server: a record dated in
 * the future would hold the time ladder's open day there.
 */
export function checkTimestamps(events: readonly IncomingEvent[], now: Date): void {
  const limit = now.getTime() + MAX_TIMESTAMP_AHEAD_MS;
  const issues = events.flatMap((event, index) =>
    event.timestamp !== undefined && Date.parse(event.timestamp) > limit
      ? [{ field: `events[${index}].timestamp`, rule: 'must not be more than 24 hours ahead of the server clock' }]
      : [],
  );
  if (issues.length > 0) throw new ValidationError(issues);
}
