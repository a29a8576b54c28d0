/**
 * `agent-memory <command>`: the memory API from a terminal, through the typed
 * client. Every failure is one line on stderr and a non-zero exit (1 for a
 * refused or failed call, 2 for a usage mistake).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { MemoryApiError, MemoryClient, createMemoryClient, type AgentStatus } from '../typescript/src/index.js';
import { ImportError, detectFormat, parseChat, parseInterval, parseJsonLines, parseLocomo, type ImportBatch } from './importers.js';

export const DEFAULT_URL = 'http://127.0.0.1:3000';

const USAGE = `agent-memory <command> [options]

Commands:
  import <file> --agent <id>     post a file's events: .jsonl (one event per line), .json (LoCoMo-style
                                 corpus; each sample its own agent unless --agent), or a chat export
                                 ("speaker: text" lines; needs --start, optional --interval 30s, --assistant <name>)
                                 --flush consolidates the last partial batch afterwards; re-running resumes
  status --agent <id>            counters and consolidation progress (JSON)
  context --agent <id> [--query <text>] [--max-tokens N] [--contact <id|name>] [--json]
  contacts|facts|tasks --agent <id> [--json]
  summaries --agent <id> [--ladder time|count] [--level N] [--json]
  tail --agent <id>              follow consolidation as it happens (--until-caught-up, --timeout <s>)
  export --agent <id> [--out <file>]   everything remembered, as one JSON document
  erase --agent <id> --yes       erase everything stored for the agent, and wait until it is gone (--timeout <s>, default 120)
  keys [...]                     manage API keys (runs npm run keys)

Options: --url <base URL> (env MEMORY_API_URL, default ${DEFAULT_URL}), --key <API key> (env MEMORY_API_KEY)`;

export class UsageError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  agent: { type: 'string', short: 'a' },
  query: { type: 'string', short: 'q' },
  'max-tokens': { type: 'string' },
  contact: { type: 'string' },
  json: { type: 'boolean' },
  format: { type: 'string' },
  start: { type: 'string' },
  interval: { type: 'string' },
  assistant: { type: 'string', multiple: true },
  flush: { type: 'boolean' },
  ladder: { type: 'string' },
  level: { type: 'string' },
  'until-caught-up': { type: 'boolean' },
  timeout: { type: 'string' },
  'poll-ms': { type: 'string' },
  out: { type: 'string' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

interface Io {
  out(line: string): void;
  err(line: string): void;
  readonly isTTY: boolean;
}

function requireAgent(values: Values): string {
  if (!values.agent) throw new UsageError('--agent <id> is required');
  return values.agent;
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function progressLine(status: AgentStatus): string {
  const pending = status.lastSequence - status.lastConsolidatedSequence;
  return `${new Date().toISOString().slice(11, 19)} consolidated ${status.lastConsolidatedSequence}/${status.lastSequence} records (batch ${status.lastConsolidatedBatch} of ${status.batchesClosed} closed, ${status.batchMessages} messages open)${pending === 0 ? ' caught up' : `, ${pending} pending`}`;
}

async function importFile(client: MemoryClient, file: string, values: Values, io: Io): Promise<void> {
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`no such file: ${file}`);
  const text = readFileSync(path, 'utf8');
  const format = (values.format ?? detectFormat(file, text)) as string;
  let batches: ImportBatch[];
  if (format === 'locomo') batches = parseLocomo(text, values.agent);
  else if (format === 'jsonl') batches = [{ agentId: requireAgent(values), events: parseJsonLines(text) }];
  else if (format === 'chat') {
    if (!values.start) throw new UsageError('a chat export needs --start <ISO date-time of its first line>, e.g. --start 2026-11-02T09:00:00Z');
    batches = [{ agentId: requireAgent(values), events: parseChat(text, { start: values.start, intervalMs: parseInterval(values.interval ?? '30s'), assistants: values.assistant ?? [] }) }];
  } else throw new UsageError(`--format must be jsonl, locomo or chat`);

  for (const batch of batches) {
    if (batch.events.length === 0) throw new ImportError(`${basename(file)} holds no events`);
    const bar = new cliProgress.SingleBar(
      { format: `${batch.agentId} [{bar}] {value}/{total} events | {accepted} new, {duplicates} already stored`, stream: process.stderr, noTTYOutput: !io.isTTY, notTTYSchedule: 1_000, hideCursor: io.isTTY },
      cliProgress.Presets.shades_classic,
    );
    bar.start(batch.events.length, 0, { accepted: 0, duplicates: 0 });
    let result;
    try {
      result = await client.remember(batch.agentId, batch.events, (step) => bar.update(step.sent, { accepted: step.accepted, duplicates: step.duplicates }));
    } finally {
      bar.stop();
    }
    io.out(`imported ${result.total} events into ${batch.agentId}: ${result.accepted} new, ${result.duplicates} already stored`);
    if (values.flush) {
      const flushed = await client.flush(batch.agentId);
      io.out(flushed.flushed ? `flushed the open batch of ${batch.agentId}` : `nothing to flush for ${batch.agentId} (${flushed.reason})`);
    }
  }
}

async function tail(client: MemoryClient, agentId: string, values: Values, io: Io): Promise<void> {
  const pollMs = integer(values['poll-ms'], 'poll-ms') ?? 1_000;
  const timeoutS = integer(values.timeout, 'timeout');
  const deadline = timeoutS === undefined ? Infinity : Date.now() + timeoutS * 1_000;
  let last = '';
  for (;;) {
    const status = await client.status(agentId);
    const key = `${status.lastSequence}/${status.lastConsolidatedSequence}/${status.batchesClosed}/${status.lastConsolidatedBatch}`;
    if (key !== last) io.out(progressLine(status));
    last = key;
    if (values['until-caught-up'] && status.lastConsolidatedSequence >= status.lastSequence) return;
    if (Date.now() > deadline) throw new ImportError(`not caught up after ${timeoutS} s: ${status.lastSequence - status.lastConsolidatedSequence} records pending`);
    await sleep(pollMs);
  }
}

function itemLine(item: Record<string, unknown>): string {
  switch (item.kind) {
    case 'contact':
      return `${item.id}  ${item.name}${item.role ? `, ${item.role}` : ''}${item.organisation ? ` at ${item.organisation}` : ''}  [${item.status}]`;
    case 'fact':
      return `${item.id}  ${item.table}: ${item.statement}  [${item.status}]`;
    case 'task':
      return `${item.id}  [${item.state}] ${item.title}${item.due ? ` (due ${item.due})` : ''}  owner ${item.owner}`;
    default:
      return `${item.id}  L${item.level} ${item.name} ${item.from}..${item.to}: ${String(item.text).replace(/\s+/g, ' ').slice(0, 160)}`;
  }
}

async function erase(client: MemoryClient, agentId: string, values: Values, io: Io): Promise<void> {
  if (!values.yes) throw new UsageError(`erase deletes everything stored for ${agentId}; add --yes to confirm`);
  let accepted: unknown;
  try {
    accepted = await client.erase(agentId);
  } catch (error) {
    // API Gateway's own 404 has no `error` class: the route itself is missing, not the agent.
    if (error instanceof MemoryApiError && (error.status === 405 || (error.status === 404 && error.error.startsWith('HTTP')))) {
      throw new ImportError(`this server has no erase route (DELETE /v1/agents/{agentId}); it needs a newer version of the service`);
    }
    throw error;
  }
  // The server answers 202 and erases through a queued job: wait until the agent is gone
  // (its status is a 404), so "erased" means erased.
  io.out(`erasure of ${agentId} accepted${accepted && typeof accepted === 'object' ? ` ${JSON.stringify(accepted)}` : ''}; waiting for it to finish`);
  const pollMs = integer(values['poll-ms'], 'poll-ms') ?? 1_000;
  const timeoutS = integer(values.timeout, 'timeout') ?? 120;
  const deadline = Date.now() + timeoutS * 1_000;
  for (;;) {
    try {
      await client.status(agentId);
    } catch (error) {
      if (error instanceof MemoryApiError && error.status === 404) {
        io.out(`erased ${agentId}`);
        return;
      }
      throw error;
    }
    if (Date.now() > deadline) throw new ImportError(`erasure of ${agentId} accepted but not finished after ${timeoutS} s; check again with: agent-memory status --agent ${agentId}`);
    await sleep(pollMs);
  }
}

function keys(args: readonly string[], io: Io): number {
  const manifest = resolve(new URL('../../package.json', import.meta.url).pathname);
  const scripts = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  if (!scripts.keys) {
    io.err('agent-memory: key management is not in this version of the service (there is no `npm run keys` script yet)');
    return 1;
  }
  const run = spawnSync('npm', ['run', '--silent', 'keys', '--', ...args], { stdio: 'inherit', cwd: resolve(manifest, '..') });
  return run.status ?? 1;
}

/** Runs one command; returns the exit code. */
export async function run(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'keys') return keys(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`agent-memory: ${(error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, '')} (see agent-memory --help)`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    io.out(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const url = values.url ?? env.MEMORY_API_URL ?? DEFAULT_URL;
  const client = createMemoryClient({ baseUrl: url, apiKey: values.key ?? env.MEMORY_API_KEY, retry: { retries: 3 } });
  const print = (value: unknown) => io.out(JSON.stringify(value, null, 2));
  try {
    switch (command) {
      case 'import':
        if (rest.length !== 1) throw new UsageError('import takes one file: agent-memory import <file> --agent <id>');
        await importFile(client, rest[0]!, values, io);
        break;
      case 'status':
        print(await client.status(requireAgent(values)));
        break;
      case 'context': {
        const maxTokens = integer(values['max-tokens'], 'max-tokens');
        const context = await client.context(requireAgent(values), {
          ...(values.query !== undefined ? { query: values.query } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
          ...(values.contact !== undefined ? { contact: values.contact } : {}),
        });
        if (values.json) print(context);
        else io.out(`${context.markdown}\n\n(${context.tokens}/${context.maxTokens} tokens, ${context.items.length} items, request ${context.requestId})`);
        break;
      }
      case 'contacts':
      case 'facts':
      case 'tasks': {
        const items = await MemoryClient.all(client.items(requireAgent(values), command));
        if (values.json) print(items);
        else if (items.length === 0) io.out(`no ${command} yet`);
        else for (const item of items) io.out(itemLine(item as unknown as Record<string, unknown>));
        break;
      }
      case 'summaries': {
        const ladder = values.ladder ?? 'time';
        if (ladder !== 'time' && ladder !== 'count') throw new UsageError('--ladder must be time or count');
        const level = integer(values.level, 'level');
        const items = await MemoryClient.all(client.summaries(requireAgent(values), ladder, level === undefined ? {} : { level }));
        if (values.json) print(items);
        else if (items.length === 0) io.out('no summaries yet');
        else for (const item of items) io.out(itemLine({ ...item, kind: 'summary' }));
        break;
      }
      case 'tail':
        await tail(client, requireAgent(values), values, io);
        break;
      case 'export': {
        const agentId = requireAgent(values);
        const document = {
          agentId,
          exportedAt: new Date().toISOString(),
          status: await client.status(agentId),
          contacts: await MemoryClient.all(client.contacts(agentId)),
          facts: await MemoryClient.all(client.facts(agentId)),
          tasks: await MemoryClient.all(client.tasks(agentId)),
          summaries: { time: await MemoryClient.all(client.summaries(agentId, 'time')), count: await MemoryClient.all(client.summaries(agentId, 'count')) },
        };
        if (values.out) {
          writeFileSync(values.out, `${JSON.stringify(document, null, 2)}\n`);
          io.out(`exported ${agentId} to ${values.out}: ${document.contacts.length} contacts, ${document.facts.length} facts, ${document.tasks.length} tasks, ${document.summaries.time.length + document.summaries.count.length} summaries`);
        } else print(document);
        break;
      }
      case 'erase':
        await erase(client, requireAgent(values), values, io);
        break;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)} (see agent-memory --help)`);
    }
    return 0;
  } catch (error) {
    io.err(`agent-memory: ${describe(error, url)}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

function describe(error: unknown, url: string): string {
  if (error instanceof MemoryApiError) {
    if (error.status === 401) return `401 the API refused the key (set --key or MEMORY_API_KEY)`;
    if (error.status === 403) return `403 the key lacks the scope for this command: ${error.message}`;
    return `${error.status} ${error.error}: ${error.message}`;
  }
  if (error instanceof UsageError || error instanceof ImportError) return error.message;
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') return `cannot reach ${url} (${code}); is the service running (npm start)?`;
  const cause = (error as { cause?: { message?: string } })?.cause?.message;
  if (error instanceof TypeError && cause) return `cannot reach ${url}: ${cause}`;
  return `${(error as Error)?.message ?? String(error)}`.split('\n')[0]!;
}
