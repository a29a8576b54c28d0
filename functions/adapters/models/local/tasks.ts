/**
 * Local task extraction: commitments ("remind me to ...", "I need to ...",
 * "can you make sure I ...", "I'll ...", "Marco will ..."), their owner (the
 * record's author: its contact id or speaker, `user`, or `assistant`) and due
 * date (resolved forward from the record's own timestamp); and progress on
 * open tasks, matched by meaning rather than wording: a sentence closes the
 * open task it shares most verb and object lemmas with when it reports the
 * work in the past tense ("I sent Priya the contract this morning" closes
 * "send the contract to Priya"), or cancels it when it drops it ("no need to
 * ...", "forget about ...", "won't ... after all").
 */
import nlp from 'compromise';
import type { TaskOp } from '../../../domain/memory.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { DEEP_SENTENCES_PER_RECORD, authorOf, capitalise, cleanName, heldSentences, isSmallTalk, resolveDate, restoreDots, toInfinitive, trimPhrase } from './text.js';

/** Verbs that say nothing about work to be done ("I'll keep that in mind", "let me know"). */
const NOT_WORK = '(?!keep\\b|be\\b|have\\b|see\\b|think\\b|try\\b|update you\\b|let you know\\b|get back\\b|look into\\b|check\\b|need\\b|want\\b|remember\\b|do my best\\b|wait\\b|help\\b|take a look\\b|know\\b|admit\\b|say\\b|confess\\b|agree\\b|laugh\\b|wonder\\b)';
/** Verbs of errands done in the world, not by the assistant in its reply: a sentence that opens with one is a note to self. */
const ERRANDS = 'call|ring|phone|book|buy|order|cancel|renew|pay|chase|pick up|collect|email|post|return|register|sign up|submit|bring|pack|print|sort out|follow up|schedule|reschedule|drop off|top up|fill in|send';
/**
 * Whether the words after a sentence's first say something happened or is so: "Order arrived damaged", "Book club was
 * fun", "Pay slip looks wrong" open with a noun, not an errand.
 */
function statesSomething(sentence: string): boolean {
  const rest = nlp(sentence).terms().slice(1);
  return rest.has('(#PastTense|#Copula|#Modal)') || /\b(?:looks|seems|feels|sounds|appears|keeps)\b/i.test(rest.text());
}

