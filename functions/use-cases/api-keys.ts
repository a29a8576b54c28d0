/**
 * API keys: verifying a bearer key (the authorizer), and creating, listing and
 * revoking keys (the `keys` command and the local stack's seeding).
 */
import { randomBytes } from 'node:crypto';
import { bearerKey, hashApiKey, keyIdOf, type Principal, type Scope } from '../domain/auth.js';
import type { ApiKeyStore, StoredApiKey } from '../ports/api-keys.js';

/**
 * The principal an `Authorization` header stands for, or `undefined` when the
 * header is missing, not a bearer key, or names no stored key. The key is
 * hashed before the lookup: the store never sees it.
 */
export async function authorizeKey(store: ApiKeyStore, authorization: string | undefined): Promise<Principal | undefined> {
  const key = bearerKey(authorization);
  if (key === undefined) return undefined;
  const stored = await store.findByHash(hashApiKey(key));
  if (!stored) return undefined;
  return { tenantId: stored.tenantId, scopes: stored.scopes, agents: stored.agents, keyId: stored.keyId };
}

export interface NewApiKey {
  readonly tenantId: string;
  readonly scopes: readonly Scope[];
  readonly agents?: readonly string[] | '*';
  /** A chosen key (seeding, tests); otherwise 32 random bytes. */
  readonly key?: string;
  readonly description?: string;
  readonly now?: Date;
}

/** Stores a key's digest and returns the key, which is not kept anywhere and cannot be shown again. */
export async function createApiKey(store: ApiKeyStore, request: NewApiKey): Promise<{ key: string; stored: StoredApiKey }> {
  const key = request.key ?? `mk_${randomBytes(32).toString('base64url')}`;
  const keyHash = hashApiKey(key);
  const stored: StoredApiKey = {
    keyHash,
    keyId: keyIdOf(keyHash),
    tenantId: request.tenantId,
    scopes: [...request.scopes],
    agents: request.agents ?? '*',
    createdAt: (request.now ?? new Date()).toISOString(),
    ...(request.description ? { description: request.description } : {}),
  };
  await store.put(stored);
  return { key, stored };
}
