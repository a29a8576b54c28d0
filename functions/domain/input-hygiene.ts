/**
 * Checks that run on a request body before any schema: they bound the work
 * the schema, the fingerprinting and the serialisation do, so a hostile body
 * is a 400 naming the field, never a stack overflow or a 500. Iterative, so
 * the checks themselves cannot overflow the stack.
 */
import { ValidationError, type FieldIssue } from './errors.js';
import { MAX_METADATA_BYTES } from './events.js';

/** Nesting levels allowed inside an event's `metadata` (the object itself is level 1). */
export const MAX_METADATA_DEPTH = 8;
/** Keys and array entries allowed across one event's `metadata`. */
export const MAX_METADATA_NODES = 1_000;
/** Earliest timestamp accepted: the Unix epoch (earlier dates sort before sequence keys and ladders can cut). */
export const MIN_TIMESTAMP = '1970-01-01T00:00:00Z';

/** Depth and size of each `events[i].metadata`, measured without recursion. */
export function checkMetadataShape(body: unknown): void {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { events?: unknown }).events)) return;
  const issues: FieldIssue[] = [];
  ((body as { events: unknown[] }).events).forEach((event, index) => {
    if (!event || typeof event !== 'object') return;
    const metadata = (event as { metadata?: unknown }).metadata;
    if (metadata === undefined || metadata === null || typeof metadata !== 'object') return;
    const field = `events[${index}].metadata`;
    const stack: { value: unknown; depth: number }[] = [{ value: metadata, depth: 1 }];
    let nodes = 0;
    let bytes = 0;
    while (stack.length > 0) {
      const { value, depth } = stack.pop()!;
      if (depth > MAX_METADATA_DEPTH) {
        issues.push({ field, rule: `must nest at most ${MAX_METADATA_DEPTH} levels deep` });
        return;
      }
      const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
      if (!Array.isArray(value)) for (const key of Object.keys(value as object)) bytes += key.length + 3;
      nodes += children.length;
      if (nodes > MAX_METADATA_NODES) {
        issues.push({ field, rule: `must hold at most ${MAX_METADATA_NODES} keys and array entries` });
        return;
      }
      for (const child of children) {
        if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
        else bytes += typeof child === 'string' ? child.length + 2 : 8;
      }
      if (bytes > MAX_METADATA_BYTES * 4) {
        issues.push({ field, rule: `must serialise to at most ${MAX_METADATA_BYTES} bytes` });
        return;
      }
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);
}

/** Refuses timestamps before `MIN_TIMESTAMP`. */
export function checkTimestampFloor(events: readonly { readonly timestamp?: string | undefined }[]): void {
  const floor = Date.parse(MIN_TIMESTAMP);
  const issues = events.flatMap((event, index) =>
    event.timestamp !== undefined && Date.parse(event.timestamp) < floor ? [{ field: `events[${index}].timestamp`, rule: `must not be before ${MIN_TIMESTAMP}` }] : [],
  );
  if (issues.length > 0) throw new ValidationError(issues);
}
