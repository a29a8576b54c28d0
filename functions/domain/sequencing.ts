/**
 * Sequence and batch arithmetic for one agent, with no I/O. Messages and
 * actions share the agent's sequence; batches are counted in messages: each
 * time the message count reaches a multiple of the batch size, one batch
 * closes, covering every sequence number since the previous batch ended.
 */

export interface AgentCounters {
  readonly lastSequence: number;
  readonly messages: number;
  readonly actions: number;
  readonly batchesClosed: number;
  readonly lastBatchEnd: number;
}

export const EMPTY_COUNTERS: AgentCounters = {
  lastSequence: 0,
  messages: 0,
  actions: 0,
  batchesClosed: 0,
  lastBatchEnd: 0,
};

/** A closed batch: `messages` messages plus any actions between them. */
export interface BatchRange {
  readonly index: number;
  readonly fromSequence: number;
  readonly toSequence: number;
}

export interface SequencedEvent<E> {
  readonly event: E;
  readonly sequence: number;
  /** Set on the event whose message completed a batch. */
  readonly closesBatch?: BatchRange;
}

export interface SequencePlan<E> {
  readonly assigned: readonly SequencedEvent<E>[];
  readonly next: AgentCounters;
  readonly closedBatches: readonly BatchRange[];
}

/** Assigns consecutive sequence numbers after `counters` and closes batches. */
export function planSequences<E extends { readonly type: 'message' | 'action' }>(
  counters: AgentCounters,
  events: readonly E[],
  batchSize: number,
): SequencePlan<E> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  let { lastSequence, messages, actions, batchesClosed, lastBatchEnd } = counters;
  const assigned: SequencedEvent<E>[] = [];
  const closedBatches: BatchRange[] = [];
  for (const event of events) {
    lastSequence += 1;
    if (event.type === 'action') {
      actions += 1;
      assigned.push({ event, sequence: lastSequence });
      continue;
    }
    messages += 1;
    if (messages % batchSize === 0) {
      batchesClosed += 1;
      const batch: BatchRange = { index: batchesClosed, fromSequence: lastBatchEnd + 1, toSequence: lastSequence };
      lastBatchEnd = lastSequence;
      closedBatches.push(batch);
      assigned.push({ event, sequence: lastSequence, closesBatch: batch });
    } else {
      assigned.push({ event, sequence: lastSequence });
    }
  }
  return { assigned, next: { lastSequence, messages, actions, batchesClosed, lastBatchEnd }, closedBatches };
}

/** Splits a list into chunks of at most `size` items, keeping order. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
