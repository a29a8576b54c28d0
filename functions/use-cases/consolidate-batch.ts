/**
 * Consolidate one batch job: read its raw records once, then run the
 * contacts, facts and tasks updaters concurrently. Each updater proposes a
 * patch through the model port, the patch is validated and applied to that
 * updater's store alone, and committed atomically with its audit entry and
 * refreshed view. One updater failing never stops or corrupts another; a
 * redelivered job reruns only the updaters that have not committed.
 *
 * Batches of one agent apply in order. If jobs arrive out of order (two ingest
 * requests can close consecutive batches and finish in either order), the
 * consolidator first applies the earlier batches it finds unapplied, reading
 * their ranges from the ledger.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryServiceError, MissingRecordsError } from '../domain/errors.js';
import type { AgentKey } from '../domain/agent-key.js';
import { UPDATERS, updaterOutputSchemas, type Evidence, type MemoryItem, type PatchOp, type UpdaterName, type UpdaterStore } from '../domain/memory.js';
import { aliasItems, applyPatch, InvalidModelOutputError, MAX_CHANGED_ITEMS_PER_BATCH, type ItemChange } from '../domain/patch.js';
import type { BatchRange } from '../domain/sequencing.js';
import { buildView } from '../domain/views.js';
import { issuesFromZod } from '../domain/events.js';
import { BatchBudget, BudgetExceededError, DEFAULT_MAX_PROMPT_TOKENS, shareOf, type BudgetLimits } from './model-budget.js';
import { planModelInput } from './plan-model-input.js';
import { countTokens } from '../commons/tokens.js';
import type { ModelPort, PromptRecord, UpdaterInput } from '../ports/model.js';
import { CURRENT_PROMPTS } from '../domain/prompts/index.js';
import { renderPrompt } from '../domain/prompts/render.js';
import { projectOf } from '../domain/scope.js';
import { itemsForPrompt } from '../domain/prompt-items.js';
import { placeholderCounts } from '../domain/redaction.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { placeRecords, type SummaryDependencies } from './summaries.js';
import { assembleSnapshot, type SnapshotDependencies } from './assemble-snapshot.js';
import { runRequestedSweep } from './sweep-agents.js';
import type { AgentLedger, BatchJob, RawLog, RawRecord } from '../ports/pipeline.js';
import type { StoredSummary } from '../ports/summary-store.js';
import { indexBatch, type IndexDependencies } from './index-memory.js';

export interface ConsolidationDependencies {
  readonly ledger: AgentLedger;
  readonly rawLog: RawLog;
  readonly memory: MemoryStore;
  readonly model: ModelPort;
  readonly budget: BudgetLimits;
  readonly updaters?: readonly UpdaterName[];
  readonly now?: () => Date;
  /** How many earlier unapplied batches one job may apply first. */
  readonly maxCatchUpBatches?: number;
  readonly maxOutputTokens?: number;
  /** When set, each consolidated batch advances the summary ladders' base. */
  readonly summaries?: SummaryDependencies;
  /** When set, the agent's snapshot is reassembled after each batch. */
  readonly snapshot?: SnapshotDependencies;
  /** When set, each batch's records and the base summaries it closed are added to the retrieval index. */
  readonly index?: IndexDependencies;
  /** Told, for each batch placed, how long its oldest record waited (the consolidation lag), in ms. */
  readonly onLag?: (lagMs: number) => void;
  /** When set, sequence numbers whose records never arrive are consolidated as holes after a grace period. */
  readonly holes?: HolePolicy;
  /**
   * Epoch ms by which the job's model calls and waits must be over (the
   * invocation's end, less the time its writes, index and snapshot take):
   * every budget's wall time and the hole wait are cut to it, and no further
   * catch-up batch is started after it (the job is retried to finish).
   * @default no deadline beyond the budgets' own
   */
  readonly deadline?: number;
}

/**
 * Ingest commits sequence numbers before it writes their raw records; a request
 * that fails in between and is never retried leaves numbers without records.
 * After `graceMs` (longer than any ingest request can run) such a slot is
 * marked as a hole in the raw log (write-once, so a late write is refused), the
 * ledger records it, and the batch consolidates without it.
 */
