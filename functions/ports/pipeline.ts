/**
 * Ports the use cases depend on. Adapters for DynamoDB, S3 and SQS live in
 * `functions/adapters/`; use cases never import an AWS SDK.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { AgentCounters, BatchRange } from '../domain/sequencing.js';
import type { IncomingEvent } from '../domain/events.js';
import { MemoryServiceError } from '../domain/errors.js';
import type { SweepJob } from '../domain/sweep-job.js';

/** What the ledger remembers about an accepted event id. */
export interface EventClaim {
  readonly eventId: string;
  readonly sequence: number;
  readonly contentHash: string;
  /** Server time the event was first accepted. */
  readonly receivedAt: string;
  /** The event's own timestamp, or the server time when the client sent none. */
  readonly timestamp: string;
  readonly closesBatch?: BatchRange;
  /** The event opened a batch: an idle-flush check was scheduled for it. */
  readonly opensBatch?: true;
  /** The run of records its raw record is written in (absent on claims made before runs: a run of one). */
  readonly run?: SequenceRun;
}

/** Consecutive sequence numbers, first and last included. */
export interface SequenceRun {
  readonly from: number;
  readonly to: number;
}

/** An agent's pipeline state, as `GET /status` reports it. */
export interface AgentStatus extends AgentCounters {
  /** Sequence numbers whose records never arrived and were consolidated as holes. */
  readonly holes: number;
  /** The hole sequence numbers, ascending (at most 100). */
  readonly holeSequences: readonly number[];
  readonly batchesQueued: number;
  /** Last sequence number every updater has consolidated (0 before the first batch). */
  readonly lastConsolidatedSequence: number;
  readonly lastConsolidatedBatch: number;
  /** Timestamp of the newest consolidated record. */
  readonly lastConsolidatedRecordAt?: string;
  readonly firstSeenAt: string;
  readonly updatedAt: string;
  /** A sweep was asked for while a batch was still consolidating; the consolidator carries it out. */
  readonly sweepRequestedAt?: string;
}

/**
 * The agent ledger: per-agent counters, event-id claims and batch markers.
 * `commitSequences` is atomic: either every claim and the new counters are
 * written, or nothing is (SequenceConflictError when another writer won).
 */
export interface AgentLedger {
  loadForIngest(
    agent: AgentKey,
    eventIds: readonly string[],
  ): Promise<{ status: AgentStatus | undefined; claims: ReadonlyMap<string, EventClaim> }>;
  commitSequences(
    agent: AgentKey,
    expected: AgentCounters | undefined,
    next: AgentCounters,
    claims: readonly EventClaim[],
    closedBatches: readonly BatchRange[],
    now: string,
  ): Promise<void>;
  /** Records that a batch job was enqueued; counted once however often it is called. */
  markBatchQueued(agent: AgentKey, batch: BatchRange, now: string): Promise<void>;
  /** Records that the consolidator received a batch job. */
  markBatchArrived(agent: AgentKey, batchIndex: number, now: string): Promise<void>;
  /** Records why a batch job failed (the latest cause, and how often it failed). */
  recordBatchFailure(agent: AgentKey, batchIndex: number, cause: string, now: string): Promise<void>;
  /** Records that every updater applied a batch; only ever moves forward. */
  markBatchConsolidated(agent: AgentKey, batch: BatchRange, newestRecordAt: string, now: string): Promise<void>;
  /** Records sequence numbers consolidated as holes (a set: recording one twice counts it once). */
  recordHoles(agent: AgentKey, sequences: readonly number[], now: string): Promise<void>;
  readStatus(agent: AgentKey): Promise<AgentStatus | undefined>;
  /** Remembers that a sweep was requested while consolidation was pending. */
  requestSweep(agent: AgentKey, now: string): Promise<void>;
  /** Forgets that request, if it is still the one given (a newer request stays). */
  clearSweepRequest(agent: AgentKey, requestedAt: string): Promise<void>;
  readBatch(agent: AgentKey, batchIndex: number): Promise<BatchMarker | undefined>;
}

