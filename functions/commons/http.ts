/**
 * HTTP plumbing for API Gateway HTTP API (payload format 2.0) handlers: body
 * parsing with a size limit, JSON responses, and the one place where typed
 * errors become status codes.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AgentKey } from '../domain/agent-key.js';
import { parseAgentId } from '../domain/events.js';
import { EventIdConflictError, ForbiddenError, MemoryServiceError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, UnauthorizedError, ValidationError } from '../domain/errors.js';
import { allowsAgent, DEFAULT_JWT_CLAIMS, fromAuthorizerContext, fromJwtClaims, hasScope, type JwtClaimNames, type Principal } from '../domain/auth.js';
import { flushMetrics } from './event-handler.js';
import { logger as serviceLogger, metrics } from './powertools.js';
import { matchPath, routesOf, type HttpFunctionId, type OperationOf, type RouteSpec } from './routes.js';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** Decodes the body, enforcing the size limit before parsing JSON. */
export function parseJsonBody(event: HttpEvent, maxBytes: number): unknown {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) throw new PayloadTooLargeError(maxBytes, bytes.length);
  if (bytes.length === 0) throw new ValidationError([{ field: 'body', rule: 'is required: a JSON object' }]);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ValidationError([{ field: 'body', rule: 'must be valid JSON' }]);
  }
}

/** Maps any error to a response: typed errors to their status, anything else to 500. */
export function errorResponse(error: unknown, logger: Logger): HttpResult {
  if (error instanceof MemoryServiceError) {
    if (error.status >= 500) logger.error('request failed in a dependency', { error });
    else logger.info('request refused', { status: error.status, reason: error.message });
    const body: Record<string, unknown> = { error: error.name, message: error.message };
    if (error instanceof ValidationError || error instanceof EventIdConflictError) body.issues = error.issues;
    const headers: Record<string, string> = {};
    if (error instanceof MethodNotAllowedError) headers.allow = error.allowed.join(', ');
    if (error.status === 503) headers['retry-after'] = '1';
    return jsonResponse(error.status, body, headers);
  }
  logger.error('unexpected error', { error });
  return jsonResponse(500, { error: 'InternalError', message: 'internal error; the request may be retried safely' });
}

/** Middy middleware that turns thrown errors into HTTP responses. */
export function httpErrors(logger: Logger): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: (request) => {
      request.response = errorResponse(request.error, logger);
    },
  };
}

/** An HTTP API handler with the house middleware: Lambda context in every log line, metrics flushed on every outcome, typed errors mapped to responses. */
export function httpRoute(logger: Logger, handler: (event: HttpEvent) => Promise<HttpResult>) {
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(flushMetrics(metrics))
    .use(httpErrors(logger))
    .handler(handler);
}

/** What a route's code receives: the event, the route it matched, the agent it addresses and who is asking. */
export interface RouteRequest {
  readonly event: HttpEvent;
  readonly route: RouteSpec;
  /** Tenant and agent; the tenant comes from the verified key, never from the request body or path. */
  readonly agent: AgentKey;
  /** The verified key (on a public route: nobody, with no scope and no agent). */
  readonly principal: Principal;
}

const ANONYMOUS: Principal = { tenantId: '', scopes: [], agents: [], keyId: 'anonymous' };

export type RouteHandlers<F extends HttpFunctionId> = { readonly [O in OperationOf<F>]: (request: RouteRequest) => Promise<HttpResult> };

export interface RouterOptions {
  /**
   * Who is calling, from the event.
   * @default the Lambda authorizer's context (`requestContext.authorizer.lambda`)
   */
  readonly principalOf?: (event: HttpEvent) => Principal | undefined;
}

/** Claim names of the JWT mode (set by the stack when it uses a JWT authorizer). */
const jwtClaims: JwtClaimNames = {
  tenant: process.env.JWT_TENANT_CLAIM ?? DEFAULT_JWT_CLAIMS.tenant,
  scopes: process.env.JWT_SCOPES_CLAIM ?? DEFAULT_JWT_CLAIMS.scopes,
  ...(process.env.JWT_AGENTS_CLAIM ? { agents: process.env.JWT_AGENTS_CLAIM } : {}),
};

