import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SWEEP_INDEX } from '../functions/domain/table-layout.js';
import type { Construct } from 'constructs';
import { AgentPartitionedTable } from './constructs/agent-partitioned-table.js';
import { ConsolidationQueue } from './constructs/consolidation-queue.js';
import { IdleCheckQueue } from './constructs/idle-check-queue.js';
import { MemoryApi } from './constructs/memory-api.js';
import { RawLogBucket } from './constructs/raw-log-bucket.js';
import { ServiceFunction } from './constructs/service-function.js';

export interface MemoryServiceStackProps extends StackProps {
  /**
   * Messages per consolidation batch.
   * @default 50
   */
  readonly batchSize?: number;
  /**
   * Receives of a consolidation job before it moves to the dead-letter queue.
   * @default 5
   */
  readonly maxReceiveCount?: number;
  /**
   * Tenant every request belongs to until authentication exists.
   * @default 'default'
   */
  readonly tenantId?: string;
  /**
   * The model adapter consolidation uses.
   * @default 'local' (deterministic rules, no network); 'bedrock' for Amazon Bedrock
   */
  readonly modelProvider?: 'local' | 'bedrock' | 'openai';
  /**
   * Model id for Bedrock or the OpenAI-compatible server.
   * @default the configuration's default Bedrock model when the provider is 'bedrock'
   */
  readonly modelId?: string;
  /** Base URL of the OpenAI-compatible server (provider 'openai'). */
  readonly openAiBaseUrl?: string;
  /**
   * Quiet period after which an agent's open partial batch is consolidated.
   * @default Duration.minutes(15)
   */
  readonly idleFlushAfter?: Duration;
  /**
   * Consolidator timeout; the queue hides a received job for six times this.
   * @default Duration.minutes(5)
   */
  readonly consolidatorTimeout?: Duration;
  /**
   * IANA time zone in which the time ladder cuts days.
   * @default 'UTC'
   */
  readonly summaryTimeZone?: string;
  /**
   * How often the summary sweep runs.
   * @default Duration.minutes(15)
   */
  readonly sweepEvery?: Duration;
}

const IDLE_CHECK_TIMEOUT = Duration.seconds(30);

/**
 * The memory service: ingest API, raw log, agent ledger and the consolidation
 * queue with its consumer.
 */
export class MemoryServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: MemoryServiceStackProps = {}) {
    super(scope, id, props);

    const rawLog = new RawLogBucket(this, 'RawLog');
    const agents = new AgentPartitionedTable(this, 'Agents');
    // Injection-log entries expire (see DynamoDbInjectionLog); nothing else in the table has the attribute.
    const memory = new AgentPartitionedTable(this, 'Memory', { timeToLiveAttribute: 'expiresAt' });
    const summaries = new AgentPartitionedTable(this, 'Summaries', {
      // Each new summary announces itself to the ladder consumer.
      stream: StreamViewType.NEW_IMAGE,
      indexes: [{ name: SWEEP_INDEX, partitionKey: 'sweepShard', sortKey: 'sweepAt', include: ['tenantId', 'agentId'] }],
    });
    const modelProvider = props.modelProvider ?? 'local';
    const consolidatorTimeout = props.consolidatorTimeout ?? Duration.minutes(5);
    const consolidation = new ConsolidationQueue(this, 'Consolidation', {
      maxReceiveCount: props.maxReceiveCount ?? 5,
      visibilityTimeout: Duration.seconds(consolidatorTimeout.toSeconds() * 6),
    });
    const idleChecks = new IdleCheckQueue(this, 'IdleChecks', { visibilityTimeout: Duration.seconds(IDLE_CHECK_TIMEOUT.toSeconds() * 6) });

