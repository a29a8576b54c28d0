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
import { MemoryServiceError, MethodNotAllowedError, PayloadTooLargeError, ValidationError } from '../domain/errors.js';
import { EventIdConflictError } from '../domain/errors.js';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** Throws MethodNotAllowedError unless the request uses one of `allowed`. */
export function requireMethod(event: HttpEvent, allowed: readonly string[]): void {
  const method = event.requestContext.http.method.toUpperCase();
  if (!allowed.includes(method)) throw new MethodNotAllowedError(method, allowed);
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

/** An HTTP API handler with the house middleware: Lambda context in every log line, typed errors mapped to responses. */
export function httpRoute(logger: Logger, handler: (event: HttpEvent) => Promise<HttpResult>) {
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(httpErrors(logger))
    .handler(handler);
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
