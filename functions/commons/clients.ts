/**
 * AWS SDK clients, built once per process from validated configuration and
 * injected into adapters. Endpoints come from the standard `AWS_ENDPOINT_URL*`
 * variables, so an emulator is configuration, not a code branch.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceConfig } from './config.js';

export interface AwsClients {
  readonly dynamo: DynamoDBDocumentClient;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
}

export function createAwsClients(config: Pick<ServiceConfig, 'region' | 's3ForcePathStyle'>): AwsClients {
  const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.region }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const s3 = new S3Client({ region: config.region, forcePathStyle: config.s3ForcePathStyle });
  // The queue URL's own host must not override the configured endpoint (emulators).
  const sqs = new SQSClient({ region: config.region, useQueueUrlAsEndpoint: false });
  return { dynamo, s3, sqs };
}
