/**
 * What the in-memory fakes share with the stores they stand in for: values
 * are copied in and out as the real stores serialise them (so a caller can
 * never mutate stored state through a reference), a failed write condition
 * is its own error, and paginated lists hand out opaque tokens that only
 * continue the list they came from.
 */
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import { ValidationError } from '../../domain/errors.js';

/** A write's condition failed where the real store would answer ConditionalCheckFailed. */
export class ConditionFailedError extends Error {
  override readonly name = 'ConditionFailedError';
}

/** A JSON round trip: what DynamoDB and S3 give back (undefined fields dropped, no shared references). */
export function stored<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Per-agent state, created on first use. */
export class AgentPartitions<S> {
  private readonly partitions = new Map<string, S>();
  constructor(private readonly create: () => S) {}

  of(agent: AgentKey): S {
    const key = agentPartitionKey(agent);
    let state = this.partitions.get(key);
    if (!state) {
      state = this.create();
      this.partitions.set(key, state);
    }
    return state;
  }

  has(agent: AgentKey): boolean {
    return this.partitions.has(agentPartitionKey(agent));
  }
}

/**
 * One page of `keys` (already in the store's sort order) after the token's
 * key. Like a DynamoDB Query with Limit, a full page carries a token even
 * when nothing follows it, so callers must accept an empty last page.
 */
export function page<T>(entries: readonly (readonly [string, T])[], list: string, limit: number, nextToken: string | undefined): { items: T[]; nextToken?: string } {
  const after = decodeToken(nextToken, list);
  const start = after === undefined ? 0 : entries.findIndex(([key]) => key > after);
  const slice = start < 0 ? [] : entries.slice(start, start + limit);
  const last = slice.at(-1);
  return { items: slice.map(([, value]) => value), ...(slice.length === limit && last ? { nextToken: encodeToken(list, last[0]) } : {}) };
}

function encodeToken(list: string, after: string): string {
  return Buffer.from(JSON.stringify({ list, after })).toString('base64url');
}

function decodeToken(token: string | undefined, list: string): string | undefined {
  if (!token) return undefined;
  let decoded: { list?: unknown; after?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof decoded;
  } catch {
    throw new ValidationError([{ field: 'nextToken', rule: 'must be a token returned by a previous page' }]);
  }
  if (decoded.list !== list || typeof decoded.after !== 'string') {
    throw new ValidationError([{ field: 'nextToken', rule: 'must be a token returned by a previous page of this list' }]);
  }
  return decoded.after;
}
