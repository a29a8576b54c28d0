/** ingestEvents on the in-memory fakes: sequencing, exact batching, retries and refusals. */
import { describe, expect, it } from 'vitest';
import { DependencyError, EventIdConflictError, SequenceConflictError } from '../../../functions/domain/errors.js';
import { failNextCalls } from '../../../functions/ports/fakes/index.js';
import { ingestEvents, MAX_SQS_DELAY_SECONDS } from '../../../functions/use-cases/ingest-events.js';
import { AgentCounterCache } from '../../../functions/use-cases/counter-cache.js';
import { action, agent, fakeWorld, message, messages } from '../../support/fake-ports.js';

describe('ingestEvents: sequencing', () => {
  it('numbers the events of a new agent 1, 2, 3 in request order', async () => {
    const world = fakeWorld();

    const result = await ingestEvents(world.ingest, agent, [message('a'), action('b'), message('c')]);

    expect(result).toMatchObject({ accepted: 3, duplicates: 0, sequence: [1, 2, 3] });
  });

  it('continues the numbering of the next request where the previous one ended', async () => {
    const world = fakeWorld();
    await ingestEvents(world.ingest, agent, messages(2));

    const result = await ingestEvents(world.ingest, agent, messages(2, 'later'));

    expect(result.sequence).toEqual([3, 4]);
  });

  it('writes each raw record under its sequence number, with the server receipt time', async () => {
    const world = fakeWorld();
    const events = [message('hello', { interactionId: 'call-7' }), action('looked up the weather')];

    await ingestEvents(world.ingest, agent, events);

    expect(await world.rawLog.getRange(agent, 1, 2)).toEqual([
      { tenantId: 'default', agentId: 'agent-1', sequence: 1, ...events[0], receivedAt: '2026-11-02T09:00:00.000Z' },
      { tenantId: 'default', agentId: 'agent-1', sequence: 2, ...events[1], receivedAt: '2026-11-02T09:00:00.000Z' },
    ]);
  });

  it('gives two concurrent requests for one agent disjoint, gapless sequence numbers', async () => {
    const world = fakeWorld({ batchSize: 50 });

    const [first, second] = await Promise.all([ingestEvents(world.ingest, agent, messages(5, 'x')), ingestEvents(world.ingest, agent, messages(5, 'y'))]);

    expect([...first.sequence, ...second.sequence].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(world.rawLog.sequences(agent)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('ingestEvents: raw-record runs', () => {
  it('writes the events of one request as one object, split where a batch closes', async () => {
    const world = fakeWorld({ batchSize: 4 });

    const events = messages(10);
    await ingestEvents(world.ingest, agent, events);

    expect(world.rawLog.puts).toBe(3);
    expect((await world.rawLog.getRange(agent, 1, 10)).map((record) => record.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const claims = (await world.ledger.loadForIngest(agent, [events[0]!.id, events[4]!.id, events[9]!.id])).claims;
    expect([...claims.values()].sort((a, b) => a.sequence - b.sequence).map((claim) => claim.run)).toEqual([{ from: 1, to: 4 }, { from: 5, to: 8 }, { from: 9, to: 10 }]);
  });

  it('stores a retry that holds only part of a failed request, and refuses the rest when it comes, naming each event', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const events = messages(3);
    failNextCalls(world.rawLog, 'putRun', new Error('S3 unavailable'));
    await expect(ingestEvents(world.ingest, agent, events)).rejects.toBeInstanceOf(DependencyError);

    expect((await ingestEvents(world.ingest, agent, [events[1]!])).sequence).toEqual([2]);
    const rest = await ingestEvents(world.ingest, agent, [events[0]!, events[2]!]).catch((error: unknown) => error);

    expect(rest).toBeInstanceOf(EventIdConflictError);
    expect((rest as EventIdConflictError).issues).toEqual([
      { field: 'events[0].id', rule: expect.stringContaining('accepted as sequence 1, but its record was not stored') },
      { field: 'events[1].id', rule: expect.stringContaining('accepted as sequence 3, but its record was not stored') },
    ]);
    expect(await world.rawLog.readRange(agent, 1, 3)).toMatchObject({ records: [{ sequence: 2 }], holes: [1, 3], missing: [] });
  });
});

describe('ingestEvents: batching', () => {
  it('closes a batch at exactly the batch size in messages, the actions between them included', async () => {
    const world = fakeWorld({ batchSize: 3 });

    const result = await ingestEvents(world.ingest, agent, [message('1'), action('x'), message('2'), message('3'), message('4')]);

    expect(result.batchesQueued).toEqual([{ index: 1, fromSequence: 1, toSequence: 4 }]);
    expect(world.queue.receiveAll()).toEqual([{ tenantId: 'default', agentId: 'agent-1', index: 1, fromSequence: 1, toSequence: 4 }]);
  });

  it('closes no batch while the open one is one message short', async () => {
    const world = fakeWorld({ batchSize: 3 });

    const result = await ingestEvents(world.ingest, agent, [message('1'), action('x'), action('y'), message('2')]);

    expect(result.batchesQueued).toEqual([]);
    expect(world.queue.sent).toEqual([]);
  });

  it('closes a batch that spans two requests when the second brings its last message', async () => {
    const world = fakeWorld({ batchSize: 3 });
    await ingestEvents(world.ingest, agent, messages(2));

    const result = await ingestEvents(world.ingest, agent, messages(2, 'more'));

    expect(result.batchesQueued).toEqual([{ index: 1, fromSequence: 1, toSequence: 3 }]);
  });

  it('closes several consecutive, contiguous batches in one request', async () => {
    const world = fakeWorld({ batchSize: 2 });

    const result = await ingestEvents(world.ingest, agent, messages(7));

    expect(result.batchesQueued).toEqual([
      { index: 1, fromSequence: 1, toSequence: 2 },
      { index: 2, fromSequence: 3, toSequence: 4 },
      { index: 3, fromSequence: 5, toSequence: 6 },
    ]);
  });

  it('marks each enqueued batch as queued in the ledger and counts it once', async () => {
    const world = fakeWorld({ batchSize: 2 });

    await ingestEvents(world.ingest, agent, messages(4));

    expect((await world.ledger.readBatch(agent, 2))?.queuedAt).toBe('2026-11-02T09:00:00.000Z');
    expect((await world.ledger.readStatus(agent))?.batchesQueued).toBe(2);
  });

  it('commits a request larger than one transaction in chunks, numbering and batching it exactly', async () => {
    const world = fakeWorld({ batchSize: 50 });

    const result = await ingestEvents(world.ingest, agent, messages(100));

    expect(world.ledger.commits).toBe(2);
    expect(result.sequence).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(result.batchesQueued).toEqual([
      { index: 1, fromSequence: 1, toSequence: 50 },
      { index: 2, fromSequence: 51, toSequence: 100 },
    ]);
  });
});

describe('ingestEvents: retries', () => {
  it('answers a repeated request with the same sequence numbers, as duplicates, and writes nothing new', async () => {
    const world = fakeWorld({ batchSize: 2 });
    const events = messages(3);
    await ingestEvents(world.ingest, agent, events);

    const retry = await ingestEvents(world.ingest, agent, events);

    expect(retry).toMatchObject({ accepted: 0, duplicates: 3, sequence: [1, 2, 3], batchesQueued: [] });
    expect(world.ledger.commits).toBe(1);
    expect(world.queue.sent).toHaveLength(1);
  });

  it('accepts the new events of a request that repeats some already accepted ones', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const first = messages(2);
    await ingestEvents(world.ingest, agent, first);

    const result = await ingestEvents(world.ingest, agent, [...first, message('new one')]);

    expect(result).toMatchObject({ accepted: 1, duplicates: 2, sequence: [1, 2, 3] });
  });

  it('fails with a dependency error when a raw record cannot be written, and the retry completes the work', async () => {
    const world = fakeWorld({ batchSize: 2 });
    const events = messages(2);
    failNextCalls(world.rawLog, 'putRun', new Error('S3 unavailable'));

    await expect(ingestEvents(world.ingest, agent, events)).rejects.toBeInstanceOf(DependencyError);
    const retry = await ingestEvents(world.ingest, agent, events);

    expect(retry.sequence).toEqual([1, 2]);
    expect(world.rawLog.sequences(agent)).toEqual([1, 2]);
    expect(world.queue.receiveAll()).toEqual([{ tenantId: 'default', agentId: 'agent-1', index: 1, fromSequence: 1, toSequence: 2 }]);
  });

  it('enqueues on retry a batch whose first enqueue failed, and only once', async () => {
    const world = fakeWorld({ batchSize: 2 });
    const events = messages(2);
    failNextCalls(world.queue, 'enqueue', new Error('SQS unavailable'));

    await expect(ingestEvents(world.ingest, agent, events)).rejects.toThrow(/enqueue batch 1 failed/);
    await ingestEvents(world.ingest, agent, events);
    await ingestEvents(world.ingest, agent, events);

    expect(world.queue.sent).toHaveLength(1);
    expect((await world.ledger.readBatch(agent, 1))?.queuedAt).toBeDefined();
  });

  it('retries the commit with fresh counters when another writer advanced them first', async () => {
    const world = fakeWorld();
    await ingestEvents(world.ingest, agent, messages(1));
    failNextCalls(world.ledger, 'commitSequences', new SequenceConflictError('lost the race'));

    const result = await ingestEvents(world.ingest, agent, messages(1, 'after'));

    expect(result.sequence).toEqual([2]);
  });

  it('saves the ledger read when the counter cache holds the agent’s last committed counters', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const deps = { ...world.ingest, counterCache: new AgentCounterCache() };
    await ingestEvents(deps, agent, messages(1));
    let reads = 0;
    const load = world.ledger.loadForIngest.bind(world.ledger);
    world.ledger.loadForIngest = async (...args) => {
      reads += 1;
      return load(...args);
    };

    const result = await ingestEvents(deps, agent, messages(1, 'warm'));

    expect(result.sequence).toEqual([2]);
    expect(reads).toBe(0);
  });
});

describe('ingestEvents: refusals', () => {
  it('refuses an id reused with different content with a 409 naming the event, and writes nothing', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const original = message('I live in Porto', { id: 'evt-1' });
    await ingestEvents(world.ingest, agent, [original]);
    const putsBefore = world.rawLog.puts;

    const refused = await ingestEvents(world.ingest, agent, [message('fine'), { ...original, content: 'I live in Lisbon' }]).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(EventIdConflictError);
    expect((refused as EventIdConflictError).status).toBe(409);
    expect((refused as EventIdConflictError).issues).toEqual([{ field: 'events[1].id', rule: expect.stringContaining('already accepted with different content') }]);
    expect(world.ledger.commits).toBe(1);
    expect(world.rawLog.puts).toBe(putsBefore);
    expect((await world.ledger.readStatus(agent))?.lastSequence).toBe(1);
  });
});

describe('ingestEvents: idle checks', () => {
  it('schedules one idle check for the event that opens a batch, delayed by the quiet period', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const deps = { ...world.ingest, idleChecks: world.idleChecks, idleFlushSeconds: 120 };

    await ingestEvents(deps, agent, messages(3));

    expect(world.idleChecks.receiveAll()).toEqual([{ check: { tenantId: 'default', agentId: 'agent-1', openFrom: 1 }, delaySeconds: 120 }]);
  });

  it('caps the idle check delay at the longest SQS delay', async () => {
    const world = fakeWorld({ batchSize: 50 });
    const deps = { ...world.ingest, idleChecks: world.idleChecks, idleFlushSeconds: 3_600 };

    await ingestEvents(deps, agent, messages(1));

    expect(world.idleChecks.receiveAll().map((scheduled) => scheduled.delaySeconds)).toEqual([MAX_SQS_DELAY_SECONDS]);
  });

  it('schedules a check again for the event that opens the batch after a closed one', async () => {
    const world = fakeWorld({ batchSize: 2 });
    const deps = { ...world.ingest, idleChecks: world.idleChecks, idleFlushSeconds: 60 };

    await ingestEvents(deps, agent, messages(3));

    expect(world.idleChecks.receiveAll().map((scheduled) => scheduled.check.openFrom)).toEqual([1, 3]);
  });
});

describe('ingestEvents: when a batch was queued', () => {
  it('is the time before the send, so a consumer that marks it arrived while the send returns is never earlier', async () => {
    const world = fakeWorld({ batchSize: 2 });
    // The send takes 5 ms; the consumer could have received the job at any point in them.
    const send = world.queue.enqueue.bind(world.queue);
    world.queue.enqueue = async (job) => {
      const sentAt = world.clock.now().getTime();
      world.clock.advance(5);
      await send(job);
      expect(sentAt).toBe(Date.parse('2026-11-02T09:00:00.000Z'));
    };

    await ingestEvents(world.ingest, agent, messages(2));

    expect((await world.ledger.readBatch(agent, 1))?.queuedAt).toBe('2026-11-02T09:00:00.000Z');
  });
});
