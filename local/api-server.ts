/**
 * A local stand-in for API Gateway (HTTP API, payload format 2.0): routes come
 * from the template's routes and integrations; requests become the same event
 * objects API Gateway sends; unknown paths get API Gateway's 404. A route with
 * a Lambda authorizer (read from the template's `AWS::ApiGatewayV2::Authorizer`)
 * runs it first, as API Gateway does: a missing identity source is a 401
 * without invoking it, an `Unauthorized` error a 401, `isAuthorized: false` a
 * 403, any other failure a 500; an accepted request carries the authorizer's
 * context in `requestContext.authorizer.lambda`. Accepted verdicts are cached
 * per identity source for the authorizer's TTL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { LocalFunction } from './lambda-functions.js';
import type { CfnTemplate } from './template.js';
import { isInspectorPath, serveInspector } from './inspector-files.js';

/** API Gateway's own request payload limit. */
const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

interface LocalAuthorizer {
  readonly logicalId: string;
  readonly target: LocalFunction;
  /** Identity sources such as `$request.header.Authorization`. */
  readonly identitySource: readonly string[];
  readonly ttlSeconds: number;
  readonly simpleResponses: boolean;
  /** Accepted verdicts by identity values: context and expiry. */
  readonly cache: Map<string, { context: unknown; expiresAt: number }>;
}

interface LocalRoute {
  readonly routeKey: string;
  readonly method: string;
  readonly pattern: RegExp;
  readonly parameterNames: readonly string[];
  readonly target: LocalFunction;
  readonly authorizer?: LocalAuthorizer;
}

/** The template's Lambda authorizers by logical id, each bound to its loaded function. */
function authorizersFromTemplate(template: CfnTemplate, functions: ReadonlyMap<string, LocalFunction>): Map<string, LocalAuthorizer> {
  const authorizers = new Map<string, LocalAuthorizer>();
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::ApiGatewayV2::Authorizer') continue;
    const props = resource.Properties ?? {};
    if (props.AuthorizerType !== 'REQUEST') throw new Error(`authorizer ${logicalId}: only Lambda (REQUEST) authorizers run locally`);
    // The URI is a Fn::Join around the function's Fn::GetAtt Arn.
    const parts = (props.AuthorizerUri as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const getAtt = parts.find((part): part is { 'Fn::GetAtt': [string, string] } => typeof part === 'object' && part !== null && 'Fn::GetAtt' in part);
    const functionId = getAtt?.['Fn::GetAtt'][0];
    const target = functionId ? functions.get(functionId) : undefined;
    if (!target) throw new Error(`authorizer ${logicalId} targets ${String(functionId)}, which was not loaded`);
    authorizers.set(logicalId, {
      logicalId,
      target,
      identitySource: (props.IdentitySource as string[] | undefined) ?? [],
      ttlSeconds: Number(props.AuthorizerResultTtlInSeconds ?? 0),
      simpleResponses: props.EnableSimpleResponses === true,
      cache: new Map(),
    });
  }
  return authorizers;
}

export interface ApiServer {
  readonly url: string;
  close(): Promise<void>;
}

