/**
 * The CLI as a user runs it (a child process against the local stack):
 * importing a chat export with progress, resuming after a refused chunk
 * without storing anything twice, following consolidation, reading status
 * and context, and failing in one clear line.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { TEST_API_KEY, startTestStack } from '../support/local-stack.js';

const BIN = fileURLToPath(new URL('../../bin/agent-memory.mjs', import.meta.url));
let stack: LocalStack;
const dir = mkdtempSync(join(tmpdir(), 'agent-memory-cli-'));
const agentId = 'cli-agent';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, MEMORY_API_KEY: TEST_API_KEY }, timeout: 150_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const people = ['Ana', 'Bot'];
function chatLines(count: number, broken?: number): string {
  return Array.from({ length: count }, (_, i) => {
    if (i === broken) return `Ana: ${'x'.repeat(40_000)}`;
    if (i === 3) return 'Ana: I had coffee with Dana Whitfield today. She works at Initech as a product manager.';
    if (i === 7) return 'Ana: Remind me to send the quarterly report to Marco by Friday.';
    return `${people[i % 2]}: line ${i} of our chat about the garden`;
  }).join('\n');
}

beforeAll(async () => {
  stack = await startTestStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the agent-memory CLI', () => {
  it('refuses a chunk the server rejects, naming the field, and a re-run resumes without storing anything twice', async () => {
    const file = join(dir, 'chat.txt');
    // Line 150 is too long: the first request of 100 is stored, the second is refused whole.
    writeFileSync(file, chatLines(160, 150));
    const failed = await cli('import', file, '--agent', agentId, '--start', '2026-11-02T09:00:00Z', '--interval', '1m', '--url', stack.url);
    expect(failed.code).toBe(1);
    const errorLines = failed.stderr.trim().split('\n').filter((line) => line.startsWith('agent-memory:'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(/400 ValidationError: events\[50\]\.content: must be at most/);

    writeFileSync(file, chatLines(160));
    const resumed = await cli('import', file, '--agent', agentId, '--start', '2026-11-02T09:00:00Z', '--interval', '1m', '--url', stack.url, '--flush');
    expect(resumed.stderr).not.toContain('agent-memory:');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`imported 160 events into ${agentId}: 60 new, 100 already stored`);
    expect(resumed.stderr).toMatch(/160\/160 events/);
  });

  it('follows consolidation until it has caught up, then reports the status', async () => {
    const tail = await cli('tail', '--agent', agentId, '--until-caught-up', '--poll-ms', '200', '--timeout', '120', '--url', stack.url);
    expect(tail.code).toBe(0);
    const lines = tail.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/consolidated 160\/160 records .* caught up$/);
    const status = await cli('status', '--agent', agentId, '--url', stack.url);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ agentId, lastSequence: 160, messages: 160, lastConsolidatedSequence: 160 });
  });

  it('prints budgeted context for a query, and its provenance as JSON', async () => {
    await stack.eventSources.waitForIdle(120_000);
    const text = await cli('context', '--agent', agentId, '--query', 'Who is Dana?', '--max-tokens', '500', '--url', stack.url);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\(\d+\/500 tokens, \d+ items, request [0-9a-f-]{36}\)/);
    const json = await cli('context', '--agent', agentId, '--query', 'Who is Dana?', '--json', '--url', stack.url);
    const context = JSON.parse(json.stdout) as { tokens: number; items: { id: string }[] };
    expect(context.items.length).toBeGreaterThan(0);
    const contacts = await cli('contacts', '--agent', agentId, '--json', '--url', stack.url);
    expect((JSON.parse(contacts.stdout) as { name: string }[]).some((contact) => contact.name.includes('Dana'))).toBe(true);
  });

  it('exports everything remembered to a file', async () => {
    const out = join(dir, 'export.json');
    const run = await cli('export', '--agent', agentId, '--out', out, '--url', stack.url);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`exported ${agentId} to .*: [1-9]\\d* contacts`));
  });

  it('fails in one clear line with a non-zero exit', async () => {
    const unknownAgent = await cli('status', '--agent', 'nobody-here', '--url', stack.url);
    expect(unknownAgent.code).toBe(1);
    expect(unknownAgent.stderr.trim()).toBe('agent-memory: 404 NotFoundError: agent nobody-here has no events');
    const closed = await closedPort();
    const unreachable = await cli('status', '--agent', agentId, '--url', `http://127.0.0.1:${closed}`);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe(`agent-memory: cannot reach http://127.0.0.1:${closed} (ECONNREFUSED); is the service running (npm start)?`);
    const usage = await cli('import', join(dir, 'chat.txt'), '--agent', agentId, '--url', stack.url);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe('agent-memory: a chat export needs --start <ISO date-time of its first line>, e.g. --start 2026-11-02T09:00:00Z');
    const unconfirmed = await cli('erase', '--agent', agentId, '--url', stack.url);
    expect(unconfirmed.code).toBe(2);
  });

  it('erases an agent and waits until it is gone', async () => {
    const run = await cli('erase', '--agent', agentId, '--yes', '--poll-ms', '200', '--url', stack.url);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`erased ${agentId}`);
    expect((await cli('status', '--agent', agentId, '--url', stack.url)).code).toBe(1);
  });
});
