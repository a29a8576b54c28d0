/**
 * The key store: API keys by the SHA-256 digest of the key. The key itself is
 * never handed to a store, so a copy of the table reveals no credential.
 */
import type { Scope } from '../domain/auth.js';

export interface StoredApiKey {
  /** Hex SHA-256 of the key; the store's primary key. */
  readonly keyHash: string;
  /** Non-secret id derived from the digest (`key_` + 12 hex digits). */
  readonly keyId: string;
  readonly tenantId: string;
  readonly scopes: readonly Scope[];
  /** `'*'` for every agent of the tenant, else the only agents the key may address. */
  readonly agents: readonly string[] | '*';
  readonly createdAt: string;
  readonly description?: string;
}

export interface ApiKeyStore {
  /** The key with this digest, or `undefined` when unknown (or revoked: revocation deletes). */
  findByHash(keyHash: string): Promise<StoredApiKey | undefined>;
  /** Stores a key; an existing digest is replaced (seeding the same key twice is idempotent). */
  put(key: StoredApiKey): Promise<void>;
  /** Every key, or a tenant's keys; for operators (a scan: the table is small). */
  list(tenantId?: string): Promise<StoredApiKey[]>;
  /** Deletes the key with this id; `false` when there was none. */
  revoke(keyId: string): Promise<boolean>;
}
