/**
 * Developer tool for "one current value everywhere" on text nobody tuned the
 * rules to: replays conversations through the local stack's API (one agent
 * each, flushed and swept), then, for every value change listed beside them,
 * reads the default context block and the block for the change's question
 * and reports where the old value is still shown without a marker.
 *
 *   npx tsx scripts/dev/stale-check.ts --dir <dir> [--file <name>] [--dump] [--show <words>] [--markers]   (dir holds the conversations and changes.json;
 *                                                           --file <name> replays that conversation alone and checks its changes;
 *                                                           --dump writes each agent's items (the first 100 of each kind) to items-<file>;
 *                                                           --show <words> prints both blocks of each change whose subject has them;
 *                                                           --markers prints each marked line that states no listed old value)
 *
 * A conversation: [{ "id", "role": "user"|"assistant", "speaker"?, "content", "timestamp" }, ...].
 * changes.json: [{ "file", "subject", "old", "new", "question" }, ...], "old" and "new" verbatim from the text.
 *
 * A line states the old value when it holds it (case-insensitively). It is stale when it does not also
 * state the new value and carries no marker ("(later: …)", "(marked wrong …)", "(no longer true …)",
 * "(contested: …)"). Lines of the current state (Contacts, Tasks, Facts) are counted apart from history.
 *
 * `staleInAsked` counts the stale changes with a stale line in the question's block (the others are stale only in the
 * block read without a question).
 *
 * `staleButRead` counts the stale changes whose new value marks some line of the question's block: the change was
 * read, but not carried to every line that states the old value.
 *
 * The other way round, `markedOther` counts the distinct lines of the questions' blocks that carry a marker but state
 * none of the old values listed for their conversation: a marker on a line that did not change, or a change the
 * list leaves out (read them with --markers to tell which).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReplayStack, waitConsolidated } from './replay.js';

const { values } = parseArgs({ options: { dir: { type: 'string' }, file: { type: 'string' }, dump: { type: 'boolean' }, show: { type: 'string' }, markers: { type: 'boolean' } } });
if (!values.dir) throw new Error('usage: stale-check.ts --dir <dir> [--file <name>] [--dump] [--show <words>] [--markers]');
const dir = values.dir;

interface Message { readonly id: string; readonly role: 'user' | 'assistant'; readonly speaker?: string; readonly content: string; readonly timestamp: string }
interface Change { readonly file: string; readonly subject: string; readonly old: string; readonly new: string; readonly question: string }

// A marker, or a task line that says it is no longer open.
const MARKER = /\((?:later: |marked wrong|no longer true|contested: )|\[(?:cancelled|done)\b/;
const CURRENT = new Set(['### Contacts', '### Tasks', '### Facts']);

const changes = (JSON.parse(readFileSync(join(dir, 'changes.json'), 'utf8')) as Change[]).filter((c) => !values.file || c.file === values.file);
const files = [...new Set(changes.map((c) => c.file))];
const { stack, call } = await startReplayStack('stale');

/** Each line holding `old`, with whether it is in the current state and whether it is stale. */
function linesStating(markdown: string, change: Change, block: 'whole' | 'asked') {
  let section = '';
  const found: { line: string; current: boolean; stale: boolean; block: 'whole' | 'asked' }[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('### ')) section = line.trim();
    if (!line.toLowerCase().includes(change.old.toLowerCase())) continue;
    const stale = !line.toLowerCase().includes(change.new.toLowerCase()) && !MARKER.test(line);
    found.push({ line, current: [...CURRENT].some((s) => section.startsWith(s)), stale, block });
  }
  return found;
}

