/** The synthesised template has every property the architecture relies on. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';

let template: Template;

beforeAll(() => {
  // Bundling is exercised by the offline synth test; here it would only slow the assertions down.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new MemoryServiceStack(app, 'UnderTest'));
});

function logicalIdOf(type: string, idPrefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(idPrefix));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

function actionsOfRole(functionIdPrefix: string): string[] {
  const roleId = logicalIdOf('AWS::IAM::Role', `${functionIdPrefix}FunctionServiceRole`);
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies)
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
    .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]))
    .sort();
}

/** The statements of a function's role policies. */
function policyOf(functionIdPrefix: string): unknown[] {
  const roleId = logicalIdOf('AWS::IAM::Role', `${functionIdPrefix}FunctionServiceRole`);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement as unknown[]);
}

describe('stateful resources', () => {
  it('keep their logical ids, so an update never replaces a table, bucket, queue or key (and loses what it holds)', () => {
    const stateful = ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::SecretsManager::Secret'].flatMap((type) => Object.keys(template.findResources(type)));
    expect(stateful.sort()).toEqual([
      'AgentsTable41446A70', 'ApiKeysTable10D26ED3', 'ConsolidationDeadLetterQueueFB3DBE63', 'ConsolidationQueueE8FB3542',
      'ErasureDeadLetterQueueFFEF4100', 'ErasureQueue3725DE58', 'IdleChecksDeadLetterQueue721B3BCB', 'IdleChecksQueue0D6A2A5B',
      'LadderDeadLetterQueue260F7E80', 'MemoryTable2F605A68', 'PageTokenKey1B0334FC', 'RawLogBucket7EFD113D', 'SummariesTableF7306E00',
      'SweepDeadLetterQueue556D11DC', 'SweepQueue1C82B4CB',
    ].sort());
  });
});

describe('functions', () => {
  it('run on Node.js 22 on arm64 with active tracing', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(13);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
    }
  });
});

describe('raw log bucket', () => {
  it('is encrypted, versioned and blocks all public access', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
    });
  });

  it('refuses requests that are not over TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('is retained when the stack is deleted', () => {
    template.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
  });
});

describe('agents, memory and summaries tables', () => {
  it('are all on demand with point-in-time recovery and a pk/sk key', () => {
    // The API keys table has its own shape (see test/infra/auth.test.ts).
    const tables = Object.entries(template.findResources('AWS::DynamoDB::Table')).filter(([id]) => !id.startsWith('ApiKeys'));
    expect(tables).toHaveLength(3);
    for (const [, table] of tables) {
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      });
    }
  });
});

describe('summary ladders', () => {
  it('announce every summary on the summaries table stream (new images) and index agents due for a sweep', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'sweep',
          KeySchema: [
            { AttributeName: 'sweepShard', KeyType: 'HASH' },
            { AttributeName: 'sweepAt', KeyType: 'RANGE' },
          ],
        }),
      ],
    });
  });

  it('feed the ladder function only inserted summaries, bisecting on error with bounded retries and age, failures to a queue', () => {
    const ladderId = logicalIdOf('AWS::Lambda::Function', 'LadderFunction');
    const dlqId = logicalIdOf('AWS::SQS::Queue', 'LadderDeadLetterQueue');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: ladderId },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      MaximumRecordAgeInSeconds: 43_200,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'SUM#' }] } } } }) }] },
    });
  });

  it('sweep quiet agents on a schedule', () => {
    const sweepId = logicalIdOf('AWS::Lambda::Function', 'SweepFunction');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweepId, 'Arn'] } })],
    });
  });

  it('let the ladder function read and write summaries and index segments, and never the raw log', () => {
    const actions = actionsOfRole('Ladder');
    // ListBucket on the bucket only, so a segment merged away reads as missing (404), not forbidden (403).
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    expect(JSON.stringify(policyOf('Ladder'))).not.toContain('raw/*');
    const streamReading = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
    // Summaries (slots, parents), and for snapshot reassembly: views and snapshot, progress.
    expect(actions.filter((a) => a.startsWith('dynamodb:') && !streamReading.includes(a))).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
  });
});

