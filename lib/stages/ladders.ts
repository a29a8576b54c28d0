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
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { ServiceFunction } from '../constructs/service-function.js';
import type { ServiceData, ServicePermissions } from './service-data.js';

export interface LadderStage {
  readonly ladder: NodejsFunction;
  readonly ladderDeadLetters: IQueue;
  readonly sweep: NodejsFunction;
}

export function addLadderStage(stack: Stack, data: ServiceData, permissions: ServicePermissions, sweepEvery: Duration): LadderStage {
  const { agents, memory, summaries, environment } = data;
  const ladderDeadLetters = new Queue(stack, 'LadderDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
  const ladder = new ServiceFunction(stack, 'Ladder', {
    entry: 'functions/handlers/ladder.ts',
    environment,
    timeout: Duration.minutes(2),
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
      batchSize: 100,
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

  const sweep = new ServiceFunction(stack, 'Sweep', {
    entry: 'functions/handlers/sweep.ts',
    environment,
    timeout: Duration.minutes(5),
    description: 'Closes ended days and idle interactions of quiet agents (schedule, and POST /sweep)',
  }).function;
  summaries.table.grant(sweep, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:Query');
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
    schedule: Schedule.rate(sweepEvery),
    targets: [new LambdaFunction(sweep)],
  });
  return { ladder, ladderDeadLetters, sweep };
}
