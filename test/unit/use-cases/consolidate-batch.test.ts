/** consolidateBatch on the in-memory fakes: updaters isolated, redelivery idempotent, batches in order. */
import { describe, expect, it } from 'vitest';
import type { IncomingEvent } from '../../../functions/domain/events.js';
import { InvalidModelOutputError } from '../../../functions/domain/patch.js';
import { failNextCalls } from '../../../functions/ports/fakes/index.js';
import { MissingRecordsError } from '../../../functions/ports/pipeline.js';
import { ModelCallError, type UpdaterRequest } from '../../../functions/ports/model.js';
import { StoreVersionConflictError } from '../../../functions/ports/memory-store.js';
import { BatchOrderError, consolidateBatch, UpdatersFailedError } from '../../../functions/use-cases/consolidate-batch.js';
import { BudgetExceededError } from '../../../functions/use-cases/model-budget.js';
import { ingestEvents } from '../../../functions/use-cases/ingest-events.js';
import { ScriptedModel, type ModelScript } from '../../../functions/ports/fakes/model.js';
import { agent, fakeWorld, message } from '../../support/fake-ports.js';

const noChange = { ops: [] };
const addTask = (title: string, evidence: string) => ({ ops: [{ op: 'add', task: { title, owner: 'user' }, evidence: [evidence] }] });

/** A world with `batches` closed batches of three messages each (ids r1, r2, ...), and their jobs taken off the queue. */
async function withBatches(batches: number, model: ModelScript) {
  const world = fakeWorld({ batchSize: 3, model });
  const events: IncomingEvent[] = [];
  for (let i = 0; i < batches * 3; i += 1) events.push(message(`Remind me about item ${i + 1}.`, { id: `r${i + 1}` }));
  await ingestEvents(world.ingest, agent, events);
  const jobs = world.queue.receiveAll();
  return { world, jobs };
}

/** Answers every call of the three updaters with no change. */
const quiet: ModelScript = { contacts: () => noChange, facts: () => noChange, tasks: () => noChange };

describe('consolidateBatch: applying a batch', () => {
  it('gives each updater the batch’s records and commits its patch to its own store', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, tasks: [addTask('Call the bank', 'r2')] });

    await consolidateBatch(world.consolidation, jobs[0]!);

    const tasksInput = (world.model.requestsFor('tasks')[0] as UpdaterRequest).input;
    expect(tasksInput.records.map((record) => record.id)).toEqual(['r1', 'r2', 'r3']);
    const store = await world.memory.load(agent, 'tasks');
    expect(store).toMatchObject({ version: 1, lastBatch: 1 });
    expect(store.items).toEqual([expect.objectContaining({ kind: 'task', title: 'Call the bank', evidence: [expect.objectContaining({ recordId: 'r2', sequence: 2 })] })]);
  });

  it('keeps an audit entry per updater and batch with the model, prompt and ops', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, tasks: [addTask('Renew passport', 'r1')] });

    await consolidateBatch(world.consolidation, jobs[0]!);

    expect(await world.memory.readAudit(agent, 1, 'tasks')).toMatchObject({
      updater: 'tasks',
      batch: { index: 1, fromSequence: 1, toSequence: 3 },
      modelId: 'scripted',
      prompt: { id: expect.any(String), version: expect.any(String) },
      ops: addTask('Renew passport', 'r1').ops,
    });
    expect(await world.memory.readAudit(agent, 1, 'contacts')).toMatchObject({ ops: [], changes: [] });
  });

  it('records the batch as consolidated, with its newest record time', async () => {
    const { world, jobs } = await withBatches(1, quiet);

    await consolidateBatch(world.consolidation, jobs[0]!);

    expect(await world.ledger.readStatus(agent)).toMatchObject({ lastConsolidatedSequence: 3, lastConsolidatedBatch: 1, lastConsolidatedRecordAt: '2026-11-02T09:00:00Z' });
  });

  it('reports model calls and tokens for the batch', async () => {
    const { world, jobs } = await withBatches(1, quiet);

    const [outcome] = await consolidateBatch(world.consolidation, jobs[0]!);

    expect(outcome).toMatchObject({ batch: { index: 1 }, modelCalls: 3, inputTokens: 300, outputTokens: 60 });
    expect(outcome!.results.map((result) => result.outcome)).toEqual(['applied', 'applied', 'applied']);
  });
});