describe('consolidation queue', () => {
  it('is FIFO with explicit deduplication ids and redrives to a FIFO dead-letter queue after 5 receives', () => {
    const dlqId = logicalIdOf('AWS::SQS::Queue', 'ConsolidationDeadLetterQueue');
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      ContentBasedDeduplication: false,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(template.toJSON().Resources[dlqId].Properties).toMatchObject({ FifoQueue: true });
  });

  it('has a standard idle-check queue (per-message delays) with a dead-letter queue, consumed with partial failures', () => {
    const queueId = logicalIdOf('AWS::SQS::Queue', 'IdleChecksQueue');
    const idleFlushId = logicalIdOf('AWS::Lambda::Function', 'IdleFlushFunction');
    const queue = template.toJSON().Resources[queueId].Properties;
    expect(queue.FifoQueue).toBeUndefined();
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(5);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: idleFlushId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('hides a received job for at least six times the consolidator timeout', () => {
    const queueId = logicalIdOf('AWS::SQS::Queue', 'ConsolidationQueue');
    const consolidatorId = logicalIdOf('AWS::Lambda::Function', 'ConsolidatorFunction');
    const resources = template.toJSON().Resources;
    expect(resources[queueId].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * resources[consolidatorId].Properties.Timeout);
  });

  it('feeds the consolidator one job per invocation, bounded by the mapping’s maximum concurrency, not reserved concurrency', () => {
    const consolidatorId = logicalIdOf('AWS::Lambda::Function', 'ConsolidatorFunction');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consolidatorId },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('plans a job’s model calls and waits inside the consolidator’s timeout, with the queue hiding a job for six timeouts', () => {
    const consolidator = template.toJSON().Resources[logicalIdOf('AWS::Lambda::Function', 'ConsolidatorFunction')].Properties;
    const queue = template.toJSON().Resources[logicalIdOf('AWS::SQS::Queue', 'ConsolidationQueue')].Properties;
    expect(queue.VisibilityTimeout).toBe(consolidator.Timeout * 6);
    expect(Number(consolidator.Environment.Variables.HOLE_MAX_WAIT_SECONDS)).toBeLessThanOrEqual(consolidator.Timeout / 3);
  });
});

describe('sweep', () => {
  it('hands due agents to a queue on a schedule, swept one per invocation by at most two workers, with a dead-letter queue', () => {
    const sweepId = logicalIdOf('AWS::Lambda::Function', 'SweepFunction');
    const queueId = logicalIdOf('AWS::SQS::Queue', 'SweepQueue');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: sweepId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    const sweep = template.toJSON().Resources[sweepId].Properties;
    expect(sweep.Environment.Variables.SWEEP_QUEUE_URL).toEqual({ Ref: queueId });
    expect(sweep.Environment.Variables.SWEEP_LEASE_SECONDS).toBe('900');
    expect(template.toJSON().Resources[queueId].Properties.VisibilityTimeout).toBe(sweep.Timeout * 6);
  });

  it('feeds the ladder ten announcements at a time, inside a five-minute timeout', () => {
    const ladderId = logicalIdOf('AWS::Lambda::Function', 'LadderFunction');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: ladderId }, BatchSize: 10, BisectBatchOnFunctionError: true });
    expect(template.toJSON().Resources[ladderId].Properties.Timeout).toBe(300);
  });
});

