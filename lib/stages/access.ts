/**
 * Who may call the API, and the right to be forgotten: the API key
 * authorizer (or the HTTP API's JWT authorizer), and the erasure queue and
 * its function.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import type { IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer, HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { ApiKeysTable } from '../constructs/api-keys-table.js';
import { ServiceFunction } from '../constructs/service-function.js';
import type { MemoryServiceStackProps } from '../memory-service-stack.js';
import type { ServiceData } from './service-data.js';

export interface AuthorizationStage {
  readonly authorizer: IHttpRouteAuthorizer;
  readonly authorizerFunction?: NodejsFunction;
  readonly keys?: ApiKeysTable;
}

/**
 * Keys by SHA-256 digest; the authorizer only reads them (the keys command writes with operator credentials).
 * With `jwt`, the HTTP API's JWT authorizer verifies tokens instead, and neither is deployed.
 */
export function addAuthorization(stack: Stack, data: ServiceData, props: Pick<MemoryServiceStackProps, 'jwt' | 'authorizerCacheTtl' | 'pointInTimeRecoveryDays'>): AuthorizationStage {
  if (props.jwt) {
    return { authorizer: new HttpJwtAuthorizer('JwtAuthorizer', props.jwt.issuer, { jwtAudience: [...props.jwt.audience], identitySource: ['$request.header.Authorization'] }) };
  }
  const keys = new ApiKeysTable(stack, 'ApiKeys', { recoveryPeriodInDays: props.pointInTimeRecoveryDays ?? 35 });
  const authorizerFunction = new ServiceFunction(stack, 'Authorizer', {
    entry: 'functions/handlers/authorizer.ts',
    environment: { ...data.environment, KEYS_TABLE_NAME: keys.table.tableName },
    memorySize: 512,
    timeout: Duration.seconds(10),
    description: 'API key authorizer: SHA-256 digest lookup; tenant, scopes and agents in the context',
  }).function;
  keys.table.grant(authorizerFunction, 'dynamodb:GetItem');
  const authorizer = new HttpLambdaAuthorizer('ApiKeyAuthorizer', authorizerFunction, {
    responseTypes: [HttpLambdaResponseType.SIMPLE],
    identitySource: ['$request.header.Authorization'],
    resultsCacheTtl: props.authorizerCacheTtl ?? Duration.minutes(5),
  });
  return { authorizer, authorizerFunction, keys };
}

export interface ErasureStage {
  readonly erase: NodejsFunction;
  readonly erasureQueue: IQueue;
  readonly erasureDeadLetters: IQueue;
}

/** Erasure: a queue of its own, consumed by the function that accepts the request. */
export function addErasure(stack: Stack, data: ServiceData): ErasureStage {
  const { rawLog, agents, memory, summaries, environment } = data;
  const erasureDeadLetters = new Queue(stack, 'ErasureDeadLetterQueue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
  const erasureQueue = new Queue(stack, 'ErasureQueue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    visibilityTimeout: Duration.minutes(30),
    deadLetterQueue: { queue: erasureDeadLetters, maxReceiveCount: 10 },
  });
  const erase = new ServiceFunction(stack, 'Erase', {
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
  return { erase, erasureQueue, erasureDeadLetters };
}
