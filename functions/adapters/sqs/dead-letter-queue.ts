/** Parks unprocessable consolidation jobs on the (FIFO) dead-letter queue, their cause in a message attribute. */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeadLetter, DeadLetterQueue } from '../../ports/pipeline.js';

/** SQS message attribute values are limited in size with the whole message; a cause is a line, not a dump. */
const MAX_CAUSE_CHARS = 1_000;

export class SqsDeadLetterQueue implements DeadLetterQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async park(letter: DeadLetter): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: letter.body,
        MessageGroupId: letter.groupId,
        MessageDeduplicationId: letter.deduplicationId,
        MessageAttributes: { cause: { DataType: 'String', StringValue: letter.cause.slice(0, MAX_CAUSE_CHARS) } },
      }),
    );
  }
}
