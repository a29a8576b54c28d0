import { describe, expect, it } from 'vitest';
import { Logger } from '@aws-lambda-powertools/logger';
import { errorResponse, parseJsonBody, type HttpEvent } from '../../functions/commons/http.js';
import { DependencyError, MethodNotAllowedError, PayloadTooLargeError, ValidationError } from '../../functions/domain/errors.js';

const logger = new Logger({ logLevel: 'SILENT' });
const event = (body: string | undefined, isBase64Encoded = false) => ({ body, isBase64Encoded }) as HttpEvent;

describe('parseJsonBody', () => {
  it('refuses a body over the limit before parsing it', () => {
    expect(() => parseJsonBody(event('x'.repeat(11)), 10)).toThrow(PayloadTooLargeError);
  });

  it('measures base64 bodies by their decoded size', () => {
    const body = Buffer.from('{"a":1}').toString('base64');

    expect(parseJsonBody(event(body, true), 7)).toEqual({ a: 1 });
  });

  it('names the body when it is not JSON or is missing', () => {
    expect(() => parseJsonBody(event('{nope'), 100)).toThrow(/body: must be valid JSON/);
    expect(() => parseJsonBody(event(undefined), 100)).toThrow(/body: is required/);
  });
});

describe('errorResponse', () => {
  it('returns 400 with every issue for a validation error', () => {
    const response = errorResponse(new ValidationError([{ field: 'events[0].id', rule: 'is required' }]), logger);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body!)).toEqual({
      error: 'ValidationError',
      message: 'events[0].id: is required',
      issues: [{ field: 'events[0].id', rule: 'is required' }],
    });
  });

  it('returns 405 with an Allow header', () => {
    const response = errorResponse(new MethodNotAllowedError('GET', ['POST']), logger);

    expect(response.statusCode).toBe(405);
    expect(response.headers).toMatchObject({ allow: 'POST' });
  });

  it('returns 413 for an oversized body', () => {
    expect(errorResponse(new PayloadTooLargeError(10, 11), logger).statusCode).toBe(413);
  });

  it('returns a retryable 503 when a dependency failed midway', () => {
    const response = errorResponse(new DependencyError('S3 down'), logger);

    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'retry-after': '1' });
  });

  it('hides unexpected errors behind a 500', () => {
    const response = errorResponse(new Error('secret detail'), logger);

    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret detail');
  });
});
