/**
 * The ingest API end to end on the emulator: exact sequencing and batching
 * under concurrency and retries, durable raw records, and refused requests
 * that leave nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { action, api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack();
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('concurrent ingest with retries', () => {
  const agentId = 'concurrent-agent';
  const total = 120;
  const clients = 8;
  const events = Array.from({ length: total }, (_, i) => message(`m-${i + 1}`, `message number ${i + 1}`));
  const sequenceById = new Map<string, number>();

  beforeAll(async () => {
    // 8 clients, each posting its share in requests of 5, each request retried once for half of them.
    const shares = Array.from({ length: clients }, (_, c) => events.filter((_, i) => i % clients === c));
    await Promise.all(
      shares.map(async (share) => {
        for (let start = 0; start < share.length; start += 5) {
          const request = share.slice(start, start + 5);
          const first = await api<{ sequence: number[] }>(stack, 'POST', `/v1/agents/${agentId}/events`, { events: request });
          expect(first.status).toBe(202);
          request.forEach((event, i) => sequenceById.set(event.id, first.body.sequence[i]!));
          const retried = request.filter((_, i) => i % 2 === 0);
          const retry = await api<{ accepted: number; duplicates: number; sequence: number[] }>(
            stack,
            'POST',
            `/v1/agents/${agentId}/events`,
            { events: retried },
          );
          expect(retry.status).toBe(202);
          expect(retry.body).toMatchObject({ accepted: 0, duplicates: retried.length });
          expect(retry.body.sequence).toEqual(retried.map((event) => sequenceById.get(event.id)));
        }
      }),
    );
    await stack.eventSources.waitForIdle();
  });

  it('gives sequence numbers 1..120 with no gap and no duplicate', () => {
    const sequences = [...sequenceById.values()].sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it('reports the counts in the status endpoint', async () => {
    const status = await api(stack, 'GET', `/v1/agents/${agentId}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      agentId,
      lastSequence: 120,
      messages: 120,
      actions: 0,
      batchesClosed: 2,
      batchesQueued: 2,
      lastBatchEnd: 100,
    });
  });

  it('makes every raw record readable, once, under its sequence number', async () => {
    expect(await read.rawSequences(agentId)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const event of events) {
      const record = await read.rawLog.get(read.agent(agentId), sequenceById.get(event.id)!);
      expect(record).toMatchObject({ ...event, sequence: sequenceById.get(event.id), agentId, tenantId: 'default' });
    }
  });

  it('enqueues exactly two batch jobs, 1-50 and 51-100, each delivered once to the consolidator', async () => {
    const batches = (await read.ledgerItems(agentId)).filter((item) => String(item.sk).startsWith('BATCH#'));
    expect(batches.map((batch) => [batch.index, batch.fromSequence, batch.toSequence, batch.deliveries])).toEqual([
      [1, 1, 50, 1],
      [2, 51, 100, 1],
    ]);
    expect(batches.every((batch) => batch.queuedAt && batch.arrivedAt)).toBe(true);
    expect(await read.queueDepth(read.queueUrl)).toBe(0);
    expect(await read.queueDepth(read.deadLetterQueueUrl)).toBe(0);
  });
});

describe('write semantics', () => {
  it('shares the sequence between messages and actions, and counts batches in messages', async () => {
    const agentId = 'mixed-agent';
    const events = [];
    for (let i = 1; i <= 50; i += 1) {
      events.push(message(`msg-${i}`));
      if (i % 10 === 0) events.push(action(`act-${i}`));
    }

    const response = await api<{ sequence: number[] }>(stack, 'POST', `/v1/agents/${agentId}/events`, { events });

    expect(response.status).toBe(202);
    expect(response.body.sequence).toEqual(Array.from({ length: 55 }, (_, i) => i + 1));
    // The 50th message is sequence 54; the action after it starts the next batch.
    const batch = await read.ledger.readBatch(read.agent(agentId), 1);
    expect(batch).toMatchObject({ fromSequence: 1, toSequence: 54 });
    const status = await api(stack, 'GET', `/v1/agents/${agentId}/status`);
    expect(status.body).toMatchObject({ lastSequence: 55, messages: 50, actions: 5, batchesClosed: 1, lastBatchEnd: 54 });
  });

  it('stamps server time on events without a timestamp, and keeps it on retry', async () => {
    const agentId = 'timestamp-agent';
    const event = { id: 'no-time', type: 'message', role: 'user', content: 'when was this?' };
    const before = Date.now();

    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [event] });
    const first = await read.rawLog.get(read.agent(agentId), 1);
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [event] });
    const second = await read.rawLog.get(read.agent(agentId), 1);

    expect(Date.parse(first!.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(second!.timestamp).toBe(first!.timestamp);
  });

  it('accepts 100 events in one request', async () => {
    const agentId = 'large-request-agent';
    const events = Array.from({ length: 100 }, (_, i) => message(`big-${i}`));

    const response = await api<{ accepted: number; sequence: number[] }>(stack, 'POST', `/v1/agents/${agentId}/events`, { events });

    expect(response.status).toBe(202);
    expect(response.body.accepted).toBe(100);
    expect(response.body.sequence).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await read.rawSequences(agentId)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // Two commits (90 and 10 events), the first split where batch 1 closes: three objects, not a hundred.
    expect(await read.rawKeys(agentId)).toHaveLength(3);
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({ batchesQueued: 2 });
  });
});

describe('refused requests leave nothing written', () => {
  const refused: [string, string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
    ['malformed JSON', 'refused-1', () => api(stack, 'POST', '/v1/agents/refused-1/events', undefined, { rawBody: '{"events": [' }), 400, 'body'],
    ['a missing events array', 'refused-2', () => api(stack, 'POST', '/v1/agents/refused-2/events', { event: [] }), 400, 'events'],
    [
      'one bad event among good ones',
      'refused-3',
      () => api(stack, 'POST', '/v1/agents/refused-3/events', { events: [message('ok-1'), { ...message('bad'), role: 'robot' }, message('ok-2')] }),
      400,
      'events[1].role',
    ],
    [
      'a wrongly typed field',
      'refused-4',
      () => api(stack, 'POST', '/v1/agents/refused-4/events', { events: [{ ...message('t'), content: ['not', 'text'] }] }),
      400,
      'events[0].content',
    ],
    [
      '101 events',
      'refused-5',
      () => api(stack, 'POST', '/v1/agents/refused-5/events', { events: Array.from({ length: 101 }, (_, i) => message(`e${i}`)) }),
      400,
      'events',
    ],
    [
      'a body over 1 MiB',
      'refused-6',
      () =>
        api(stack, 'POST', '/v1/agents/refused-6/events', {
          events: Array.from({ length: 40 }, (_, i) => message(`huge-${i}`, 'x'.repeat(30_000))),
        }),
      413,
      '',
    ],
    ['an invalid agent id', 'bad agent', () => api(stack, 'POST', '/v1/agents/bad%20agent/events', { events: [message('a')] }), 400, 'agentId'],
    [
      'a timestamp a year ahead of the server clock',
      'refused-7',
      () => api(stack, 'POST', '/v1/agents/refused-7/events', { events: [message('ok'), { ...message('future'), timestamp: new Date(Date.now() + 365 * 86_400_000).toISOString() }] }),
      400,
      'events[1].timestamp',
    ],
  ];

  it.each(refused)('refuses %s with a clear error and writes nothing', async (_, agentId, send, status, field) => {
    const response = await send();

    expect(response.status).toBe(status);
    if (field) {
      expect(response.body.error).toBe('ValidationError');
      expect((response.body.issues as { field: string }[]).map((issue) => issue.field)).toContain(field);
    } else {
      expect(String(response.body.message)).toMatch(/limit is 1048576 bytes/);
    }
    expect(await read.rawKeys(agentId)).toEqual([]);
    expect(await read.ledgerItems(agentId)).toEqual([]);
  });


  it('refuses an event id reused for different content with 409, writing none of the request', async () => {
    const agentId = 'conflict-agent';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('same-id', 'original')] });

    const response = await api(stack, 'POST', `/v1/agents/${agentId}/events`, {
      events: [message('fresh-id'), message('same-id', 'edited')],
    });

    expect(response.status).toBe(409);
    expect(response.body.issues).toEqual([{ field: 'events[1].id', rule: expect.stringContaining('different content') }]);
    expect(await read.rawKeys(agentId)).toHaveLength(1);
    expect((await read.rawLog.get(read.agent(agentId), 1))!.content).toBe('original');
    expect(await api(stack, 'GET', `/v1/agents/${agentId}/status`).then((r) => r.body)).toMatchObject({ lastSequence: 1 });
  });
});

describe('routing', () => {
  it('answers 404 for an unknown route', async () => {
    expect((await api(stack, 'GET', '/v1/nothing-here')).status).toBe(404);
  });

  it('answers 405 with an Allow header for a wrong method', async () => {
    const response = await api(stack, 'DELETE', '/v1/agents/someone/events');

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 404 for the status of an agent never seen', async () => {
    const response = await api(stack, 'GET', '/v1/agents/never-seen/status');

    expect(response.status).toBe(404);
    expect(response.body.error).toBe('NotFoundError');
  });

  it('reports health once ready', async () => {
    expect((await api(stack, 'GET', '/health')).body).toEqual({ status: 'ok' });
  });
});
