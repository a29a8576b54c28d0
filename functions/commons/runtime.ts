/**
 * Cold-start wiring shared by the Lambda entry points: validated config, AWS
 * clients and adapters, built once per process.
 */
import { loadConfig, type ServiceConfig } from './config.js';
import { createAwsClients, type AwsClients } from './clients.js';
import { DynamoDbAgentLedger } from '../adapters/dynamodb/agent-ledger.js';
import { S3RawLog } from '../adapters/s3/raw-log.js';
import { SqsBatchQueue } from '../adapters/sqs/batch-queue.js';
import { SqsDeadLetterQueue } from '../adapters/sqs/dead-letter-queue.js';
import { DynamoDbMemoryStore } from '../adapters/dynamodb/memory-store.js';
import { SqsIdleCheckScheduler } from '../adapters/sqs/idle-check-scheduler.js';
import { DynamoDbSummaryStore } from '../adapters/dynamodb/summary-store.js';
import { DEFAULT_LADDERS, type LadderConfig } from '../domain/ladders.js';
import type { SummaryDependencies } from '../use-cases/summaries.js';
import { DynamoDbSnapshotStore } from '../adapters/dynamodb/snapshot-store.js';
import { DynamoDbInjectionLog } from '../adapters/dynamodb/injection-log.js';
import type { SnapshotDependencies } from '../use-cases/assemble-snapshot.js';
import { BedrockModel } from '../adapters/models/bedrock-model.js';
import { LocalModel } from '../adapters/models/local/local-model.js';
import type { ModelPort } from '../ports/model.js';
import { OpenAiCompatibleModel } from '../adapters/models/openai-compatible-model.js';
import { secretValue } from '../adapters/secrets/secret-value.js';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { pageTokenSeal, processPageTokenKey, type PageTokenSeal } from './page-tokens.js';
import { createEmbeddings } from '../adapters/embeddings/index.js';
import type { EmbeddingPort } from '../ports/embeddings.js';
import { LocalEmbeddings } from '../adapters/embeddings/local.js';
import { S3IndexSegments } from '../adapters/s3/index-segments.js';
import { DynamoDbIndexManifests } from '../adapters/dynamodb/index-manifest.js';
import type { IndexDependencies } from '../use-cases/index-memory.js';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metrics } from './powertools.js';
import type { RawLog } from '../ports/pipeline.js';
import { RedactingRawLog, Redactor } from '../use-cases/redaction.js';

export interface ServiceRuntime {
  readonly config: ServiceConfig;
  readonly clients: AwsClients;
  readonly ledger: DynamoDbAgentLedger;
  /** The raw log as ingest writes it (redacting on write when REDACT_RAW_LOG=true). */
  readonly rawLog: RawLog;
  /** The raw log as deriving functions read it: every record redacted (consolidator, summaries, sweep). */
  readonly redactedRawLog: RawLog;
  readonly redactor: Redactor;
  readonly queue: SqsBatchQueue;
  readonly deadLetters: SqsDeadLetterQueue;
  readonly memory: DynamoDbMemoryStore;
  readonly model: ModelPort;
  readonly idleChecks: SqsIdleCheckScheduler;
  readonly summaries: SummaryDependencies;
  readonly snapshots: DynamoDbSnapshotStore;
  readonly snapshot: SnapshotDependencies;
  readonly injections: DynamoDbInjectionLog;
  readonly embeddings: EmbeddingPort;
  /** The retrieval index, maintained offline by the consolidator, the ladder and the sweep. */
  readonly index: IndexDependencies;
  /** Seals the page tokens clients are given (commons/page-tokens.ts). */
  readonly pageTokens: PageTokenSeal;
}

/** The model adapter the configuration names. */
export function createModel(config: ServiceConfig): ModelPort {
  switch (config.model.provider) {
    case 'bedrock':
      return new BedrockModel({ modelId: config.model.modelId, region: config.region });
    case 'openai': {
      const { apiKeySecretId, apiKey, ...rest } = config.model;
      const key = apiKeySecretId ? secretValue(apiKeySecretId) : apiKey;
      return new OpenAiCompatibleModel({ ...rest, ...(key ? { apiKey: key } : {}) });
    }
    case 'local':
      return new LocalModel();
  }
}

