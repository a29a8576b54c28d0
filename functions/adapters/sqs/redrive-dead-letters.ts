/**
 * Redrive: move consolidation jobs from the dead-letter queue back to the
 * consolidation queue, printing each job with the cause recorded on its
 * batch marker. Jobs keep their message group (the agent), so per-agent order
 * holds; each gets a fresh deduplication id so SQS accepts it again.
 */
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { batchJobSchema } from '../../domain/batch-job.js';
import { batchDeduplicationId } from './batch-queue.js';
import { agentPartitionKey } from '../../domain/agent-key.js';
import type { AgentLedger } from '../../ports/pipeline.js';

export interface RedriveOptions {
  readonly deadLetterQueueUrl: string;
  readonly queueUrl: string;
  /** List what would move without moving it. */
  readonly dryRun?: boolean;
  readonly maxMessages?: number;
}

export interface RedrivenJob {
  readonly agentId: string;
  readonly batch: number;
  readonly cause?: string;
  readonly moved: boolean;
}

export async function redriveDeadLetters(sqs: SQSClient, ledger: AgentLedger, options: RedriveOptions): Promise<RedrivenJob[]> {
  const jobs: RedrivenJob[] = [];
  const limit = options.maxMessages ?? 1_000;
  while (jobs.length < limit) {
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.deadLetterQueueUrl,
        MaxNumberOfMessages: Math.min(10, limit - jobs.length),
        WaitTimeSeconds: 0,
        // In a dry run the messages come back after a short while, untouched.
        VisibilityTimeout: options.dryRun ? 1 : 60,
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) break;
    for (const message of messages) {
      const parsed = batchJobSchema.safeParse(JSON.parse(message.Body ?? 'null'));
      if (!parsed.success) {
        jobs.push({ agentId: '?', batch: 0, cause: `unreadable job: ${message.Body?.slice(0, 200)}`, moved: false });
        continue;
      }
      const job = parsed.data;
      const marker = await ledger.readBatch({ tenantId: job.tenantId, agentId: job.agentId }, job.index);
      if (!options.dryRun) {
        const group = agentPartitionKey(job);
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: options.queueUrl,
            MessageBody: message.Body,
            MessageGroupId: group,
            MessageDeduplicationId: `${batchDeduplicationId(group, job.index).slice(0, 100)}#R${Date.now()}`,
          }),
        );
        await sqs.send(new DeleteMessageCommand({ QueueUrl: options.deadLetterQueueUrl, ReceiptHandle: message.ReceiptHandle }));
      }
      jobs.push({ agentId: job.agentId, batch: job.index, ...(marker?.lastError ? { cause: marker.lastError } : {}), moved: !options.dryRun });
    }
    if (options.dryRun) break;
  }
  return jobs;
}
