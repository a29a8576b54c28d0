/** exportAgent on the in-memory fakes: every record, item and audit entry once, in parts that resume where they stopped. */
import { describe, expect, it } from 'vitest';
import { UPDATERS } from '../../../functions/domain/memory.js';
import type { AuditRecord } from '../../../functions/ports/memory-store.js';
import { consolidateBatch } from '../../../functions/use-cases/consolidate-batch.js';
import { decodeExportCursor, exportAgent, type ExportDependencies } from '../../../functions/use-cases/export-agent.js';
import { ingestEvents } from '../../../functions/use-cases/ingest-events.js';
import { createExportHandler } from '../../../functions/handlers/http/export-route.js';
import { httpApiEvent, lambdaContext } from '../../../local/lambda-events.js';
import { agent, fakeWorld, message } from '../../support/fake-ports.js';
import { ValidationError } from '../../../functions/domain/errors.js';
import { pageTokenSeal, processPageTokenKey } from '../../../functions/commons/page-tokens.js';
import type { UpdaterRequest } from '../../../functions/ports/model.js';

async function world() {
  const w = fakeWorld({ batchSize: 3, model: { contacts: () => ({ ops: [] }), facts: () => ({ ops: [] }), tasks: (request) => {
    const first = (request as UpdaterRequest).input.records[0]!.id;
    return { ops: [{ op: 'add', task: { title: `Task from ${first}`, owner: 'user' }, evidence: [first] }] };
  } } });
  await ingestEvents(w.ingest, agent, Array.from({ length: 7 }, (_, i) => message(`Remind me about item ${i + 1}.`, { id: `r${i + 1}` })));
  for (const job of w.queue.receiveAll()) await consolidateBatch(w.consolidation, job);
  const listAudit = async (): Promise<AuditRecord[]> => {
    const entries: AuditRecord[] = [];
    for (const batch of [1, 2]) for (const updater of UPDATERS) {
      const entry = await w.memory.readAudit(agent, batch, updater);
      if (entry) entries.push({ updater, batch, entry });
    }
    return entries;
  };
  const deps: ExportDependencies = { ledger: w.ledger, rawLog: w.rawLog, memory: { listItems: (a, u, p) => w.memory.listItems(a, u, p), listAudit }, summaries: w.summaries, now: w.clock.now };
  return deps;
}

async function collect(deps: ExportDependencies) {
  const lines = [];
  for await (const { line } of exportAgent(deps, agent)) lines.push(line);
  return lines;
}

describe('exportAgent', () => {
  it('lists the agent, every raw record, every item, every audit entry, then counts them', async () => {
    const lines = await collect(await world());
    expect(lines[0]).toMatchObject({ type: 'agent', agentId: agent.agentId, status: { lastSequence: 7 } });
    expect(lines.filter((l) => l.type === 'record').map((l) => (l as { record: { id: string } }).record.id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    expect(lines.filter((l) => l.type === 'item')).toHaveLength(2);
    expect(lines.filter((l) => l.type === 'audit')).toHaveLength(6);
    expect(lines.at(-1)).toEqual({ type: 'end', counts: { record: 7, hole: 0, item: 2, summary: 0, audit: 6 } });
  });

  it('comes in parts through the route: each ends with a token that resumes after its last line, and together they are the whole export', async () => {
    const deps = await world();
    const whole = (await collect(deps)).map((l) => JSON.stringify({ ...l, ...(l.type === 'agent' ? { exportedAt: 'x' } : {}) }));
    const handler = createExportHandler({ ...deps, pageTokens: pageTokenSeal(processPageTokenKey()), maxPartBytes: 600 });
    const parts: string[][] = [];
    let token: string | undefined;
    do {
      const event = httpApiEvent({ method: 'GET', path: `/v1/agents/${agent.agentId}/export`, pathParameters: { agentId: agent.agentId }, ...(token ? { query: { nextToken: token } } : {}) });
      const response = (await handler(event, lambdaContext('Export'))) as { statusCode: number; headers: Record<string, string>; body: string };
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-ndjson');
      const lines = response.body.trim().split('\n');
      const last = JSON.parse(lines.at(-1)!) as { type: string; nextToken?: string };
      token = last.type === 'continue' ? last.nextToken : undefined;
      parts.push(last.type === 'continue' ? lines.slice(0, -1) : lines);
    } while (token);
    expect(parts.length).toBeGreaterThan(2);
    const joined = parts.flat().map((l) => JSON.parse(l) as Record<string, unknown>).map((l) => JSON.stringify({ ...l, ...(l.type === 'agent' ? { exportedAt: 'x' } : {}) }));
    expect(joined).toEqual(whole);
  });

  it('refuses a tampered token', () => {
    expect(() => decodeExportCursor('not-a-token')).toThrow(ValidationError);
    expect(() => decodeExportCursor(Buffer.from(JSON.stringify({ section: 9, at: 0, counts: {} })).toString('base64url'))).toThrow(ValidationError);
  });

  it('refuses, through the route, a token that was altered or that continues another agent’s export', async () => {
    const deps = await world();
    const pageTokens = pageTokenSeal(processPageTokenKey());
    const handler = createExportHandler({ ...deps, pageTokens, maxPartBytes: 600 });
    const ask = async (agentId: string, nextToken?: string) =>
      (await handler(httpApiEvent({ method: 'GET', path: `/v1/agents/${agentId}/export`, pathParameters: { agentId }, ...(nextToken ? { query: { nextToken } } : {}) }), lambdaContext('Export'))) as { statusCode: number; body: string };
    const first = await ask(agent.agentId);
    const token = (JSON.parse(first.body.trim().split('\n').at(-1)!) as { nextToken: string }).nextToken;
    const [inner, tag] = token.split('.') as [string, string];
    // The cursor re-encoded to skip ahead, keeping the tag: refused before anything is read.
    const skipped = Buffer.from(JSON.stringify({ ...(JSON.parse(Buffer.from(inner, 'base64url').toString()) as object), at: 5 })).toString('base64url');

    for (const [agentId, bad] of [[agent.agentId, `${skipped}.${tag}`], [agent.agentId, inner], [agent.agentId, `${inner}.${tag.slice(1)}`], ['other-agent', token]] as const) {
      const response = await ask(agentId, bad);
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ error: 'ValidationError', issues: [{ field: 'nextToken', rule: expect.stringContaining('unchanged') }] });
    }
    expect((await ask(agent.agentId, token)).statusCode).toBe(200);
  });
});
