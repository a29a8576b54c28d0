/**
 * The HTTP API's request and response shapes, as zod schemas: the one place
 * the OpenAPI document (functions/commons/openapi.ts) is generated from. The
 * ingest and rebuild bodies are the schemas the handlers validate with; query
 * parameters are checked by `integerParameter` and friends in the handlers,
 * and are described here with the same bounds.
 */
import { z } from 'zod';
import { feedbackRequestSchema } from '../domain/lifecycle.js';
import { ingestRequestSchema } from '../domain/events.js';
import { PROJECT_PATTERN } from '../domain/scope.js';
import type { Route } from './routes.js';

export { ingestRequestSchema };

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const agentIdParameter = z
  .string()
  .regex(AGENT_ID)
  .meta({ description: '1 to 64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit', example: 'support-bot-1' });

export const errorSchema = z
  .object({
    error: z.string().meta({ description: 'The error class, e.g. ValidationError, NotFoundError' }),
    message: z.string(),
    issues: z.array(z.object({ field: z.string().meta({ example: 'events[0].timestamp' }), rule: z.string() })).optional(),
  })
  .meta({ id: 'Error', description: 'Every 4xx and 5xx body. `issues` names each offending field and the rule it broke (400, 409).' });

/** `POST /summaries/rebuild`: a range of base periods of one ladder. */
export const rebuildRequestSchema = z
  .discriminatedUnion(
    'ladder',
    [
      z.strictObject({ ladder: z.literal('time'), from: z.iso.date({ error: 'must be an ISO date' }), to: z.iso.date({ error: 'must be an ISO date' }) }),
      z.strictObject({ ladder: z.literal('count'), from: z.number().int().positive(), to: z.number().int().positive() }),
    ],
    { error: 'ladder must be time (with ISO dates) or count (with interaction numbers)' },
  )
  .meta({ id: 'RebuildRequest' });

const pageQuery = z.object({
  limit: z.number().int().min(1).max(100).optional().meta({ description: 'Page size, 1-100 (default 50)' }),
  nextToken: z.string().optional().meta({ description: 'From the previous page' }),
});

const VIEWS = 'contacts,facts,tasks,time,count';

export const contextQuerySchema = z.object({
  maxTokens: z.number().int().min(100).max(32_000).optional().meta({ description: 'Token budget (default 1500)' }),
  query: z.string().max(1_000).optional().meta({ description: 'What the prompt is about: matching items rank first' }),
  contact: z.string().max(200).optional().meta({ description: 'A contact id or name: items about them rank first' }),
  project: z.string().regex(PROJECT_PATTERN).optional().meta({ description: "A project (as events name it in metadata.project): its items and records rank first, agent-wide ones follow, other projects' are left out" }),
  views: z.string().optional().meta({ description: `Comma-separated subset of ${VIEWS} (default all)` }),
});

const evidence = z.object({ recordId: z.string(), sequence: z.number().int(), timestamp: z.string(), role: z.string().optional(), project: z.string().optional() });
const itemBase = {
  id: z.string(),
  scope: z.object({ tenantId: z.string(), agentId: z.string(), contactId: z.string().optional(), project: z.string().optional() }),
  status: z.enum(['draft', 'active', 'conflict', 'archived']),
  verification: z.enum(['unverified', 'verified', 'refuted']),
  confidence: z.number(),
  hitCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastReinforcedAt: z.string(),
  validUntil: z.string().optional(),
  supersedes: z.array(z.string()).optional(),
  supersededBy: z.string().optional(),
  evidence: z.array(evidence),
  history: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown(), at: z.string(), batch: z.number().int(), evidence: z.array(z.string()) })),
  note: z.string().optional(),
};

export const contactSchema = z
  .object({
    ...itemBase,
    kind: z.literal('contact'),
    name: z.string(),
    aliases: z.array(z.string()),
    role: z.string().optional(),
    organisation: z.string().optional(),
    relationships: z.array(z.object({ type: z.string(), to: z.string() })),
    preferences: z.array(z.string()),
    channels: z.array(z.object({ type: z.string(), value: z.string() })),
    biography: z.string(),
    summary: z.string(),
    lastMentionedAt: z.string(),
  })
  .meta({ id: 'Contact' });

