import { describe, expect, it } from 'vitest';
import { EMPTY_COUNTERS, chunk, planFlush, planSequences, recordRuns } from '../../functions/domain/sequencing.js';
import { eventsPerCommit } from '../../functions/use-cases/ingest-events.js';

const messages = (n: number) => Array.from({ length: n }, () => ({ type: 'message' as const }));

describe('planSequences', () => {
  it('assigns consecutive sequence numbers after the last one', () => {
    // Prepare
    const counters = { ...EMPTY_COUNTERS, lastSequence: 7, messages: 7 };
    // Act
    const plan = planSequences(counters, messages(3), 50);
    // Assess
    expect(plan.assigned.map((event) => event.sequence)).toEqual([8, 9, 10]);
    expect(plan.next).toMatchObject({ lastSequence: 10, messages: 10 });
  });

  it('closes a batch exactly when the message count reaches a multiple of the batch size', () => {
    const plan = planSequences(EMPTY_COUNTERS, messages(120), 50);

    expect(plan.closedBatches).toEqual([
      { index: 1, fromSequence: 1, toSequence: 50 },
      { index: 2, fromSequence: 51, toSequence: 100 },
    ]);
    expect(plan.assigned[49]!.closesBatch).toEqual(plan.closedBatches[0]);
    expect(plan.assigned.filter((event) => event.closesBatch)).toHaveLength(2);
    expect(plan.next).toMatchObject({ batchesClosed: 2, lastBatchEnd: 100 });
  });

  it('counts batches in messages and includes the actions between them in the range', () => {
    const events = [
      { type: 'action' as const },
      ...messages(2),
      { type: 'action' as const },
      ...messages(1),
    ];

    const plan = planSequences(EMPTY_COUNTERS, events, 3);

    expect(plan.closedBatches).toEqual([{ index: 1, fromSequence: 1, toSequence: 5 }]);
    expect(plan.next).toMatchObject({ lastSequence: 5, messages: 3, actions: 2 });
  });

  it('continues a batch that earlier requests began', () => {
    const counters = { lastSequence: 48, messages: 45, actions: 3, batchesClosed: 0, lastBatchEnd: 0, batchMessages: 45 };

    const plan = planSequences(counters, messages(6), 50);

    expect(plan.closedBatches).toEqual([{ index: 1, fromSequence: 1, toSequence: 53 }]);
    expect(plan.next.messages).toBe(51);
  });

  it('gives contiguous, non-overlapping batches however the events are split across requests', () => {
    let counters = EMPTY_COUNTERS;
    const batches = [];
    for (const size of [7, 1, 33, 50, 9, 61, 2, 37]) {
      const plan = planSequences(counters, messages(size), 50);
      batches.push(...plan.closedBatches);
      counters = plan.next;
    }

    expect(batches.map((batch) => batch.index)).toEqual([1, 2, 3, 4]);
    batches.forEach((batch, index) => {
      expect(batch.fromSequence).toBe(index * 50 + 1);
      expect(batch.toSequence).toBe((index + 1) * 50);
    });
  });

  it('marks the first event after a batch boundary as opening a batch', () => {
    const plan = planSequences(EMPTY_COUNTERS, messages(52), 50);

    expect(plan.assigned.filter((event) => event.opensBatch).map((event) => event.sequence)).toEqual([1, 51]);
  });

  it('starts a full batch after a flush, so ranges never overlap', () => {
    const first = planSequences(EMPTY_COUNTERS, messages(30), 50);
    const flush = planFlush(first.next)!;
    const after = planSequences(flush.next, messages(50), 50);

    expect(flush.batch).toEqual({ index: 1, fromSequence: 1, toSequence: 30 });
    expect(after.closedBatches).toEqual([{ index: 2, fromSequence: 31, toSequence: 80 }]);
    expect(after.assigned[0]!.opensBatch).toBe(true);
  });

  it('flushes nothing when no batch is open', () => {
    expect(planFlush(planSequences(EMPTY_COUNTERS, messages(50), 50).next)).toBeUndefined();
    expect(planFlush(EMPTY_COUNTERS)).toBeUndefined();
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => planSequences(EMPTY_COUNTERS, messages(1), 0)).toThrow(RangeError);
  });
});

describe('chunk', () => {
  it('splits in order with a short last chunk', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('eventsPerCommit', () => {
  it('keeps claims, batch markers and the counters within a 100-item transaction for any batch size', () => {
    for (const batchSize of [1, 2, 3, 7, 10, 50, 1000]) {
      const events = eventsPerCommit(batchSize);
      expect(events + Math.ceil(events / batchSize) + 1).toBeLessThanOrEqual(100);
    }
    expect(eventsPerCommit(50)).toBe(90);
  });
});

describe('recordRuns', () => {
  it('groups one commit into one run, split after each event that closes a batch, so every batch starts a run', () => {
    const counters = { ...EMPTY_COUNTERS, lastSequence: 8, messages: 8, batchMessages: 8 };
    const plan = planSequences(counters, [...messages(3), { type: 'action' as const }, ...messages(12)], 10);

    expect(plan.closedBatches.map((batch) => [batch.fromSequence, batch.toSequence])).toEqual([[1, 10], [11, 21]]);
    expect(recordRuns(plan.assigned)).toEqual([
      { from: 9, to: 10 },
      { from: 11, to: 21 },
      { from: 22, to: 24 },
    ]);
  });
});