describe('consolidateBatch: updaters are isolated', () => {
  it('commits the other updaters when one fails, and leaves the failed one’s store untouched', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, contacts: [new ModelCallError('model unavailable')] });

    const failure = await consolidateBatch(world.consolidation, jobs[0]!).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(UpdatersFailedError);
    expect((failure as UpdatersFailedError).failures.map((f) => f.updater)).toEqual(['contacts']);
    expect((await world.memory.loadHeads(agent, ['contacts', 'facts', 'tasks'])).map((head) => head.lastBatch)).toEqual([0, 1, 1]);
  });

  it('does not record the batch as consolidated while an updater has not applied it', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, facts: [new ModelCallError('model unavailable')] });

    await expect(consolidateBatch(world.consolidation, jobs[0]!)).rejects.toBeInstanceOf(UpdatersFailedError);

    expect((await world.ledger.readStatus(agent))?.lastConsolidatedBatch).toBe(0);
  });

  it('fails only the updater whose model output breaks its schema', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, tasks: [{ ops: [{ op: 'explode', target: 'T1' }] }] });

    const failure = (await consolidateBatch(world.consolidation, jobs[0]!).catch((error: unknown) => error)) as UpdatersFailedError;

    expect(failure.failures).toEqual([expect.objectContaining({ updater: 'tasks', error: expect.any(InvalidModelOutputError) })]);
    expect(await world.memory.readAudit(agent, 1, 'contacts')).toBeDefined();
  });

  it('fails the updater that exceeds the batch’s call budget, and no other', async () => {
    const { world, jobs } = await withBatches(1, quiet);
    const deps = { ...world.consolidation, budget: { ...world.consolidation.budget, maxCalls: 2 } };

    const failure = (await consolidateBatch(deps, jobs[0]!).catch((error: unknown) => error)) as UpdatersFailedError;

    expect(failure.failures).toHaveLength(1);
    expect(failure.failures[0]!.error).toBeInstanceOf(BudgetExceededError);
    expect(world.memory.commits).toHaveLength(2);
  });

  it('reads a batch larger than one prompt in chunks, each seeing the chunks before it, and commits one patch', async () => {
    const long = (topic: string) => `${topic}. ${Array.from({ length: 1_200 }, (_, i) => `detail${i % 13}`).join(' ')}`;
    const world = fakeWorld({
      batchSize: 3,
      model: {
        ...quiet,
        tasks: (request) => {
          const input = (request as UpdaterRequest).input;
          const record = input.records[0]!;
          // The first chunk adds a task; the later ones close it, by the alias the store gave it.
          return input.existing.length === 0 ? addTask('Ship the harbour report', record.id) : { ops: [{ op: 'update', target: input.existing[0]!.alias, changes: { title: `Ship the harbour report (${record.id})` }, evidence: [record.id] }] };
        },
      },
    });
    await ingestEvents(world.ingest, agent, [message(long('Report'), { id: 'r1' }), message(long('Draft'), { id: 'r2' }), message(long('Final'), { id: 'r3' })]);
    const deps = { ...world.consolidation, updaters: ['tasks'] as const, budget: { ...world.consolidation.budget, maxPromptTokens: 2_500 } };

    await consolidateBatch(deps, world.queue.receiveAll()[0]!);

    const requests = world.model.requestsFor('tasks').map((r) => (r as UpdaterRequest).input);
    expect(requests.map((input) => input.records.map((r) => r.id))).toEqual([['r1'], ['r2'], ['r3']]);
    expect(requests[1]!.existing).toEqual([expect.objectContaining({ alias: 'T1', title: 'Ship the harbour report' })]);
    expect(world.memory.commits).toHaveLength(1);
    const audit = await world.memory.readAudit(agent, 1, 'tasks');
    expect(audit).toMatchObject({ reading: { chunks: 3 }, usage: { inputTokens: 300, outputTokens: 60 } });
    // One change for the item: its state before the batch (none) and after the last chunk.
    expect(audit!.changes).toEqual([expect.objectContaining({ before: null, after: expect.objectContaining({ title: 'Ship the harbour report (r3)' }) })]);
    expect(audit!.ops).toHaveLength(3);
  });

  it('leaves the chunks the budget cannot pay for unread, noted in the audit, instead of failing', async () => {
    const long = `Notes. ${Array.from({ length: 1_200 }, (_, i) => `detail${i % 13}`).join(' ')}`;
    const world = fakeWorld({ batchSize: 3 });
    await ingestEvents(world.ingest, agent, [message(long, { id: 'r1' }), message(long, { id: 'r2' }), message(long, { id: 'r3' })]);
    // The model reports far more input than the plan counted (another tokenizer): the first
    // call spends the budget, so the two chunks after it are not sent.
    const model = new ScriptedModel(quiet, { usage: { inputTokens: 50_000, outputTokens: 20 } });
    const deps = { ...world.consolidation, model, updaters: ['tasks'] as const, budget: { ...world.consolidation.budget, maxInputTokens: 40_000, maxPromptTokens: 2_500 } };

    const [outcome] = await consolidateBatch(deps, world.queue.receiveAll()[0]!);

    expect(outcome!.results).toEqual([expect.objectContaining({ updater: 'tasks', outcome: 'applied' })]);
    expect(model.requestsFor('tasks')).toHaveLength(1);
    expect(await world.memory.readAudit(agent, 1, 'tasks')).toMatchObject({ reading: { chunks: 3, unread: { recordIds: ['r2', 'r3'], reason: expect.stringContaining('model budget') } } });
    expect(await world.ledger.readStatus(agent)).toMatchObject({ lastConsolidatedBatch: 1 });
  });

  it('fails the updater whose commit loses a race, writing nothing of its patch', async () => {
    const { world, jobs } = await withBatches(1, { tasks: [addTask('Pay rent', 'r1')] });
    const deps = { ...world.consolidation, updaters: ['tasks'] as const };
    failNextCalls(world.memory, 'commit', new StoreVersionConflictError('another writer moved the head'));

    await expect(consolidateBatch(deps, jobs[0]!)).rejects.toBeInstanceOf(UpdatersFailedError);

    expect(await world.memory.load(agent, 'tasks')).toMatchObject({ version: 0, items: [] });
  });
});

