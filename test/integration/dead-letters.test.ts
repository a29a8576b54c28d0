/**
 * A job that keeps failing lands in the dead-letter queue after the queue's
 * maximum receives, with its cause recorded on the batch marker; once the
 * cause is fixed, the redrive command reprocesses it.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Duration } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRecordKey } from '../../functions/domain/agent-key.js';
import { redriveDeadLetters } from '../../functions/adapters/sqs/redrive-dead-letters.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  // A 1 s consolidator timeout gives a 6 s visibility timeout; 2 receives before the dead-letter queue.
  stack = await startTestStack({ stackProps: { consolidatorTimeout: Duration.seconds(1), maxReceiveCount: 2 } });
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('dead letters', () => {
  const agentId = 'dead-letter';
  const events = Array.from({ length: 50 }, (_, i) => message(`m${i + 1}`, i === 0 ? 'I met Omar Haddad today.' : 'ok'));

  it('moves a job that keeps failing to the dead-letter queue, with its cause on the batch marker', async () => {
    // Event 10 alone in its request, so that its record is an object of its own.
    for (const [from, to] of [[0, 9], [9, 10], [10, 49]] as const) await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: events.slice(from, to) });
    await stack.clients.s3.send(new DeleteObjectCommand({ Bucket: read.bucketName, Key: rawRecordKey(read.agent(agentId), 10) }));
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: events.slice(49) });

    await waitFor(async () => (await read.queueDepth(read.deadLetterQueueUrl)) === 1, 40_000);

    expect(await read.ledger.readBatch(read.agent(agentId), 1)).toMatchObject({
      failures: 2,
      lastError: 'MissingRecordsError: raw records missing: 10',
    });
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence).toBe(0);
  });

  it('reprocesses it on redrive once the cause is fixed', async () => {
    // The client's retry of the same events rewrites the missing raw record.
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: events.slice(0, 10) })).body).toMatchObject({ duplicates: 10 });

    const redriven = await redriveDeadLetters(stack.clients.sqs, read.ledger, { deadLetterQueueUrl: read.deadLetterQueueUrl, queueUrl: read.queueUrl });

    expect(redriven).toEqual([{ agentId, batch: 1, cause: 'MissingRecordsError: raw records missing: 10', moved: true }]);
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === 50, 20_000);
    expect(await read.queueDepth(read.deadLetterQueueUrl)).toBe(0);
    const contacts = await api<{ items: { name: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/contacts`);
    expect(contacts.body.items.map((c) => c.name)).toEqual(['Omar Haddad']);
  });
});
