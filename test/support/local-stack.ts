/** Starts the local stack for one test file on the shared emulator, with its own resource names. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../local/local-stack.js';
import { SCOPES, type KeySeed } from '../../functions/domain/auth.js';

/** The key every test stack seeds: tenant `default`, every scope, every agent. `api()` sends it unless told otherwise. */
export const TEST_API_KEY = 'test-key-default-all-scopes';
const TEST_KEY_SEED: KeySeed = { tenantId: 'default', key: TEST_API_KEY, scopes: [...SCOPES], agents: '*' };

/** Starts a stack with the test key seeded, plus any `apiKeys` given. */
export async function startTestStack(options: Omit<LocalStackOptions, 'endpoint' | 'port' | 'namePrefix'> = {}): Promise<LocalStack> {
  const extra = options.apiKeys === undefined ? [] : typeof options.apiKeys === 'string' ? [] : options.apiKeys;
  return startLocalStack({
    ...options,
    // A string spec is seeded after the test key (see startLocalStack).
    apiKeys: typeof options.apiKeys === 'string' ? `default:${TEST_API_KEY}:${SCOPES.join('+')},${options.apiKeys}` : [TEST_KEY_SEED, ...extra],
    endpoint: inject('awsEndpoint'),
    port: 0,
    namePrefix: `t${randomBytes(4).toString('hex')}`,
    pollIntervalMs: options.pollIntervalMs ?? 50,
    // The bundled lane (vitest.config.ts) runs the same files on the synthesised bundles.
    functions: options.functions ?? (process.env.MEMORY_TEST_FUNCTIONS === 'bundles' ? 'bundles' : 'sources'),
  });
}

export interface ApiResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function api<T = Record<string, unknown>>(
  stack: { url: string },
  method: string,
  path: string,
  body?: unknown,
  init: {
    rawBody?: string;
    contentType?: string;
    /** The bearer key to send; `null` sends no Authorization header. @default TEST_API_KEY */
    key?: string | null;
    /** Replaces the Authorization header as a whole (malformed schemes). */
    authorization?: string;
  } = {},
): Promise<ApiResponse<T>> {
  const payload = init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  const key = init.key === undefined ? TEST_API_KEY : init.key;
  const authorization = init.authorization ?? (key === null ? undefined : `Bearer ${key}`);
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': init.contentType ?? 'application/json', ...(authorization !== undefined ? { authorization } : {}) },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as T };
}

/** A message event with sensible defaults. */
export function message(id: string, content = `message ${id}`, extra: Record<string, unknown> = {}) {
  return { id, type: 'message', role: 'user', content, timestamp: '2026-11-02T09:00:00Z', ...extra };
}

export function action(id: string, content = `action ${id}`) {
  return { id, type: 'action', role: 'tool', content, timestamp: '2026-11-02T09:00:00Z' };
}
