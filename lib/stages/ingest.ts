/**
 * Ingest (the hot path, no model call): events to the raw log and counters,
 * batch jobs to the FIFO queue; explicit and idle flushes of a partial batch;
 * the agent's status.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ServiceFunction } from '../constructs/service-function.js';
import type { ServiceData } from './service-data.js';

export const IDLE_CHECK_TIMEOUT = Duration.seconds(30);

export interface IngestStage {
  readonly ingest: NodejsFunction;
  readonly flush: NodejsFunction;
  readonly idleFlush: NodejsFunction;
  readonly status: NodejsFunction;
}

export function addIngestStage(stack: Stack, data: ServiceData): IngestStage {
  const { rawLog, agents, consolidation, idleChecks, environment } = data;
  const ingest = new ServiceFunction(stack, 'Ingest', {
    entry: 'functions/handlers/ingest.ts',
    environment,
    description: 'POST /v1/agents/{agentId}/events: raw log, counters, batch jobs (no model call)',
  }).function;
  // Least privilege: write raw records, read and write counters and claims, send jobs. Nothing else.
  // A retry whose run's key is taken reads it back, to tell its own earlier write from a hole.
  ingest.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] }));
  agents.table.grant(ingest, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem');
  ingest.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn, idleChecks.queue.queueArn] }));

  // Flushing closes the open batch: counters and batch markers, and the job it enqueues.
  const flushActions = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'];
  const flush = new ServiceFunction(stack, 'Flush', {
    entry: 'functions/handlers/flush.ts',
    environment,
    memorySize: 512,
    description: 'POST /v1/agents/{agentId}/flush: consolidate the open partial batch now',
  }).function;
  agents.table.grant(flush, ...flushActions);
  flush.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn] }));

  const idleFlush = new ServiceFunction(stack, 'IdleFlush', {
    entry: 'functions/handlers/idle-flush.ts',
    environment,
    memorySize: 512,
    timeout: IDLE_CHECK_TIMEOUT,
    description: 'Flushes open batches of agents that went quiet',
  }).function;
  agents.table.grant(idleFlush, ...flushActions);
  idleFlush.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn, idleChecks.queue.queueArn] }));
  idleFlush.addEventSource(new SqsEventSource(idleChecks.queue, { batchSize: 10, reportBatchItemFailures: true }));

  const status = new ServiceFunction(stack, 'Status', {
    entry: 'functions/handlers/status.ts',
    environment,
    memorySize: 512,
    description: 'GET /v1/agents/{agentId}/status',
  }).function;
  agents.table.grant(status, 'dynamodb:GetItem');
  return { ingest, flush, idleFlush, status };
}
