/**
 * The local SQS event source behaves as Lambda's does: batches of BatchSize,
 * only reported failures stay on the queue, failures reappear after the
 * visibility timeout, and the redrive policy moves them to the dead-letter
 * queue after its maximum receives.
 */
import { randomBytes } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startEventSourceRunner, type EventSourceRunner } from '../../local/event-source-runner.js';
import type { LocalFunction } from '../../local/lambda-functions.js';
import { emulatorClients, useEmulatorEnvironment } from '../../local/local-stack.js';

let sqs: SQSClient;
let runner: EventSourceRunner | undefined;

beforeAll(() => {
  useEmulatorEnvironment(inject('awsEndpoint'));
  sqs = emulatorClients(inject('awsEndpoint')).sqs;
});

afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

async function queuePair(maxReceiveCount: number, visibilityTimeout: number) {
  const name = `runner-${randomBytes(4).toString('hex')}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] })))
    .Attributes!.QueueArn!;
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(visibilityTimeout),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
      },
    }),
  );
  return { queueUrl: queue.QueueUrl!, dlqUrl: dlq.QueueUrl! };
}

function fakeFunction(handler: (event: SQSEvent) => Promise<unknown>): LocalFunction {
  return {
    logicalId: 'TestFunction',
    entry: 'test',
    timeoutSeconds: 5,
    memorySize: 128,
    environment: {},
    invoke: (event) => handler(event as SQSEvent),
  };
}

async function depth(queueUrl: string): Promise<number> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(attributes.Attributes!.ApproximateNumberOfMessages) + Number(attributes.Attributes!.ApproximateNumberOfMessagesNotVisible);
}

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('local SQS event source', () => {
  it('delivers at most BatchSize records per invocation and deletes the successful ones', async () => {
    const { queueUrl } = await queuePair(3, 30);
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: Array.from({ length: 7 }, (_, i) => ({ Id: String(i), MessageBody: `body-${i}` })),
      }),
    );
    const sizes: number[] = [];

    runner = startEventSourceRunner(
      sqs,
      [{ logicalId: 'm', queueUrl, queueArn: 'arn', batchSize: 3, reportBatchItemFailures: true, concurrency: 1, target: fakeFunction(async (event) => {
        sizes.push(event.Records.length);
        return { batchItemFailures: [] };
      }) }],
      { pollIntervalMs: 20 },
    );
    await runner.waitForIdle();

    expect(sizes.every((size) => size <= 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
    expect(await depth(queueUrl)).toBe(0);
  });

  it('keeps only the reported failures, then moves them to the dead-letter queue after the maximum receives', async () => {
    const { queueUrl, dlqUrl } = await queuePair(2, 1);
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: 'good', MessageBody: 'good' },
          { Id: 'bad', MessageBody: 'bad' },
        ],
      }),
    );
    const receives: Record<string, number> = {};

    runner = startEventSourceRunner(
      sqs,
      [{ logicalId: 'm', queueUrl, queueArn: 'arn', batchSize: 10, reportBatchItemFailures: true, concurrency: 1, target: fakeFunction(async (event) => {
        for (const record of event.Records) receives[record.body] = (receives[record.body] ?? 0) + 1;
        return { batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId })) };
      }) }],
      { pollIntervalMs: 50 },
    );
    await until(async () => (await depth(dlqUrl)) === 1);

    expect(receives).toEqual({ good: 1, bad: 2 });
    expect(await depth(queueUrl)).toBe(0);
    const moved = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl }));
    expect(moved.Messages?.[0]?.Body).toBe('bad');
  });

  it('leaves the whole batch on the queue when the handler throws', async () => {
    const { queueUrl } = await queuePair(5, 30);
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'a', MessageBody: 'a' }, { Id: 'b', MessageBody: 'b' }] }));
    let invocations = 0;

    runner = startEventSourceRunner(
      sqs,
      [{ logicalId: 'm', queueUrl, queueArn: 'arn', batchSize: 10, reportBatchItemFailures: true, concurrency: 1, target: fakeFunction(async () => {
        invocations += 1;
        throw new Error('handler crashed');
      }) }],
      { pollIntervalMs: 20 },
    );
    await until(async () => invocations >= 1);
    await runner.waitForIdle();

    expect(runner.stats.recordsFailed).toBe(2);
    expect(await depth(queueUrl)).toBe(2);
  });

  it('runs as many deliveries at once as the mapping’s maximum concurrency, and one FIFO group’s never at once', async () => {
    const name = `runner-${randomBytes(4).toString('hex')}.fifo`;
    const queue = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { FifoQueue: 'true', VisibilityTimeout: '30' } }));
    const queueUrl = queue.QueueUrl!;
    // Two groups of three jobs each.
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: Array.from({ length: 6 }, (_, i) => ({ Id: String(i), MessageBody: `job-${i}`, MessageGroupId: i % 2 === 0 ? 'agent-a' : 'agent-b', MessageDeduplicationId: `d-${i}` })),
      }),
    );
    let inFlight = 0;
    let most = 0;
    const groupsInFlight = new Map<string, number>();
    let overlappedGroup = false;
    runner = startEventSourceRunner(
      sqs,
      [{ logicalId: 'fifo', queueUrl, queueArn: 'arn', batchSize: 1, reportBatchItemFailures: true, concurrency: 2, target: fakeFunction(async (event) => {
        const group = event.Records[0]!.attributes.MessageGroupId!;
        inFlight += 1;
        most = Math.max(most, inFlight);
        groupsInFlight.set(group, (groupsInFlight.get(group) ?? 0) + 1);
        if (groupsInFlight.get(group)! > 1) overlappedGroup = true;
        await new Promise((resolve) => setTimeout(resolve, 150));
        groupsInFlight.set(group, groupsInFlight.get(group)! - 1);
        inFlight -= 1;
        return { batchItemFailures: [] };
      }) }],
      { pollIntervalMs: 20 },
    );
    await until(async () => (await depth(queueUrl)) === 0);
    await runner.waitForIdle();

    expect(most).toBe(2);
    expect(overlappedGroup).toBe(false);
  });
});
