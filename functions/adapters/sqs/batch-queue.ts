/** The consolidation queue: SQS FIFO, one message group per agent, one deduplication id per batch. */
import { createHash } from 'node:crypto';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { agentPartitionKey } from '../../domain/agent-key.js';
import type { BatchJob, BatchQueue } from '../../ports/pipeline.js';

export class SqsBatchQueue implements BatchQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: BatchJob): Promise<void> {
    const group = agentPartitionKey(job);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(job),
        MessageGroupId: group,
        MessageDeduplicationId: batchDeduplicationId(group, job.index),
      }),
    );
  }
}

/** Deterministic, so a retried enqueue of the same batch is dropped by SQS (5-minute window). */
export function batchDeduplicationId(group: string, batchIndex: number): string {
  const readable = `${group}#B#${batchIndex}`;
  return readable.length <= 128 ? readable : createHash('sha256').update(readable).digest('hex');
}
