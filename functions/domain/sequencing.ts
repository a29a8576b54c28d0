/**
 * Sequence and batch arithmetic for one agent, with no I/O. Messages and
 * actions share the agent's sequence; batches are counted in messages: when
 * the open batch holds `batchSize` messages it closes, covering every
 * sequence number since the previous batch ended. A flush closes the open
 * batch early; the next batch then starts after it, so ranges stay
 * contiguous and never overlap.
 */

export interface AgentCounters {
  readonly lastSequence: number;
  readonly messages: number;
  readonly actions: number;
  readonly batchesClosed: number;
  readonly lastBatchEnd: number;
  /** Messages in the open batch (since `lastBatchEnd`). */
  readonly batchMessages: number;
}

export const EMPTY_COUNTERS: AgentCounters = {
  lastSequence: 0,
  messages: 0,
  actions: 0,
  batchesClosed: 0,
  lastBatchEnd: 0,
  batchMessages: 0,
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
  /** Set on the first event after a batch boundary: it opens a batch. */
  readonly opensBatch?: true;
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
  let { lastSequence, messages, actions, batchesClosed, lastBatchEnd, batchMessages } = counters;
  const assigned: SequencedEvent<E>[] = [];
  const closedBatches: BatchRange[] = [];
  for (const event of events) {
    const opens = lastSequence === lastBatchEnd ? ({ opensBatch: true } as const) : {};
    lastSequence += 1;
    if (event.type === 'action') {
      actions += 1;
      assigned.push({ event, sequence: lastSequence, ...opens });
      continue;
    }
    messages += 1;
    batchMessages += 1;
    if (batchMessages >= batchSize) {
      batchesClosed += 1;
      const batch: BatchRange = { index: batchesClosed, fromSequence: lastBatchEnd + 1, toSequence: lastSequence };
      lastBatchEnd = lastSequence;
      batchMessages = 0;
      closedBatches.push(batch);
      assigned.push({ event, sequence: lastSequence, closesBatch: batch, ...opens });
    } else {
      assigned.push({ event, sequence: lastSequence, ...opens });
    }
  }
  return { assigned, next: { lastSequence, messages, actions, batchesClosed, lastBatchEnd, batchMessages }, closedBatches };
}

/**
 * How one commit's raw records are grouped into objects: consecutive
 * sequences, split after each event that closes a batch, so that a batch's
 * first sequence always starts an object and no object spans two batches.
 */
export function recordRuns(assigned: readonly Pick<SequencedEvent<unknown>, 'sequence' | 'closesBatch'>[]): { from: number; to: number }[] {
  const runs: { from: number; to: number }[] = [];
  let open: { from: number; to: number } | undefined;
  for (const { sequence, closesBatch } of assigned) {
    if (open && sequence === open.to + 1) open.to = sequence;
    else runs.push((open = { from: sequence, to: sequence }));
    if (closesBatch) open = undefined;
  }
  return runs;
}

/** Closes the open batch early (flush), or returns undefined when nothing is open. */
export function planFlush(counters: AgentCounters): { batch: BatchRange; next: AgentCounters } | undefined {
  if (counters.lastSequence <= counters.lastBatchEnd) return undefined;
  const batch: BatchRange = { index: counters.batchesClosed + 1, fromSequence: counters.lastBatchEnd + 1, toSequence: counters.lastSequence };
  return { batch, next: { ...counters, batchesClosed: batch.index, lastBatchEnd: batch.toSequence, batchMessages: 0 } };
}

/** Splits a list into chunks of at most `size` items, keeping order. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