export interface HolePolicy {
  readonly graceMs: number;
  /** How long one run sleeps for a hole to come due; longer waits fail the job, which is redelivered. */
  readonly maxWaitMs: number;
}

export type UpdaterResult =
  | {
      readonly updater: UpdaterName;
      readonly outcome: 'applied';
      readonly changed: number;
      readonly quarantined: number;
      readonly inputTokens: number;
      readonly outputTokens: number;
      /** The contacts updater's: the names of its contacts not archived after the batch, for reading the batch's lower-case chat. */
      readonly names?: readonly string[];
    }
  | { readonly updater: UpdaterName; readonly outcome: 'skipped' }
  | { readonly updater: UpdaterName; readonly outcome: 'failed'; readonly error: Error };

export interface BatchOutcome {
  readonly batch: BatchRange;
  readonly results: readonly UpdaterResult[];
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly wallMs: number;
}

/** Some updaters failed; the others' work is committed. The job is retried for the failed ones. */
export class UpdatersFailedError extends MemoryServiceError {
  override readonly name = 'UpdatersFailedError';
  constructor(readonly batch: number, readonly failures: readonly { updater: UpdaterName; error: Error }[]) {
    super(`batch ${batch}: ${failures.map((f) => `${f.updater} failed (${f.error.name}: ${f.error.message})`).join('; ')}`);
  }
}

export class BatchOrderError extends MemoryServiceError {
  override readonly name = 'BatchOrderError';
}

/** The invocation's time ran out between catch-up batches; those applied are kept, and a retry goes on from there. */
export class OutOfTimeError extends MemoryServiceError {
  override readonly name = 'OutOfTimeError';
}

/** A wall-time limit cut to what is left before the job's deadline (at least a second, so a call can fail cleanly). */
function untilDeadline(deps: Pick<ConsolidationDependencies, 'deadline'>, limitMs: number): number {
  return deps.deadline === undefined ? limitMs : Math.max(1_000, Math.floor(Math.min(limitMs, deps.deadline - Date.now())));
}

/** Contacts' names the index reads a batch's lower-case chat with, at most (each is one alternative of a pattern). */
const MAX_NAMES_READ = 500;

/** Items given to the model at most, to bound its input. */
const MAX_EXISTING_IN_PROMPT = 150;

