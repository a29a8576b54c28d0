/**
 * Local task extraction: commitments ("remind me to ...", "I need to ...",
 * "can you ... by Friday", "Marco will ..."), their owner and due date
 * (resolved forward from the message's own timestamp), and progress on open
 * tasks ("I sent the contract", "the report is done", "never mind the ...").
 */
import type { TaskOp } from '../../../domain/memory.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import { similarity } from '../../../domain/patch.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { capitalise, cleanName, isSmallTalk, resolveDate, sentences, toInfinitive, trimPhrase } from './text.js';

const CREATE_PATTERNS: { pattern: RegExp; owner: (m: RegExpMatchArray) => string | undefined; needsDate?: boolean }[] = [
  { pattern: /\b(?:remind me to|i need to|i have to|i must|i've got to|i still need to|don't forget to|do not forget to|note to self:?|todo:?|to-do:?)\s+([^.!?;]+)/giu, owner: () => 'user' },
  // "I'll ... by Friday" is a commitment only when it names a date.
  { pattern: /\bi(?:'ll| will| am going to|'m going to)\s+([^.!?;]+?\b(?:by|before|on|until|tomorrow|tonight|next|this)\b[^.!?;]*)/giu, owner: () => 'user', needsDate: true },
  {
    pattern: /\b(?:can you|could you|would you|please)\s+(?!tell|explain|believe|imagine|remind|help me understand|see|hear|recommend|suggest|summari[sz]e|check if)([^.!?;]+)/giu,
    owner: () => 'assistant',
  },
  { pattern: /\b([A-Z][\p{L}'-]+) (?:will|is going to|promised to|agreed to|needs to|has to)\s+([^.!?;]+)/gu, owner: (m) => cleanName(m[1]!) },
];

const DONE_PATTERNS: RegExp[] = [
  /\bi(?:'ve| have)? (?:just |finally |already )?(finished|completed|sent|submitted|booked|paid|called|emailed|fixed|shipped|signed|bought|wrote|renewed|cancelled|canceled|scheduled|returned|filed|ordered|picked up|dropped off|wrapped up|did|made)\s+([^.!?;]+)/giu,
  /\b(?:done with|finished with|took care of)\s+([^.!?;]+)/giu,
  /\b(?:the |my )?([^.!?;]+?) (?:is|are|was|were) (?:now )?(?:done|finished|complete|completed|sent|booked|paid|submitted|sorted)\b/giu,
];
const CANCEL_PATTERN = /\b(?:never ?mind|cancel|no need to|don't need to|do not need to|forget about|scratch)\s+(?:the\s+)?([^.!?;]+)/giu;

interface KnownTask {
  alias: string;
  title: string;
  state: string;
}

export function extractTasks(input: UpdaterInput): { ops: TaskOp[] } {
  const ops: TaskOp[] = [];
  const open: { target: string; title: string }[] = (input.existing as unknown as KnownTask[])
    .filter((task) => task.state === 'open')
    .map((task) => ({ target: task.alias, title: task.title }));
  let refs = 0;

  for (const record of input.records) {
    for (const sentence of sentences(record.content)) {
      if (isSmallTalk(sentence) || looksLikeInstruction(sentence)) continue;

      const progress = matchProgress(sentence, open);
      if (progress) {
        ops.push({ op: 'update', target: progress.task.target, changes: { state: progress.state }, evidence: [record.id] });
        open.splice(open.indexOf(progress.task), 1);
        continue;
      }
      if (record.type !== 'message' || record.role === 'tool') continue;
      for (const { pattern, owner, needsDate } of CREATE_PATTERNS) {
        const match = [...sentence.matchAll(pattern)][0];
        if (!match) continue;
        const who = record.role === 'assistant' && owner(match) === 'user' ? 'assistant' : owner(match);
        const phrase = match[match.length - 1]!;
        if (!who || !/^[a-z]/i.test(phrase)) continue;
        const due = resolveDate(phrase, record.timestamp, true);
        if (needsDate && !due) continue;
        const title = cleanTitle(due ? phrase.replace(due.text, '') : phrase);
        if (!title || title.split(' ').length < 2) continue;
        const ref = `t${++refs}`;
        ops.push({
          op: 'add',
          ref,
          task: { title, owner: who, ...(due && due.iso >= record.timestamp.slice(0, 10) ? { due: due.iso } : {}) },
          evidence: [record.id],
        });
        open.push({ target: `new:${ref}`, title });
        break;
      }
    }
  }
  return { ops };
}

function cleanTitle(phrase: string): string {
  const title = trimPhrase(phrase).replace(/(?:\s+(?:by|before|on|until|for|at|in|this|next|from))+$/i, '');
  return capitalise(title.replace(/\bme\b/g, 'the user').replace(/\bmy\b/g, "the user's"));
}

function matchProgress(sentence: string, open: { target: string; title: string }[]) {
  const best = (phrase: string) => {
    const wanted = toInfinitive(phrase);
    let found: { target: string; title: string } | undefined;
    let score = 0;
    for (const task of open) {
      const s = Math.max(similarity(wanted, toInfinitive(task.title)), similarity(phrase, task.title));
      if (s > score) {
        score = s;
        found = task;
      }
    }
    return score >= 0.34 ? found : undefined;
  };
  for (const match of sentence.matchAll(CANCEL_PATTERN)) {
    const task = best(match[1]!);
    if (task) return { task, state: 'cancelled' as const };
  }
  for (const pattern of DONE_PATTERNS) {
    for (const match of sentence.matchAll(pattern)) {
      const phrase = match.length > 2 ? `${match[1]} ${match[2]}` : match[1]!;
      const task = best(phrase);
      if (task) return { task, state: 'done' as const };
    }
  }
  return undefined;
}
