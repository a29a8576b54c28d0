/**
 * Creates the stack's data resources (S3 buckets, DynamoDB tables, SQS queues,
 * generated Secrets Manager secrets)
 * on an emulator from the synthesised CloudFormation template, and resolves the
 * template's references (`Ref`, `Fn::GetAtt`, `Fn::Join`) to local names, so
 * functions receive the same environment they would in AWS.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutBucketEncryptionCommand, PutBucketVersioningCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateSecretCommand, DescribeSecretCommand, ResourceExistsException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import type { CfnResource, CfnTemplate } from './template.js';

export interface LocalResource {
  readonly logicalId: string;
  readonly type: string;
  /** What `Ref` resolves to: table or bucket name, queue URL. */
  readonly ref: string;
  readonly arn: string;
  readonly streamArn?: string;
}

export type ResourceMap = ReadonlyMap<string, LocalResource>;

export interface ProvisionClients {
  readonly dynamodb: DynamoDBClient;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  readonly secrets: SecretsManagerClient;
}

const REGION = 'us-east-1';
const ACCOUNT = '123456789012';

/**
 * Creates every bucket, table and queue in the template, named
 * `<prefix>-<logicalId>` (lower case for S3), and returns how references resolve.
 * Creating what already exists is not an error, so a restart reuses state.
 */
export async function provisionFromTemplate(
  template: CfnTemplate,
  clients: ProvisionClients,
  prefix: string,
): Promise<ResourceMap> {
  const resources = new Map<string, LocalResource>();
  const entries = Object.entries(template.Resources);

  for (const [logicalId, resource] of entries.filter(([, r]) => r.Type === 'AWS::S3::Bucket')) {
    resources.set(logicalId, await createBucket(clients.s3, logicalId, resource, prefix));
  }
  for (const [logicalId, resource] of entries.filter(([, r]) => r.Type === 'AWS::DynamoDB::Table')) {
    resources.set(logicalId, await createTable(clients.dynamodb, logicalId, resource, prefix));
  }
  // Queues referenced as dead-letter targets are created first.
  const queues = entries.filter(([, r]) => r.Type === 'AWS::SQS::Queue');
  const ordered = [
    ...queues.filter(([, r]) => !r.Properties?.RedrivePolicy),
    ...queues.filter(([, r]) => r.Properties?.RedrivePolicy),
  ];
  for (const [logicalId, resource] of ordered) {
    resources.set(logicalId, await createQueue(clients.sqs, logicalId, resource, prefix, resources));
  }
  for (const [logicalId, resource] of entries.filter(([, r]) => r.Type === 'AWS::SecretsManager::Secret')) {
    resources.set(logicalId, await createSecret(clients.secrets, logicalId, resource, prefix));
  }
  return resources;
}

async function createBucket(s3: S3Client, logicalId: string, resource: CfnResource, prefix: string): Promise<LocalResource> {
  const name = `${prefix}-${logicalId}`.toLowerCase().replace(/[^a-z0-9.-]/g, '-').slice(0, 63);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: name }));
  } catch (error) {
    if (!isAlreadyOwned(error)) throw error;
  }
  const props = resource.Properties ?? {};
  type CfnEncryptionRule = { ServerSideEncryptionByDefault: { SSEAlgorithm: string; KMSMasterKeyID?: string } };
  const encryption = props.BucketEncryption as { ServerSideEncryptionConfiguration: CfnEncryptionRule[] } | undefined;
  if (encryption) {
    // CloudFormation says ServerSideEncryptionByDefault where the S3 API says ApplyServerSideEncryptionByDefault.
    const rules = encryption.ServerSideEncryptionConfiguration.map((rule) => ({
      ApplyServerSideEncryptionByDefault: rule.ServerSideEncryptionByDefault as never,
    }));
    await s3.send(new PutBucketEncryptionCommand({ Bucket: name, ServerSideEncryptionConfiguration: { Rules: rules } }));
  }
  const publicAccess = props.PublicAccessBlockConfiguration as Record<string, boolean> | undefined;
  if (publicAccess) {
    await s3.send(new PutPublicAccessBlockCommand({ Bucket: name, PublicAccessBlockConfiguration: publicAccess }));
  }
  const versioning = props.VersioningConfiguration as { Status: 'Enabled' | 'Suspended' } | undefined;
  if (versioning) {
    await s3.send(new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: versioning.Status } }));
  }
  return { logicalId, type: resource.Type, ref: name, arn: `arn:aws:s3:::${name}` };
}

function isAlreadyOwned(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists';
}

