/**
 * Cold-start wiring shared by the Lambda entry points: validated config, AWS
 * clients and adapters, built once per process.
 */
import { loadConfig, type ServiceConfig } from './config.js';
import { createAwsClients, type AwsClients } from './clients.js';
import { DynamoDbAgentLedger } from '../adapters/dynamodb-agent-ledger.js';
import { S3RawLog } from '../adapters/s3-raw-log.js';
import { SqsBatchQueue } from '../adapters/sqs-batch-queue.js';

export interface ServiceRuntime {
  readonly config: ServiceConfig;
  readonly clients: AwsClients;
  readonly ledger: DynamoDbAgentLedger;
  readonly rawLog: S3RawLog;
  readonly queue: SqsBatchQueue;
}

export function createServiceRuntime(config: ServiceConfig, clients: AwsClients = createAwsClients(config)): ServiceRuntime {
  return {
    config,
    clients,
    ledger: new DynamoDbAgentLedger(clients.dynamo, config.agentsTableName),
    rawLog: new S3RawLog(clients.s3, config.rawBucketName),
    queue: new SqsBatchQueue(clients.sqs, config.batchQueueUrl),
  };
}

let shared: ServiceRuntime | undefined;

/** The process-wide runtime, built from `process.env` on first use. */
export function serviceRuntime(): ServiceRuntime {
  shared ??= createServiceRuntime(loadConfig());
  return shared;
}
