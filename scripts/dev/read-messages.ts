/**
 * Developer tool for hand-scoring extraction on text nobody labelled for the
 * benchmark: runs the configured model (the local one by default) over a
 * JSON list of messages, in batches of 50 as the consolidator would, and
 * prints, message by message, the items whose evidence cites it, with their
 * final state. Scoring is done by a person (or a helper) against expectations
 * written from the text alone.
 *
 *   npx tsx scripts/dev/read-messages.ts messages.json [--json]
 *
 * messages.json: [{ "id", "role": "user"|"assistant", "content", "timestamp", "speaker"? }, ...]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { MemoryItem } from '../../functions/domain/memory.js';
import { benchmarkModel, consolidateCorpus } from '../bench/extract.js';
import type { CorpusRecord } from '../corpus/extract/types.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean' } } });
const file = positionals[0];
if (!file) throw new Error('usage: read-messages.ts messages.json [--json]');

const messages = JSON.parse(readFileSync(file, 'utf8')) as { id: string; role: 'user' | 'assistant'; content: string; timestamp: string; speaker?: string }[];
const records: CorpusRecord[] = messages.map((m, i) => ({ id: m.id, sequence: i + 1, timestamp: m.timestamp, type: 'message', role: m.role, content: m.content, ...(m.speaker ? { speaker: m.speaker } : {}) }));
const model = await benchmarkModel({ MODEL_PROVIDER: 'local', ...process.env });
const items = await consolidateCorpus(model, { name: 'read-messages', style: 'hand-scored', records, truth: { contacts: [], facts: [], tasks: [], people: {} } });

/** One line an agent would read for the item, with its state. */
function describe(item: MemoryItem): string {
  const record = item as unknown as Record<string, unknown>;
  const state = `${item.status}${record.state ? `, ${String(record.state)}` : ''}`;
  if (item.kind === 'contact') {
    const work = [record.role, record.organisation ? `at ${String(record.organisation)}` : ''].filter(Boolean).join(' ');
    const relations = ((record.relationships as { type: string }[] | undefined) ?? []).map((r) => r.type).join(', ');
    return `contact: ${String(record.name)}${work ? ` (${work})` : ''}${relations ? ` [${relations}]` : ''}: ${String(record.biography ?? '')} [${state}]`;
  }
  if (item.kind === 'task') return `task (${String(record.owner ?? '?')}): ${String(record.title)}${record.due ? `, due ${String(record.due)}` : ''} [${state}]`;
  const row = Object.entries((record.row as Record<string, unknown>) ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  return `fact (${row}): ${String(record.statement ?? '')} [${state}]`;
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
} else {
  for (const message of messages) {
    const cited = items.filter((item) => item.evidence.some((e) => e.recordId === message.id));
    process.stdout.write(`${message.id} ${message.role}: ${message.content}\n`);
    for (const item of cited) process.stdout.write(`    -> ${describe(item)}\n`);
  }
}
