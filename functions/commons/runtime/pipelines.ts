/**
 * The dependencies the offline pipeline's use cases share: the retrieval
 * index, the summary ladders and snapshot assembly, composed from the parts
 * an entry file already built.
 */
import { DynamoDbIndexManifests } from '../../adapters/dynamodb/index-manifest.js';
import { S3IndexSegments } from '../../adapters/s3/index-segments.js';
import { DEFAULT_LADDERS, type LadderConfig } from '../../domain/ladders.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';
import type { ModelPort } from '../../ports/model.js';
import type { RawLog } from '../../ports/pipeline.js';
import type { SnapshotDependencies } from '../../use-cases/assemble-snapshot.js';
import type { IndexDependencies } from '../../use-cases/index-memory.js';
import type { SummaryDependencies } from '../../use-cases/summaries.js';
import type { ServiceConfig } from '../config.js';
import type { AwsRuntime } from './aws.js';
import { agentLedger, memoryStore, snapshotStore, summaryStore } from './stores.js';

export function ladderConfig(config: ServiceConfig): LadderConfig {
  return { ...DEFAULT_LADDERS, fanIns: { time: [...config.fanIns.time], count: [...config.fanIns.count] } };
}

/** The retrieval index, maintained offline; the records it reads itself (a gap left by a failure) are redacted like every derived text. */
export function indexDependencies(runtime: AwsRuntime, embeddings: EmbeddingPort, redactedRawLog: RawLog): IndexDependencies {
  const { config, clients } = runtime;
  return {
    manifests: new DynamoDbIndexManifests(clients.dynamo, config.memoryTableName),
    segments: new S3IndexSegments(clients.s3, config.rawBucketName),
    embeddings,
    rawLog: redactedRawLog,
  };
}

export function summaryDependencies(runtime: AwsRuntime, model: ModelPort, redactedRawLog: RawLog): SummaryDependencies {
  const { config } = runtime;
  return {
    summaries: summaryStore(runtime),
    rawLog: redactedRawLog,
    model,
    ladders: ladderConfig(config),
    cursor: { timeZone: config.timeZone, idleGapMs: config.interactionIdleMs, ladderCheckAfterMs: config.ladderCheckAfterMs },
    budget: config.summaryBudget,
  };
}

export function snapshotDependencies(runtime: AwsRuntime, index: IndexDependencies): SnapshotDependencies {
  return { memory: memoryStore(runtime), summaries: summaryStore(runtime), ledger: agentLedger(runtime), snapshots: snapshotStore(runtime), ladders: ladderConfig(runtime.config), index };
}
