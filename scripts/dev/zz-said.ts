import { readFileSync } from 'node:fs';
import { pairsSaid } from '../../functions/domain/supersession.js';
const file = process.argv[2]!;
const turns = JSON.parse(readFileSync(file, 'utf8')) as { id: string; content: string }[];
const only = process.argv[3]?.split(',');
for (const t of turns) {
  if (only && !only.includes(t.id)) continue;
  const pairs = pairsSaid(t.content);
  if (pairs.length || only) console.log(t.id, JSON.stringify(pairs), '|', t.content.slice(0, 140));
}
