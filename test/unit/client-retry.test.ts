/** The client's retries, against a real HTTP server scripted to answer 503 and 429 first. */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryClient, deterministicEventId, retryAfterMs, withEventIds } from '../../clients/typescript/src/index.js';

let server: Server | undefined;

async function scriptedServer(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: { at: number; body: string }[] = [];
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ at: Date.now(), body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, seen };
}

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const busy = { error: 'DependencyError', message: 'try again' };

describe('retries', () => {
  it('retries 503 and 429, waiting what Retry-After asks, and resends the same body', async () => {
    const { url, seen } = await scriptedServer([
      { status: 503, headers: { 'retry-after': '1' }, body: busy },
      { status: 429, headers: { 'retry-after': '0' }, body: busy },
      { status: 202, body: { accepted: 1, duplicates: 0, sequence: 1 } },
    ]);
    const client = createMemoryClient({ baseUrl: url, retry: { baseDelayMs: 1 } });
    const result = await client.remember('a1', [{ type: 'message', role: 'user', content: 'hello', timestamp: '2026-11-02T09:00:00Z' }]);
    expect(result.accepted).toBe(1);
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(new Set(seen.map((request) => request.body)).size).toBe(1);
  });

  it('gives up after the bounded number of retries with the last error', async () => {
    const { url, seen } = await scriptedServer([{ status: 503, headers: { 'retry-after': '0' }, body: busy }]);
    const client = createMemoryClient({ baseUrl: url, retry: { retries: 2, baseDelayMs: 1 } });
    await expect(client.status('a1')).rejects.toMatchObject({ status: 503, error: 'DependencyError' });
    expect(seen).toHaveLength(3);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    const { url, seen } = await scriptedServer([
      { status: 503, headers: { 'retry-after': '3600' }, body: busy },
      { status: 200, body: { ok: true } },
    ]);
    const client = createMemoryClient({ baseUrl: url, retry: { maxDelayMs: 50 } });
    const started = Date.now();
    await client.status('a1');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(2);
  });

  it('does not retry a client error', async () => {
    const { url, seen } = await scriptedServer([{ status: 400, body: { error: 'ValidationError', message: 'limit: bad', issues: [{ field: 'limit', rule: 'bad' }] } }]);
    const client = createMemoryClient({ baseUrl: url });
    await expect(client.status('a1')).rejects.toMatchObject({ status: 400, issues: [{ field: 'limit', rule: 'bad' }] });
    expect(seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('event ids', () => {
  const event = { type: 'message', role: 'user', content: 'ok', timestamp: '2026-11-02T09:00:00Z' } as const;

  it('are the same for the same content and timestamp, and differ when either changes', () => {
    expect(deterministicEventId(event)).toBe(deterministicEventId({ ...event }));
    expect(deterministicEventId(event)).not.toBe(deterministicEventId({ ...event, content: 'ok!' }));
    expect(deterministicEventId(event)).not.toBe(deterministicEventId({ ...event, timestamp: '2026-11-02T09:00:01Z' }));
    expect(deterministicEventId(event)).toMatch(/^[\x21-\x7E]{1,128}$/);
  });

  it('keep repeated identical events apart and leave given ids alone', () => {
    const ids = withEventIds([event, event, { ...event, id: 'mine' }]).map((e) => e.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]).toBe('mine');
    expect(withEventIds([event, event]).map((e) => e.id)).toEqual(ids.slice(0, 2));
  });
});