export async function consolidateBatch(deps: ConsolidationDependencies, job: BatchJob): Promise<BatchOutcome[]> {
  const agent: AgentKey = { tenantId: job.tenantId, agentId: job.agentId };
  const updaters = deps.updaters ?? UPDATERS;
  const heads = await deps.memory.loadHeads(agent, updaters);
  const firstNeeded = Math.min(...heads.map((head) => head.lastBatch + 1));
  const outcomes: BatchOutcome[] = [];
  if (firstNeeded > job.index) {
    // Every updater already applied this batch (a redelivery): make sure progress says so,
    // and that the summaries saw its records (an earlier attempt may have failed there).
    const written = await catchUpSummaries(deps, agent, job);
    // A failed earlier attempt may have left these records (or those summaries) out of the index.
    if (deps.index) await indexBatch(deps.index, agent, job.toSequence, [], written);
    await markConsolidated(deps, agent, job, undefined);
    if (deps.summaries) await runRequestedSweep({ ...deps.summaries, ledger: deps.ledger }, agent);
    if (deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
    return outcomes;
  }
  const maxCatchUp = deps.maxCatchUpBatches ?? 5;
  if (job.index - firstNeeded > maxCatchUp) {
    throw new BatchOrderError(`batch ${job.index} arrived while batch ${firstNeeded} is not applied; more than ${maxCatchUp} behind`);
  }
  for (let index = firstNeeded; index <= job.index; index += 1) {
    if (index > firstNeeded && deps.deadline !== undefined && Date.now() >= deps.deadline) {
      throw new OutOfTimeError(`applied batches ${firstNeeded}-${index - 1} of ${job.index}; the rest is left to the retry`);
    }
    const batch = index === job.index ? job : await deps.ledger.readBatch(agent, index);
    if (!batch) throw new BatchOrderError(`batch ${index} of ${agent.agentId} has no ledger marker`);
    outcomes.push(await applyBatch(deps, agent, { index, fromSequence: batch.fromSequence, toSequence: batch.toSequence }, updaters));
  }
  // A sweep asked for while this batch was pending (flush, then sweep) is carried out now.
  if (deps.summaries) await runRequestedSweep({ ...deps.summaries, ledger: deps.ledger }, agent);
  if (deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
  return outcomes;
}

async function applyBatch(deps: ConsolidationDependencies, agent: AgentKey, batch: BatchRange, updaters: readonly UpdaterName[]): Promise<BatchOutcome> {
  const started = Date.now();
  // Raw records are read once per batch, and shared by the updaters.
  const records = await readBatchRecords(deps, agent, batch);
  const budget = new BatchBudget({ ...deps.budget, maxWallMs: untilDeadline(deps, deps.budget.maxWallMs) });
  // Calls are drawn from one budget; each updater plans its input on an equal share of it,
  // so the plan does not depend on which updater happens to call first.
  const share = shareOf(deps.budget, updaters.length);
  const settled = await Promise.allSettled(updaters.map((updater) => runUpdater(deps, agent, updater, batch, records, budget, share)));
  const results: UpdaterResult[] = settled.map((result, i) =>
    result.status === 'fulfilled'
      ? result.value
      : { updater: updaters[i]!, outcome: 'failed', error: result.reason instanceof Error ? result.reason : new Error(String(result.reason)) },
  );
  const failures = results.filter((r): r is Extract<UpdaterResult, { outcome: 'failed' }> => r.outcome === 'failed');
  if (failures.length > 0) throw new UpdatersFailedError(batch.index, failures);
  // Summaries first: "consolidated" then also means the summary cursor has seen these records,
  // which is what the sweep relies on before it closes a day.
  const summaries = deps.summaries?.budget ? { ...deps.summaries, budget: { ...deps.summaries.budget, maxWallMs: untilDeadline(deps, deps.summaries.budget.maxWallMs) } } : deps.summaries;
  const written = summaries ? await placeThrough(summaries, deps.rawLog, agent, batch, records) : [];
  // Indexed before the batch counts as consolidated, so a failure here is retried with the batch.
  // The people the store knows by name: lower-case chat ("becky's stepping down … rahim doing it now") is read with them.
  const names = results.flatMap((r) => (r.outcome === 'applied' ? (r.names ?? []) : []));
  if (deps.index) await indexBatch(deps.index, agent, batch.toSequence, records, written, names);
  await markConsolidated(deps, agent, batch, records);
  if (deps.onLag && records.length > 0) {
    const oldest = Math.min(...records.map((r) => Date.parse(r.receivedAt)));
    deps.onLag(Math.max(0, (deps.now ?? (() => new Date()))().getTime() - oldest));
  }
  return { batch, results, modelCalls: budget.calls, inputTokens: budget.inputTokens, outputTokens: budget.outputTokens, wallMs: Date.now() - started };
}

/** The batch's records; slots still empty after the grace period become holes (see HolePolicy). */
async function readBatchRecords(deps: ConsolidationDependencies, agent: AgentKey, batch: BatchRange): Promise<RawRecord[]> {
  const policy = deps.holes;
  if (!policy) return deps.rawLog.getRange(agent, batch.fromSequence, batch.toSequence);
  const clock = deps.now ?? (() => new Date());
  let waited = false;
  for (let round = 0; round < 4; round += 1) {
    const { records, missing, holes } = await deps.rawLog.readRange(agent, batch.fromSequence, batch.toSequence);
    if (missing.length === 0) {
      // Holes read, not declared here: a run a retry wrote without them. Recorded so status counts them (a set: again is a no-op).
      if (holes.length > 0) await deps.ledger.recordHoles(agent, holes, clock().toISOString());
      return records;
    }
    // Sequence numbers are committed in order, so a missing one was committed no later than any
    // record after it was received, and no later than its batch closed.
    const marker = await deps.ledger.readBatch(agent, batch.index);
    const now = clock().getTime();
    const closedAt = marker ? Date.parse(marker.closedAt) : now;
    const committedBy = (sequence: number) =>
      records.filter((r) => r.sequence > sequence).reduce((earliest, r) => Math.min(earliest, Date.parse(r.receivedAt)), closedAt);
    const dueAt = Math.max(...missing.map((sequence) => committedBy(sequence) + policy.graceMs));
    if (dueAt > now) {
      if (waited || dueAt - now > untilDeadline(deps, policy.maxWaitMs)) throw new MissingRecordsError(missing);
      await sleep(dueAt - now);
      waited = true;
      continue;
    }
    const declaredAt = clock().toISOString();
    const declared: number[] = [];
    // In ascending order, stopping at the first slot found taken: a run arrived meanwhile, the next
    // round reads it, and no hole is ever written inside it (the raw log's rule).
    for (const sequence of missing) {
      const written = await deps.rawLog.putHole(agent, { sequence, batch: batch.index, declaredAt, reason: `no raw record ${policy.graceMs / 1000} s after its sequence number was committed` });
      if (!written) break;
      declared.push(sequence);
    }
    await deps.ledger.recordHoles(agent, declared, declaredAt);
  }
  return deps.rawLog.getRange(agent, batch.fromSequence, batch.toSequence);
}

async function catchUpSummaries(deps: ConsolidationDependencies, agent: AgentKey, batch: BatchRange): Promise<StoredSummary[]> {
  return deps.summaries ? placeThrough(deps.summaries, deps.rawLog, agent, batch, undefined) : [];
}

/**
 * Places every record the summary cursor has not seen, through the end of
 * `batch`: an earlier batch whose placement failed (and was then skipped by a
 * catch-up) is placed first, so no record is left out of its base summary.
 */
async function placeThrough(summaries: SummaryDependencies, rawLog: RawLog, agent: AgentKey, batch: BatchRange, batchRecords: readonly RawRecord[] | undefined): Promise<StoredSummary[]> {
  const placed = (await summaries.summaries.getCursor(agent))?.cursor.lastSequence ?? 0;
  if (placed >= batch.toSequence) return [];
  const from = placed + 1;
  const records =
    batchRecords && from >= batch.fromSequence
      ? batchRecords.filter((r) => r.sequence >= from)
      : [...(from < batch.fromSequence ? await rawLog.getRange(agent, from, batch.fromSequence - 1) : []), ...(batchRecords ?? (await rawLog.getRange(agent, batch.fromSequence, batch.toSequence)))];
  return placeRecords(summaries, agent, records, batch.toSequence);
}

async function markConsolidated(deps: ConsolidationDependencies, agent: AgentKey, batch: BatchRange, records: readonly RawRecord[] | undefined) {
  const newest = records?.reduce((latest, r) => (r.timestamp > latest ? r.timestamp : latest), '') ?? '';
  const now = (deps.now ?? (() => new Date()))().toISOString();
  await deps.ledger.markBatchConsolidated(agent, batch, newest || now, now);
}

async function runUpdater(
  deps: ConsolidationDependencies,
  agent: AgentKey,
  updater: UpdaterName,
  batch: BatchRange,
  records: readonly RawRecord[],
  budget: BatchBudget,
  share: BudgetLimits,
): Promise<UpdaterResult> {
  const store = await deps.memory.load(agent, updater);
  if (store.lastBatch >= batch.index) return { updater, outcome: 'skipped' };
  if (store.lastBatch !== batch.index - 1) {
    throw new BatchOrderError(`${updater} is at batch ${store.lastBatch}; batch ${batch.index} must wait for ${batch.index - 1}`);
  }
  if (store.pendingBatch !== undefined) {
    // An earlier attempt staged this batch's (large) patch and stopped midway: finish that
    // patch from its record instead of asking the model again (and paying twice).
    const resumed = await deps.memory.resume(agent, updater, store.pendingBatch);
    if (!resumed || store.pendingBatch !== batch.index) throw new BatchOrderError(`${updater} has a staged commit of batch ${store.pendingBatch} while applying ${batch.index}`);
    return { updater, outcome: 'applied', changed: resumed.changes.length, quarantined: resumed.audit.quarantined.length, inputTokens: 0, outputTokens: 0 };
  }
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const template = CURRENT_PROMPTS[updater];
  const evidence = new Map<string, Evidence>(
    records.map((r) => {
      const project = projectOf(r.metadata);
      return [r.id, { recordId: r.id, sequence: r.sequence, timestamp: r.timestamp, role: r.role, ...(project ? { project } : {}) }];
    }),
  );
  // The input is planned before any call: a batch larger than one prompt is read in chunks,
  // each seeing what the chunks before it changed, and committed as one patch.
  const promptFor = (current: UpdaterStore, chunk: readonly PromptRecord[], about: readonly PromptRecord[] = chunk) => {
    // What the records talk about, the open tasks and the latest few (domain/prompt-items.ts): every item shown costs tokens on every call.
    const visible = itemsForPrompt(current.items, about.map((r) => r.content), MAX_EXISTING_IN_PROMPT);
    const { aliasOf, idOf } = aliasItems(updater, visible);
    const input: UpdaterInput = {
      updater,
      records: chunk,
      existing: visible.map((item) => ({ alias: aliasOf.get(item.id)!, ...forModel(item) })),
      tables: current.tables,
    };
    return { input, idOf, prompt: renderPrompt(template, input) };
  };
  // The fixed part of each call, planned with the items the whole batch may show (a chunk shows no more).
  const empty = promptFor(store, [], records.map(toPromptRecord)).prompt;
  const plan = planModelInput(records.map(toPromptRecord), countTokens(empty.system) + countTokens(empty.user), {
    maxPromptTokens: share.maxPromptTokens ?? DEFAULT_MAX_PROMPT_TOKENS,
    maxCalls: share.maxCalls,
    maxInputTokens: share.maxInputTokens,
  });
  let current: UpdaterStore = store;
  const changes = new Map<string, ItemChange>();
  const ops: PatchOp[] = [];
  const quarantined: { op: PatchOp; reason: string }[] = [];
  const unread: string[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let modelId = '';
  let tablesChanged = false;
  for (const [chunkIndex, chunk] of (plan.chunks.length > 0 ? plan.chunks : [[]]).entries()) {
    let signal: AbortSignal;
    try {
      signal = budget.startCall();
    } catch (error) {
      // The first call refused fails the updater (retried with a fresh budget); a later
      // chunk refused leaves its records unread, noted in the audit entry.
      if (chunkIndex === 0 || !(error instanceof BudgetExceededError)) throw error;
      unread.push(...chunk.map((r) => r.id));
      continue;
    }
    const { input, idOf, prompt } = promptFor(current, chunk);
    const response = await deps.model.invoke({
      task: updater,
      prompt,
      input,
      outputSchema: updaterOutputSchemas[updater],
      maxOutputTokens: deps.maxOutputTokens ?? 4_096,
      signal,
    });
    budget.charge(response.usage);
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    modelId = response.modelId;
    const parsed = updaterOutputSchemas[updater].safeParse(response.output);
    if (!parsed.success) {
      const issues = issuesFromZod(parsed.error, 'output').map((issue) => `${issue.field}: ${issue.rule}`);
      throw new InvalidModelOutputError(`${updater}: model output failed validation: ${issues.slice(0, 5).join('; ')}`);
    }
    const result = applyPatch(current, parsed.data.ops, {
      updater,
      batch: batch.index,
      now,
      scope: agent,
      records: evidence,
      aliases: idOf,
      maxChanged: MAX_CHANGED_ITEMS_PER_BATCH - changes.size,
    });
    for (const change of result.changes) {
      // Across chunks an item keeps the state it had before the batch, and its latest after-state.
      changes.set(change.after.id, { before: changes.has(change.after.id) ? changes.get(change.after.id)!.before : change.before, after: change.after });
    }
    ops.push(...parsed.data.ops);
    quarantined.push(...result.quarantined);
    tablesChanged ||= result.tablesChanged;
    current = { ...current, items: [...result.items], tables: [...result.tables] };
  }
  const result = {
    items: current.items,
    tables: current.tables,
    changes: [...changes.values()].filter((c) => c.before === null || JSON.stringify(c.before) !== JSON.stringify(c.after)),
    tablesChanged,
    quarantined,
  };
  const redactions = placeholderCounts(records.map((r) => r.content));
  const version = store.version + 1;
  const reading = {
    ...(plan.chunks.length > 1 ? { chunks: plan.chunks.length } : {}),
    ...(plan.cut.length > 0 ? { cut: plan.cut } : {}),
    ...(unread.length > 0 ? { unread: { recordIds: unread, reason: `over the batch's model budget (${share.maxCalls} calls, ${share.maxInputTokens} input tokens for this updater)` } } : {}),
  };
  await deps.memory.commit(agent, {
    updater,
    expectedVersion: store.version,
    batch,
    changes: result.changes,
    ...(result.tablesChanged ? { tables: result.tables } : {}),
    audit: {
      updater,
      batch,
      appliedAt: now,
      modelId,
      prompt: { id: template.id, version: template.version },
      usage,
      ops,
      changes: result.changes,
      quarantined: result.quarantined,
      ...(result.tablesChanged ? { tablesBefore: store.tables, tablesAfter: result.tables } : {}),
      ...(Object.keys(redactions).length > 0 ? { redactions } : {}),
      ...(Object.keys(reading).length > 0 ? { reading } : {}),
    },
    view: buildView(updater, result.items, {
      version,
      batch: batch.index,
      lastSequence: batch.toSequence,
      updatedAt: now,
      ...(updater === 'facts' ? { tables: result.tables } : {}),
    }),
  });
  return {
    updater,
    outcome: 'applied',
    changed: result.changes.length,
    quarantined: result.quarantined.length,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(updater === 'contacts' ? { names: result.items.flatMap((item) => (item.kind === 'contact' && item.status !== 'archived' ? [item.name] : [])).slice(0, MAX_NAMES_READ) } : {}),
  };
}

/** A raw record as the model sees it; the speaker is the event's own, else the `metadata.speaker` a client sent. */
export function toPromptRecord(record: RawRecord): PromptRecord {
  const speaker = record.speaker ?? (typeof record.metadata?.speaker === 'string' && record.metadata.speaker.trim() ? record.metadata.speaker.trim() : undefined);
  return {
    id: record.id,
    sequence: record.sequence,
    timestamp: record.timestamp,
    type: record.type,
    role: record.role,
    content: record.content,
    ...(record.interactionId ? { interactionId: record.interactionId } : {}),
    ...(record.contact ? { contact: record.contact } : {}),
    ...(speaker ? { speaker } : {}),
    ...actionFields(record),
  };
}

/** What an action record says about how it went, from its metadata (see PromptRecord). */
function actionFields(record: RawRecord): Pick<PromptRecord, 'tool' | 'outcome' | 'error'> {
  if (record.type !== 'action') return {};
  const metadata = record.metadata ?? {};
  const tool = typeof metadata.tool === 'string' && metadata.tool.trim() ? metadata.tool.trim().slice(0, 100) : undefined;
  const error = typeof metadata.error === 'string' && metadata.error.trim() ? metadata.error.trim().slice(0, 500) : metadata.error ? 'error' : undefined;
  const outcome = metadata.outcome === 'success' || metadata.outcome === 'failure' ? metadata.outcome : error ? 'failure' : undefined;
  return { ...(tool ? { tool } : {}), ...(outcome ? { outcome } : {}), ...(error ? { error } : {}) };
}

/** What a model needs to see of an existing item: its content, never its id. */
export function forModel(item: MemoryItem): Record<string, unknown> {
  // A refuted item stays visible to the model, marked, so the next batch can supply its right value.
  return { ...contentForModel(item), ...(item.verification === 'refuted' ? { refuted: true } : {}) };
}

function contentForModel(item: MemoryItem): Record<string, unknown> {
  switch (item.kind) {
    case 'contact':
      // The biography goes back in so a refresh builds on it rather than on this batch alone.
      return { name: item.name, aliases: item.aliases, role: item.role, organisation: item.organisation, relationships: item.relationships, preferences: item.preferences, channels: item.channels, biography: item.biography, summary: item.summary };
    case 'fact':
      return { table: item.table, row: item.row, statement: item.statement, status: item.status };
    case 'task':
      return { title: item.title, owner: item.owner, due: item.due, state: item.state };
  }
}

