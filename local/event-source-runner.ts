/**
 * A local stand-in for Lambda's SQS event source mappings: polls each mapped
 * queue, hands up to `BatchSize` messages to the same handler Lambda runs, and
 * deletes only what succeeded. A mapping with a maximum concurrency is polled
 * by that many pollers at once (at most `MAX_LOCAL_POLLERS`), each handing one
 * delivery at a time to the function, as Lambda scales its pollers; the queue
 * itself keeps a FIFO message group to one delivery in flight. With `ReportBatchItemFailures`, the reported
 * items stay on the queue; when the handler throws (or times out), the whole
 * batch does. Either way they reappear after the queue's visibility timeout,
 * and the queue's redrive policy moves them to the dead-letter queue after its
 * maximum receives, exactly as in AWS.
 *
 * Polls are paced (`poll-pacing.ts`): at the base interval while there is
 * work, backing off while the queues are empty, and woken by local activity
 * and by a failed delivery's visibility timeout running out.
 */
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalFunction } from './lambda-functions.js';
import { pacedSources, signalActivity, waitForQuiet } from './poll-pacing.js';
import { resolveValue, type ResourceMap } from './provision.js';
import type { CfnTemplate } from './template.js';

export interface EventSourceMappingSpec {
  readonly logicalId: string;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly batchSize: number;
  readonly reportBatchItemFailures: boolean;
  /** Deliveries in flight at once (the mapping's `ScalingConfig.MaximumConcurrency`, capped locally). */
  readonly concurrency: number;
  readonly target: LocalFunction;
}

/** Pollers per mapping at most, whatever its maximum concurrency: enough to show concurrency, few enough for a laptop. */
export const MAX_LOCAL_POLLERS = 4;

export interface EventSourceStats {
  invocations: number;
  recordsDelivered: number;
  recordsSucceeded: number;
  recordsFailed: number;
}

export interface EventSourceRunner {
  readonly stats: EventSourceStats;
  /** Resolves once every mapped queue has been seen empty with nothing in flight. */
  waitForIdle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function sqsMappingsFromTemplate(
  template: CfnTemplate,
  resources: ResourceMap,
  functions: ReadonlyMap<string, LocalFunction>,
): EventSourceMappingSpec[] {
  const queueByArn = new Map([...resources.values()].filter((r) => r.type === 'AWS::SQS::Queue').map((r) => [r.arn, r]));
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::EventSourceMapping')
    .flatMap(([logicalId, resource]) => {
      const props = resource.Properties ?? {};
      const arn = resolveValue(props.EventSourceArn, resources);
      const queue = queueByArn.get(arn);
      if (!queue) return [];
      const functionId = (props.FunctionName as { Ref: string }).Ref;
      const target = functions.get(functionId);
      if (!target) throw new Error(`event source ${logicalId} targets ${functionId}, which was not loaded`);
      return [
        {
          logicalId,
          queueUrl: queue.ref,
          queueArn: queue.arn,
          batchSize: Number(props.BatchSize ?? 10),
          reportBatchItemFailures: ((props.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
          concurrency: Math.min(MAX_LOCAL_POLLERS, Number((props.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency ?? 1)),
          target,
        },
      ];
    });
}

export function startEventSourceRunner(
  sqs: SQSClient,
  mappings: readonly EventSourceMappingSpec[],
  options: { pollIntervalMs?: number; log?: (line: string) => void } = {},
): EventSourceRunner {
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const log = options.log ?? (() => {});
  const stats: EventSourceStats = { invocations: 0, recordsDelivered: 0, recordsSucceeded: 0, recordsFailed: 0 };
  // One paced source per poller: a poller waits on its own pacer, and the runner is idle when every poller is.
  const pollers = mappings.flatMap((mapping) => Array.from({ length: mapping.concurrency }, (_, n) => ({ mapping, id: `${mapping.logicalId}#${n}` })));
  const sources = pacedSources(pollers.map((poller) => poller.id), pollIntervalMs);
  const timers = new Set<NodeJS.Timeout>();
  let running = true;

  /** Failed messages reappear after the queue's visibility timeout (read now: a run may change it): poll then. */
  const wakeAfterVisibilityTimeout = async (mapping: EventSourceMappingSpec) => {
    const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: mapping.queueUrl, AttributeNames: ['VisibilityTimeout'] }));
    const seconds = Number(attributes.Attributes?.VisibilityTimeout ?? 30);
    const timer = setTimeout(() => {
      timers.delete(timer);
      signalActivity();
    }, seconds * 1000 + 50);
    timers.add(timer);
  };

  const pollOnce = async (mapping: EventSourceMappingSpec, pollerId: string): Promise<boolean> => {
    // Short polls: moto's long poll would hold its (serialised) request slot while it waits.
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: mapping.queueUrl,
        MaxNumberOfMessages: Math.min(10, mapping.batchSize),
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return false;
    // Busy from the moment messages are in hand: the delivery may take longer than any quiet round.
    sources.get(pollerId)!.inHand();
    stats.invocations += 1;
    stats.recordsDelivered += messages.length;
    const event: SQSEvent = { Records: messages.map((message) => toSqsRecord(message, mapping)) };
    let failed = new Set(messages.map((message) => message.MessageId!));
    try {
      const result = (await mapping.target.invoke(event)) as { batchItemFailures?: { itemIdentifier: string }[] } | undefined;
      if (mapping.reportBatchItemFailures) {
        const reported = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        // Lambda treats an identifier it does not know as a failure of the whole batch.
        const unknown = [...reported].some((id) => !failed.has(id));
        failed = unknown ? failed : reported;
      } else {
        failed = new Set();
      }
    } catch (error) {
      log(`${mapping.target.logicalId} failed a batch of ${messages.length}: ${String(error)}`);
    }
    const succeeded = messages.filter((message) => !failed.has(message.MessageId!));
    stats.recordsSucceeded += succeeded.length;
    stats.recordsFailed += messages.length - succeeded.length;
    if (succeeded.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: mapping.queueUrl,
          Entries: succeeded.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
    }
    // After the deletes: a failed lookup only leaves the redelivery to the idle ceiling's poll.
    if (succeeded.length < messages.length) await wakeAfterVisibilityTimeout(mapping).catch(() => undefined);
    return true;
  };

  const loops = pollers.map(async ({ mapping, id }) => {
    const source = sources.get(id)!;
    while (running) {
      let delivered = false;
      try {
        delivered = await pollOnce(mapping, id);
      } catch (error) {
        if (running) log(`event source ${mapping.logicalId}: ${String(error)}`);
      }
      await source.polled(delivered);
    }
  });

  return {
    stats,
    async waitForIdle(timeoutMs = 30_000) {
      await waitForQuiet(sources, pollIntervalMs, timeoutMs, 'event sources');
    },
    async stop() {
      running = false;
      for (const timer of timers) clearTimeout(timer);
      for (const { pacer } of sources.values()) pacer.stop();
      await Promise.all(loops);
    },
  };
}

function toSqsRecord(message: Message, mapping: EventSourceMappingSpec): SQSRecord {
  const attributes = (message.Attributes ?? {}) as Record<string, string>;
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attributes.SequenceNumber ? { SequenceNumber: attributes.SequenceNumber } : {}),
      ...(attributes.MessageGroupId ? { MessageGroupId: attributes.MessageGroupId } : {}),
      ...(attributes.MessageDeduplicationId ? { MessageDeduplicationId: attributes.MessageDeduplicationId } : {}),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? 'String',
          ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: mapping.queueArn,
    awsRegion: 'us-east-1',
  };
}