/**
 * The principal the authorizer verified: the API key authorizer's context, or
 * the claims of a JWT the HTTP API's JWT authorizer verified; `undefined`
 * when the event carries neither (fails closed).
 */
export function principalFromAuthorizer(event: HttpEvent, claimNames: JwtClaimNames = jwtClaims): Principal | undefined {
  const authorizer = (event.requestContext as { authorizer?: { lambda?: unknown; jwt?: { claims?: unknown } } }).authorizer;
  if (authorizer?.lambda !== undefined) return fromAuthorizerContext(authorizer.lambda);
  if (authorizer?.jwt !== undefined) return fromJwtClaims(authorizer.jwt.claims, claimNames);
  return undefined;
}

/** The route template a request matched: from API Gateway's route key, or by matching the raw path. */
function routePath(event: HttpEvent, routes: readonly RouteSpec[]): string | undefined {
  const fromKey = event.routeKey?.split(' ')[1];
  if (fromKey && routes.some((route) => route.path === fromKey)) return fromKey;
  return routes.find((route) => matchPath(route.path, event.rawPath) !== undefined)?.path;
}

/**
 * The one HTTP handler shape: the function's routes come from the route
 * table; a request without a verified principal is a 401; a path it serves
 * with another method is a 405 naming the allowed ones; the agent id is
 * validated, then the route's scope and the key's agent list are checked
 * (403), all before any route code runs, so a refused request reads and
 * writes nothing.
 */
export function httpRouter<F extends HttpFunctionId>(functionId: F, handlers: RouteHandlers<F>): ReturnType<typeof httpRoute>;
export function httpRouter<F extends HttpFunctionId>(functionId: F, options: RouterOptions, handlers: RouteHandlers<F>): ReturnType<typeof httpRoute>;
export function httpRouter<F extends HttpFunctionId>(functionId: F, second: RouterOptions | RouteHandlers<F>, third?: RouteHandlers<F>) {
  const options: RouterOptions = third === undefined ? {} : (second as RouterOptions);
  const handlers = (third ?? second) as RouteHandlers<F>;
  const principalOf = options.principalOf ?? principalFromAuthorizer;
  const routes = routesOf(functionId);
  const table = handlers as Readonly<Record<string, (request: RouteRequest) => Promise<HttpResult>>>;
  for (const route of routes) if (typeof table[route.operation] !== 'function') throw new Error(`${functionId} has no code for ${route.operation}`);
  return httpRoute(serviceLogger, async (event) => {
    const path = routePath(event, routes);
    if (path === undefined) throw new NotFoundError(`no route for ${event.rawPath}`);
    const method = event.requestContext.http.method.toUpperCase();
    const candidates = routes.filter((route) => route.path === path);
    const route = candidates.find((candidate) => candidate.method === method);
    // The API's own description is served without a key and addresses no agent.
    if (route?.scope === 'public') return table[route.operation]!({ event, route, agent: { tenantId: '', agentId: '' }, principal: ANONYMOUS });
    const principal = principalOf(event);
    if (!principal) throw new UnauthorizedError('a valid API key is required: Authorization: Bearer <key>');
    if (!route) throw new MethodNotAllowedError(method, candidates.map((candidate) => candidate.method));
    const agentId = parseAgentId(event.pathParameters?.agentId);
    serviceLogger.appendKeys({ agentId, operation: route.operation, tenantId: principal.tenantId, keyId: principal.keyId });
    if (!hasScope(principal, route.scope)) throw new ForbiddenError(`this key lacks the ${route.scope} scope that ${route.operation} requires`);
    if (!allowsAgent(principal, agentId)) throw new ForbiddenError(`this key may not address agent ${agentId}`);
    return table[route.operation]!({ event, route, agent: { tenantId: principal.tenantId, agentId }, principal });
  });
}

/** An integer query parameter within bounds; `fallback` when absent. */
export function integerParameter(value: string | undefined, field: string, min: number, max: number, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new ValidationError([{ field, rule: `is required: an integer from ${min} to ${max}` }]);
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    throw new ValidationError([{ field, rule: `must be an integer from ${min} to ${max}` }]);
  }
  return parsed;
}