    // Every function gets the same settings block, validated by one schema at cold start.
    const environment = {
      TENANT_ID: props.tenantId ?? 'default',
      AGENTS_TABLE_NAME: agents.table.tableName,
      RAW_BUCKET_NAME: rawLog.bucket.bucketName,
      BATCH_QUEUE_URL: consolidation.queue.queueUrl,
      BATCH_DEAD_LETTER_QUEUE_URL: consolidation.deadLetterQueue.queueUrl,
      BATCH_SIZE: String(props.batchSize ?? 50),
      MEMORY_TABLE_NAME: memory.table.tableName,
      IDLE_CHECK_QUEUE_URL: idleChecks.queue.queueUrl,
      SUMMARIES_TABLE_NAME: summaries.table.tableName,
      SUMMARY_TIME_ZONE: props.summaryTimeZone ?? 'UTC',
      IDLE_FLUSH_SECONDS: String((props.idleFlushAfter ?? Duration.minutes(15)).toSeconds()),
      MODEL_PROVIDER: modelProvider,
      ...(props.modelId ? { MODEL_ID: props.modelId } : {}),
      ...(props.openAiBaseUrl ? { OPENAI_BASE_URL: props.openAiBaseUrl } : {}),
      POWERTOOLS_SERVICE_NAME: 'agent-memory',
      POWERTOOLS_METRICS_NAMESPACE: 'AgentMemory',
    };

