/** The synthesised template authenticates every route of the table and keeps keys as digests the authorizer can only read. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';
import { ROUTES, pathsOf } from '../../functions/commons/routes.js';

let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new MemoryServiceStack(app, 'UnderTest'));
});

function onlyId(type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('API key authorizer', () => {
  it('is a Lambda REQUEST authorizer with simple responses, keyed on the Authorization header and cached for five minutes', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 300,
      AuthorizerUri: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [onlyId('AWS::Lambda::Function', 'AuthorizerFunction'), 'Arn'] })])]) }),
    });
  });

  it('guards every route of the route table but the public API description, and there is no other route', () => {
    const authorizerId = onlyId('AWS::ApiGatewayV2::Authorizer', 'ApiHttpApiApiKeyAuthorizer');
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routes.map((route) => String(route.Properties.RouteKey).split(' ')[1]).sort()).toEqual([...pathsOf().keys()].sort());
    const publicPaths = new Set<string>(ROUTES.filter((route) => route.scope === 'public').map((route) => route.path));
    expect([...publicPaths]).toEqual(['/openapi.json']);
    for (const route of routes) {
      const path = String(route.Properties.RouteKey).split(' ')[1]!;
      if (publicPaths.has(path)) expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
      else expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
    }
  });

  it('may be invoked by API Gateway', () => {
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [onlyId('AWS::Lambda::Function', 'AuthorizerFunction'), 'Arn'] },
    });
  });

  it('can only read keys (GetItem on the keys table) and touches no tenant data', () => {
    const roleId = onlyId('AWS::IAM::Role', 'AuthorizerFunctionServiceRole');
    const keysTableId = onlyId('AWS::DynamoDB::Table', 'ApiKeys');
    const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) } }));
    const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const dataStatements = statements.filter((statement) => [statement.Action].flat().some((action) => /^(dynamodb|s3|sqs):/.test(action)));
    expect(dataStatements).toHaveLength(1);
    expect([dataStatements[0]!.Action].flat()).toEqual(['dynamodb:GetItem']);
    expect(JSON.stringify(dataStatements[0]!.Resource)).toContain(keysTableId);
  });

  it('names the keys table in its environment', () => {
    const keysTableId = onlyId('AWS::DynamoDB::Table', 'ApiKeys');
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ KEYS_TABLE_NAME: { Ref: keysTableId } }) },
    });
  });
});

describe('API keys table', () => {
  it('is keyed by the digest alone, on demand, encrypted, with point-in-time recovery, retained', () => {
    const id = onlyId('AWS::DynamoDB::Table', 'ApiKeys');
    const table = template.findResources('AWS::DynamoDB::Table')[id]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'keyHash', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('is readable by no function other than the authorizer', () => {
    const keysTableId = onlyId('AWS::DynamoDB::Table', 'ApiKeys');
    const authorizerRole = onlyId('AWS::IAM::Role', 'AuthorizerFunctionServiceRole');
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const granting = policies.filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(keysTableId));
    expect(granting.map((policy) => policy.Properties.Roles)).toEqual([[{ Ref: authorizerRole }]]);
  });

  it('is named in the stack outputs, for the keys command against a deployed stack', () => {
    template.hasOutput('ApiKeysTableName', { Value: { Ref: onlyId('AWS::DynamoDB::Table', 'ApiKeys') } });
  });
});

describe('erasure', () => {
  it('has a queue of its own, encrypted, with a dead-letter queue, consumed by the erase function', () => {
    const queueId = onlyId('AWS::SQS::Queue', 'ErasureQueue');
    const queue = template.findResources('AWS::SQS::Queue')[queueId]!;
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [onlyId('AWS::SQS::Queue', 'ErasureDeadLetterQueue'), 'Arn'] } } });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: onlyId('AWS::Lambda::Function', 'EraseFunction') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('may delete object versions under the raw and index prefixes only', () => {
    const roleId = onlyId('AWS::IAM::Role', 'EraseFunctionServiceRole');
    const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) } }));
    const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const deleting = statements.filter((statement) => [statement.Action].flat().includes('s3:DeleteObjectVersion'));
    expect(deleting).toHaveLength(1);
    const resources = JSON.stringify(deleting[0]!.Resource);
    expect(resources).toContain('/raw/*');
    expect(resources).toContain('/index/*');
  });
});

describe('the JWT mode (an identity provider instead of API keys)', () => {
  it('puts the HTTP API JWT authorizer with the issuer and audience on every guarded route, passes the claim names, and deploys no key authorizer', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const jwt = Template.fromStack(new MemoryServiceStack(app, 'WithJwt', { jwt: { issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', audience: ['client-1'], tenantClaim: 'custom:tenant' } }));
    jwt.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: { Issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', Audience: ['client-1'] },
      IdentitySource: ['$request.header.Authorization'],
    });
    const authorizerId = Object.keys(jwt.findResources('AWS::ApiGatewayV2::Authorizer'))[0]!;
    for (const route of Object.values(jwt.findResources('AWS::ApiGatewayV2::Route'))) {
      if (String(route.Properties.RouteKey).endsWith('/openapi.json')) continue;
      expect(route.Properties).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } });
    }
    expect(Object.keys(jwt.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('AuthorizerFunction'))).toBe(false);
    expect(Object.keys(jwt.findResources('AWS::DynamoDB::Table')).some((id) => id.startsWith('ApiKeys'))).toBe(false);
    jwt.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ JWT_TENANT_CLAIM: 'custom:tenant', JWT_SCOPES_CLAIM: 'scope' }) } });
  });
});
