/**
 * Ports the use cases depend on. Adapters for DynamoDB, S3 and SQS live in
 * `functions/adapters/`; use cases never import an AWS SDK.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { AgentCounters, BatchRange } from '../domain/sequencing.js';
import type { IncomingEvent } from '../domain/events.js';
import { MemoryServiceError } from '../domain/errors.js';

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
}

/** An agent's pipeline state, as `GET /status` reports it. */
export interface AgentStatus extends AgentCounters {
  readonly batchesQueued: number;
  /** Last sequence number every updater has consolidated (0 before the first batch). */
  readonly lastConsolidatedSequence: number;
  readonly lastConsolidatedBatch: number;
  /** Timestamp of the newest consolidated record. */
  readonly lastConsolidatedRecordAt?: string;
  readonly firstSeenAt: string;
  readonly updatedAt: string;
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
  readStatus(agent: AgentKey): Promise<AgentStatus | undefined>;
  readBatch(agent: AgentKey, batchIndex: number): Promise<BatchMarker | undefined>;
}

export interface BatchMarker extends BatchRange {
  readonly closedAt: string;
  readonly queuedAt?: string;
  readonly arrivedAt?: string;
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

/** Some records of a range are not (yet) in the raw log: a writer has not finished, or failed before its retry. */
export class MissingRecordsError extends MemoryServiceError {
  override readonly name = 'MissingRecordsError';
  constructor(readonly missing: readonly number[]) {
    super(`raw records missing: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''}`);
  }
}

/** The raw log: one object per record, keyed by sequence under the agent's prefix. */
export interface RawLog {
  put(agent: AgentKey, record: RawRecord): Promise<void>;
  get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined>;
  /** Records fromSequence..toSequence in order; throws MissingRecordsError naming any that are absent. */
  getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]>;
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

/** The consolidation dead-letter queue, written directly for jobs that are malformed. */
export interface DeadLetterQueue {
  park(letter: DeadLetter): Promise<void>;
}