describe('consolidateBatch: redelivery', () => {
  it('reruns only the updater that failed when the job is delivered again', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, contacts: [new ModelCallError('model unavailable'), noChange] });
    await expect(consolidateBatch(world.consolidation, jobs[0]!)).rejects.toBeInstanceOf(UpdatersFailedError);
    const callsBefore = world.model.requests.length;

    await consolidateBatch(world.consolidation, jobs[0]!);

    expect(world.model.requests.slice(callsBefore).map((request) => request.task)).toEqual(['contacts']);
    expect((await world.ledger.readStatus(agent))?.lastConsolidatedBatch).toBe(1);
  });

  it('applies nothing twice when a completed batch is delivered again', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, tasks: [addTask('Book dentist', 'r3')] });
    await consolidateBatch(world.consolidation, jobs[0]!);
    const commits = world.memory.commits.length;
    const calls = world.model.requests.length;

    const outcomes = await consolidateBatch(world.consolidation, jobs[0]!);

    expect(outcomes).toEqual([]);
    expect(world.memory.commits).toHaveLength(commits);
    expect(world.model.requests).toHaveLength(calls);
    expect((await world.memory.load(agent, 'tasks')).items).toHaveLength(1);
  });
});

describe('consolidateBatch: order', () => {
  it('applies an earlier unapplied batch first when a later job arrives before it', async () => {
    const { world, jobs } = await withBatches(2, quiet);

    const outcomes = await consolidateBatch(world.consolidation, jobs[1]!);

    expect(outcomes.map((outcome) => outcome.batch)).toEqual([
      { index: 1, fromSequence: 1, toSequence: 3 },
      { index: 2, fromSequence: 4, toSequence: 6 },
    ]);
    expect((await world.ledger.readStatus(agent))?.lastConsolidatedBatch).toBe(2);
  });

  it('finds nothing left to do when the earlier job arrives after the later one applied both', async () => {
    const { world, jobs } = await withBatches(2, quiet);
    await consolidateBatch(world.consolidation, jobs[1]!);
    const calls = world.model.requests.length;

    const outcomes = await consolidateBatch(world.consolidation, jobs[0]!);

    expect(outcomes).toEqual([]);
    expect(world.model.requests).toHaveLength(calls);
  });

  it('refuses a job further ahead of the applied batches than it may catch up', async () => {
    const { world, jobs } = await withBatches(3, quiet);
    const deps = { ...world.consolidation, maxCatchUpBatches: 1 };

    await expect(consolidateBatch(deps, jobs[2]!)).rejects.toBeInstanceOf(BatchOrderError);
    expect(world.memory.commits).toHaveLength(0);
  });

  it('fails the job without writing anything while the raw records of the batch are missing', async () => {
    const { world, jobs } = await withBatches(1, quiet);
    // The batch's records were one request: one object, under the key of its first sequence.
    world.rawLog.delete(agent, 1);

    await expect(consolidateBatch(world.consolidation, jobs[0]!)).rejects.toBeInstanceOf(MissingRecordsError);
    expect(world.memory.commits).toHaveLength(0);
    expect(world.model.requests).toHaveLength(0);
  });
});

