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
import { DEFAULT_BEDROCK_EMBEDDING_MODEL_ID, DEFAULT_BEDROCK_MODEL_ID } from '../functions/commons/config.js';
import type { Construct } from 'constructs';
import { AgentPartitionedTable } from './constructs/agent-partitioned-table.js';
import { ConsolidationQueue } from './constructs/consolidation-queue.js';
import { IdleCheckQueue } from './constructs/idle-check-queue.js';
import { MemoryApi } from './constructs/memory-api.js';
import { Operations } from './constructs/operations.js';
import { RawLogBucket } from './constructs/raw-log-bucket.js';
import { ServiceFunction } from './constructs/service-function.js';
import { ApiKeysTable } from './constructs/api-keys-table.js';
import { HttpJwtAuthorizer, HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { InspectorSite } from './constructs/inspector-site.js';

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
   * Tenant of the benchmarks' and scripts' direct (not HTTP) calls. HTTP
   * requests always belong to the tenant of their API key.
   * @default 'default'
   */
  readonly tenantId?: string;
  /**
   * How long API Gateway caches the key authorizer's verdict per key (a
   * revoked key keeps working for at most this long).
   * @default Duration.minutes(5)
   */
  readonly authorizerCacheTtl?: Duration;
  /**
   * Authenticate with an identity provider instead of API keys: the HTTP
   * API's JWT authorizer (Cognito or any OIDC issuer) verifies the token, and
   * the tenant, scopes (`read`, `write`, `admin`, or any name ending in
   * `/read`, `:read`...) and optionally the agents come from these claims.
   * The API key authorizer and its table are then not deployed.
   * @default API keys (a Lambda authorizer)
   */
  readonly jwt?: {
    readonly issuer: string;
    readonly audience: readonly string[];
    /** @default 'tenant_id' */
    readonly tenantClaim?: string;
    /** @default 'scope' */
    readonly scopesClaim?: string;
    /** A claim listing the agent ids the token may address. @default every agent of the tenant */
    readonly agentsClaim?: string;
  };
  /**
   * Redaction before anything is derived. Secrets are always replaced by
   * typed placeholders; emails, phone numbers and postal addresses are kept,
   * masked (`[pii:email]`) or dropped; `rawLog: true` redacts at ingest too,
   * so the raw log holds no secret either.
   * @default { email: 'keep', phone: 'keep', address: 'keep', rawLog: false }
   */
  readonly redaction?: { readonly email?: 'keep' | 'mask' | 'drop'; readonly phone?: 'keep' | 'mask' | 'drop'; readonly address?: 'keep' | 'mask' | 'drop'; readonly rawLog?: boolean };
  /**
   * Retention: the raw log's S3 lifecycle on `raw/`, and how long archived
   * memory items are kept before the sweep deletes them. The injection log
   * expires on its own (90-day TTL). See docs/design/security.md.
   * @default { rawRecordsDays: never, noncurrentVersionsDays: 30, archivedItemsDays: 365 }
   */
  readonly retention?: {
    /** Days after which raw records expire. @default never */
    readonly rawRecordsDays?: number;
    /** Days after which non-current raw-record versions expire. @default 30 */
    readonly noncurrentVersionsDays?: number;
    /** Days an archived item (forgotten, superseded, cancelled) is kept before it is deleted; 0 keeps them. @default 365 */
    readonly archivedItemsDays?: number;
  };
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
   * Name of the Secrets Manager secret holding the OpenAI-compatible server's
   * API key (the key itself, or JSON `{"apiKey":"..."}`). Only the functions
   * that call that server may read it; the key never enters an environment
   * variable. Also used for OpenAI-compatible embeddings.
   * @default none (a server that needs no key)
   */
  readonly openAiApiKeySecretName?: string;
  /**
   * The embedding adapter the retrieval index and queries use.
   * @default 'local' (sentence encoder shipped in an npm package, no network)
   */
  readonly embeddingProvider?: 'local' | 'bedrock' | 'openai';
  /**
   * Embedding model id for Bedrock or the OpenAI-compatible server.
   * @default 'amazon.titan-embed-text-v2:0' when the provider is 'bedrock'
   */
  readonly embeddingModelId?: string;
  /**
   * Length of the embedding vectors (Bedrock: 256, 512 or 1024; required for 'openai').
   * @default 512 when the provider is 'bedrock'
   */
  readonly embeddingDimensions?: number;
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
   * Age after which a committed sequence number whose raw record never arrived
   * (its ingest request failed midway and was never retried) is consolidated
   * as a hole. Must exceed the ingest timeout (29 s).
   * @default Duration.minutes(2)
   */
  readonly holeGracePeriod?: Duration;
  /**
   * Email address subscribed to the alarm topic.
   * @default no subscription
   */
  readonly alarmEmail?: string;
  /**
   * Deploy the web inspector: its files in a private bucket behind a CloudFront
   * distribution that also forwards `/v1/*` to the API (output `InspectorUrl`;
   * the user enters a key in the page).
   * @default false
   */
  readonly inspector?: boolean;
  /**
   * Reserved concurrency of the consolidator and the ladder consumer (they call the model).
   * @default { consolidator: 20, ladder: 10 }
   */
  readonly reservedConcurrency?: { readonly consolidator: number; readonly ladder: number };
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

    const rawLog = new RawLogBucket(this, 'RawLog', {
      ...(props.retention?.rawRecordsDays !== undefined ? { expireRecordsAfter: Duration.days(props.retention.rawRecordsDays) } : {}),
      ...(props.retention?.noncurrentVersionsDays !== undefined ? { expireNoncurrentVersionsAfter: Duration.days(props.retention.noncurrentVersionsDays) } : {}),
    });
    const agents = new AgentPartitionedTable(this, 'Agents');
    // Injection-log entries expire (see DynamoDbInjectionLog); nothing else in the table has the attribute.
    const memory = new AgentPartitionedTable(this, 'Memory', { timeToLiveAttribute: 'expiresAt' });
    const summaries = new AgentPartitionedTable(this, 'Summaries', {
      // Each new summary announces itself to the ladder consumer.
      stream: StreamViewType.NEW_IMAGE,
      indexes: [{ name: SWEEP_INDEX, partitionKey: 'sweepShard', sortKey: 'sweepAt', include: ['tenantId', 'agentId'] }],
    });
    const modelProvider = props.modelProvider ?? 'local';
    const embeddingProvider = props.embeddingProvider ?? 'local';
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
      HOLE_GRACE_SECONDS: String((props.holeGracePeriod ?? Duration.minutes(2)).toSeconds()),
      MODEL_PROVIDER: modelProvider,
      REDACT_PII_EMAIL: props.redaction?.email ?? 'keep',
      REDACT_PII_PHONE: props.redaction?.phone ?? 'keep',
      REDACT_PII_ADDRESS: props.redaction?.address ?? 'keep',
      REDACT_RAW_LOG: String(props.redaction?.rawLog ?? false),
      ARCHIVED_RETENTION_DAYS: String(props.retention?.archivedItemsDays ?? 365),
      ...(props.modelId ? { MODEL_ID: props.modelId } : {}),
      ...(props.openAiBaseUrl ? { OPENAI_BASE_URL: props.openAiBaseUrl } : {}),
      ...(props.openAiApiKeySecretName ? { OPENAI_API_KEY_SECRET_ID: props.openAiApiKeySecretName } : {}),
      EMBEDDING_PROVIDER: embeddingProvider,
      ...(props.embeddingModelId ? { EMBEDDING_MODEL_ID: props.embeddingModelId } : {}),
      ...(props.embeddingDimensions ? { EMBEDDING_DIMENSIONS: String(props.embeddingDimensions) } : {}),
      ...(props.jwt
        ? {
            JWT_TENANT_CLAIM: props.jwt.tenantClaim ?? 'tenant_id',
            JWT_SCOPES_CLAIM: props.jwt.scopesClaim ?? 'scope',
            ...(props.jwt.agentsClaim ? { JWT_AGENTS_CLAIM: props.jwt.agentsClaim } : {}),
          }
        : {}),
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
      // A run waits at most a third of its timeout for a hole to come due; longer, the job is redelivered.
      environment: { ...environment, HOLE_MAX_WAIT_SECONDS: String(Math.min(60, Math.floor(consolidatorTimeout.toSeconds() / 3))) },
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
    // Least privilege: only the configured model (and, for a cross-region inference profile such as
    // `us.anthropic...`, that profile and the foundation model it routes to in any region).
    const bedrockModelId = props.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    const profile = /^(us|eu|apac|us-gov|global)\./.exec(bedrockModelId);
    const foundationModelId = profile ? bedrockModelId.slice(profile[0].length) : bedrockModelId;
    const openAiKey = props.openAiApiKeySecretName ? Secret.fromSecretNameV2(this, 'OpenAiApiKeySecret', props.openAiApiKeySecretName) : undefined;
    const allowModel = (fn: NodejsFunction) => {
      if (modelProvider === 'openai') openAiKey?.grantRead(fn);
      if (modelProvider !== 'bedrock') return;
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [
            `arn:${this.partition}:bedrock:*::foundation-model/${foundationModelId}`,
            ...(profile ? [`arn:${this.partition}:bedrock:*:${this.account}:inference-profile/${bedrockModelId}`] : []),
          ],
        }),
      );
    };
    // Only the functions that embed (units at consolidation and on the ladders, queries on reads) may call the embedding model, and only that model.
    const allowEmbeddings = (fn: NodejsFunction) => {
      if (embeddingProvider === 'openai') openAiKey?.grantRead(fn);
      if (embeddingProvider !== 'bedrock') return;
      const embeddingModelId = props.embeddingModelId ?? DEFAULT_BEDROCK_EMBEDDING_MODEL_ID;
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [`arn:${this.partition}:bedrock:${this.region}::foundation-model/${embeddingModelId}`] }),
      );
    };
    const readRawRecords = new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] });
    // The retrieval index: segments under index/ (written, merged and replaced offline; read by the read path).
    const maintainIndex = () => new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [rawLog.bucket.arnForObjects('index/*')] });
    // Without s3:ListBucket, S3 answers a missing key with 403 instead of 404; the raw log (holes) and the index
    // (segments merged away) read a missing object as absent, so every function that reads objects may list.
    const knowMissingObjects = () => new PolicyStatement({ actions: ['s3:ListBucket'], resources: [rawLog.bucket.bucketArn] });
    consolidator.addToRolePolicy(knowMissingObjects());
    consolidator.addToRolePolicy(maintainIndex());
    allowModel(consolidator);
    allowEmbeddings(consolidator);
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
    allowEmbeddings(ladder);
    ladder.addToRolePolicy(maintainIndex());
    ladder.addToRolePolicy(knowMissingObjects());
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
    sweep.addToRolePolicy(maintainIndex());
    sweep.addToRolePolicy(knowMissingObjects());
    allowModel(sweep);
    allowEmbeddings(sweep);
    new Rule(this, 'SweepSchedule', {
      description: 'Summary sweep for agents that went quiet',
      schedule: Schedule.rate(props.sweepEvery ?? Duration.minutes(15)),
      targets: [new LambdaFunction(sweep)],
    });
    consolidator.addEventSource(
      new SqsEventSource(consolidation.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    // Page tokens given to clients carry an HMAC under this generated key (commons/page-tokens.ts), so
    // an altered or forged token is a 400. Only the functions that hand out tokens may read it.
    const pageTokenKey = new Secret(this, 'PageTokenKey', {
      description: 'Signs the page tokens of the memory service API (not a credential to any data)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    const pagingEnvironment = { ...environment, PAGE_TOKEN_KEY_SECRET_ID: pageTokenKey.secretArn };

    const memoryReader = new ServiceFunction(this, 'MemoryReader', {
      entry: 'functions/handlers/memory-reader.ts',
      environment: pagingEnvironment,
      memorySize: 512,
      description: 'GET contacts, facts, tasks (paginated) and audit entries',
    }).function;
    memory.table.grant(memoryReader, 'dynamodb:GetItem', 'dynamodb:Query');
    pageTokenKey.grantRead(memoryReader);

    // The read path: one GetItem of the snapshot; context responses also write their injection-log entry.
    const reader = new ServiceFunction(this, 'Reader', {
      entry: 'functions/handlers/reader.ts',
      environment,
      memorySize: 1024,
      description: 'GET snapshot (one lookup) and budgeted context',
    }).function;
    memory.table.grant(reader, 'dynamodb:GetItem', 'dynamodb:PutItem');
    allowEmbeddings(reader);
    reader.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('index/*')] }));
    reader.addToRolePolicy(knowMissingObjects());
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
    // Reassembling the snapshot refreshes the index's items segment (read, embed, write).
    feedback.addToRolePolicy(maintainIndex());
    feedback.addToRolePolicy(knowMissingObjects());
    allowEmbeddings(feedback);


    // The export reads everything of an agent and writes nothing.
    const exporter = new ServiceFunction(this, 'Export', {
      entry: 'functions/handlers/export.ts',
      environment: pagingEnvironment,
      memorySize: 1024,
      timeout: Duration.seconds(29),
      description: 'GET export: raw records, items with history, summaries and audit as NDJSON parts',
    }).function;
    agents.table.grant(exporter, 'dynamodb:GetItem', 'dynamodb:Query');
    memory.table.grant(exporter, 'dynamodb:GetItem', 'dynamodb:Query');
    summaries.table.grant(exporter, 'dynamodb:Query');
    exporter.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('raw/*')] }));
    exporter.addToRolePolicy(knowMissingObjects());
    pageTokenKey.grantRead(exporter);

    // Keys by SHA-256 digest; the authorizer only reads them (the keys command writes with operator credentials).
    // With `jwt`, the HTTP API's JWT authorizer verifies tokens instead, and neither is deployed.
    let authorizer: IHttpRouteAuthorizer;
    let authorizerFunction: NodejsFunction | undefined;
    let keys: ApiKeysTable | undefined;
    if (props.jwt) {
      authorizer = new HttpJwtAuthorizer('JwtAuthorizer', props.jwt.issuer, { jwtAudience: [...props.jwt.audience], identitySource: ['$request.header.Authorization'] });
    } else {
      keys = new ApiKeysTable(this, 'ApiKeys');
      authorizerFunction = new ServiceFunction(this, 'Authorizer', {
        entry: 'functions/handlers/authorizer.ts',
        environment: { ...environment, KEYS_TABLE_NAME: keys.table.tableName },
        memorySize: 512,
        timeout: Duration.seconds(10),
        description: 'API key authorizer: SHA-256 digest lookup; tenant, scopes and agents in the context',
      }).function;
      keys.table.grant(authorizerFunction, 'dynamodb:GetItem');
      authorizer = new HttpLambdaAuthorizer('ApiKeyAuthorizer', authorizerFunction, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ['$request.header.Authorization'],
        resultsCacheTtl: props.authorizerCacheTtl ?? Duration.minutes(5),
      });
    }

    // Erasure: a queue of its own, consumed by the function that accepts the request.
    const erasureDeadLetters = new Queue(this, 'ErasureDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    const erasureQueue = new Queue(this, 'ErasureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.minutes(30),
      deadLetterQueue: { queue: erasureDeadLetters, maxReceiveCount: 10 },
    });
    const erase = new ServiceFunction(this, 'Erase', {
      entry: 'functions/handlers/erase.ts',
      environment: { ...environment, ERASURE_QUEUE_URL: erasureQueue.queueUrl },
      timeout: Duration.minutes(5),
      description: 'DELETE /v1/agents/{agentId}: queues and performs the erasure of an agent',
    }).function;
    erase.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [erasureQueue.queueArn] }));
    erase.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucketVersions', 's3:ListBucket'], resources: [rawLog.bucket.bucketArn] }));
    erase.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject', 's3:DeleteObjectVersion'], resources: [rawLog.bucket.arnForObjects('raw/*'), rawLog.bucket.arnForObjects('index/*')] }));
    for (const table of [agents.table, memory.table, summaries.table]) table.grant(erase, 'dynamodb:Query', 'dynamodb:BatchWriteItem');
    agents.table.grant(erase, 'dynamodb:PutItem');
    erase.addEventSource(new SqsEventSource(erasureQueue, { batchSize: 1, reportBatchItemFailures: true }));

    const api = new MemoryApi(this, 'Api', {
      functions: { Ingest: ingest, Status: status, Flush: flush, MemoryReader: memoryReader, Sweep: sweep, Reader: reader, Erase: erase, Feedback: feedback, Export: exporter },
      authorizer,
    });

    const limits = props.reservedConcurrency ?? { consolidator: 20, ladder: 10 };
    new Operations(this, 'Operations', { functions: { Ingest: ingest, Flush: flush, IdleFlush: idleFlush, Status: status, Consolidator: consolidator, Ladder: ladder, Sweep: sweep, MemoryReader: memoryReader, Reader: reader, ...(authorizerFunction ? { Authorizer: authorizerFunction } : {}), Erase: erase, Feedback: feedback, Export: exporter }, deadLetterQueues: { ConsolidationDeadLetters: consolidation.deadLetterQueue, IdleCheckDeadLetters: idleChecks.deadLetterQueue, LadderDeadLetters: ladderDeadLetters, ErasureDeadLetters: erasureDeadLetters }, streamConsumers: { Ladder: ladder }, httpApi: api.api, reservedConcurrency: [{ fn: consolidator, limit: limits.consolidator }, { fn: ladder, limit: limits.ladder }], ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}) });

    new CfnOutput(this, 'ApiUrl', { value: api.api.apiEndpoint });
    if (props.inspector) {
      const site = new InspectorSite(this, 'Inspector', { api: api.api });
      new CfnOutput(this, 'InspectorUrl', { value: `https://${site.distribution.distributionDomainName}/` });
    }
    new CfnOutput(this, 'RawLogBucketName', { value: rawLog.bucket.bucketName });
    new CfnOutput(this, 'AgentsTableName', { value: agents.table.tableName });
    new CfnOutput(this, 'MemoryTableName', { value: memory.table.tableName });
    new CfnOutput(this, 'SummariesTableName', { value: summaries.table.tableName });
    if (keys) new CfnOutput(this, 'ApiKeysTableName', { value: keys.table.tableName });
    new CfnOutput(this, 'ConsolidationQueueUrl', { value: consolidation.queue.queueUrl });
    new CfnOutput(this, 'ConsolidationDeadLetterQueueUrl', { value: consolidation.deadLetterQueue.queueUrl });
  }
}