describe('HTTP API', () => {
  it.each([
    ['ANY /v1/agents/{agentId}/events', 'IngestFunction'],
    ['ANY /v1/agents/{agentId}/status', 'StatusFunction'],
    ['ANY /v1/agents/{agentId}/flush', 'FlushFunction'],
    ['ANY /v1/agents/{agentId}/contacts', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/facts', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/tasks', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/audit', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/summaries', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/sweep', 'SweepFunction'],
    ['ANY /v1/agents/{agentId}/summaries/rebuild', 'SweepFunction'],
    ['ANY /v1/agents/{agentId}/snapshot', 'ReaderFunction'],
    ['ANY /v1/agents/{agentId}/context', 'ReaderFunction'],
    ['ANY /v1/agents/{agentId}/injections/{requestId}', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/items/{itemId}/history', 'MemoryReaderFunction'],
    ['ANY /v1/agents/{agentId}/feedback', 'FeedbackFunction'],
    ['ANY /v1/agents/{agentId}/audit/{batch}/revert', 'FeedbackFunction'],
    ['ANY /v1/agents/{agentId}/export', 'ExportFunction'],
  ])('routes %s to the %s', (routeKey, functionPrefix) => {
    const functionId = logicalIdOf('AWS::Lambda::Function', functionPrefix);
    const routes = template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } });
    const [route] = Object.values(routes);
    const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref;
    expect(template.toJSON().Resources[integrationId].Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [functionId, 'Arn'] },
    });
  });

  it('throttles the default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 500 },
    });
  });
});

