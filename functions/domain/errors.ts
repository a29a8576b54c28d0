/**
 * Typed errors. Every failure the service reports is one of these; the HTTP
 * adapter maps them to status codes in one place (`functions/commons/http.ts`).
 */

/** One offending field and the rule it broke, as returned in a 4xx body. */
export interface FieldIssue {
  readonly field: string;
  readonly rule: string;
}

export class MemoryServiceError extends Error {
  /** HTTP status this error maps to. */
  readonly status: number = 500;
  override readonly name: string = 'MemoryServiceError';
}

/** The request broke a documented rule; nothing was written. */
export class ValidationError extends MemoryServiceError {
  override readonly status = 400;
  override readonly name = 'ValidationError';
  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.rule}`).join('; '));
  }
}

export class PayloadTooLargeError extends MemoryServiceError {
  override readonly status = 413;
  override readonly name = 'PayloadTooLargeError';
  constructor(readonly limitBytes: number, readonly actualBytes: number) {
    super(`request body is ${actualBytes} bytes; the limit is ${limitBytes} bytes`);
  }
}

export class NotFoundError extends MemoryServiceError {
  override readonly status = 404;
  override readonly name = 'NotFoundError';
}

export class MethodNotAllowedError extends MemoryServiceError {
  override readonly status = 405;
  override readonly name = 'MethodNotAllowedError';
  constructor(readonly method: string, readonly allowed: readonly string[]) {
    super(`method ${method} is not allowed here; use ${allowed.join(', ')}`);
  }
}

/** An event id was reused for different content; nothing was written. */
export class EventIdConflictError extends MemoryServiceError {
  override readonly status = 409;
  override readonly name = 'EventIdConflictError';
  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.rule}`).join('; '));
  }
}

/** Some records of a range are not (yet) in the raw log: a writer has not finished, or failed before its retry. */
export class MissingRecordsError extends MemoryServiceError {
  override readonly name = 'MissingRecordsError';
  constructor(readonly missing: readonly number[]) {
    super(`raw records missing: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''}`);
  }
}

/** Optimistic concurrency lost a race; the caller retries with fresh state. */
export class SequenceConflictError extends MemoryServiceError {
  override readonly status = 503;
  override readonly name = 'SequenceConflictError';
}

/**
 * A storage or queue dependency failed midway. The client gets a 5xx and a
 * retry of the same events completes the work.
 */
export class DependencyError extends MemoryServiceError {
  override readonly status = 503;
  override readonly name = 'DependencyError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No credentials, or credentials the service does not know; nothing was read or written. */
export class UnauthorizedError extends MemoryServiceError {
  override readonly status = 401;
  override readonly name = 'UnauthorizedError';
}

/** The caller is known but its key does not allow this route or this agent; nothing was read or written. */
export class ForbiddenError extends MemoryServiceError {
  override readonly status = 403;
  override readonly name = 'ForbiddenError';
}
