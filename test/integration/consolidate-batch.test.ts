/** The consolidator receives batch jobs through the FIFO queue and reports failures per record. */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack();
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('consolidator', () => {
  it('records the arrival of each batch job it is given', async () => {
    const agentId = 'arrivals';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, {
      events: Array.from({ length: 50 }, (_, i) => message(`a-${i}`)),
    });
    await stack.eventSources.waitForIdle();

    const batch = await read.ledger.readBatch(read.agent(agentId), 1);
    expect(batch?.arrivedAt).toBeDefined();
    expect(Date.parse(batch!.arrivedAt!)).toBeGreaterThanOrEqual(Date.parse(batch!.queuedAt!));
  });

  it('parks a malformed job on the dead-letter queue at once, so it never holds back its group', async () => {
    const failedBefore = stack.eventSources.stats.recordsFailed;
    await stack.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: read.queueUrl,
        MessageBody: JSON.stringify({ agentId: 'x', index: 0 }),
        MessageGroupId: 'malformed',
        MessageDeduplicationId: 'malformed-1',
      }),
    );
    await stack.eventSources.waitForIdle();

    expect(stack.eventSources.stats.recordsFailed).toBe(failedBefore);
    expect(await read.queueDepth(read.queueUrl)).toBe(0);
    expect(await read.queueDepth(read.deadLetterQueueUrl)).toBe(1);
  });
});
