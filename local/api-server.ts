/**
 * A local stand-in for API Gateway (HTTP API, payload format 2.0): routes come
 * from the template's routes and integrations; requests become the same event
 * objects API Gateway sends; unknown paths get API Gateway's 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { LocalFunction } from './lambda-functions.js';
import type { CfnTemplate } from './template.js';
import { isInspectorPath, serveInspector } from './inspector-files.js';

/** API Gateway's own request payload limit. */
const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

interface LocalRoute {
  readonly routeKey: string;
  readonly method: string;
  readonly pattern: RegExp;
  readonly parameterNames: readonly string[];
  readonly target: LocalFunction;
}

export interface ApiServer {
  readonly url: string;
  close(): Promise<void>;
}

export function routesFromTemplate(template: CfnTemplate, functions: ReadonlyMap<string, LocalFunction>): LocalRoute[] {
  const resources = template.Resources;
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
      return { routeKey, method, pattern, parameterNames, target };
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
    const pathParameters = Object.fromEntries(route.parameterNames.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
    const event = toApiGatewayEvent(request, url, method, route.routeKey, pathParameters, body);
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