export interface BatchMarker extends BatchRange {
  readonly closedAt: string;
  readonly queuedAt?: string;
  readonly arrivedAt?: string;
  /** Closed by a flush rather than by reaching the batch size. */
  readonly flushed?: true;
  readonly deliveries: number;
  readonly failures: number;
  readonly lastError?: string;
}

/** One raw record, stored once in S3 and never changed. */
export interface RawRecord extends Omit<IncomingEvent, 'timestamp'> {
  readonly tenantId: string;
  readonly agentId: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly receivedAt: string;
}

// Defined with the other typed errors; exported here as part of the port's contract (the in-memory fake throws it too).
export { MissingRecordsError } from '../domain/errors.js';

/** What stands in a raw log slot whose record never arrived. */
export interface HoleMarker {
  readonly sequence: number;
  readonly declaredAt: string;
  readonly batch: number;
  readonly reason: string;
}

/**
 * Consecutive records written as one object: the events of one commit of
 * one request, split where a batch closes, so that no object spans two
 * batches. `records` may hold fewer than the range when a retry held only
 * part of the request; the rest of the range then reads as holes.
 */
export interface RawRun extends SequenceRun {
  readonly records: readonly RawRecord[];
}

/**
 * The raw log: one object per run of records, keyed by the run's first
 * sequence under the agent's prefix (a record written alone is a run of one).
 * Every key is written once: a run, or (when the records never arrived) a
 * hole marker per sequence. Holes are declared in ascending order and stop
 * at the first slot found taken, so a hole never lies inside a stored run.
 */
export interface RawLog {
  /** Stores a run once; resolves with the run's sequences that are not stored (a hole holds its key, or an earlier write stored the run without them). */
  putRun(agent: AgentKey, run: RawRun): Promise<readonly number[]>;
  /** Marks an empty slot as a hole; false when the slot is already taken (the record arrived). */
  putHole(agent: AgentKey, hole: HoleMarker): Promise<boolean>;
  get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined>;
  /** Records fromSequence..toSequence in order, holes left out; throws MissingRecordsError naming any slot that is empty. */
  getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]>;
  /** Like getRange, but reports empty slots instead of throwing. */
  readRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<{ records: RawRecord[]; missing: number[]; holes: number[] }>;
}

/** A consolidation job for one closed batch. */
export interface BatchJob extends BatchRange {
  readonly tenantId: string;
  readonly agentId: string;
}

/** The consolidation queue (FIFO, one message group per agent). */
export interface BatchQueue {
  enqueue(job: BatchJob): Promise<void>;
}

/** A request to flush an agent's open batch if it is still open and idle. */
export interface IdleCheck {
  readonly tenantId: string;
  readonly agentId: string;
  /** First sequence number of the batch that was open when the check was scheduled. */
  readonly openFrom: number;
}

/** Schedules idle checks (an SQS standard queue with per-message delay; at most 15 minutes per hop). */
export interface IdleCheckScheduler {
  schedule(check: IdleCheck, delaySeconds: number): Promise<void>;
}

/** A message that can never succeed, with why: parked on a dead-letter queue at once instead of being retried. */
export interface DeadLetter {
  readonly body: string;
  /** The FIFO message group it came from (its agent), kept so a redrive restores the order. */
  readonly groupId: string;
  /** Deterministic (the original message id), so a repeated park is dropped. */
  readonly deduplicationId: string;
  readonly cause: string;
}

/** Jobs for the sweep workers (due agents, summary rebuilds); delivered at least once. */
export interface SweepQueue {
  enqueue(jobs: readonly SweepJob[]): Promise<void>;
}

/** The consolidation dead-letter queue, written directly for jobs that are malformed. */
export interface DeadLetterQueue {
  park(letter: DeadLetter): Promise<void>;
}
