/**
 * The storage adapters (DynamoDB, S3, SQS) over the process's clients: cheap
 * to construct, so each entry file builds the ones it uses.
 */
import { DynamoDbAgentLedger } from '../../adapters/dynamodb/agent-ledger.js';
import { DynamoDbInjectionLog } from '../../adapters/dynamodb/injection-log.js';
import { DynamoDbMemoryStore } from '../../adapters/dynamodb/memory-store.js';
import { DynamoDbSnapshotStore } from '../../adapters/dynamodb/snapshot-store.js';
import { DynamoDbSummaryStore } from '../../adapters/dynamodb/summary-store.js';
import { S3RawLog } from '../../adapters/s3/raw-log.js';
import { SqsBatchQueue } from '../../adapters/sqs/batch-queue.js';
import { SqsDeadLetterQueue } from '../../adapters/sqs/dead-letter-queue.js';
import { SqsIdleCheckScheduler } from '../../adapters/sqs/idle-check-scheduler.js';
import type { AwsRuntime } from './aws.js';

export const agentLedger = ({ config, clients }: AwsRuntime) => new DynamoDbAgentLedger(clients.dynamo, config.agentsTableName);
/** The raw log as stored (ingest writes it; see redaction.ts for the redacted view every derived output reads). */
export const storedRawLog = ({ config, clients }: AwsRuntime) => new S3RawLog(clients.s3, config.rawBucketName);
export const memoryStore = ({ config, clients }: AwsRuntime) => new DynamoDbMemoryStore(clients.dynamo, config.memoryTableName);
export const summaryStore = ({ config, clients }: AwsRuntime) => new DynamoDbSummaryStore(clients.dynamo, config.summariesTableName);
export const snapshotStore = ({ config, clients }: AwsRuntime) => new DynamoDbSnapshotStore(clients.dynamo, config.memoryTableName);
export const injectionLog = ({ config, clients }: AwsRuntime) => new DynamoDbInjectionLog(clients.dynamo, config.memoryTableName);
export const batchQueue = ({ config, clients }: AwsRuntime) => new SqsBatchQueue(clients.sqs, config.batchQueueUrl);
export const deadLetterQueue = ({ config, clients }: AwsRuntime) => new SqsDeadLetterQueue(clients.sqs, config.batchDeadLetterQueueUrl);
export const idleCheckScheduler = ({ config, clients }: AwsRuntime) => new SqsIdleCheckScheduler(clients.sqs, config.idleCheckQueueUrl);
