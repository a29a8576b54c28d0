/** Starts the local stack for one test file on the shared emulator, with its own resource names. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../local/local-stack.js';

export async function startTestStack(options: Omit<LocalStackOptions, 'endpoint' | 'port' | 'namePrefix'> = {}): Promise<LocalStack> {
  return startLocalStack({
    ...options,
    endpoint: inject('awsEndpoint'),
    port: 0,
    namePrefix: `t${randomBytes(4).toString('hex')}`,
    pollIntervalMs: options.pollIntervalMs ?? 50,
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
  init: { rawBody?: string; contentType?: string } = {},
): Promise<ApiResponse<T>> {
  const payload = init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': init.contentType ?? 'application/json' },
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
