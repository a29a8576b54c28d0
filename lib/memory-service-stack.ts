import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { AgentPartitionedTable } from './constructs/agent-partitioned-table.js';
import { ConsolidationQueue } from './constructs/consolidation-queue.js';
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
}

/** Consolidator timeout; the queue's visibility timeout is six times this. */
const CONSOLIDATOR_TIMEOUT = Duration.minutes(5);

/**
 * The memory service: ingest API, raw log, agent ledger and the consolidation
 * queue with its consumer.
 */
export class MemoryServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: MemoryServiceStackProps = {}) {
    super(scope, id, props);

    const rawLog = new RawLogBucket(this, 'RawLog');
    const agents = new AgentPartitionedTable(this, 'Agents');
    const memory = new AgentPartitionedTable(this, 'Memory');
    const modelProvider = props.modelProvider ?? 'local';
    const consolidation = new ConsolidationQueue(this, 'Consolidation', {
      maxReceiveCount: props.maxReceiveCount ?? 5,
      visibilityTimeout: Duration.seconds(CONSOLIDATOR_TIMEOUT.toSeconds() * 6),
    });

    // Every function gets the same settings block, validated by one schema at cold start.
    const environment = {
      TENANT_ID: props.tenantId ?? 'default',
      AGENTS_TABLE_NAME: agents.table.tableName,
      RAW_BUCKET_NAME: rawLog.bucket.bucketName,
      BATCH_QUEUE_URL: consolidation.queue.queueUrl,
      BATCH_SIZE: String(props.batchSize ?? 50),
      MEMORY_TABLE_NAME: memory.table.tableName,
      MODEL_PROVIDER: modelProvider,
      ...(props.modelId ? { MODEL_ID: props.modelId } : {}),
      ...(props.openAiBaseUrl ? { OPENAI_BASE_URL: props.openAiBaseUrl } : {}),
      POWERTOOLS_SERVICE_NAME: 'agent-memory',
      POWERTOOLS_METRICS_NAMESPACE: 'AgentMemory',
    };

    const ingest = new ServiceFunction(this, 'Ingest', {
      entry: 'functions/ingest.ts',
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
    ingest.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [consolidation.queue.queueArn] }));

    const status = new ServiceFunction(this, 'Status', {
      entry: 'functions/status.ts',
      environment,
      memorySize: 512,
      description: 'GET /v1/agents/{agentId}/status',
    }).function;
    agents.table.grant(status, 'dynamodb:GetItem');

    const consolidator = new ServiceFunction(this, 'Consolidator', {
      entry: 'functions/consolidate.ts',
      environment,
      timeout: CONSOLIDATOR_TIMEOUT,
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
    consolidator.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] }),
    );
    if (modelProvider === 'bedrock') {
      consolidator.addToRolePolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [`arn:${this.partition}:bedrock:*::foundation-model/*`, `arn:${this.partition}:bedrock:*:${this.account}:inference-profile/*`],
        }),
      );
    }
    consolidator.addEventSource(
      new SqsEventSource(consolidation.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    const memoryReader = new ServiceFunction(this, 'MemoryReader', {
      entry: 'functions/memory.ts',
      environment,
      memorySize: 512,
      description: 'GET contacts, facts, tasks (paginated) and audit entries',
    }).function;
    memory.table.grant(memoryReader, 'dynamodb:GetItem', 'dynamodb:Query');

    const api = new MemoryApi(this, 'Api', {
      routes: [
        { path: '/v1/agents/{agentId}/events', handler: ingest },
        { path: '/v1/agents/{agentId}/status', handler: status },
        { path: '/v1/agents/{agentId}/contacts', handler: memoryReader },
        { path: '/v1/agents/{agentId}/facts', handler: memoryReader },
        { path: '/v1/agents/{agentId}/tasks', handler: memoryReader },
        { path: '/v1/agents/{agentId}/audit', handler: memoryReader },
      ],
    });

    new CfnOutput(this, 'ApiUrl', { value: api.api.apiEndpoint });
    new CfnOutput(this, 'RawLogBucketName', { value: rawLog.bucket.bucketName });
    new CfnOutput(this, 'AgentsTableName', { value: agents.table.tableName });
    new CfnOutput(this, 'MemoryTableName', { value: memory.table.tableName });
    new CfnOutput(this, 'ConsolidationQueueUrl', { value: consolidation.queue.queueUrl });
    new CfnOutput(this, 'ConsolidationDeadLetterQueueUrl', { value: consolidation.deadLetterQueue.queueUrl });
  }
}
