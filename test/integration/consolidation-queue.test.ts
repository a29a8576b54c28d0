/**
 * The consolidation queue's consumer, invoked as Lambda's event source
 * invokes it: one agent's failing job never holds back another agent's job
 * in the same delivery, and a malformed job is parked on the dead-letter
 * queue at once, with its cause, instead of being retried.
 */
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPartitionKey } from '../../functions/domain/agent-key.js';
import { sqsRecord } from '../../local/lambda-events.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack();
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

const consolidator = () => [...stack.functions.values()].find((fn) => fn.logicalId.startsWith('Consolidator'))!;
type PartialResponse = { batchItemFailures: { itemIdentifier: string }[] };

function jobRecord(agentId: string, index: number, from: number, to: number) {
  const agent = read.agent(agentId);
  return sqsRecord({ body: JSON.stringify({ ...agent, index, fromSequence: from, toSequence: to }), groupId: agentPartitionKey(agent) });
}

describe('consolidation jobs of several agents in one delivery', () => {
  it("processes a second agent's job in the same invocation when the first agent's job fails", async () => {
    const healthy = 'queue-healthy';
    await api(stack, 'POST', `/v1/agents/${healthy}/events`, { events: Array.from({ length: 50 }, (_, i) => message(`h${i + 1}`, `note ${i + 1}`)) });
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${healthy}/status`)).body.lastConsolidatedSequence === 50, 30_000);
    const deliveriesBefore = (await read.ledger.readBatch(read.agent(healthy), 1))!.deliveries;

    // The first agent has no raw records at all, so its job fails; the second agent's job is a redelivery.
    const failing = jobRecord('queue-missing-records', 1, 1, 50);
    const second = jobRecord(healthy, 1, 1, 50);
    const response = (await consolidator().invoke({ Records: [failing, second] })) as PartialResponse;

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: failing.messageId }]);
    expect((await read.ledger.readBatch(read.agent(healthy), 1))!.deliveries).toBe(deliveriesBefore + 1);
  });

  it('still fails the later jobs of the failing agent, so its batches stay in order', async () => {
    const first = jobRecord('queue-ordered', 1, 1, 50);
    const later = jobRecord('queue-ordered', 2, 51, 100);
    // Every record failed: Lambda's answer to that is the whole delivery failing, so both are retried, in order.
    await expect(consolidator().invoke({ Records: [first, later] })).rejects.toThrow(/All records failed/);
    expect((await read.ledger.readBatch(read.agent('queue-ordered'), 2))?.failures ?? 0).toBe(0);
  });
});

describe('a malformed consolidation job', () => {
  it('is parked on the dead-letter queue on its first receive, with its cause, and not reported for retry', async () => {
    const malformed = sqsRecord({ body: JSON.stringify({ tenantId: 'default', agentId: 'queue-malformed', index: 0 }), groupId: 'T#default#A#queue-malformed' });
    const notJson = sqsRecord({ body: '{not json', groupId: 'T#default#A#queue-malformed' });

    const response = (await consolidator().invoke({ Records: [malformed, notJson] })) as PartialResponse;

    expect(response.batchItemFailures).toEqual([]);
    const parked: { body: string; cause: string }[] = [];
    await waitFor(async () => {
      const received = await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: read.deadLetterQueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }));
      for (const m of received.Messages ?? []) parked.push({ body: m.Body!, cause: m.MessageAttributes?.cause?.StringValue ?? '' });
      return parked.length >= 2;
    }, 10_000);
    expect(parked.map((p) => p.body).sort()).toEqual([malformed.body, notJson.body].sort());
    for (const letter of parked) expect(letter.cause).toMatch(/^ValidationError: /);
    expect(parked.find((p) => p.body === malformed.body)!.cause).toMatch(/index .*fromSequence/);
    expect(parked.find((p) => p.body === notJson.body)!.cause).toMatch(/JSON/i);
  });
});
