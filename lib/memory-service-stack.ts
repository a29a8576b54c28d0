import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { StreamViewType } from 'aws-cdk-lib/aws-dynamodb';
import { SWEEP_INDEX } from '../functions/domain/table-layout.js';
import type { Construct } from 'constructs';
import { AgentPartitionedTable } from './constructs/agent-partitioned-table.js';
import { ConsolidationQueue } from './constructs/consolidation-queue.js';
import { IdleCheckQueue } from './constructs/idle-check-queue.js';
import { MemoryApi } from './constructs/memory-api.js';
import { Operations } from './constructs/operations.js';
import { RawLogBucket } from './constructs/raw-log-bucket.js';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { InspectorSite } from './constructs/inspector-site.js';
import { localEmbeddingFiles } from './constructs/bundling/runtime-files.js';
import { ServicePermissions, type ServiceData } from './stages/service-data.js';
import { addIngestStage, IDLE_CHECK_TIMEOUT } from './stages/ingest.js';
import { addConsolidationStage } from './stages/consolidation.js';
import { addLadderStage } from './stages/ladders.js';
import { addReadStage } from './stages/read.js';
import { addAuthorization, addErasure } from './stages/access.js';

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
   * Reserved concurrency of the consolidator and the ladder consumer. Reserving
   * fails to deploy on an account whose concurrency quota leaves less than 100
   * unreserved (new accounts often have 10 in all), and is not what bounds the
   * queues' consumers: `consolidatorConcurrency` and `sweepConcurrency` do.
   * @default none
   */
  readonly reservedConcurrency?: { readonly consolidator?: number; readonly ladder?: number };
  /**
   * Consolidation jobs running at once at most (the FIFO queue mapping's
   * maximum concurrency, 2 to 1,000). One agent's jobs always run one at a time.
   * @default 5
   */
  readonly consolidatorConcurrency?: number;
  /**
   * How long after periods close the sweep checks that the ladders above them
   * hold every parent they complete, writing any whose announcement the stream
   * gave up on (docs/design/failure-isolation.md). Shorter checks sooner and risks
   * writing a parent the stream is still writing (one model call twice).
   * @default Duration.minutes(30)
   */
  readonly ladderCheckAfter?: Duration;
  /**
   * Sweep workers at most (the sweep queue mapping's maximum concurrency, 2 to 1,000).
   * @default 2
   */
  readonly sweepConcurrency?: number;
  /**
   * Days of point-in-time recovery kept for the tables (1 to 35). An erased
   * agent stays restorable from these backups for this long; see docs/design/security.md.
   * @default 35
   */
  readonly pointInTimeRecoveryDays?: number;
  /**
   * Default-stage throttling of the HTTP API (requests per second, and burst), for all tenants together.
   * @default { rateLimit: 1000, burstLimit: 500 }
   */
  readonly apiThrottle?: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * How often the summary sweep runs.
   * @default Duration.minutes(15)
   */
  readonly sweepEvery?: Duration;
}

/**
 * The memory service, stage by stage: ingest (lib/stages/ingest.ts),
 * consolidation, the summary ladders, reading, and access (authorization and
 * erasure), over the data resources below; then the API and operations.
 */
export class MemoryServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: MemoryServiceStackProps = {}) {
    super(scope, id, props);