try {
  const agents = new Map<string, string>();
  for (const file of files) {
    const agent = `stale-${file.replace(/\.json$/, '')}`;
    agents.set(file, agent);
    const messages = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Message[];
    const events = messages.map((m) => ({ id: m.id, type: 'message', role: m.role, content: m.content, timestamp: m.timestamp, ...(m.speaker ? { metadata: { speaker: m.speaker } } : {}) }));
    for (let at = 0; at < events.length; at += 100) await call('POST', `/v1/agents/${agent}/events`, { events: events.slice(at, at + 100) });
    await call('POST', `/v1/agents/${agent}/flush`);
    await waitConsolidated(call, agent);
    await stack.eventSources.waitForIdle(600_000);
    await call('POST', `/v1/agents/${agent}/sweep`);
    await stack.eventSources.waitForIdle(600_000);
    if (values.dump) {
      // --dump: every item the stores hold, archived ones too, to see why a value was or was not retired.
      const items: Record<string, unknown[]> = {};
      for (const kind of ['contacts', 'facts', 'tasks']) items[kind] = (await call<{ items: unknown[] }>('GET', `/v1/agents/${agent}/${kind}?limit=100`)).items;
      writeFileSync(join(dir, `items-${file}`), `${JSON.stringify(items, null, 1)}\n`);
      writeFileSync(join(dir, `snapshot-${file}`), JSON.stringify(await call('GET', `/v1/agents/${agent}/snapshot`)));
    }
  }
  const totals = { changes: 0, newFound: 0, staleCurrent: 0, staleAnywhere: 0, markedOther: 0, staleButRead: 0, staleInAsked: 0 };
  const markedOther = new Set<string>();
  for (const change of changes) {
    const agent = agents.get(change.file)!;
    const whole = (await call<{ markdown: string }>('GET', `/v1/agents/${agent}/context?maxTokens=2000`)).markdown;
    const asked = (await call<{ markdown: string }>('GET', `/v1/agents/${agent}/context?maxTokens=1024&query=${encodeURIComponent(change.question)}`)).markdown;
    if (values.show && change.subject.includes(values.show)) process.stdout.write(`\n--- context without a question\n${whole}\n--- block for "${change.question}"\n${asked}\n---\n`);
    const stating = [...linesStating(whole, change, 'whole'), ...linesStating(asked, change, 'asked')];
    const olds = changes.filter((c) => c.file === change.file).map((c) => c.old.toLowerCase());
    for (const line of asked.split('\n')) {
      if (MARKER.test(line) && !olds.some((old) => line.toLowerCase().includes(old))) markedOther.add(`${change.file} | ${line.length > 240 ? `${line.slice(0, 120)} … ${line.slice(-120)}` : line}`);
    }
    const staleCurrent = stating.filter((l) => l.stale && l.current);
    const staleHistory = stating.filter((l) => l.stale && !l.current);
    const newFound = asked.toLowerCase().includes(change.new.toLowerCase());
    totals.changes += 1;
    if (newFound) totals.newFound += 1;
    if (staleCurrent.length > 0) totals.staleCurrent += 1;
    if (staleCurrent.length + staleHistory.length > 0) totals.staleAnywhere += 1;
    if (stating.some((l) => l.stale && l.block === 'asked')) totals.staleInAsked += 1;
    // Whether any line of the question's block is marked with the new value: the change was read, but not carried to every line.
    const markedNew = asked.split('\n').some((line) => MARKER.test(line) && (line.match(/\((?:later|contested): [^)]*\)/g) ?? []).some((m) => m.toLowerCase().includes(change.new.toLowerCase())));
    if (markedNew && staleCurrent.length + staleHistory.length > 0) totals.staleButRead += 1;
    process.stdout.write(`\n${change.file} · ${change.subject}: ${change.old} → ${change.new}\n  new value in the question's block: ${newFound ? 'yes' : 'NO'}; marked with it: ${markedNew ? 'yes' : 'no'}; stale lines: current ${staleCurrent.length}, history ${staleHistory.length}\n`);
    for (const l of [...staleCurrent, ...staleHistory]) process.stdout.write(`    ${l.current ? 'CURRENT' : 'history'} ${l.block} | ${l.line.slice(0, 240)}\n`);
  }
  totals.markedOther = markedOther.size;
  if (values.markers) for (const line of markedOther) process.stdout.write(`  marked | ${line}\n`);
  process.stdout.write(`\n${JSON.stringify({ check: 'stale', ...totals })}\n`);
} finally {
  await stack.stop();
}