describe('least privilege', () => {
  it('lets the ingest function write (and read back) raw records, counters and claims, and send jobs, and nothing else', () => {
    expect(actionsOfRole('Ingest')).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      's3:GetObject',
      's3:PutObject',
      'sqs:SendMessage',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  it.each(['Flush', 'IdleFlush'])('lets the %s function close batches and send jobs, and nothing else', (prefix) => {
    const actions = actionsOfRole(prefix).filter((action) => !action.startsWith('sqs:') || action === 'sqs:SendMessage');
    expect(actions).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'sqs:SendMessage',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  it('scopes the ingest function’s S3 reads and writes to the raw prefix', () => {
    const roleId = logicalIdOf('AWS::IAM::Role', 'IngestFunctionServiceRole');
    const bucketId = logicalIdOf('AWS::S3::Bucket', 'RawLog');
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Action: ['s3:GetObject', 's3:PutObject'],
            Effect: 'Allow',
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/raw/*']] },
          },
        ]),
      },
    });
  });

  it('lets the consolidator read raw records and write the stores, with no delete, scan or model access by default', () => {
    expect(actionsOfRole('Consolidator')).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'dynamodb:UpdateItem',
      's3:DeleteObject',
      's3:GetObject',
      's3:GetObject',
      // On the bucket only: a hole's missing record reads as missing (404), not forbidden (403).
      's3:ListBucket',
      's3:PutObject',
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
      // Only on its dead-letter queue: malformed jobs are parked there at once.
      'sqs:SendMessage',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  it('lets the consolidator send only to its dead-letter queue', () => {
    const roleId = logicalIdOf('AWS::IAM::Role', 'ConsolidatorFunctionServiceRole');
    const dlqId = logicalIdOf('AWS::SQS::Queue', 'ConsolidationDeadLetterQueue');
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: { Statement: Match.arrayWith([{ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: { 'Fn::GetAtt': [dlqId, 'Arn'] } }]) },
    });
  });

  it('lets the consolidator invoke Bedrock models only when Bedrock is the model provider', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const bedrock = Template.fromStack(new MemoryServiceStack(app, 'WithBedrock', { modelProvider: 'bedrock' }));
    bedrock.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'bedrock:InvokeModel', Effect: 'Allow' })]) },
    });
    bedrock.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ MODEL_PROVIDER: 'bedrock' }) },
    });
    expect(JSON.stringify(template.toJSON())).not.toContain('bedrock:InvokeModel');
  });

  it('reads the OpenAI-compatible key from Secrets Manager, only in the functions that call the model, never from the environment', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const openai = Template.fromStack(new MemoryServiceStack(app, 'WithOpenAi', { modelProvider: 'openai', modelId: 'llama3.1', openAiBaseUrl: 'https://llm.example.com/v1', openAiApiKeySecretName: 'agent-memory/openai' }));
    const roleOf = (prefix: string) => Object.keys(openai.findResources('AWS::IAM::Role')).find((id) => id.startsWith(`${prefix}FunctionServiceRole`))!;
    const secretReaders = Object.values(openai.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'))
      .flatMap((policy) => (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref));
    expect(secretReaders).toContain(roleOf('Consolidator'));
    for (const prefix of ['Ingest', 'Reader', 'Authorizer', 'Status']) expect(secretReaders).not.toContain(roleOf(prefix));
    expect(JSON.stringify(openai.toJSON())).toContain('secret:agent-memory/openai-??????');
    const environments = Object.values(openai.findResources('AWS::Lambda::Function')).map((fn) => (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>);
    expect(environments.some((variables) => variables.OPENAI_API_KEY_SECRET_ID === 'agent-memory/openai')).toBe(true);
    expect(environments.every((variables) => !('OPENAI_API_KEY' in variables))).toBe(true);
  });

  it('lets the memory reader only get and query the memory and summaries tables, and read the page-token key', () => {
    expect(actionsOfRole('MemoryReader')).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query', 'secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  it('signs page tokens with a generated key that only the functions handing out tokens may read', () => {
    const secrets = template.findResources('AWS::SecretsManager::Secret');
    const [keyId] = Object.keys(secrets).filter((id) => id.startsWith('PageTokenKey'));
    expect(secrets[keyId!]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    const withKey = functions.filter(([, fn]) => JSON.stringify(fn.Properties.Environment?.Variables?.PAGE_TOKEN_KEY_SECRET_ID ?? null).includes(keyId!)).map(([id]) => id.replace(/Function[0-9A-F]+$/, ''));
    expect(withKey.sort()).toEqual(['Export', 'MemoryReader']);
    const readers = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(keyId!))
      .flatMap((policy) => (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref.replace(/FunctionServiceRole[0-9A-F]+$/, '')));
    expect(readers.sort()).toEqual(['Export', 'MemoryReader']);
  });

  it('lets the read function get the snapshot, read index segments, the records not consolidated yet and cited records, and record injections, and nothing else', () => {
    expect(actionsOfRole('Reader')).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      's3:GetObject',
      's3:GetObject',
      's3:ListBucket',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    const policy = JSON.stringify(policyOf('Reader'));
    expect(policy).toContain('index/*');
    expect(policy).toContain('raw/*');
    // Reads only: nothing in the raw log or the agents table is written by the read path.
    expect(policy).not.toMatch(/s3:PutObject|s3:DeleteObject|dynamodb:UpdateItem|dynamodb:DeleteItem/);
  });

  it('lets the feedback function change memory items by version-checked transactions and reassemble the snapshot (with the index items segment), and nothing else', () => {
    expect(actionsOfRole('Feedback')).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      's3:DeleteObject',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    expect(JSON.stringify(policyOf('Feedback'))).toContain('index/*');
    expect(JSON.stringify(policyOf('Feedback'))).not.toContain('raw/*');
  });

  it('lets the export function only read: the agents, memory and summaries tables, and raw records', () => {
    expect(actionsOfRole('Export')).toEqual(['dynamodb:GetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query', 'dynamodb:Query', 's3:GetObject', 's3:ListBucket', 'secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    const reads = (policyOf('Export') as { Action: string | string[] }[]).filter((statement) => JSON.stringify(statement.Action).includes('s3:GetObject'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0])).toContain('/raw/*');
  });

  it('lets only the erasure and the sweep delete memory items: the sweep for retention, one item at a time in a transaction', () => {
    const deleting = (policyOf('Sweep') as { Action: string | string[]; Resource: unknown }[]).filter((statement) => [statement.Action].flat().includes('dynamodb:DeleteItem'));
    expect(deleting).toHaveLength(1);
    expect(JSON.stringify(deleting[0]!.Resource)).toContain(logicalIdOf('AWS::DynamoDB::Table', 'MemoryTable'));
    for (const prefix of ['Consolidator', 'Ladder', 'Reader', 'MemoryReader', 'Feedback', 'Export', 'Ingest']) expect(actionsOfRole(prefix), prefix).not.toContain('dynamodb:DeleteItem');
  });

  it('lets the status function only read', () => {
    expect(actionsOfRole('Status')).toEqual(['dynamodb:GetItem', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });
});
