/** Opaque page tokens for paginated lists: the last evaluated key, checked to belong to the same list. */
import { ValidationError } from '../../domain/errors.js';

export function encodePageToken(lastEvaluatedKey: Record<string, unknown> | undefined): { nextToken?: string } {
  return lastEvaluatedKey ? { nextToken: Buffer.from(JSON.stringify(lastEvaluatedKey)).toString('base64url') } : {};
}

/** Decodes a token, refusing one that does not continue the list of partition `pk` and sort-key prefix `prefix`. */
export function decodePageToken(token: string | undefined, pk: string, prefix: string): Record<string, unknown> | undefined {
  if (!token) return undefined;
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ValidationError([{ field: 'nextToken', rule: 'must be a token returned by a previous page' }]);
  }
  if (key.pk !== pk || typeof key.sk !== 'string' || !key.sk.startsWith(prefix)) {
    throw new ValidationError([{ field: 'nextToken', rule: 'must be a token returned by a previous page of this list' }]);
  }
  return key;
}