const CREATE_PATTERNS: { pattern: RegExp; owner: 'author' | 'assistant' | 'named'; needsDate?: boolean; errand?: boolean }[] = [
  {
    pattern: /\b(?:remind me to|i (?:still |shall |will |'ll )?need to|i have to|i must(?: to)?|i've got to|don't forget to|do not forget to|don't let me forget to|do not let me forget to|(?:can you |could you |please )?make sure i|note to self:?|todo:?|to-do:?|add to my (?:to-do |todo )?list:?|next steps?:|action(?: required)?:)\s+(?!admit\b|say\b|confess\b|agree\b)([^.!?;]+)/giu,
    owner: 'author',
  },
  // Written without "to" ("I need buy the uniform"): only before a verb of an errand, so "I need help" is not read.
  { pattern: new RegExp(`\\bi (?:need|must) (?!to\\b)((?:${ERRANDS})\\b[^.!?;]+)`, 'giu'), owner: 'author' },
  // A note to self that opens with an errand ("Call the landlord re: the boiler", "+ order lanterns", "ring them tmrw").
  { pattern: new RegExp(`^(?:[-+*•]\\s*|(?:and|also|then|plus)\\s+)?((?:${ERRANDS})\\b(?! me\\b| you\\b| us\\b)[^.!?;]+)`, 'giu'), owner: 'author', errand: true },
  // Chat drops the subject: "Need to renew the lease", "gotta book the dentist", "Reminder: pay the plumber".
  { pattern: new RegExp(`^(?:(?:really |still |also )?(?:need|have) to|gotta|got to|reminder:|reminder to)\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author' },
  { pattern: new RegExp(`\\bi(?:'ll| will| am going to|'m going to| shall)\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author' },
  { pattern: new RegExp(`^let me\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author' },
  {
    // A request answered in the reply itself (translate, summarise, explain) or a courtesy ("please note that ...", "please be advised") is not a task.
    pattern: /\b(?:can you|could you|would you|please)\s+(?:kindly\s+)?(?!kindly\b|tell|explain|believe|imagine|remind|help|let me know|let us know|see|hear|recommend|suggest|summari[sz]e|check if|cancel|make sure|translate|rewrite|rephrase|proofread|define|calculate|convert|note\b|be advised|find attached|see attached|when\b|if\b|keep (?:this|that|it|in mind)|bear in mind|remember)([^.!?;]+)/giu,
    owner: 'assistant',
  },
  { pattern: /\b(\p{Lu}[\p{L}'-]+) (?:will|is going to|promised to|agreed to|needs to|has to)\s+([^.!?;]+)/gu, owner: 'named' },
];

const CANCEL_SIGNAL = /\b(?:never ?mind|no need (?:to|for)|(?:don't|do not|no longer) need|cancel|scrap|(?<!(?:n't|not|never) )forget (?:about )?(?!to\b)|call off|drop (?:it|the)|not going to|won't|will not|let's not|skip)\b/i;
const NEGATED = /\b(?:not|n't|never|yet|still have to|still need)\b/i;
const COMPLETION_WORDS = /\b(?:rang|phoned|done|finished|completed|sorted|shipped|processed|resolved|fixed|sent|went out|in your inbox|taken care of|all set|at last|finally)\b/i;
/** Words that say the work is finished whatever its verb ("the report is done"). */
const GENERIC_DONE = /\b(?:done|finished|completed|sorted|taken care of|all set|went out|in your inbox|is back with)\b/i;
/** Verbs that do the same work: closing "email X" by "sent X". */
const SAME_WORK: Readonly<Record<string, string>> = { email: 'send', mail: 'send', ship: 'send', post: 'send', forward: 'send', ring: 'call', rang: 'call', rung: 'call', phone: 'call', phoned: 'call', reserve: 'book', reimburse: 'refund', arrange: 'send' };

const MAX_TASKS_PER_RECORD = 10;

interface KnownTask {
  alias: string;
  title: string;
  state: string;
}

interface OpenTask {
  target: string;
  title: string;
  words: Set<string>;
  /** The work itself: the title's first verb, folded ("email" → "send"). */
  verb: string | undefined;
  /** What the work is on: lemmas that are neither the verb nor a name ("contract", "passport"). */
  objects: Set<string>;
}

export function extractTasks(input: UpdaterInput): { ops: TaskOp[] } {
  const ops: TaskOp[] = [];
  const open: OpenTask[] = (input.existing as unknown as KnownTask[]).filter((task) => task.state === 'open').map((task) => openTask(task.alias, task.title));
  let refs = 0;

  for (const record of input.records) {
    const author = authorOf(record);
    let created = 0;
    for (const [index, held] of heldSentences(author.content).entries()) {
      if (isSmallTalk(held) || looksLikeInstruction(held)) continue;
      const sentence = restoreDots(held);
      // Reading tense takes compromise: only within the record's budget; and a record opens at most a few tasks.
      const progress = index < DEEP_SENTENCES_PER_RECORD ? matchProgress(sentence, open) : undefined;
      if (progress) {
        ops.push({ op: 'update', target: progress.task.target, changes: { state: progress.state }, evidence: [record.id] });
        open.splice(open.indexOf(progress.task), 1);
        continue;
      }
      if (record.type !== 'message' || record.role === 'tool' || created >= MAX_TASKS_PER_RECORD) continue;
      if (/^(?:if|what if|should|would|do you think|i wonder)\b/i.test(sentence.trim())) continue;
      // The commitment that comes first in the sentence: "Let me arrange X, I'll get it sent out" is about X.
      const matches = CREATE_PATTERNS.flatMap(({ pattern, owner, errand }) => [...held.matchAll(pattern)].slice(0, 1).map((match) => ({ match, owner, errand }))).sort((a, b) => (a.match.index ?? 0) - (b.match.index ?? 0));
      for (const { match, owner, errand } of matches) {
        if (errand && (record.role !== 'user' || statesSomething(restoreDots(match[1]!)))) continue;
        const who = owner === 'assistant' ? (record.role === 'assistant' ? author.key : 'assistant') : owner === 'named' ? cleanName(match[1]!) : author.key;
        const phrase = restoreDots(match[match.length - 1]!);
        if (!who || !/^\p{L}/u.test(phrase)) continue;
        const due = resolveDate(phrase, record.timestamp, true);
        const title = cleanTitle(due ? withoutDue(phrase, due.text) : phrase, author.name);
        if (!title || title.split(' ').length < 2 || lemmas(title).size < 2) continue;
        const ref = `t${++refs}`;
        ops.push({
          op: 'add',
          ref,
          task: { title, owner: who, ...(due && due.iso >= record.timestamp.slice(0, 10) ? { due: due.iso } : {}) },
          evidence: [record.id],
        });
        open.push(openTask(`new:${ref}`, title));
        created += 1;
        break;
      }
    }
  }
  return { ops };
}

function openTask(target: string, title: string): OpenTask {
  const first = contentWords(toInfinitive(title).split(' ')[0] ?? '');
  const verb = [...first][0];
  const folded = verb ? (SAME_WORK[verb] ?? verb) : undefined;
  const names = lemmas(title.split(' ').slice(1).filter((word) => /^\p{Lu}/u.test(word)).join(' '));
  const objects = new Set([...lemmas(title)].filter((word) => word !== folded && !names.has(word)));
  return { target, title, words: lemmas(title), verb: folded, objects };
}

const STOP_WORDS = new Set(['the', 'a', 'an', 'to', 'for', 'of', 'on', 'in', 'and', 'my', 'me', 'by', 'with', 'at', 'this', 'that', 'it', 'i', 'you', 'your', 'our', 'about', 'from', 'up', 'out', 'over', 'is', 'are', 'was', 'be', 'been', 'has', 'have', 'just', 'all', 'them', 'their', 'his', 'her']);

/** Words of a phrase without stop words, lightly stemmed (plurals, -ing, -ed of long words; "ring" stays "ring"). */
function contentWords(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
      .map((word) => (word.length > 5 ? word.replace(/(?:ing|ed)$/, '') : word))
      .map((word) => (word.length > 3 ? word.replace(/(?<!s)s$/, '') : word)),
  );
}

/** Content-word lemmas of a phrase, with verbs of the same work folded together. */
function lemmas(text: string): Set<string> {
  const words = contentWords(toInfinitive(text.replace(/\bthe user's\b/gi, '')));
  return new Set([...words].map((word) => SAME_WORK[word] ?? word));
}

/** The phrase without its due date, and without the word that led to it ("follow up by Friday if unresolved" → "follow up if unresolved"). */
function withoutDue(phrase: string, dueText: string): string {
  const at = phrase.indexOf(dueText);
  if (at < 0) return phrase;
  const before = phrase.slice(0, at).replace(/\s+(?:by|before|on|until|no later than)(?: the)?\s*$/i, ' ');
  return `${before}${phrase.slice(at + dueText.length)}`.replace(/\s{2,}/g, ' ');
}

function cleanTitle(phrase: string, authorName: string | undefined): string {
  const title = trimPhrase(phrase)
    .replace(/^to /i, '')
    // Asides after the commitment ("..., promise", "..., I keep forgetting", "please keep track of it").
    .replace(/,\s*(?:i|it|please|promise|so|and|but|they|we|he|she)\b.*$/i, '')
    .replace(/\s+(?:please keep track of it|promise)$/i, '')
    .replace(/(?:\s+(?:by|before|on|until|for|at|in|this|next|from|today|tonight))+$/i, '');
  const owner = authorName ? `${authorName}'s` : "the user's";
  return capitalise(trimPhrase(title).replace(/\bme\b/g, authorName ?? 'the user').replace(/\bmy\b/g, owner));
}

/**
 * The open task a sentence closes or cancels, by meaning: at least two shared
 * lemmas (the work and its object or counterpart), and a signal of the new
 * state: a cancellation phrase, or the work reported in the past tense.
 */
function matchProgress(sentence: string, open: readonly OpenTask[]): { task: OpenTask; state: 'done' | 'cancelled' } | undefined {
  if (open.length === 0) return undefined;
  const cancelled = CANCEL_SIGNAL.test(sentence);
  const doc = nlp(sentence);
  const done = !cancelled && !NEGATED.test(sentence) && (doc.has('#PastTense') || COMPLETION_WORDS.test(sentence));
  if (!cancelled && !done) return undefined;
  const words = lemmas(sentence);
  let best: OpenTask | undefined;
  let bestScore = 0;
  for (const task of open) {
    let shared = 0;
    for (const word of task.words) if (words.has(word)) shared += 1;
    const score = shared / Math.max(1, task.words.size);
    // Done needs the work itself reported ("sent", "shipped" for "send"), or a word that says it is finished.
    const reportsWork = cancelled || (task.verb !== undefined && words.has(task.verb)) || GENERIC_DONE.test(sentence);
    // ...and the same object: "sent Priya a card" does not close "send the contract to Priya".
    const sameObject = task.objects.size === 0 || [...task.objects].some((word) => words.has(word));
    if (reportsWork && sameObject && shared >= 2 && score >= 0.3 && score > bestScore) {
      best = task;
      bestScore = score;
    }
  }
  return best ? { task: best, state: cancelled ? 'cancelled' : 'done' } : undefined;
}