    const ingest = new ServiceFunction(this, 'Ingest', {
      entry: 'functions/handlers/ingest.ts',
      environment,
      description: 'POST /v1/agents/{agentId}/events: raw log, counters, batch jobs (no model call)',
    }).function;
    // Least privilege: write raw records, read and write counters and claims, send jobs. Nothing else.
    ingest.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] }),
    );
    agents.table.grant(
      ingest,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:ConditionCheckItem',
    );
    ingest.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn, idleChecks.queue.queueArn] }),
    );

    // Flushing closes the open batch: counters and batch markers, and the job it enqueues.
    const flushActions = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'];
    const flush = new ServiceFunction(this, 'Flush', {
      entry: 'functions/handlers/flush.ts',
      environment,
      memorySize: 512,
      description: 'POST /v1/agents/{agentId}/flush: consolidate the open partial batch now',
    }).function;
    agents.table.grant(flush, ...flushActions);
    flush.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn] }));

    const idleFlush = new ServiceFunction(this, 'IdleFlush', {
      entry: 'functions/handlers/idle-flush.ts',
      environment,
      memorySize: 512,
      timeout: IDLE_CHECK_TIMEOUT,
      description: 'Flushes open batches of agents that went quiet',
    }).function;
    agents.table.grant(idleFlush, ...flushActions);
    idleFlush.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn, idleChecks.queue.queueArn] }),
    );
    idleFlush.addEventSource(new SqsEventSource(idleChecks.queue, { batchSize: 10, reportBatchItemFailures: true }));

    const status = new ServiceFunction(this, 'Status', {
      entry: 'functions/handlers/status.ts',
      environment,
      memorySize: 512,
      description: 'GET /v1/agents/{agentId}/status',
    }).function;
    agents.table.grant(status, 'dynamodb:GetItem');

    const consolidator = new ServiceFunction(this, 'Consolidator', {
      entry: 'functions/handlers/consolidator.ts',
      environment,
      timeout: consolidatorTimeout,
      description: 'Consumes consolidation jobs from the FIFO queue',
    }).function;
    agents.table.grant(consolidator, 'dynamodb:GetItem', 'dynamodb:UpdateItem');
    memory.table.grant(
      consolidator,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:ConditionCheckItem',
    );
    consolidator.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] }));
    // Malformed jobs are parked on the dead-letter queue at once, with their cause.
    consolidator.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.deadLetterQueue.queueArn] }));
    const allowModel = (fn: NodejsFunction) => {
      if (modelProvider !== 'bedrock') return;
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [`arn:${this.partition}:bedrock:*::foundation-model/*`, `arn:${this.partition}:bedrock:*:${this.account}:inference-profile/*`],
        }),
      );
    };
    const readRawRecords = new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] });
    allowModel(consolidator);
    // Base summaries (cursor and summary writes), and the snapshot it reassembles after each batch.
    summaries.table.grant(consolidator, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query');

    const ladderDeadLetters = new Queue(this, 'LadderDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    const ladder = new ServiceFunction(this, 'Ladder', {
      entry: 'functions/handlers/ladder.ts',
      environment,
      timeout: Duration.minutes(2),
      description: 'Summaries stream consumer: registers each summary with its parent and writes complete parents',
    }).function;
    summaries.table.grant(ladder, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query');
    // Snapshot reassembly: views and snapshot in the memory table, progress in the agents table.
    memory.table.grant(ladder, 'dynamodb:GetItem', 'dynamodb:PutItem');
    agents.table.grant(ladder, 'dynamodb:GetItem');
    allowModel(ladder);
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

    const sweep = new ServiceFunction(this, 'Sweep', {
      entry: 'functions/handlers/sweep.ts',
      environment,
      timeout: Duration.minutes(5),
      description: 'Closes ended days and idle interactions of quiet agents (schedule, and POST /sweep)',
    }).function;
    summaries.table.grant(sweep, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:Query');
    // Views and snapshot; and the memory pass (use counts from the injection log, forgetting):
    // a query of items, injections and cursors, then version-checked transactions.
    memory.table.grant(sweep, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem');
    agents.table.grant(sweep, 'dynamodb:GetItem');
    sweep.addToRolePolicy(readRawRecords);
    allowModel(sweep);
    new Rule(this, 'SweepSchedule', {
      description: 'Summary sweep for agents that went quiet',
      schedule: Schedule.rate(props.sweepEvery ?? Duration.minutes(15)),
      targets: [new LambdaFunction(sweep)],
    });
    consolidator.addEventSource(
      new SqsEventSource(consolidation.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    const memoryReader = new ServiceFunction(this, 'MemoryReader', {
      entry: 'functions/handlers/memory-reader.ts',
      environment,
      memorySize: 512,
      description: 'GET contacts, facts, tasks (paginated) and audit entries',
    }).function;
    memory.table.grant(memoryReader, 'dynamodb:GetItem', 'dynamodb:Query');

    // The read path: one GetItem of the snapshot; context responses also write their injection-log entry.
    const reader = new ServiceFunction(this, 'Reader', {
      entry: 'functions/handlers/reader.ts',
      environment,
      memorySize: 1024,
      description: 'GET snapshot (one lookup) and budgeted context',
    }).function;
    memory.table.grant(reader, 'dynamodb:GetItem', 'dynamodb:PutItem');
    summaries.table.grant(memoryReader, 'dynamodb:Query');

    // The note lifecycle's write side: feedback on items and batch reverts. Each is an audited,
    // version-checked transaction on the memory table (items, head, audit, view), then the
    // snapshot is reassembled (views and snapshot here, summaries and progress read elsewhere).
    const feedback = new ServiceFunction(this, 'Feedback', {
      entry: 'functions/handlers/feedback.ts',
      environment,
      memorySize: 512,
      description: 'POST feedback (helpful, wrong, outdated) and POST audit/{batch}/revert',
    }).function;
    memory.table.grant(feedback, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem');
    summaries.table.grant(feedback, 'dynamodb:GetItem', 'dynamodb:Query');
    agents.table.grant(feedback, 'dynamodb:GetItem');

    const api = new MemoryApi(this, 'Api', {
      functions: { Ingest: ingest, Status: status, Flush: flush, MemoryReader: memoryReader, Sweep: sweep, Reader: reader, Feedback: feedback },
    });

    new CfnOutput(this, 'ApiUrl', { value: api.api.apiEndpoint });
    new CfnOutput(this, 'RawLogBucketName', { value: rawLog.bucket.bucketName });
    new CfnOutput(this, 'AgentsTableName', { value: agents.table.tableName });
    new CfnOutput(this, 'MemoryTableName', { value: memory.table.tableName });
    new CfnOutput(this, 'SummariesTableName', { value: summaries.table.tableName });
    new CfnOutput(this, 'ConsolidationQueueUrl', { value: consolidation.queue.queueUrl });
    new CfnOutput(this, 'ConsolidationDeadLetterQueueUrl', { value: consolidation.deadLetterQueue.queueUrl });
  }
}