export function routesFromTemplate(template: CfnTemplate, functions: ReadonlyMap<string, LocalFunction>): LocalRoute[] {
  const resources = template.Resources;
  const authorizers = authorizersFromTemplate(template, functions);
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route')
    .map((route) => {
      const props = route.Properties ?? {};
      const routeKey = String(props.RouteKey);
      const [method, path] = routeKey.split(' ') as [string, string];
      const join = (props.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      const integrationId = (join[1] as { Ref: string }).Ref;
      const uri = resources[integrationId]?.Properties?.IntegrationUri as { 'Fn::GetAtt': [string, string] };
      const functionId = uri['Fn::GetAtt'][0];
      const target = functions.get(functionId);
      if (!target) throw new Error(`route ${routeKey} targets ${functionId}, which was not loaded`);
      const parameterNames: string[] = [];
      const pattern = new RegExp(
        `^${path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          parameterNames.push(name);
          return '([^/]+)';
        })}$`,
      );
      let authorizer: LocalAuthorizer | undefined;
      if (props.AuthorizationType === 'CUSTOM') {
        const authorizerId = (props.AuthorizerId as { Ref: string }).Ref;
        authorizer = authorizers.get(authorizerId);
        if (!authorizer) throw new Error(`route ${routeKey} names authorizer ${authorizerId}, which the template does not declare`);
      } else if (props.AuthorizationType !== undefined && props.AuthorizationType !== 'NONE') {
        throw new Error(`route ${routeKey}: authorization type ${String(props.AuthorizationType)} is not emulated locally`);
      }
      return { routeKey, method, pattern, parameterNames, target, ...(authorizer ? { authorizer } : {}) };
    });
}

export async function startApiServer(
  routes: readonly LocalRoute[],
  options: { host: string; port: number; log?: (line: string) => void; isReady?: () => boolean },
): Promise<ApiServer> {
  const server: Server = createServer((request, response) => {
    handle(routes, request, response, options).catch((error: unknown) => {
      options.log?.(`local API error: ${String(error)}`);
      if (!response.headersSent) send(response, 500, { 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
    });
  });
  // Long, like a load balancer's: clients close idle sockets first (they leave a margin below the
  // advertised timeout), so a busy process (models run on its event loop) never has the server reset a
  // socket a client is just reusing.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  routes: readonly LocalRoute[],
  request: IncomingMessage,
  response: ServerResponse,
  options: { isReady?: () => boolean },
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const method = (request.method ?? 'GET').toUpperCase();
  if (url.pathname === '/health') {
    const ready = options.isReady?.() ?? true;
    send(response, ready ? 200 : 503, { 'content-type': 'application/json' }, JSON.stringify({ status: ready ? 'ok' : 'starting' }));
    return;
  }
  if (isInspectorPath(url.pathname)) {
    await serveInspector(url.pathname, response);
    return;
  }
  const body = await readBody(request);
  if (body === undefined) {
    send(response, 413, { 'content-type': 'application/json' }, '{"message":"Request Entity Too Large"}');
    return;
  }
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (!match || (route.method !== 'ANY' && route.method !== method)) continue;
    const pathParameters = Object.fromEntries(route.parameterNames.map((name, index) => [name, decodePathSegment(match[index + 1]!)]));
    const event = toApiGatewayEvent(request, url, method, route.routeKey, pathParameters, body);
    if (route.authorizer) {
      const verdict = await authorize(route.authorizer, event);
      if (verdict.status !== 200) {
        send(response, verdict.status, { 'content-type': 'application/json' }, JSON.stringify({ message: verdict.message }));
        return;
      }
      (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: verdict.context };
    }
    let result: unknown;
    try {
      result = await route.target.invoke(event);
    } catch {
      send(response, 500, { 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
      return;
    }
    writeResult(response, result);
    return;
  }
  send(response, 404, { 'content-type': 'application/json' }, '{"message":"Not Found"}');
}

/**
 * A path parameter, percent-decoded; malformed encoding is passed on as
 * written (the function's validation answers 400 naming the parameter).
 */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Runs a route's Lambda authorizer as API Gateway does (see the file comment). */
async function authorize(
  authorizer: LocalAuthorizer,
  event: APIGatewayProxyEventV2,
): Promise<{ status: 200; context: unknown } | { status: 401 | 403 | 500; message: string }> {
  const identity = authorizer.identitySource.map((source) => identityValue(source, event));
  if (identity.some((value) => value === undefined || value === '')) return { status: 401, message: 'Unauthorized' };
  const cacheKey = JSON.stringify(identity);
  const cached = authorizer.cache.get(cacheKey);
  if (cached && cached.expiresAt > Date.now()) return { status: 200, context: cached.context };
  const authorizerEvent = {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:us-east-1:123456789012:local/$default/${event.requestContext.http.method}${event.rawPath}`,
    identitySource: identity,
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    headers: event.headers,
    ...(event.queryStringParameters ? { queryStringParameters: event.queryStringParameters } : {}),
    pathParameters: event.pathParameters,
    requestContext: event.requestContext,
  };
  let result: unknown;
  try {
    result = await authorizer.target.invoke(authorizerEvent);
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized') return { status: 401, message: 'Unauthorized' };
    return { status: 500, message: 'Internal Server Error' };
  }
  if (!authorizer.simpleResponses) return { status: 500, message: 'Internal Server Error' };
  const verdict = result as { isAuthorized?: unknown; context?: unknown } | undefined;
  if (typeof verdict?.isAuthorized !== 'boolean') return { status: 500, message: 'Internal Server Error' };
  if (!verdict.isAuthorized) return { status: 403, message: 'Forbidden' };
  if (authorizer.ttlSeconds > 0) authorizer.cache.set(cacheKey, { context: verdict.context ?? {}, expiresAt: Date.now() + authorizer.ttlSeconds * 1000 });
  return { status: 200, context: verdict.context ?? {} };
}

/** The value of one identity source (`$request.header.X`, `$request.querystring.x`). */
function identityValue(source: string, event: APIGatewayProxyEventV2): string | undefined {
  const header = /^\$request\.header\.(.+)$/i.exec(source);
  if (header) return event.headers[header[1]!.toLowerCase()];
  const query = /^\$request\.querystring\.(.+)$/i.exec(source);
  if (query) return event.queryStringParameters?.[query[1]!];
  throw new Error(`identity source ${source} is not emulated locally`);
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > API_GATEWAY_MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toApiGatewayEvent(
  request: IncomingMessage,
  url: URL,
  method: string,
  routeKey: string,
  pathParameters: Record<string, string>,
  body: Buffer,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const contentType = headers['content-type'] ?? '';
  const textual = contentType === '' || /json|text|xml|urlencoded/i.test(contentType);
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    queryStringParameters[name] = queryStringParameters[name] === undefined ? value : `${queryStringParameters[name]},${value}`;
  }
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(url.searchParams.size > 0 ? { queryStringParameters } : {}),
    pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: textual ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !textual,
  };
}

function writeResult(response: ServerResponse, result: unknown): void {
  if (result && typeof result === 'object' && 'statusCode' in result) {
    const structured = result as APIGatewayProxyStructuredResultV2;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name] = String(value);
    const body = structured.body ?? '';
    send(response, structured.statusCode ?? 200, headers, structured.isBase64Encoded ? Buffer.from(body, 'base64') : body);
    return;
  }
  // Payload format 2.0 infers a 200 JSON response from any other return value.
  send(response, 200, { 'content-type': 'application/json' }, typeof result === 'string' ? result : JSON.stringify(result ?? null));
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  response.writeHead(status, headers);
  response.end(body);
}
