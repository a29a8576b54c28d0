/**
 * Ingest: give each new event the agent's next sequence number, make its raw
 * record durable, and enqueue a consolidation job for every batch it closes.
 * No model call happens here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { agentPartitionKey, type AgentKey } from '../domain/agent-key.js';
import { contentHash, legacyContentHash, type IncomingEvent } from '../domain/events.js';
import { DependencyError, EventIdConflictError, MemoryServiceError, SequenceConflictError, type FieldIssue } from '../domain/errors.js';
import { EMPTY_COUNTERS, planSequences, recordRuns, type AgentCounters, type BatchRange, type SequencePlan } from '../domain/sequencing.js';
import type { AgentCounterCache } from './counter-cache.js';
import { mapWithConcurrency } from '../commons/concurrency.js';
import type { AgentLedger, BatchQueue, EventClaim, IdleCheckScheduler, RawLog, RawRecord, RawRun } from '../ports/pipeline.js';

export interface IngestDependencies {
  readonly ledger: AgentLedger;
  readonly rawLog: RawLog;
  readonly queue: BatchQueue;
  readonly batchSize: number;
  /** How many raw-record objects (runs) one request writes to S3 at once. */
  readonly rawWriteConcurrency: number;
  readonly now?: () => Date;
  /** Last committed counters per agent in this process; saves a read per request when warm. */
  readonly counterCache?: AgentCounterCache;
  /** Schedules the idle flush of a batch when an event opens it. */
  readonly idleChecks?: IdleCheckScheduler;
  /** Quiet period after which an open batch is flushed. */
  readonly idleFlushSeconds?: number;
}

export interface IngestResult {
  readonly accepted: number;
  readonly duplicates: number;
  /** The sequence number of each event, in request order. */
  readonly sequence: readonly number[];
  /** Batches this request enqueued (closed by it, or left unqueued by an earlier failed attempt). */
  readonly batchesQueued: readonly BatchRange[];
}

/**
 * DynamoDB transactions hold at most 100 items: the counters item, a claim per
 * event and a marker per closed batch must fit, so new events are committed in
 * chunks of this size.
 */
const EVENTS_PER_COMMIT = 90;

/** Events per commit so that claims, one marker per batch they close, and the counters fit 100 items. */
export function eventsPerCommit(batchSize: number): number {
  return Math.max(1, Math.min(EVENTS_PER_COMMIT, Math.floor((99 * batchSize) / (batchSize + 1))));
}
const MAX_COMMIT_ATTEMPTS = 40;
const NOT_LOADED = Symbol('not loaded');
/** SQS's longest per-message delay; longer quiet periods re-schedule. */
export const MAX_SQS_DELAY_SECONDS = 900;

/**
 * Accepts a validated list of events for one agent.
 *
 * Order of work, and why: sequence numbers and event-id claims are committed
 * first, in one conditional transaction (so numbers are consecutive, with no
 * gap and no duplicate); then raw records are written; then batch jobs are
 * enqueued. The records of one commit are one object (split where a batch
 * closes), not one object each: one S3 PUT per request is most of what a
 * write costs. A failure after the commit surfaces as a 5xx, and a retry with
 * the same ids finds its claims, rewrites the same runs under the same keys and
 * enqueues the same jobs (deterministic deduplication ids): nothing is counted
 * twice and nothing acknowledged is lost.
 */
export async function ingestEvents(
  deps: IngestDependencies,
  agent: AgentKey,
  events: readonly IncomingEvent[],
): Promise<IngestResult> {
  const now = deps.now ?? (() => new Date());
  const committed = await commitSequences(deps, agent, events, now);
  const { claims, conflicting } = committed;
  const accepted = events.filter((event) => claims.has(event.id) && !conflicting.has(event.id));
  await writeRawRuns(deps, agent, events, accepted.map((event) => toRawRecord(agent, event, claims.get(event.id)!)), claims);
  const batches = await enqueueClosedBatches(deps, agent, accepted, committed, now);
  await scheduleIdleChecks(deps, agent, accepted, claims);
  // A concurrent writer's conflict found midway: what was committed is durable now; refuse the rest.
  if (committed.conflicts.length > 0) throw new EventIdConflictError(committed.conflicts);
  return {
    accepted: events.length - committed.duplicates,
    duplicates: committed.duplicates,
    sequence: events.map((event) => claims.get(event.id)!.sequence),
    batchesQueued: batches,
  };
}

