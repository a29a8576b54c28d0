/** The sweep queue (SQS standard): jobs for the sweep workers, sent ten to a request. */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SweepJob } from '../../domain/sweep-job.js';
import type { SweepQueue } from '../../ports/pipeline.js';

export class SqsSweepQueue implements SweepQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(jobs: readonly SweepJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += 10) {
      const entries = jobs.slice(i, i + 10).map((job, n) => ({ Id: String(n), MessageBody: JSON.stringify(job) }));
      const sent = await this.client.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
      if (sent.Failed && sent.Failed.length > 0) {
        throw new Error(`sweep queue refused ${sent.Failed.length} of ${entries.length} jobs: ${sent.Failed.map((f) => f.Message ?? f.Code).join('; ')}`);
      }
    }
  }
}
