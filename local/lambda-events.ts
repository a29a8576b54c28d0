/**
 * Event and context factories shared by the local runtime, the tests and the
 * benchmarks: the same shapes API Gateway and Lambda hand a function.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context, SQSRecord } from 'aws-lambda';
import { ROUTES, matchPath } from '../functions/commons/routes.js';
import { SCOPES, toAuthorizerContext, type AuthorizerContext } from '../functions/domain/auth.js';

/** What in-process calls are authorised as unless they say otherwise: tenant `default`, every scope, every agent. */
export const IN_PROCESS_AUTHORIZER: AuthorizerContext = toAuthorizerContext({ tenantId: 'default', scopes: [...SCOPES], agents: '*', keyId: 'in-process' });

/** An API Gateway (HTTP API, payload 2.0) event for calling a handler in-process, as tests and benchmarks do. */
export function httpApiEvent(request: {
  readonly method: string;
  readonly path: string;
  readonly pathParameters: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /**
   * The Lambda authorizer's context (`requestContext.authorizer.lambda`), as
   * API Gateway passes it after the key authorizer accepted the key; `null`
   * for an event that carries none (the router answers 401).
   * @default IN_PROCESS_AUTHORIZER
   */
  readonly authorizer?: AuthorizerContext | null;
}): APIGatewayProxyEventV2 {
  const authorizer = request.authorizer === undefined ? IN_PROCESS_AUTHORIZER : request.authorizer;
  const now = new Date();
  const query = request.query ?? {};
  // Every route is registered for ANY method (the function answers 405), as the stack does.
  const template = ROUTES.find((route) => matchPath(route.path, request.path) !== undefined)?.path ?? request.path;
  return {
    version: '2.0',
    routeKey: `ANY ${template}`,
    rawPath: request.path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { 'content-type': 'application/json', ...request.headers },
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    pathParameters: request.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'local',
      http: { method: request.method, path: request.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'in-process' },
      requestId: randomUUID(),
      routeKey: `ANY ${template}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(authorizer ? { authorizer: { lambda: authorizer } } : {}),
    } as APIGatewayProxyEventV2['requestContext'],
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    isBase64Encoded: false,
  };
}

/** A Lambda context for calling a handler in-process. */
export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

/** An SQS record as Lambda's event source hands it over (FIFO attributes when a group is given). */
export function sqsRecord(message: { readonly body: string; readonly messageId?: string; readonly groupId?: string; readonly receiveCount?: number; readonly queueArn?: string }): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: message.messageId ?? randomUUID(),
    receiptHandle: randomUUID(),
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount ?? 1),
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
      ...(message.groupId ? { MessageGroupId: message.groupId, MessageDeduplicationId: randomUUID() } : {}),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: message.queueArn ?? 'arn:aws:sqs:us-east-1:123456789012:local',
    awsRegion: 'us-east-1',
  };
}