async function createTable(
  dynamodb: DynamoDBClient,
  logicalId: string,
  resource: CfnResource,
  prefix: string,
): Promise<LocalResource> {
  const name = `${prefix}-${logicalId}`;
  const props = resource.Properties ?? {};
  const input: CreateTableCommandInput = {
    TableName: name,
    KeySchema: props.KeySchema as CreateTableCommandInput['KeySchema'],
    AttributeDefinitions: props.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
    BillingMode: (props.BillingMode as CreateTableCommandInput['BillingMode']) ?? 'PAY_PER_REQUEST',
    ...(props.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: props.GlobalSecondaryIndexes as never } : {}),
    ...(props.StreamSpecification
      ? {
          StreamSpecification: {
            StreamEnabled: true,
            StreamViewType: (props.StreamSpecification as { StreamViewType: never }).StreamViewType,
          },
        }
      : {}),
  };
  try {
    await dynamodb.send(new CreateTableCommand(input));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const description = await dynamodb.send(new DescribeTableCommand({ TableName: name }));
  return {
    logicalId,
    type: resource.Type,
    ref: name,
    arn: description.Table?.TableArn ?? `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`,
    ...(description.Table?.LatestStreamArn ? { streamArn: description.Table.LatestStreamArn } : {}),
  };
}

async function createQueue(
  sqs: SQSClient,
  logicalId: string,
  resource: CfnResource,
  prefix: string,
  known: ReadonlyMap<string, LocalResource>,
): Promise<LocalResource> {
  const props = resource.Properties ?? {};
  const fifo = props.FifoQueue === true;
  const name = `${prefix}-${logicalId}`.slice(0, fifo ? 75 : 80) + (fifo ? '.fifo' : '');
  const attributes: Record<string, string> = {};
  if (fifo) attributes.FifoQueue = 'true';
  if (props.ContentBasedDeduplication !== undefined) attributes.ContentBasedDeduplication = String(props.ContentBasedDeduplication);
  for (const key of ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'ReceiveMessageWaitTimeSeconds'] as const) {
    if (props[key] !== undefined) attributes[key] = String(props[key]);
  }
  const redrive = props.RedrivePolicy as { deadLetterTargetArn: unknown; maxReceiveCount: number } | undefined;
  if (redrive) {
    attributes.RedrivePolicy = JSON.stringify({
      deadLetterTargetArn: resolveValue(redrive.deadLetterTargetArn, known),
      maxReceiveCount: redrive.maxReceiveCount,
    });
  }
  const created = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const url = created.QueueUrl!;
  const described = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return { logicalId, type: resource.Type, ref: url, arn: described.Attributes?.QueueArn ?? `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}` };
}

/**
 * A secret the stack generates (GenerateSecretString) gets a random value once;
 * a restart keeps it, as a deployed secret keeps its value across deploys.
 */
async function createSecret(secrets: SecretsManagerClient, logicalId: string, resource: CfnResource, prefix: string): Promise<LocalResource> {
  const name = `${prefix}-${logicalId}`;
  if (!resource.Properties?.GenerateSecretString) throw new Error(`secret ${logicalId}: only generated secrets are provisioned locally`);
  try {
    const created = await secrets.send(new CreateSecretCommand({ Name: name, SecretString: randomBytes(48).toString('base64url') }));
    return { logicalId, type: resource.Type, ref: created.ARN!, arn: created.ARN! };
  } catch (error) {
    if (!(error instanceof ResourceExistsException)) throw error;
    const described = await secrets.send(new DescribeSecretCommand({ SecretId: name }));
    return { logicalId, type: resource.Type, ref: described.ARN!, arn: described.ARN! };
  }
}

/** Resolves the intrinsic functions the stack's properties use. */
export function resolveValue(value: unknown, resources: ReadonlyMap<string, LocalResource>): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') {
    const intrinsic = value as Record<string, unknown>;
    if ('Ref' in intrinsic) return lookup(String(intrinsic.Ref), resources).ref;
    if ('Fn::GetAtt' in intrinsic) {
      const [logicalId, attribute] = intrinsic['Fn::GetAtt'] as [string, string];
      const resource = lookup(logicalId, resources);
      if (attribute === 'Arn') return resource.arn;
      if (attribute === 'StreamArn' && resource.streamArn) return resource.streamArn;
      if (attribute === 'QueueUrl') return resource.ref;
      if (attribute === 'QueueName' || attribute === 'TableName') return resource.ref.split('/').pop()!;
      throw new Error(`cannot resolve Fn::GetAtt ${logicalId}.${attribute} locally`);
    }
    if ('Fn::Join' in intrinsic) {
      const [separator, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
      return parts.map((part) => resolveValue(part, resources)).join(separator);
    }
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)} locally`);
}

function lookup(logicalId: string, resources: ReadonlyMap<string, LocalResource>): LocalResource {
  const resource = resources.get(logicalId);
  if (!resource) throw new Error(`template references ${logicalId}, which the local stack does not provision`);
  return resource;
}
