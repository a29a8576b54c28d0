/**
 * The scheduled sweep hands due agents to the sweep workers, each once per
 * lease and every shard in turn; a summary rebuild runs in steps that each
 * stop when time runs out and carry on where they stopped, to the same end as
 * one uninterrupted rebuild.
 */
import { describe, expect, it } from 'vitest';
import type { LadderConfig } from '../../../functions/domain/ladders.js';
import type { SweepJob } from '../../../functions/domain/sweep-job.js';
import { sweepShard } from '../../../functions/domain/table-layout.js';
import type { SummaryRequest } from '../../../functions/ports/model.js';
import { ingestEvents } from '../../../functions/use-cases/ingest-events.js';
import { ladderStep, placeRecords, rebuildStep, rebuildSummaries } from '../../../functions/use-cases/summaries.js';
import { enqueueDueAgents } from '../../../functions/use-cases/sweep-agents.js';
import { agent, fakeWorld, message } from '../../support/fake-ports.js';

const ladders: LadderConfig = { fanIns: { time: [7, 4, 3, 4], count: [2, 3] }, maxTokens: [160, 240, 320] };
const summariseSources = (request: unknown) => ({ text: (request as SummaryRequest).input.sources.map((source) => source.text).join(' / ') });

/** Seven interactions placed and climbed: six base summaries, three pairs and one parent of the pairs. */
async function history() {
  const world = fakeWorld({ batchSize: 50, model: { summary: summariseSources }, ladders });
  await ingestEvents(world.ingest, agent, Array.from({ length: 7 }, (_, i) => message(`turn ${i + 1}`, { id: `r${i + 1}`, interactionId: `call-${i + 1}` })));
  await placeRecords({ ...world.summaryDeps, ladders }, agent, await world.rawLog.getRange(agent, 1, 7));
  for (let inserts = world.summaries.takeInserted(); inserts.length > 0; inserts = world.summaries.takeInserted()) {
    for (const insert of inserts) await ladderStep({ summaries: world.summaries, model: world.model, ladders, now: world.clock.now }, insert.agent, insert.summary);
  }
  return world;
}

describe('a rebuild in steps', () => {
  it('regenerates, step after step, exactly what one uninterrupted rebuild regenerates, bases before ancestors', async () => {
    const whole = await history();
    const expected = await rebuildSummaries({ ...whole.summaryDeps, ladders }, agent, 'count', 1, 6);

    const stepped = await history();
    const rebuilt: string[] = [];
    let job: SweepJob | undefined = { kind: 'rebuild', ...agent, ladder: 'count', first: 1, last: 6 };
    let steps = 0;
    while (job?.kind === 'rebuild') {
      // No time left after the first summary of each step (a step always makes one): it stops and says where to go on.
      const step = await rebuildStep({ ...stepped.summaryDeps, ladders }, agent, job, () => false);
      rebuilt.push(...step.rebuilt);
      job = step.next;
      steps += 1;
    }

    expect(expected).toEqual(['count:0:1', 'count:0:2', 'count:0:3', 'count:0:4', 'count:0:5', 'count:0:6', 'count:1:0', 'count:1:1', 'count:1:2', 'count:2:0']);
    expect(rebuilt).toEqual(expected);
    expect(steps).toBe(expected.length);
  });

  it('carries on from a base period or from an ancestor level, as the job says', async () => {
    const world = await history();
    const deps = { ...world.summaryDeps, ladders };
    const fromBase = await rebuildStep(deps, agent, { kind: 'rebuild', ...agent, ladder: 'count', first: 1, last: 6, next: 5 }, () => true);
    const fromLevel = await rebuildStep(deps, agent, { kind: 'rebuild', ...agent, ladder: 'count', first: 1, last: 6, level: 1, parent: 2 }, () => true);

    expect(fromBase.rebuilt).toEqual(['count:0:5', 'count:0:6', 'count:1:0', 'count:1:1', 'count:1:2', 'count:2:0']);
    expect(fromLevel.rebuilt).toEqual(['count:1:2', 'count:2:0']);
    expect(fromBase.next).toBeUndefined();
  });
});

describe('handing due agents to the sweep workers', () => {
  /** Agents with a cursor due now, spread over the shards. */
  async function dueAgents(n: number) {
    const world = fakeWorld();
    const agents = Array.from({ length: n }, (_, i) => ({ tenantId: 'default', agentId: `agent-${i}` }));
    for (const key of agents) await world.summaries.putCursor(key, { lastSequence: 1 } as never, 0, '2026-11-02T08:00:00.000Z');
    const sent: SweepJob[] = [];
    const queue = { enqueue: async (jobs: readonly SweepJob[]) => void sent.push(...jobs) };
    return { world, agents, sent, queue };
  }

  it('sends every due agent once, and none again while its lease runs, then again once it has run out', async () => {
    const { world, agents, sent, queue } = await dueAgents(30);
    const deps = { summaries: world.summaries, queue, now: world.clock.now };

    const first = await enqueueDueAgents(deps, { leaseMs: 900_000 });
    const again = await enqueueDueAgents(deps, { leaseMs: 900_000 });
    world.clock.advance(900_001);
    const later = await enqueueDueAgents(deps, { leaseMs: 900_000 });

    expect(first).toEqual({ enqueued: 30, truncated: false });
    expect(again.enqueued).toBe(0);
    expect(later.enqueued).toBe(30);
    expect(new Set(sent.slice(0, 30).map((job) => job.agentId))).toEqual(new Set(agents.map((a) => a.agentId)));
    expect(sent.every((job) => job.kind === 'sweep')).toBe(true);
  });

  it('starts from the shard it is given, so the shard reached last changes from run to run', async () => {
    const { world, sent, queue } = await dueAgents(40);
    await enqueueDueAgents({ summaries: world.summaries, queue, now: world.clock.now }, { leaseMs: 900_000, startShard: 5 });

    const shards = sent.map((job) => Number(sweepShard(job).slice(1)));
    expect(shards[0]).toBe(5);
    // Shards in rotation order: 5, 6, 7, 0, 1, ... never back to an earlier one.
    const order = shards.map((shard) => (shard - 5 + 8) % 8);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
