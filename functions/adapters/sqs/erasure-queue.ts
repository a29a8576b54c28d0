/** The erasure queue: a standard queue of its own (erasure is idempotent, so at-least-once delivery is enough). */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ErasureJob, ErasureQueue } from '../../ports/erasure.js';

export class SqsErasureQueue implements ErasureQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: ErasureJob): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) }));
  }
}
