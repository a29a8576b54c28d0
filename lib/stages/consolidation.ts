/**
 * Consolidation (offline): the FIFO queue's consumer runs the contacts, facts
 * and tasks updaters of each batch, places its records on the summary
 * ladders' base, indexes them and reassembles the snapshot.
 */
import type { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ServiceFunction } from '../constructs/service-function.js';
import type { ServiceData, ServicePermissions } from './service-data.js';

export interface ConsolidationStageOptions {
  readonly timeout: Duration;
  /** Consolidation jobs running at once at most (the queue's maximum concurrency, 2 to 1,000). */
  readonly concurrency: number;
}

export function addConsolidationStage(stack: Stack, data: ServiceData, permissions: ServicePermissions, { timeout, concurrency }: ConsolidationStageOptions): NodejsFunction {
  const { agents, memory, summaries, consolidation, environment } = data;
  const consolidator = new ServiceFunction(stack, 'Consolidator', {
    entry: 'functions/handlers/consolidator.ts',
    // A run waits at most a third of its timeout for a hole to come due; longer, the job is redelivered.
    environment: { ...environment, HOLE_MAX_WAIT_SECONDS: String(Math.min(60, Math.floor(timeout.toSeconds() / 3))) },
    runtimeFiles: data.embeddingFiles,
    timeout,
    description: 'Consumes consolidation jobs from the FIFO queue',
  }).function;
  agents.table.grant(consolidator, 'dynamodb:GetItem', 'dynamodb:UpdateItem');
  memory.table.grant(consolidator, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem');
  consolidator.addToRolePolicy(permissions.readRawRecords());
  // Malformed jobs are parked on the dead-letter queue at once, with their cause.
  consolidator.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.deadLetterQueue.queueArn] }));
  consolidator.addToRolePolicy(permissions.knowMissingObjects());
  consolidator.addToRolePolicy(permissions.maintainIndex());
  permissions.allowModel(consolidator);
  permissions.allowEmbeddings(consolidator);
  // Base summaries (cursor and summary writes), and the snapshot it reassembles after each batch.
  summaries.table.grant(consolidator, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query');
  // One job per invocation: its model calls, hole wait and writes are planned against the whole timeout
  // (consolidate-batch-handler.ts), where ten jobs of a backlogged agent would share it. Jobs at once are
  // bounded by the mapping's maximum concurrency rather than reserved concurrency, which AWS documents as a
  // cause of throttled SQS deliveries (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html).
  consolidator.addEventSource(new SqsEventSource(consolidation.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: concurrency }));
  return consolidator;
}