export function createServiceRuntime(config: ServiceConfig, clients: AwsClients = createAwsClients(config), model: ModelPort = createModel(config)): ServiceRuntime {
  const storedRawLog = new S3RawLog(clients.s3, config.rawBucketName);
  const redactor = new Redactor({ policy: { email: config.redaction.email, phone: config.redaction.phone, address: config.redaction.address }, onRedacted: countRedactions });
  const redactedRawLog = new RedactingRawLog(storedRawLog, redactor);
  const rawLog: RawLog = config.redaction.rawLog ? new RedactingRawLog(storedRawLog, redactor, { redactOnWrite: true }) : storedRawLog;
  const ledger = new DynamoDbAgentLedger(clients.dynamo, config.agentsTableName);
  const memory = new DynamoDbMemoryStore(clients.dynamo, config.memoryTableName);
  const summaryStore = new DynamoDbSummaryStore(clients.dynamo, config.summariesTableName);
  const snapshots = new DynamoDbSnapshotStore(clients.dynamo, config.memoryTableName);
  // The configured embedding adapter (local USE lite by default; Bedrock or an OpenAI-compatible server).
  const embeddings: EmbeddingPort = createEmbeddings(config, { local: () => new LocalEmbeddings() });
  const index: IndexDependencies = {
    manifests: new DynamoDbIndexManifests(clients.dynamo, config.memoryTableName),
    segments: new S3IndexSegments(clients.s3, config.rawBucketName),
    embeddings,
    // Records the index reads itself (a gap left by an earlier failure) are redacted like every derived text.
    rawLog: redactedRawLog,
  };
  return {
    config,
    clients,
    ledger,
    rawLog,
    redactedRawLog,
    redactor,
    queue: new SqsBatchQueue(clients.sqs, config.batchQueueUrl),
    deadLetters: new SqsDeadLetterQueue(clients.sqs, config.batchDeadLetterQueueUrl),
    memory,
    model,
    idleChecks: new SqsIdleCheckScheduler(clients.sqs, config.idleCheckQueueUrl),
    summaries: {
      summaries: summaryStore,
      rawLog: redactedRawLog,
      model,
      ladders: ladderConfig(config),
      cursor: { timeZone: config.timeZone, idleGapMs: config.interactionIdleMs },
      budget: config.summaryBudget,
    },
    snapshots,
    snapshot: { memory, summaries: summaryStore, ledger, snapshots, ladders: ladderConfig(config), index },
    injections: new DynamoDbInjectionLog(clients.dynamo, config.memoryTableName),
    embeddings,
    index,
    pageTokens: createPageTokens(config, config.region),
  };
}

/** The configured page-token key: a Secrets Manager secret (read when first needed), a literal, or this process's own. */
function createPageTokens(config: ServiceConfig, region: string): PageTokenSeal {
  const key = config.pageTokenKey;
  if (!key) return pageTokenSeal(processPageTokenKey());
  return pageTokenSeal('secretId' in key ? secretValue(key.secretId, new SecretsManagerClient({ region })) : key.key);
}

/** Every redaction is counted, by placeholder type; the text itself is never logged. */
function countRedactions(counts: Readonly<Record<string, number>>): void {
  let total = 0;
  for (const [type, count] of Object.entries(counts)) {
    metrics.addMetric(`Redacted_${type.replace(/[^A-Za-z0-9]+/g, '_')}`, MetricUnit.Count, count);
    total += count;
  }
  metrics.addMetric('Redactions', MetricUnit.Count, total);
}

export function ladderConfig(config: ServiceConfig): LadderConfig {
  return { ...DEFAULT_LADDERS, fanIns: { time: [...config.fanIns.time], count: [...config.fanIns.count] } };
}

let shared: ServiceRuntime | undefined;

/** The process-wide runtime, built from `process.env` on first use. */
export function serviceRuntime(): ServiceRuntime {
  shared ??= createServiceRuntime(loadConfig());
  return shared;
}

/**
 * Local runtime only (`local/lambda-functions.ts`): builds the process-wide
 * runtime with `build` before the handlers are imported, so the local stack
 * can hand them wrapped clients and model (fault injection, `npm run chaos`).
 * No Lambda entry point calls it; in AWS the runtime is always the one above.
 */
export function provideServiceRuntime(build: (config: ServiceConfig) => ServiceRuntime): ServiceRuntime {
  shared = build(loadConfig());
  return shared;
}
