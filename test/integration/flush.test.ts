/**
 * Bounded lag: a flush (on request, or after a quiet period) consolidates the
 * open partial batch; sequence ranges stay contiguous and never overlap the
 * next full batch.
 */
import { Duration } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { waitFor } from '../support/wait.js';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsBatchQueue } from '../../functions/adapters/sqs/batch-queue.js';
import { flushAgent } from '../../functions/use-cases/flush-agent.js';
import { injectFaults } from '../support/fault-injection.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack({ stackProps: { idleFlushAfter: Duration.seconds(2) } });
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

const status = async (agentId: string) => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body;
const messages = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(`${prefix}${from + i}`, i === 0 ? 'I had lunch with Priya Natarajan today.' : 'ok'));

describe('POST /v1/agents/{agentId}/flush', () => {
  it('consolidates the open partial batch, and the next full batch starts after it', async () => {
    const agentId = 'flush-on-request';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('a', 1, 30) });

    const flushed = await api(stack, 'POST', `/v1/agents/${agentId}/flush`);

    expect(flushed.status).toBe(202);
    expect(flushed.body).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 30 } });
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 30);
    const contacts = await api<{ items: { name: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/contacts`);
    expect(contacts.body.items.map((c) => c.name)).toEqual(['Priya Natarajan']);

    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('b', 31, 80) });
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 80);
    expect(await read.ledger.readBatch(read.agent(agentId), 2)).toMatchObject({ fromSequence: 31, toSequence: 80 });
  });

  it('answers 200 when nothing is open, 404 for an unknown agent and 405 for a wrong method', async () => {
    const agentId = 'flush-nothing';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('c', 1, 50) });

    expect(await api(stack, 'POST', `/v1/agents/${agentId}/flush`).then((r) => [r.status, r.body])).toEqual([200, { flushed: false, reason: 'nothing-open' }]);
    expect((await api(stack, 'POST', '/v1/agents/never-posted/flush')).status).toBe(404);
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/flush`)).status).toBe(405);
  });
});

describe('a flush whose enqueue failed', () => {
  it('is queued by the next flush (a flush has no event claims for a retry to find)', async () => {
    const agentId = 'flush-lost-enqueue';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('f', 1, 20) });
    const sqs = new SQSClient({ endpoint: stack.endpoint, region: 'us-east-1', useQueueUrlAsEndpoint: false });
    injectFaults(sqs, { command: 'SendMessageCommand', failCalls: [1] });
    const deps = { ledger: read.ledger, queue: new SqsBatchQueue(sqs, read.queueUrl) };

    await expect(flushAgent(deps, read.agent(agentId))).rejects.toThrow(/injected outage/);
    expect(await read.ledger.readBatch(read.agent(agentId), 1)).not.toHaveProperty('queuedAt');

    expect(await flushAgent(deps, read.agent(agentId))).toEqual({ flushed: false, reason: 'nothing-open' });
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 20);
    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({ fromSequence: 1, toSequence: 20, queuedAt: expect.any(String) });
  });
});

describe('idle flush', () => {
  it('consolidates a partial batch once the agent has been quiet for the configured period', async () => {
    const agentId = 'goes-quiet';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('d', 1, 5) });
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('e', 6, 10) });

    // The idle check scheduled with the first event fires after 2 s (the stack's setting here) through the idle-check queue.
    await waitFor(async () => (await status(agentId)).lastConsolidatedSequence === 10, 20_000);

    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({ fromSequence: 1, toSequence: 10 });
    expect(await read.ledger.readBatch(read.agent(agentId), 2)).toBeUndefined();
  });

  it('waits out activity: an agent active within the period is checked again later, and flushed once quiet (fake clock)', async () => {
    const agentId = 'quiet-by-the-clock';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: messages('q', 1, 5) });
    const lastActivity = Date.parse((await status(agentId)).updatedAt as string);
    const at = (seconds: number) => () => new Date(lastActivity + seconds * 1000);
    const queue = new SqsBatchQueue(new SQSClient({ endpoint: stack.endpoint, region: 'us-east-1', useQueueUrlAsEndpoint: false }), read.queueUrl);
    const check = { openFrom: 1, idleForSeconds: 900 };

    expect(await flushAgent({ ledger: read.ledger, queue, now: at(60) }, read.agent(agentId), check)).toEqual({ flushed: false, reason: 'not-idle', retryInSeconds: 840 });
    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toBeUndefined();

    expect(await flushAgent({ ledger: read.ledger, queue, now: at(901) }, read.agent(agentId), check)).toEqual({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 5 } });
    expect(await flushAgent({ ledger: read.ledger, queue, now: at(902) }, read.agent(agentId), check)).toEqual({ flushed: false, reason: 'already-closed' });
  });
});