    const rawLog = new RawLogBucket(this, 'RawLog', {
      ...(props.retention?.rawRecordsDays !== undefined ? { expireRecordsAfter: Duration.days(props.retention.rawRecordsDays) } : {}),
      ...(props.retention?.noncurrentVersionsDays !== undefined ? { expireNoncurrentVersionsAfter: Duration.days(props.retention.noncurrentVersionsDays) } : {}),
    });
    const recoveryPeriodInDays = props.pointInTimeRecoveryDays ?? 35;
    const agents = new AgentPartitionedTable(this, 'Agents', { recoveryPeriodInDays });
    // Injection-log entries expire (see DynamoDbInjectionLog); nothing else in the table has the attribute.
    const memory = new AgentPartitionedTable(this, 'Memory', { timeToLiveAttribute: 'expiresAt', recoveryPeriodInDays });
    const summaries = new AgentPartitionedTable(this, 'Summaries', {
      recoveryPeriodInDays,
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
      LADDER_CHECK_AFTER_MINUTES: String((props.ladderCheckAfter ?? Duration.minutes(30)).toMinutes()),
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

    const embeddingFiles = embeddingProvider === 'local' ? localEmbeddingFiles() : [];
    const data: ServiceData = { rawLog, agents, memory, summaries, consolidation, idleChecks, environment, embeddingFiles };
    const openAiKey = props.openAiApiKeySecretName ? Secret.fromSecretNameV2(this, 'OpenAiApiKeySecret', props.openAiApiKeySecretName) : undefined;
    const permissions = new ServicePermissions(this, data, {
      modelProvider,
      embeddingProvider,
      ...(props.modelId ? { modelId: props.modelId } : {}),
      ...(props.embeddingModelId ? { embeddingModelId: props.embeddingModelId } : {}),
      ...(openAiKey ? { openAiKey } : {}),
    });

    const { ingest, flush, idleFlush, status } = addIngestStage(this, data);
    const consolidator = addConsolidationStage(this, data, permissions, { timeout: consolidatorTimeout, concurrency: props.consolidatorConcurrency ?? 5 });
    const { ladder, ladderDeadLetters, sweep, sweepQueue, sweepDeadLetters } = addLadderStage(this, data, permissions, { sweepEvery: props.sweepEvery ?? Duration.minutes(15), sweepConcurrency: props.sweepConcurrency ?? 2 });
    const { memoryReader, reader, feedback, exporter } = addReadStage(this, data, permissions);
    const { authorizer, authorizerFunction, keys } = addAuthorization(this, data, props);
    const { erase, erasureQueue, erasureDeadLetters } = addErasure(this, data);

    const api = new MemoryApi(this, 'Api', {
      functions: { Ingest: ingest, Status: status, Flush: flush, MemoryReader: memoryReader, Sweep: sweep, Reader: reader, Erase: erase, Feedback: feedback, Export: exporter },
      authorizer,
      ...(props.apiThrottle ? { throttle: props.apiThrottle } : {}),
    });

    const reserved = props.reservedConcurrency ?? {};
    new Operations(this, 'Operations', {
      functions: { Ingest: ingest, Flush: flush, IdleFlush: idleFlush, Status: status, Consolidator: consolidator, Ladder: ladder, Sweep: sweep, MemoryReader: memoryReader, Reader: reader, ...(authorizerFunction ? { Authorizer: authorizerFunction } : {}), Erase: erase, Feedback: feedback, Export: exporter },
      deadLetterQueues: { ConsolidationDeadLetters: consolidation.deadLetterQueue, IdleCheckDeadLetters: idleChecks.deadLetterQueue, LadderDeadLetters: ladderDeadLetters, ErasureDeadLetters: erasureDeadLetters, SweepDeadLetters: sweepDeadLetters },
      workQueues: {
        // Jobs wait at most the lag the service promises; idle checks are delayed by design, so they get longer.
        Consolidation: { queue: consolidation.queue, maxAge: Duration.minutes(30) },
        IdleChecks: { queue: idleChecks.queue, maxAge: Duration.hours(1) },
        Sweep: { queue: sweepQueue, maxAge: Duration.hours(1) },
        Erasure: { queue: erasureQueue, maxAge: Duration.hours(1) },
      },
      streamConsumers: { Ladder: ladder },
      httpApi: api.api,
      reservedConcurrency: [
        ...(reserved.consolidator !== undefined ? [{ fn: consolidator, limit: reserved.consolidator }] : []),
        ...(reserved.ladder !== undefined ? [{ fn: ladder, limit: reserved.ladder }] : []),
      ],
      ...(props.jwt ? { tenantContextPath: `authorizer.claims.${props.jwt.tenantClaim ?? 'tenant_id'}` } : {}),
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });

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
