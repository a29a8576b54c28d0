/**
 * In-memory consolidation queue with the FIFO queue's deduplication: a job
 * for the same agent and batch sent again within the deduplication window
 * (five minutes, on the fake's clock) is accepted and dropped, as SQS drops
 * a repeated MessageDeduplicationId.
 */
import { agentPartitionKey } from '../../domain/agent-key.js';
import type { BatchJob, BatchQueue } from '../pipeline.js';
import { stored } from './storage.js';

const DEDUPLICATION_WINDOW_MS = 5 * 60_000;

export class InMemoryBatchQueue implements BatchQueue {
  /** Jobs waiting to be received, in the order they were sent. */
  readonly pending: BatchJob[] = [];
  /** Every enqueue call, duplicates included. */
  readonly sent: BatchJob[] = [];
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  async enqueue(job: BatchJob): Promise<void> {
    const copy = stored(job);
    this.sent.push(copy);
    const key = `${agentPartitionKey(job)}#B#${job.index}`;
    const at = this.now().getTime();
    const previous = this.lastSent.get(key);
    if (previous !== undefined && at - previous < DEDUPLICATION_WINDOW_MS) return;
    this.lastSent.set(key, at);
    this.pending.push(copy);
  }

  /** Receives (and removes) every waiting job, oldest first. */
  receiveAll(): BatchJob[] {
    return this.pending.splice(0, this.pending.length);
  }
}