describe('consolidateBatch: holes', () => {
  it('declares holes in order and stops at a slot found taken, so no hole lands inside a run that arrived meanwhile', async () => {
    const { world, jobs } = await withBatches(1, quiet);
    const records = await world.rawLog.getRange(agent, 1, 3);
    world.rawLog.delete(agent, 1);
    world.clock.advance(10 * 60_000);
    const putHole = world.rawLog.putHole.bind(world.rawLog);
    const tried: number[] = [];
    // The client's late retry lands its run just before the first hole is written.
    world.rawLog.putHole = async (target, hole) => {
      tried.push(hole.sequence);
      if (hole.sequence === 1) await world.rawLog.putRun(target, { from: 1, to: 3, records });
      return putHole(target, hole);
    };

    const outcomes = await consolidateBatch({ ...world.consolidation, holes: { graceMs: 60_000, maxWaitMs: 1_000 } }, jobs[0]!);

    expect(tried).toEqual([1]);
    expect(outcomes.map((outcome) => outcome.batch.index)).toEqual([1]);
    expect(await world.rawLog.readRange(agent, 1, 3)).toMatchObject({ records: [{ sequence: 1 }, { sequence: 2 }, { sequence: 3 }], holes: [], missing: [] });
  });

  it('counts in the status the sequences of a run that a retry wrote without them', async () => {
    const { world, jobs } = await withBatches(1, quiet);
    const records = await world.rawLog.getRange(agent, 1, 3);
    world.rawLog.delete(agent, 1);
    await world.rawLog.putRun(agent, { from: 1, to: 3, records: [records[1]!] });

    await consolidateBatch({ ...world.consolidation, holes: { graceMs: 60_000, maxWaitMs: 1_000 } }, jobs[0]!);

    expect(await world.ledger.readStatus(agent)).toMatchObject({ lastConsolidatedSequence: 3, holes: 2, holeSequences: [1, 3] });
  });
});

describe('consolidateBatch: after the stores', () => {
  it('advances the summary cursor over the batch’s records', async () => {
    const { world, jobs } = await withBatches(1, quiet);
    const deps = { ...world.consolidation, summaries: world.summaryDeps };

    await consolidateBatch(deps, jobs[0]!);

    expect((await world.summaries.getCursor(agent))?.cursor.lastSequence).toBe(3);
  });

  it('reassembles the snapshot with the refreshed views', async () => {
    const { world, jobs } = await withBatches(1, { ...quiet, tasks: [addTask('Water the plants', 'r1')] });
    const deps = { ...world.consolidation, snapshot: world.snapshot };

    await consolidateBatch(deps, jobs[0]!);

    const snapshot = world.snapshots.latest(agent);
    expect(snapshot).toMatchObject({ version: 1, freshness: { lastConsolidatedSequence: 3, pendingRecords: 0 } });
    expect(JSON.stringify(snapshot!.tasks)).toContain('Water the plants');
  });
});
