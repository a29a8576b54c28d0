/**
 * The summary ladders: the summaries table's stream feeds the ladder, which
 * writes each complete parent from the level below; the scheduled (and
 * requested) sweep closes ended days and idle interactions of quiet agents
 * and runs the memory pass (use counts, forgetting, retention).
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { ServiceFunction } from '../constructs/service-function.js';
import type { ServiceData, ServicePermissions } from './service-data.js';

export interface LadderStage {
  readonly ladder: NodejsFunction;
  readonly ladderDeadLetters: IQueue;
  readonly sweep: NodejsFunction;
  /** Due agents and summary rebuilds, waiting for the sweep workers. */
  readonly sweepQueue: IQueue;
  readonly sweepDeadLetters: IQueue;
}

export interface LadderStageOptions {
  readonly sweepEvery: Duration;
  /** Sweep workers at most (the sweep queue's maximum concurrency). */
  readonly sweepConcurrency: number;
}

/** Each sweep invocation (one agent, or one step of a rebuild) and each ladder delivery may take this long. */
const SWEEP_TIMEOUT = Duration.minutes(5);
const LADDER_TIMEOUT = Duration.minutes(5);

export function addLadderStage(stack: Stack, data: ServiceData, permissions: ServicePermissions, options: LadderStageOptions): LadderStage {
  const { agents, memory, summaries, environment } = data;
  const ladderDeadLetters = new Queue(stack, 'LadderDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
  const ladder = new ServiceFunction(stack, 'Ladder', {
    entry: 'functions/handlers/ladder.ts',
    environment,
    runtimeFiles: data.embeddingFiles,
    // Model calls are timed by what is left of the invocation (ladder-handler.ts).
    timeout: LADDER_TIMEOUT,
    description: 'Summaries stream consumer: registers each summary with its parent and writes complete parents',
  }).function;
  summaries.table.grant(ladder, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query');
  // Snapshot reassembly: views and snapshot in the memory table, progress in the agents table.
  memory.table.grant(ladder, 'dynamodb:GetItem', 'dynamodb:PutItem');
  agents.table.grant(ladder, 'dynamodb:GetItem');
  permissions.allowModel(ladder);
  permissions.allowEmbeddings(ladder);
  ladder.addToRolePolicy(permissions.maintainIndex());
  ladder.addToRolePolicy(permissions.knowMissingObjects());
  ladder.addEventSource(
    new DynamoEventSource(summaries.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      // A parent costs a model call: ten announcements at most per delivery keep it well inside the timeout.
      batchSize: 10,
      // Only new summaries announce anything; slot and cursor writes are filtered out.
      filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { Keys: { sk: { S: FilterRule.beginsWith('SUM#') } } } })],
      bisectBatchOnError: true,
      // The ladder reports failed records; Lambda retries from the first of them.
      reportBatchItemFailures: true,
      retryAttempts: 5,
      maxRecordAge: Duration.hours(12),
      onFailure: new SqsDlq(ladderDeadLetters),
    }),
  );

  const sweepDeadLetters = new Queue(stack, 'SweepDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
  const sweepQueue = new Queue(stack, 'SweepQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(4),
    // Six times the consumer's timeout, as AWS recommends for Lambda event sources.
    visibilityTimeout: Duration.seconds(SWEEP_TIMEOUT.toSeconds() * 6),
    deadLetterQueue: { queue: sweepDeadLetters, maxReceiveCount: 5 },
  });
  const sweep = new ServiceFunction(stack, 'Sweep', {
    entry: 'functions/handlers/sweep.ts',
    environment: { ...environment, SWEEP_QUEUE_URL: sweepQueue.queueUrl, SWEEP_LEASE_SECONDS: String(options.sweepEvery.toSeconds()) },
    runtimeFiles: data.embeddingFiles,
    timeout: SWEEP_TIMEOUT,
    description: 'Hands due agents to the sweep queue (schedule), sweeps one agent or a rebuild step (queue), and POST /sweep, /summaries/rebuild',
  }).function;
  sweep.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [sweepQueue.queueArn] }));
  // One agent (or one rebuild step) per invocation; the workers at once are bounded by the mapping, not by
  // reserved concurrency, which AWS documents as a cause of throttled SQS deliveries.
  sweep.addEventSource(new SqsEventSource(sweepQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: options.sweepConcurrency }));
  summaries.table.grant(sweep, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query');
  // Views and snapshot; and the memory pass (use counts from the injection log, forgetting, retention):
  // a query of items, injections and cursors, then version-checked transactions.
  memory.table.grant(sweep, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem');
  agents.table.grant(sweep, 'dynamodb:GetItem');
  sweep.addToRolePolicy(permissions.readRawRecords());
  sweep.addToRolePolicy(permissions.maintainIndex());
  sweep.addToRolePolicy(permissions.knowMissingObjects());
  permissions.allowModel(sweep);
  permissions.allowEmbeddings(sweep);
  new Rule(stack, 'SweepSchedule', {
    description: 'Summary sweep for agents that went quiet',
    schedule: Schedule.rate(options.sweepEvery),
    targets: [new LambdaFunction(sweep)],
  });
  return { ladder, ladderDeadLetters, sweep, sweepQueue, sweepDeadLetters };
}
