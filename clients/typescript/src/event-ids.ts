/**
 * Idempotent event ids: an event the caller posts without an id gets one
 * derived from what it says and when, so posting the same events again (a
 * retry, a resumed import) is recognised by the server as a duplicate
 * instead of being stored twice.
 */
import { createHash } from 'node:crypto';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `e-` and 32 base64url characters of a SHA-256 over the event's content and timestamp (and every other field). */
export function deterministicEventId(event: Record<string, unknown>, occurrence = 1): string {
  const { id: _ignored, ...rest } = event;
  const digest = createHash('sha256').update(canonical(rest)).update(occurrence > 1 ? `#${occurrence}` : '').digest('base64url');
  return `e-${digest.slice(0, 32)}`;
}

/**
 * Ids for a list of events: the caller's where given, else deterministic;
 * identical events (same content and timestamp) get distinct ids by their
 * order of occurrence, so a chat that repeats "ok" keeps both lines.
 */
export function withEventIds<E extends { readonly id?: string; readonly [field: string]: unknown }>(events: readonly E[]): (E & { id: string })[] {
  const seen = new Map<string, number>();
  return events.map((event) => {
    if (event.id !== undefined) return event as E & { id: string };
    const key = deterministicEventId(event as Record<string, unknown>);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return { ...event, id: occurrence === 1 ? key : deterministicEventId(event as Record<string, unknown>, occurrence) };
  });
}
