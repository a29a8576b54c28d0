import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface IdleCheckQueueProps {
  /**
   * How long a received check stays hidden (six times the consumer's timeout).
   * @default Duration.minutes(3)
   */
  readonly visibilityTimeout?: Duration;
}

/**
 * A standard queue of delayed idle checks (SQS allows per-message delays of
 * up to 15 minutes on standard queues, not on FIFO ones), with a dead-letter
 * queue after 5 receives.
 */
export class IdleCheckQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: IdleCheckQueueProps = {}) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: props.visibilityTimeout ?? Duration.minutes(3),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
  }
}
