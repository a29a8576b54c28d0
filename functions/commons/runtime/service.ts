/**
 * The whole service wired in one object, for the scripts, benchmarks and
 * tests that drive use cases directly. Lambda entry files do not use it:
 * each composes only the parts it calls (see aws.ts).
 */
import type { ServiceConfig } from '../config.js';
import { createAwsClients, type AwsClients } from '../clients.js';
import type { DynamoDbAgentLedger } from '../../adapters/dynamodb/agent-ledger.js';
import type { DynamoDbInjectionLog } from '../../adapters/dynamodb/injection-log.js';
import type { DynamoDbMemoryStore } from '../../adapters/dynamodb/memory-store.js';
import type { DynamoDbSnapshotStore } from '../../adapters/dynamodb/snapshot-store.js';
import type { SqsBatchQueue } from '../../adapters/sqs/batch-queue.js';
import type { SqsDeadLetterQueue } from '../../adapters/sqs/dead-letter-queue.js';
import type { SqsIdleCheckScheduler } from '../../adapters/sqs/idle-check-scheduler.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';
import type { ModelPort } from '../../ports/model.js';
import type { RawLog } from '../../ports/pipeline.js';
import type { SnapshotDependencies } from '../../use-cases/assemble-snapshot.js';
import type { IndexDependencies } from '../../use-cases/index-memory.js';
import type { Redactor } from '../../use-cases/redaction.js';
import type { SummaryDependencies } from '../../use-cases/summaries.js';
import type { PageTokenSeal } from '../page-tokens.js';
import type { AwsRuntime } from './aws.js';
import { createEmbeddingPort } from './embeddings.js';
import { createModel } from './model.js';
import { createPageTokens } from './page-tokens.js';
import { indexDependencies, snapshotDependencies, summaryDependencies } from './pipelines.js';
import { redaction } from './redaction.js';
import { agentLedger, batchQueue, deadLetterQueue, idleCheckScheduler, injectionLog, memoryStore, snapshotStore } from './stores.js';

export interface ServiceRuntime extends AwsRuntime {
  readonly ledger: DynamoDbAgentLedger;
  /** The raw log as ingest writes it (redacting on write when REDACT_RAW_LOG=true). */
  readonly rawLog: RawLog;
  /** The raw log as deriving functions read it: every record redacted. */
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
  readonly index: IndexDependencies;
  readonly pageTokens: PageTokenSeal;
}

export async function createServiceRuntime(config: ServiceConfig, clients: AwsClients = createAwsClients(config), model?: ModelPort): Promise<ServiceRuntime> {
  const runtime: AwsRuntime = { config, clients };
  const { redactor, redactedRawLog, ingestRawLog } = redaction(runtime);
  const embeddings = await createEmbeddingPort(config);
  const index = indexDependencies(runtime, embeddings, redactedRawLog);
  const resolvedModel = model ?? (await createModel(config));
  return {
    config,
    clients,
    ledger: agentLedger(runtime),
    rawLog: ingestRawLog,
    redactedRawLog,
    redactor,
    queue: batchQueue(runtime),
    deadLetters: deadLetterQueue(runtime),
    memory: memoryStore(runtime),
    model: resolvedModel,
    idleChecks: idleCheckScheduler(runtime),
    summaries: summaryDependencies(runtime, resolvedModel, redactedRawLog),
    snapshots: snapshotStore(runtime),
    snapshot: snapshotDependencies(runtime, index),
    injections: injectionLog(runtime),
    embeddings,
    index,
    pageTokens: createPageTokens(config),
  };
}
