/** flushAgent on the in-memory fakes, with a fake clock for the idle conditions. */
import { describe, expect, it } from 'vitest';
import { NotFoundError, SequenceConflictError } from '../../../functions/domain/errors.js';
import { failNextCalls } from '../../../functions/ports/fakes/index.js';
import { flushAgent, type FlushDependencies } from '../../../functions/use-cases/flush-agent.js';
import { ingestEvents } from '../../../functions/use-cases/ingest-events.js';
import { agent, fakeWorld, messages } from '../../support/fake-ports.js';

function flushDeps(world: ReturnType<typeof fakeWorld>): FlushDependencies {
  return { ledger: world.ledger, queue: world.queue, now: world.clock.now };
}

describe('flushAgent', () => {
  it('closes the open partial batch, enqueues it and marks it queued', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(4));

    const result = await flushAgent(flushDeps(world), agent);

    expect(result).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 4 } });
    expect(world.queue.receiveAll()).toEqual([{ tenantId: 'default', agentId: 'agent-1', index: 1, fromSequence: 1, toSequence: 4 }]);
    expect((await world.ledger.readBatch(agent, 1))?.queuedAt).toBeDefined();
  });

  it('starts the next full batch after the flushed one', async () => {
    const world = fakeWorld({ batchSize: 3 });
    await ingestEvents(world.ingest, agent, messages(2));
    await flushAgent(flushDeps(world), agent);

    const result = await ingestEvents(world.ingest, agent, messages(3, 'after'));

    expect(result.batchesQueued).toEqual([{ index: 2, fromSequence: 3, toSequence: 5 }]);
  });

  it('answers nothing-open and enqueues nothing when every record is in a closed batch', async () => {
    const world = fakeWorld({ batchSize: 2 });
    await ingestEvents(world.ingest, agent, messages(2));
    world.queue.receiveAll();

    const result = await flushAgent(flushDeps(world), agent);

    expect(result).toEqual({ flushed: false, reason: 'nothing-open' });
    expect(world.queue.pending).toEqual([]);
  });

  it('refuses an agent that has no events with NotFoundError', async () => {
    const world = fakeWorld();

    await expect(flushAgent(flushDeps(world), { tenantId: 'default', agentId: 'nobody' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('waits out activity: not idle yet, with the seconds left until it would be', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(1));
    world.clock.advance(100_000);

    const result = await flushAgent(flushDeps(world), agent, { openFrom: 1, idleForSeconds: 900 });

    expect(result).toEqual({ flushed: false, reason: 'not-idle', retryInSeconds: 800 });
    expect(world.queue.sent).toEqual([]);
  });

  it('flushes once the agent has been quiet for the idle period', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(2));
    world.clock.advance(900_000);

    const result = await flushAgent(flushDeps(world), agent, { openFrom: 1, idleForSeconds: 900 });

    expect(result).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 2 } });
  });

  it('answers already-closed to an idle check whose batch was closed meanwhile', async () => {
    const world = fakeWorld({ batchSize: 2 });
    await ingestEvents(world.ingest, agent, messages(3));
    world.clock.advance(900_000);

    const result = await flushAgent(flushDeps(world), agent, { openFrom: 1, idleForSeconds: 900 });

    expect(result).toEqual({ flushed: false, reason: 'already-closed' });
  });

  it('queues a flushed batch whose enqueue failed when the next flush finds it unqueued', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(2));
    failNextCalls(world.queue, 'enqueue', new Error('SQS unavailable'));
    await expect(flushAgent(flushDeps(world), agent)).rejects.toThrow(/SQS unavailable/);

    const result = await flushAgent(flushDeps(world), agent);

    expect(result).toEqual({ flushed: false, reason: 'nothing-open' });
    expect(world.queue.receiveAll()).toEqual([{ tenantId: 'default', agentId: 'agent-1', index: 1, fromSequence: 1, toSequence: 2 }]);
    expect((await world.ledger.readBatch(agent, 1))?.queuedAt).toBeDefined();
  });

  it('looks again when ingest moved the counters between its read and its commit', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(2));
    failNextCalls(world.ledger, 'commitSequences', new SequenceConflictError('ingest won'));

    const result = await flushAgent(flushDeps(world), agent);

    expect(result).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 2 } });
  });

  it('closes exactly the records ingested before it when a request races it', async () => {
    const world = fakeWorld({ batchSize: 50 });
    await ingestEvents(world.ingest, agent, messages(2));

    const [flush] = await Promise.all([flushAgent(flushDeps(world), agent), ingestEvents(world.ingest, agent, messages(2, 'racing'))]);

    expect(flush.flushed).toBe(true);
    const status = await world.ledger.readStatus(agent);
    expect(status).toMatchObject({ lastSequence: 4, batchesClosed: 1 });
    expect(flush).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: status!.lastBatchEnd } });
  });
});
