/**
 * Reading memory (the hot path) and acting on it: the snapshot and budgeted
 * context, paginated stores and audit, feedback and reverts, and the export.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ServiceFunction } from '../constructs/service-function.js';
import type { ServiceData, ServicePermissions } from './service-data.js';

export interface ReadStage {
  readonly memoryReader: NodejsFunction;
  readonly reader: NodejsFunction;
  readonly feedback: NodejsFunction;
  readonly exporter: NodejsFunction;
}

export function addReadStage(stack: Stack, data: ServiceData, permissions: ServicePermissions): ReadStage {
  const { rawLog, agents, memory, summaries, environment } = data;
  // Page tokens given to clients carry an HMAC under this generated key (commons/page-tokens.ts), so
  // an altered or forged token is a 400. Only the functions that hand out tokens may read it.
  const pageTokenKey = new Secret(stack, 'PageTokenKey', {
    description: 'Signs the page tokens of the memory service API (not a credential to any data)',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  const pagingEnvironment = { ...environment, PAGE_TOKEN_KEY_SECRET_ID: pageTokenKey.secretArn };

  const memoryReader = new ServiceFunction(stack, 'MemoryReader', {
    entry: 'functions/handlers/memory-reader.ts',
    environment: pagingEnvironment,
    memorySize: 512,
    description: 'GET contacts, facts, tasks (paginated) and audit entries',
  }).function;
  memory.table.grant(memoryReader, 'dynamodb:GetItem', 'dynamodb:Query');
  pageTokenKey.grantRead(memoryReader);
  summaries.table.grant(memoryReader, 'dynamodb:Query');

  // The read path: one GetItem of the snapshot; context responses also write their injection-log entry, and a
  // question reads the agent's counters and its records not consolidated yet (cached by sequence).
  const reader = new ServiceFunction(stack, 'Reader', {
    entry: 'functions/handlers/reader.ts',
    environment,
    runtimeFiles: data.embeddingFiles,
    memorySize: 1024,
    description: 'GET snapshot (one lookup) and budgeted context',
  }).function;
  memory.table.grant(reader, 'dynamodb:GetItem', 'dynamodb:PutItem');
  permissions.allowEmbeddings(reader);
  reader.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [rawLog.bucket.arnForObjects('index/*')] }));
  // A question also reads the records not consolidated yet: the agent's counters, and those records.
  // A cited record by its id: the event's claim (a batch read with the counters), then its batch marker.
  agents.table.grant(reader, 'dynamodb:GetItem', 'dynamodb:BatchGetItem');
  reader.addToRolePolicy(permissions.readRawRecords());
  reader.addToRolePolicy(permissions.knowMissingObjects());

  // The note lifecycle's write side: feedback on items and batch reverts. Each is an audited,
  // version-checked transaction on the memory table (items, head, audit, view), then the
  // snapshot is reassembled (views and snapshot here, summaries and progress read elsewhere).
  const feedback = new ServiceFunction(stack, 'Feedback', {
    entry: 'functions/handlers/feedback.ts',
    environment,
    runtimeFiles: data.embeddingFiles,
    memorySize: 512,
    description: 'POST feedback (helpful, wrong, outdated) and POST audit/{batch}/revert',
  }).function;
  memory.table.grant(feedback, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem');
  summaries.table.grant(feedback, 'dynamodb:GetItem', 'dynamodb:Query');
  agents.table.grant(feedback, 'dynamodb:GetItem');
  // Reassembling the snapshot refreshes the index's items segment (read, embed, write).
  feedback.addToRolePolicy(permissions.maintainIndex());
  feedback.addToRolePolicy(permissions.knowMissingObjects());
  permissions.allowEmbeddings(feedback);

  // The export reads everything of an agent and writes nothing.
  const exporter = new ServiceFunction(stack, 'Export', {
    entry: 'functions/handlers/export.ts',
    environment: pagingEnvironment,
    memorySize: 1024,
    timeout: Duration.seconds(29),
    description: 'GET export: raw records, items with history, summaries and audit as NDJSON parts',
  }).function;
  agents.table.grant(exporter, 'dynamodb:GetItem', 'dynamodb:Query');
  memory.table.grant(exporter, 'dynamodb:GetItem', 'dynamodb:Query');
  summaries.table.grant(exporter, 'dynamodb:Query');
  exporter.addToRolePolicy(permissions.readRawRecords());
  exporter.addToRolePolicy(permissions.knowMissingObjects());
  pageTokenKey.grantRead(exporter);
  return { memoryReader, reader, feedback, exporter };
}