interface CommittedSequences {
  /** Every event's claim: found (a retry) or committed by this request. */
  readonly claims: ReadonlyMap<string, EventClaim>;
  /** Ids this request committed (not found from an earlier attempt). */
  readonly committedIds: ReadonlySet<string>;
  readonly duplicates: number;
  readonly conflicts: readonly FieldIssue[];
  readonly conflicting: ReadonlySet<string>;
}

/**
 * Step 1: sequence numbers and claims, in conditional transactions of at most
 * one commit's events. A retried id finds its claim; an id claimed with other
 * content is a conflict, refused before anything is committed.
 */
async function commitSequences(deps: IngestDependencies, agent: AgentKey, events: readonly IncomingEvent[], now: () => Date): Promise<CommittedSequences> {
  const hashes = new Map(events.map((event) => [event.id, contentHash(event)]));
  const claims = new Map<string, EventClaim>();
  const committedIds = new Set<string>();
  let duplicates = 0;
  let pending = [...events];

  const cacheKey = agentPartitionKey(agent);
  const perCommit = eventsPerCommit(deps.batchSize);
  // `undefined` means a new agent; NOT_LOADED means we must read the ledger first. A request
  // larger than one commit always reads first, so every id is checked before anything is committed.
  let expected: AgentCounters | undefined | typeof NOT_LOADED =
    events.length <= perCommit ? (deps.counterCache?.get(cacheKey) ?? NOT_LOADED) : NOT_LOADED;
  const conflicts: FieldIssue[] = [];
  const conflicting = new Set<string>();

  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (expected === NOT_LOADED) {
      const loaded = await callDependency('read agent ledger', () =>
        deps.ledger.loadForIngest(agent, pending.map((event) => event.id)),
      );
      for (const [eventId, claim] of loaded.claims) {
        const event = events.find((candidate) => candidate.id === eventId)!;
        if (claim.contentHash !== hashes.get(eventId) && claim.contentHash !== legacyContentHash(event)) {
          const index = events.findIndex((event) => event.id === eventId);
          conflicts.push({ field: `events[${index}].id`, rule: 'was already accepted with different content; event ids are unique per agent' });
          conflicting.add(eventId);
        }
        if (!claims.has(eventId)) duplicates += 1;
        claims.set(eventId, claim);
      }
      // Checked before anything of this request is committed, so a refused request writes nothing.
      if (conflicts.length > 0 && committedIds.size === 0) throw new EventIdConflictError(conflicts);
      // A concurrent writer claimed an id with other content after part of this request was
      // committed: stop here, make what was committed durable, then refuse (ingestEvents).
      if (conflicts.length > 0) break;
      pending = pending.filter((event) => !loaded.claims.has(event.id));
      expected = loaded.status;
      if (pending.length === 0) break;
    }

    const slice = pending.slice(0, perCommit);
    const base: AgentCounters = expected ?? EMPTY_COUNTERS;
    const plan: SequencePlan<IncomingEvent> = planSequences(base, slice, deps.batchSize);
    const stamp = now().toISOString();
    const runs = recordRuns(plan.assigned);
    const runOf = (sequence: number) => runs.find((run) => run.from <= sequence && sequence <= run.to)!;
    const newClaims: EventClaim[] = plan.assigned.map(({ event, sequence, closesBatch, opensBatch }) => ({
      eventId: event.id,
      sequence,
      contentHash: hashes.get(event.id)!,
      receivedAt: stamp,
      timestamp: event.timestamp ?? stamp,
      ...(closesBatch ? { closesBatch } : {}),
      ...(opensBatch && deps.idleChecks ? { opensBatch } : {}),
      run: runOf(sequence),
    }));
    try {
      await deps.ledger.commitSequences(agent, expected, plan.next, newClaims, plan.closedBatches, stamp);
    } catch (error) {
      // Another writer advanced the counters, or some ids were already claimed
      // (a retry): nothing was written; reload and try again.
      deps.counterCache?.forget(cacheKey);
      if (error instanceof SequenceConflictError && attempt < MAX_COMMIT_ATTEMPTS) {
        if (attempt > 1) await sleep(Math.random() * Math.min(100, 5 * attempt));
        expected = NOT_LOADED;
        continue;
      }
      throw asDependencyError('commit sequence numbers', error);
    }
    expected = plan.next;
    deps.counterCache?.set(cacheKey, plan.next);
    for (const claim of newClaims) {
      claims.set(claim.eventId, claim);
      committedIds.add(claim.eventId);
    }
    pending = pending.slice(slice.length);
  }
  return { claims, committedIds, duplicates, conflicts, conflicting };
}

