/** Lambda entry: agent erasure (DELETE /v1/agents/{agentId}, and the erasure queue). */
import { createEraseHandler } from './http/erase-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { S3AgentPrefixEraser } from '../adapters/s3/raw-log-eraser.js';
import { DynamoDbErasureLog, DynamoDbPartitionEraser } from '../adapters/dynamodb/partition-eraser.js';
import { SqsErasureQueue } from '../adapters/sqs/erasure-queue.js';

const { config, clients } = awsRuntime();
if (!config.erasureQueueUrl) throw new Error('invalid configuration: erasure needs ERASURE_QUEUE_URL');

export const handler = createEraseHandler({
  queue: new SqsErasureQueue(clients.sqs, config.erasureQueueUrl),
  // The raw log first: once it is gone nothing can be derived again.
  erasers: [
    new S3AgentPrefixEraser(clients.s3, config.rawBucketName),
    new DynamoDbPartitionEraser(clients.dynamo, config.memoryTableName, 'memory'),
    new DynamoDbPartitionEraser(clients.dynamo, config.summariesTableName, 'summaries'),
    // The ledger last: until it goes, the agent's status still answers.
    new DynamoDbPartitionEraser(clients.dynamo, config.agentsTableName, 'ledger'),
  ],
  log: new DynamoDbErasureLog(clients.dynamo, config.agentsTableName),
});