export const factSchema = z
  .object({ ...itemBase, kind: z.literal('fact'), table: z.string(), row: z.record(z.string(), z.string().nullable()), statement: z.string() })
  .meta({ id: 'Fact' });

export const taskSchema = z
  .object({
    ...itemBase,
    kind: z.literal('task'),
    title: z.string(),
    owner: z.string(),
    due: z.string().optional().meta({ description: 'ISO date' }),
    state: z.enum(['open', 'done', 'cancelled']),
    closedAt: z.string().optional(),
    contactId: z.string().optional(),
  })
  .meta({ id: 'Task' });

export const summarySchema = z
  .object({
    id: z.string(),
    ladder: z.enum(['time', 'count']),
    level: z.number().int(),
    name: z.string().meta({ description: 'The level name, e.g. day, week' }),
    from: z.string(),
    to: z.string(),
    through: z
      .number()
      .int()
      .optional()
      .meta({ description: 'Empty runs only: the last period covered at this level. The item stands for every silent period from its own index to this one; they have no items of their own.' }),
    children: z.array(z.string()),
    sources: z.array(z.string()),
    text: z.string(),
    tokens: z.number().int(),
    empty: z.boolean(),
    createdAt: z.string(),
    rebuiltAt: z.string().optional().meta({ description: 'When a rebuild last regenerated this summary' }),
  })
  .meta({ id: 'Summary' });

const page = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), nextToken: z.string().optional().meta({ description: 'Absent on the last page' }) }).meta({ id });

