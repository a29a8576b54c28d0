/** Idle checks on an SQS standard queue, delayed per message (SQS allows up to 900 seconds). */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { IdleCheck, IdleCheckScheduler } from '../../ports/pipeline.js';

export class SqsIdleCheckScheduler implements IdleCheckScheduler {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async schedule(check: IdleCheck, delaySeconds: number): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(check),
        DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
      }),
    );
  }
}
