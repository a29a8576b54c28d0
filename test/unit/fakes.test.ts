/** The fakes with no AWS counterpart to compare against (the model) or with behaviour the contracts do not cover (queues, fault injection). */
import { describe, expect, it } from 'vitest';
import { updaterOutputSchemas } from '../../functions/domain/memory.js';
import { failNextCalls, HashingEmbeddings, InMemoryBatchQueue, InMemoryIdleCheckScheduler, ScriptedModel } from '../../functions/ports/fakes/index.js';
import { ModelCallError, type ModelRequest } from '../../functions/ports/model.js';
import { FakeClock } from '../support/fake-ports.js';

const request = (task: 'tasks' | 'facts'): ModelRequest =>
  ({
    task,
    prompt: { id: task, version: 'v1', system: 's', user: 'u' },
    input: { updater: task, records: [], existing: [], tables: [] },
    outputSchema: updaterOutputSchemas[task],
    maxOutputTokens: 100,
  }) as ModelRequest;

describe('ScriptedModel', () => {
  it('answers each task with its scripted outputs in order, and records every request', async () => {
    const model = new ScriptedModel({ tasks: [{ ops: [] }, { ops: ['second'] }] }, { modelId: 'm', usage: { inputTokens: 7, outputTokens: 3 } });
    const first = request('tasks');

    expect(await model.invoke(first)).toEqual({ output: { ops: [] }, modelId: 'm', usage: { inputTokens: 7, outputTokens: 3 } });
    expect((await model.invoke(request('tasks'))).output).toEqual({ ops: ['second'] });
    expect(model.requestsFor('tasks')[0]).toBe(first);
  });

  it('throws a scripted error instead of answering', async () => {
    const model = new ScriptedModel({ facts: [new ModelCallError('down')] });

    await expect(model.invoke(request('facts'))).rejects.toThrow('down');
  });

  it('fails with ModelCallError on a call it has no answer for', async () => {
    const model = new ScriptedModel({ tasks: [{ ops: [] }] });
    await model.invoke(request('tasks'));

    await expect(model.invoke(request('tasks'))).rejects.toBeInstanceOf(ModelCallError);
    await expect(model.invoke(request('facts'))).rejects.toThrow(/no answer left for facts/);
  });

  it('computes every answer of a task scripted as a function from its request', async () => {
    const model = new ScriptedModel({ tasks: (req) => ({ ops: [], echoed: req.prompt.user }) });

    expect((await model.invoke(request('tasks'))).output).toEqual({ ops: [], echoed: 'u' });
    expect((await model.invoke(request('tasks'))).output).toEqual({ ops: [], echoed: 'u' });
  });
});

describe('InMemoryBatchQueue', () => {
  const job = { tenantId: 'default', agentId: 'a', index: 1, fromSequence: 1, toSequence: 3 };

  it('drops a job sent again for the same batch within the deduplication window', async () => {
    const clock = new FakeClock();
    const queue = new InMemoryBatchQueue(clock.now);
    await queue.enqueue(job);
    clock.advance(4 * 60_000);

    await queue.enqueue(job);

    expect(queue.receiveAll()).toEqual([job]);
    expect(queue.sent).toHaveLength(2);
  });

  it('delivers a job sent again after the deduplication window', async () => {
    const clock = new FakeClock();
    const queue = new InMemoryBatchQueue(clock.now);
    await queue.enqueue(job);
    clock.advance(5 * 60_000);

    await queue.enqueue(job);

    expect(queue.receiveAll()).toEqual([job, job]);
  });
});

describe('InMemoryIdleCheckScheduler', () => {
  it('clamps delays to what SQS allows', async () => {
    const scheduler = new InMemoryIdleCheckScheduler();

    await scheduler.schedule({ tenantId: 'default', agentId: 'a', openFrom: 1 }, 1_200);
    await scheduler.schedule({ tenantId: 'default', agentId: 'a', openFrom: 2 }, -5);

    expect(scheduler.receiveAll().map((scheduled) => scheduled.delaySeconds)).toEqual([900, 0]);
  });
});

describe('failNextCalls', () => {
  it('fails the next calls of a method, then lets calls through again', async () => {
    const queue = new InMemoryBatchQueue();
    const job = { tenantId: 'default', agentId: 'a', index: 1, fromSequence: 1, toSequence: 1 };
    const faults = failNextCalls(queue, 'enqueue', new Error('outage'), 2);

    await expect(queue.enqueue(job)).rejects.toThrow('outage');
    await expect(queue.enqueue(job)).rejects.toThrow('outage');
    await queue.enqueue(job);

    expect(faults.failed()).toBe(2);
    expect(queue.pending).toEqual([job]);
  });
});

describe('HashingEmbeddings', () => {
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

  it('gives the same text the same unit vector, and texts sharing words a higher similarity', async () => {
    const embeddings = new HashingEmbeddings(64);

    const [lease, leaseAgain, leaseRenewal, cat] = await embeddings.embed(['the lease ends in June', 'the lease ends in June', 'renew the lease in June', 'my cat likes fish']);

    expect(Math.hypot(...lease!)).toBeCloseTo(1, 5);
    expect(Array.from(leaseAgain!)).toEqual(Array.from(lease!));
    expect(dot(lease!, leaseRenewal!)).toBeGreaterThan(dot(lease!, cat!));
  });

  it('refuses a text with no words', async () => {
    await expect(new HashingEmbeddings().embed(['ok', ' ... '])).rejects.toThrow(/empty text \(text 1\)/);
  });
});