export const statusSchema = z
  .object({
    tenantId: z.string(),
    agentId: z.string(),
    lastSequence: z.number().int(),
    messages: z.number().int(),
    actions: z.number().int(),
    batchesClosed: z.number().int(),
    lastBatchEnd: z.number().int(),
    batchMessages: z.number().int().meta({ description: 'Messages in the open batch' }),
    batchesQueued: z.number().int(),
    lastConsolidatedSequence: z.number().int(),
    lastConsolidatedBatch: z.number().int(),
    lastConsolidatedRecordAt: z.string().optional(),
    firstSeenAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AgentStatus' });

export const freshnessSchema = z
  .object({
    lastConsolidatedSequence: z.number().int(),
    lastIngestedSequence: z.number().int(),
    pendingRecords: z.number().int(),
    newestConsolidatedRecordAt: z.string().optional(),
  })
  .meta({ id: 'Freshness' });

const includedItem = z.object({ id: z.string(), kind: z.enum(['contact', 'fact', 'task', 'summary']), version: z.string() }).meta({ id: 'IncludedItem' });

export const contextSchema = z
  .object({
    markdown: z.string().meta({ description: 'Prompt-ready block; its exact layout may change' }),
    tokens: z.number().int(),
    maxTokens: z.number().int(),
    items: z.array(includedItem).meta({ description: 'What was included (provenance)' }),
    omitted: z.number().int(),
    freshness: freshnessSchema,
    snapshotVersion: z.number().int(),
    requestId: z.string().meta({ description: 'Key of the injection log entry' }),
  })
  .meta({ id: 'Context' });

const ladderLevel = z.object({ id: z.string(), level: z.number().int(), name: z.string(), from: z.string(), to: z.string(), text: z.string(), tokens: z.number().int(), asOf: z.string() });
const updaterView = z.looseObject({}).meta({ description: "An updater's ready-made view (items by section)" });

export const snapshotSchema = z
  .object({
    tenantId: z.string(),
    agentId: z.string(),
    version: z.number().int(),
    generatedAt: z.string(),
    freshness: freshnessSchema,
    contacts: updaterView.optional(),
    facts: updaterView.optional(),
    tasks: updaterView.optional(),
    time: z.array(ladderLevel).optional(),
    count: z.array(ladderLevel).optional(),
  })
  .meta({ id: 'Snapshot' });

export const injectionSchema = z
  .object({
    requestId: z.string(),
    at: z.string(),
    snapshotVersion: z.number().int(),
    maxTokens: z.number().int(),
    query: z.string().optional(),
    contact: z.string().optional(),
    project: z.string().optional(),
    views: z.array(z.string()).optional(),
    tokens: z.number().int(),
    items: z.array(includedItem),
  })
  .meta({ id: 'Injection' });

export const recordSchema = z
  .object({
    id: z.string().meta({ description: 'The event id the record was posted with (what context blocks cite)' }),
    sequence: z.number().int(),
    type: z.string(),
    role: z.string(),
    speaker: z.string().optional(),
    timestamp: z.string(),
    content: z.string().meta({ description: 'Redacted as every derived output is' }),
    batch: z
      .object({ index: z.number().int(), fromSequence: z.number().int(), toSequence: z.number().int(), consolidated: z.boolean() })
      .optional()
      .meta({ description: 'The closed batch that holds it; absent while its batch is still open' }),
  })
  .meta({ id: 'Record' });

const batchRange = z.looseObject({ index: z.number().int() });

export const auditSchema = z
  .object({
    batch: z.number().int(),
    entries: z.array(
      z.looseObject({
        updater: z.enum(['contacts', 'facts', 'tasks']),
        batch: batchRange,
        appliedAt: z.string(),
        modelId: z.string(),
        ops: z.array(z.unknown()),
        changes: z.array(z.unknown()).meta({ description: 'Each changed item, before and after' }),
        quarantined: z.array(z.unknown()),
        redactions: z.record(z.string(), z.number().int()).optional().meta({ description: 'Redaction placeholders in the records the model read, by type; never the secret' }),
      }),
    ),
  })
  .meta({ id: 'Audit' });

export const ingestResultSchema = z
  .object({ accepted: z.number().int(), duplicates: z.number().int().meta({ description: 'Events whose id was already stored with the same content' }), sequence: z.number().int() })
  .meta({ id: 'IngestResult' });

export const flushResultSchema = z
  .object({
    flushed: z.boolean(),
    batch: batchRange.optional(),
    reason: z.enum(['nothing-open', 'already-closed', 'not-idle']).optional(),
    retryInSeconds: z.number().optional(),
  })
  .meta({ id: 'FlushResult' });

export const sweepResultSchema = z
  .object({ swept: z.boolean(), written: z.number().int().optional(), reason: z.literal('consolidation-pending').optional() })
  .meta({ id: 'SweepResult' });

export const rebuildResultSchema = z
  .object({ status: z.literal('queued'), ladder: z.enum(['time', 'count']), from: z.union([z.string(), z.number()]), to: z.union([z.string(), z.number()]), periods: z.number().int() })
  .meta({ id: 'RebuildQueued', description: 'The rebuild runs on the sweep workers; each regenerated summary shows `rebuiltAt`.' });

/** What one operation takes and returns; status codes other than errors. */
export interface OperationSchema {
  readonly query?: z.ZodObject;
  readonly extraParams?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, { readonly description: string; readonly schema?: z.ZodType }>>;
  /** Error statuses beyond the common ones (400, 401, 403, 404, 405, 500, 503). */
  readonly errors?: readonly number[];
  /** What the operation does and promises, beyond its one-line summary (markdown; docs/api.md shows it). */
  readonly about?: string;
}

const ok = (schema: z.ZodType, description = 'OK') => ({ 200: { description, schema } });

/**
 * Every operation of the route table. Keyed by operation, so a route added to
 * the table without its shapes does not type-check.
 */
export const OPERATION_SCHEMAS: Readonly<Record<Route['operation'], OperationSchema>> = {
  ingestEvents: { about: "The body may be at most 1 MiB (413 above). Each event is stored durably before the 202; `sequence` gives each event's number in request order, and a retried id returns its original number. Messages and actions share the agent's sequence; each time the agent's message count reaches a multiple of 50, one batch job is queued covering every sequence number since the previous batch.", body: ingestRequestSchema.meta({ id: 'IngestRequest' }), responses: { 202: { description: 'Accepted and stored', schema: ingestResultSchema } }, errors: [409, 413] },
  readStatus: { about: "`batchMessages` is the size of the open batch; `lastConsolidatedSequence` is how far every store has caught up (the stores lag by `lastSequence - lastConsolidatedSequence`). 404 for an agent that has never posted an event.", responses: ok(statusSchema) },
  flushAgent: { about: "Closes the open partial batch and queues it, so the stores catch up without waiting for 50 messages (202), or says why nothing was flushed (200, `nothing-open`). The same happens by itself once an agent has been quiet for IDLE_FLUSH_SECONDS.", responses: { 200: { description: 'Nothing flushed (see reason)', schema: flushResultSchema }, 202: { description: 'The open batch was queued', schema: flushResultSchema } } },
  listContacts: { about: "Page by page: `limit` 1 to 100 (default 50) and `nextToken` from the previous page (signed, bound to the agent and list: an altered or borrowed token is a 400); `status` keeps one status, so `?status=archived` shows what was archived or forgotten. Every item carries its evidence (record id, sequence, time of every source record) and history (each changed field with from, to, when, batch and evidence).", query: pageQuery, responses: ok(page(contactSchema, 'ContactPage')) },
  listFacts: { about: "As `/contacts`: facts are rows of named tables (`table`, `row`) with a `statement`.", query: pageQuery, responses: ok(page(factSchema, 'FactPage')) },
  listTasks: { about: "As `/contacts`: tasks have `title`, `owner`, `due` (resolved against the message's own time), `state` (open, done, cancelled) and `closedAt`.", query: pageQuery, responses: ok(page(taskSchema, 'TaskPage')) },
  readAudit: { about: "The patches applied for batch N, one per updater: model id, prompt id and version, token usage, the operations, every changed item's before and after, and any operation quarantined as an instruction. A batch too large for one prompt says how it was read (`reading`: chunks, records cut, records left unread and why).", query: z.object({ batch: z.number().int().min(1).meta({ description: 'Batch index' }) }), responses: ok(auditSchema) },
  listSummaries: { about: "Every level when `level` is omitted (0 is a day or one interaction, up to 4: 52 weeks or 480 interactions). `from` and `to` are the exact range; `children` the summaries it was written from; base summaries list their record ids in `sources`. A period with no activity is an `empty` marker (no model call); a silent stretch is one empty run per level, with `through` its last index.",
    query: pageQuery.extend({ ladder: z.enum(['time', 'count']), level: z.number().int().min(0).optional().meta({ description: 'One level only (default every level)' }) }),
    responses: ok(page(summarySchema, 'SummaryPage')),
  },
  readInjection: { about: "What a context response injected: item ids and versions, snapshot version, budget, query and token count (kept 90 days), so any answer an agent gave can be traced back and reproduced.", extraParams: z.object({ requestId: z.string() }), responses: ok(injectionSchema) },
  sweepAgent: { about: "Closes the agent's ended day and idle interaction now (the schedule does it every 15 minutes); `consolidation-pending` while records still wait for consolidation (flush first).", responses: ok(sweepResultSchema) },
  rebuildSummaries: { about: "Regenerates those base summaries from their raw records and every summary above them, idempotently (at most 92 base periods); the sweep workers do it, and each regenerated summary then shows `rebuiltAt`.", body: rebuildRequestSchema, responses: { 202: { description: 'Rebuild queued', schema: rebuildResultSchema } } },
  readSnapshot: { about: "Everything an agent reads on a turn in one lookup: each store's view (the most useful items, with `total` and `omitted`), the latest summary at every level of both ladders, and `freshness`. `views` selects parts. `ETag` is the snapshot version (`If-None-Match` answers 304). 404 until something is consolidated.",
    query: z.object({ views: contextQuerySchema.shape.views }),
    responses: { 200: { description: 'The snapshot; ETag is its version', schema: snapshotSchema }, 304: { description: 'Not modified (If-None-Match)' } },
  },
  readContext: { about: "A prompt-ready markdown block of at most `maxTokens` (by the o200k tokenizer), between markers that carry a per-response nonce, opening with how far memory lags and that current instructions take precedence. Without `query`, it is built from the snapshot; with one, recalled from the agent's retrieval index (records, items and summaries of the whole history, plus the records not consolidated yet, marked so), each line citing its ids. A value that no longer holds is marked where it is shown. `x-request-id` names the response's injection-log entry.", query: contextQuerySchema, responses: ok(contextSchema) },
  readRecord: { about: "What an id cited in a context block stands for: the record as every derived output sees it (redacted), its speaker and time, and the batch that consolidated it (absent while its batch is open). 404 names an id the agent never posted.", extraParams: z.object({ recordId: z.string() }), responses: ok(recordSchema) },
  eraseAgent: { about: "Queued at once (202); afterwards every raw record and its versions, every item, summary, snapshot and index segment of the agent is gone, and GET status is 404.", responses: { 202: { description: 'Erasure queued; afterwards the agent is gone (GET status is 404)', schema: z.looseObject({ status: z.literal('queued') }).meta({ id: 'ErasureQueued' }) } } },
  giveFeedback: { about: "`helpful` verifies the item, `wrong` refutes it (it never shows again, and the records it was read from are marked where they are shown), `outdated` archives it as no longer true. An audited change, reversible like any other.",
    body: feedbackRequestSchema.meta({ id: 'FeedbackRequest' }),
    responses: ok(z.looseObject({ feedbackId: z.string(), itemId: z.string(), outcome: z.enum(['helpful', 'wrong', 'outdated']), effect: z.string(), item: z.looseObject({}) }).meta({ id: 'FeedbackResult' })),
  },
  revertBatch: { about: "Applies the inverse of the batch's patches as a new audited change; an item changed since is reported as a conflict, not overwritten.",
    extraParams: z.object({ batch: z.string().meta({ description: 'Batch index' }) }),
    responses: ok(z.looseObject({ batch: z.number().int(), updaters: z.array(z.looseObject({ updater: z.string(), reverted: z.array(z.string()), conflicts: z.array(z.looseObject({ itemId: z.string(), reason: z.string() })), alreadyReverted: z.boolean() })) }).meta({ id: 'RevertResult' })),
  },
  readItemHistory: { about: "Every version of the item with the batch and patch that made it, oldest first.",
    extraParams: z.object({ itemId: z.string() }),
    responses: ok(z.looseObject({ itemId: z.string(), versions: z.array(z.looseObject({ version: z.number().int(), appliedAt: z.string(), batch: z.number().int(), cause: z.string() })) }).meta({ id: 'ItemHistory' })),
  },
  exportAgent: { about: "Everything of the agent as NDJSON, in parts of at most 4.5 MB; a part that stops early ends with a `continue` line whose `nextToken` asks for the next.",
    query: z.object({ nextToken: z.string().optional().meta({ description: 'From the `continue` line ending the previous part' }) }),
    responses: {
      200: {
        description:
          'An application/x-ndjson body: one JSON object per line, each of this shape. Lines come in order: agent, record and hole, item, summary, audit, end (with counts). A part that stops early ends with a continue line; ask again with its nextToken.',
        schema: z
          .looseObject({ type: z.enum(['agent', 'record', 'hole', 'item', 'summary', 'audit', 'end', 'continue']), nextToken: z.string().optional(), counts: z.record(z.string(), z.number()).optional() })
          .meta({ id: 'ExportLine' }),
      },
    },
  },
  readOpenApi: { responses: ok(z.looseObject({ openapi: z.string() }).meta({ id: 'OpenApiDocument' }), 'This document') },
};
