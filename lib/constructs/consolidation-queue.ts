import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface ConsolidationQueueProps {
  /**
   * Receives before a job moves to the dead-letter queue.
   * @default 5
   */
  readonly maxReceiveCount?: number;
  /**
   * How long a received job stays hidden. AWS recommends at least six times
   * the consumer's timeout for Lambda event sources
   * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html).
   * @default Duration.minutes(30)
   */
  readonly visibilityTimeout?: Duration;
}

/**
 * The FIFO consolidation queue (one message group per agent, so an agent's
 * batches are delivered in order) and its FIFO dead-letter queue.
 */
export class ConsolidationQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ConsolidationQueueProps = {}) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      fifo: true,
      // Deduplication ids are explicit (one per agent and batch), not content based.
      contentBasedDeduplication: false,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: props.visibilityTimeout ?? Duration.minutes(30),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 5 },
    });
  }
}