/**
 * Step 2: the raw records, one object per run, under keys fixed by the runs
 * committed with their claims (a retry writes the same runs; one that holds
 * only part of a run writes that part, and the rest of the run reads as holes).
 */
async function writeRawRuns(deps: IngestDependencies, agent: AgentKey, events: readonly IncomingEvent[], records: readonly RawRecord[], claims: ReadonlyMap<string, EventClaim>): Promise<void> {
  const runs = new Map<number, { from: number; to: number; records: RawRecord[] }>();
  for (const record of records) {
    // A claim made before runs has none: its record was an object of its own.
    const { from, to } = claims.get(record.id)!.run ?? { from: record.sequence, to: record.sequence };
    const run = runs.get(from) ?? { from, to, records: [] };
    run.records.push(record);
    runs.set(from, run);
  }
  for (const run of runs.values()) run.records.sort((a, b) => a.sequence - b.sequence);
  const lost: { sequence: number; issue: FieldIssue }[] = [];
  await mapWithConcurrency([...runs.values()], deps.rawWriteConcurrency, async (run: RawRun) => {
    const notStored = await callDependency(`write raw records ${run.from}..${run.to}`, () => deps.rawLog.putRun(agent, run));
    for (const sequence of notStored) {
      const record = run.records.find((candidate) => candidate.sequence === sequence);
      if (!record) continue;
      // A retry that came after the grace period (the slot was consolidated as a hole), or after another retry stored this run without it.
      const field = `events[${events.findIndex((event) => event.id === record.id)}].id`;
      lost.push({ sequence, issue: { field, rule: `was accepted as sequence ${sequence}, but its record was not stored in time (consolidated as a hole, or its run was stored by another retry without it); send it again under a new id` } });
    }
  });
  if (lost.length > 0) throw new EventIdConflictError(lost.sort((a, b) => a.sequence - b.sequence).map(({ issue }) => issue));
}

/**
 * Step 3: the events that closed a batch enqueue it: on first delivery, and on
 * a retry when the earlier attempt failed before marking it queued. (SQS FIFO
 * would also drop a repeat within its 5-minute deduplication window; the
 * marker covers retries after that window too.)
 */
async function enqueueClosedBatches(deps: IngestDependencies, agent: AgentKey, accepted: readonly IncomingEvent[], committed: CommittedSequences, now: () => Date): Promise<BatchRange[]> {
  const batches: BatchRange[] = [];
  for (const event of accepted) {
    const batch = committed.claims.get(event.id)!.closesBatch;
    if (!batch) continue;
    if (!committed.committedIds.has(event.id)) {
      const marker = await callDependency(`read batch ${batch.index}`, () => deps.ledger.readBatch(agent, batch.index));
      if (marker?.queuedAt) continue;
    }
    batches.push(batch);
  }
  for (const batch of batches) {
    // The time it is sent, taken before the send: a consumer may mark the job arrived before the send returns.
    const queuedAt = now().toISOString();
    await callDependency(`enqueue batch ${batch.index}`, () =>
      deps.queue.enqueue({ tenantId: agent.tenantId, agentId: agent.agentId, ...batch }),
    );
    await callDependency(`mark batch ${batch.index} queued`, () =>
      deps.ledger.markBatchQueued(agent, batch, queuedAt),
    );
  }
  return batches;
}

/** Step 4: an event that opened a batch schedules its idle flush (again on retry: the check is idempotent). */
async function scheduleIdleChecks(deps: IngestDependencies, agent: AgentKey, accepted: readonly IncomingEvent[], claims: ReadonlyMap<string, EventClaim>): Promise<void> {
  const idleChecks = deps.idleChecks;
  if (!idleChecks) return;
  for (const event of accepted) {
    const claim = claims.get(event.id)!;
    if (!claim.opensBatch) continue;
    await callDependency(`schedule idle check from ${claim.sequence}`, () =>
      idleChecks.schedule({ tenantId: agent.tenantId, agentId: agent.agentId, openFrom: claim.sequence }, Math.min(MAX_SQS_DELAY_SECONDS, deps.idleFlushSeconds ?? MAX_SQS_DELAY_SECONDS)),
    );
  }
}

function toRawRecord(agent: AgentKey, event: IncomingEvent, claim: EventClaim): RawRecord {
  return {
    tenantId: agent.tenantId,
    agentId: agent.agentId,
    sequence: claim.sequence,
    ...event,
    timestamp: claim.timestamp,
    receivedAt: claim.receivedAt,
  };
}

async function callDependency<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asDependencyError(what, error);
  }
}

function asDependencyError(what: string, error: unknown): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  return new DependencyError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
