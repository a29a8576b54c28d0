/** assembleSnapshot on the in-memory fakes: views, latest summaries, freshness, and versioned writes. */
import { describe, expect, it } from 'vitest';
import { coveredRange, summaryId, DEFAULT_LADDERS } from '../../../functions/domain/ladders.js';
import type { Snapshot } from '../../../functions/domain/snapshot.js';
import type { StoredSummary } from '../../../functions/ports/summary-store.js';
import { assembleSnapshot, type SnapshotDependencies } from '../../../functions/use-cases/assemble-snapshot.js';
import { CachedSnapshotReader } from '../../../functions/use-cases/read-snapshot.js';
import { ingestEvents } from '../../../functions/use-cases/ingest-events.js';
import { consolidateBatch } from '../../../functions/use-cases/consolidate-batch.js';
import { agent, fakeWorld, message } from '../../support/fake-ports.js';

function daySummary(index: number, text: string, createdAt = '2026-11-03T00:05:00.000Z'): StoredSummary {
  return {
    id: summaryId('time', 0, index),
    ladder: 'time',
    level: 0,
    index,
    origin: 0,
    ...coveredRange(DEFAULT_LADDERS, 'time', 0, index),
    children: [],
    sources: [],
    text,
    tokens: text ? 4 : 0,
    inputTokens: 0,
    empty: text === '',
    modelId: text ? 'scripted' : '',
    createdAt,
  };
}

const quiet = { contacts: () => ({ ops: [] }), facts: () => ({ ops: [] }), tasks: () => ({ ops: [] }) };

describe('assembleSnapshot', () => {
  it('writes nothing for an agent the ledger does not know (erased, and a late job arrives)', async () => {
    const world = fakeWorld();

    await assembleSnapshot(world.snapshot, agent);

    expect(await world.snapshots.readVersion(agent)).toBe(0);
  });

  it('writes version 1 with each store’s view, the ladders and the agent’s freshness', async () => {
    const world = fakeWorld({ batchSize: 2, model: { ...quiet, tasks: [{ ops: [{ op: 'add', task: { title: 'Send the invoice', owner: 'user' }, evidence: ['r1'] }] }] } });
    await ingestEvents(world.ingest, agent, [message('Send the invoice today.', { id: 'r1' }), message('ok', { id: 'r2' }), message('and one more', { id: 'r3' })]);
    await consolidateBatch(world.consolidation, world.queue.receiveAll()[0]!);

    const snapshot = await assembleSnapshot(world.snapshot, agent);

    expect(snapshot).toMatchObject({
      tenantId: 'default',
      agentId: 'agent-1',
      version: 1,
      generatedAt: '2026-11-02T09:00:00.000Z',
      freshness: { lastConsolidatedSequence: 2, lastIngestedSequence: 3, pendingRecords: 1, newestConsolidatedRecordAt: '2026-11-02T09:00:00Z' },
      tasks: await world.memory.readView(agent, 'tasks'),
      contacts: await world.memory.readView(agent, 'contacts'),
    });
    expect(world.snapshots.latest(agent)).toEqual(snapshot);
  });

  it('writes the next version each time it runs', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);
    await assembleSnapshot(world.snapshot, agent);

    const second = await assembleSnapshot(world.snapshot, agent);

    expect(second.version).toBe(2);
    expect(await world.snapshots.readVersion(agent)).toBe(2);
  });

  it('shows the latest summary with text at each level, skipping empty markers after it', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);
    await world.summaries.putSummary(agent, daySummary(20_758, 'Planned the trip.'));
    await world.summaries.putSummary(agent, daySummary(20_759, 'Booked the flights.'));
    await world.summaries.putSummary(agent, daySummary(20_760, ''));

    const snapshot = await assembleSnapshot(world.snapshot, agent);

    expect(snapshot.time).toEqual([
      { id: 'time:0:20759', level: 0, name: 'day', from: '2026-11-02', to: '2026-11-02', text: 'Booked the flights.', tokens: 4, asOf: '2026-11-03T00:05:00.000Z' },
    ]);
    expect(snapshot.count).toEqual([]);
  });

  it('leaves out the views of stores that have consolidated nothing', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);

    const snapshot = await assembleSnapshot(world.snapshot, agent);

    expect(snapshot).not.toHaveProperty('contacts');
    expect(snapshot).not.toHaveProperty('tasks');
    expect(snapshot.freshness).toEqual({ lastConsolidatedSequence: 0, lastIngestedSequence: 1, pendingRecords: 1 });
  });

  it('reassembles on the next version when another assembler wrote first', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);
    let competed = false;
    const snapshots: SnapshotDependencies['snapshots'] = {
      readVersion: (key) => world.snapshots.readVersion(key),
      write: async (key, snapshot: Snapshot) => {
        if (!competed) {
          competed = true;
          await world.snapshots.write(key, { ...snapshot, generatedAt: 'by the other assembler' });
        }
        return world.snapshots.write(key, snapshot);
      },
    };

    const snapshot = await assembleSnapshot({ ...world.snapshot, snapshots }, agent);

    expect(snapshot.version).toBe(2);
    expect(world.snapshots.latest(agent)?.generatedAt).toBe('2026-11-02T09:00:00.000Z');
  });

  it('gives up with an error when every attempt loses the race', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);
    const snapshots: SnapshotDependencies['snapshots'] = { readVersion: async () => 0, write: async () => false };

    await expect(assembleSnapshot({ ...world.snapshot, snapshots }, agent)).rejects.toThrow(/kept changing/);
  });

  it('is what the read path gets back, in one lookup', async () => {
    const world = fakeWorld();
    // A snapshot is assembled only for an agent the ledger knows.
    await ingestEvents(world.ingest, agent, [message('First words.', { id: 'r0' })]);
    const written = await assembleSnapshot(world.snapshot, agent);
    const reader = new CachedSnapshotReader(world.snapshots, 0);

    const read = await reader.read(agent);

    expect(read).toEqual(written);
    expect(world.snapshots.reads).toBe(1);
  });
});
