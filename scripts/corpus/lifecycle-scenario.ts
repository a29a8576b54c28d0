/**
 * A seeded scenario for the note lifecycle loop (docs/EVAL.md, "The note
 * lifecycle loop"): one user talking to an assistant over a number of
 * batches (each batch one day's conversation, flushed as one consolidation
 * batch), with ground truth for every value stated.
 *
 * Four kinds of storyline ("cases"), each about one key (a fact about the
 * user, or where a contact works):
 * - `explicit`: a wrong value is stated, and a later batch corrects it in so
 *   many words ("Actually, …, not …", "Sorry, I misspoke earlier: …",
 *   "Correction: …", "Scratch that, …", "I got that wrong: …", "oops my
 *   bad, …");
 * - `feedback`: a wrong value is stated and never corrected in words; a later
 *   batch states the right value plainly, as if nothing had been said before.
 *   Only the user's feedback can say the first value was wrong;
 * - `change`: a value true when stated is replaced later (a contact changes
 *   jobs, the user changes gym): the old value is superseded, not wrong;
 * - `stable`: a value that never changes, restated later in other words.
 *
 * Phrasings come in several styles (plain, casual, formal) and the filler is
 * small talk in the same styles. Written for this evaluation from the events,
 * not from the local model's extraction rules; no public benchmark data.
 */
import { mulberry32 } from './random.js';

export interface LoopScenarioOptions {
  /** Batches (one day's conversation each). @default 10 */
  readonly batches?: number;
  /** Messages per batch, user and assistant together. @default 40 */
  readonly messagesPerBatch?: number;
  /** @default 15 */
  readonly seed?: number;
  /** First day, `YYYY-MM-DD`. @default 2025-03-03 */
  readonly start?: string;
  /** Days between batches. @default 3 */
  readonly spacingDays?: number;
}

export type CaseKind = 'explicit' | 'feedback' | 'change' | 'stable';

export interface LoopEvent {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly timestamp: string;
  readonly interactionId: string;
}

/** One storyline: a question about one key, and the values said about it, batch by batch (1-based). */
export interface LoopCase {
  readonly id: string;
  readonly kind: CaseKind;
  /** A fact about the user, or a contact's employer. */
  readonly topic: 'fact' | 'contact';
  /** The phrasing of the first statement and of the correction or change. */
  readonly style: string;
  readonly question: string;
  /** The batch the first value is said in. */
  readonly firstBatch: number;
  /** The batch the right or new value is said in (absent for `stable`). */
  readonly changeBatch?: number;
  /** The first value said (wrong for `explicit` and `feedback`, true until `changeBatch` for `change`). */
  readonly firstValue: string;
  /** The value true at the end (the correction, the plain restatement, the new value; for `stable`, the only one). */
  readonly finalValue: string;
  /** Event ids of the lines that state a value, by batch. */
  readonly lines: readonly { batch: number; id: string; value: string; text: string }[];
}

export interface LoopScenario {
  readonly batches: readonly (readonly LoopEvent[])[];
  readonly cases: readonly LoopCase[];
  /** The user's name (the speaker of user turns). */
  readonly user: string;
}

/** What is true about a case after `batch` batches have been consolidated. */
export interface CaseTruth {
  /** The value to present as current, if one has been said. */
  readonly current?: string;
  /** Values said that are not (or no longer) true: they must not be presented as current. */
  readonly untrue: readonly string[];
}

export function truthAt(c: LoopCase, batch: number): CaseTruth {
  if (batch < c.firstBatch) return { untrue: [] };
  const changed = c.changeBatch !== undefined && batch >= c.changeBatch;
  switch (c.kind) {
    case 'stable':
      return { current: c.finalValue, untrue: [] };
    case 'change':
      return changed ? { current: c.finalValue, untrue: [c.firstValue] } : { current: c.firstValue, untrue: [] };
    default:
      // Wrong from the moment it was said; the right value is known once it has been said.
      return changed ? { current: c.finalValue, untrue: [c.firstValue] } : { untrue: [c.firstValue] };
  }
}

type Style = 'plain' | 'casual' | 'formal';
const STYLES: readonly Style[] = ['plain', 'casual', 'formal'];

/** A fact about the user: how it is said in each style, and how a change is announced. */
interface FactSlot {
  readonly key: string;
  readonly question: string;
  readonly values: readonly string[];
  readonly say: Record<Style, (value: string) => string>;
  readonly change: (value: string) => string;
}

const FACT_SLOTS: readonly FactSlot[] = [
  {
    key: 'office floor',
    question: 'Which floor is my office on?',
    values: ['floor 2', 'floor 3', 'floor 4', 'floor 6', 'floor 7', 'floor 9'],
    say: { plain: (v) => `My office is on ${v}.`, casual: (v) => `btw my office is on ${v}, the view is ok`, formal: (v) => `For the record, my office is on ${v}.` },
    change: (v) => `We moved buildings this week, so my office is on ${v} now.`,
  },
  {
    key: 'dentist',
    question: 'Who is my dentist?',
    values: ['Dr. Patel', 'Dr. Okafor', 'Dr. Lindqvist', 'Dr. Moreau', 'Dr. Brennan'],
    say: { plain: (v) => `My dentist is ${v}.`, casual: (v) => `my dentist is ${v} lol, always running late`, formal: (v) => `Please note that my dentist is ${v}.` },
    change: (v) => `I switched practices last month; my dentist is ${v} now.`,
  },
  {
    key: 'locker',
    question: 'What is my locker number?',
    values: ['218', '312', '147', '405', '533'],
    say: { plain: (v) => `My locker number is ${v}.`, casual: (v) => `my locker number is ${v} if u need to drop stuff off`, formal: (v) => `For your records, my locker number is ${v}.` },
    change: (v) => `They reassigned the lockers, my locker number is ${v} now.`,
  },
  {
    key: 'car',
    question: 'What car do I drive?',
    values: ['Skoda', 'Volvo', 'Fiat', 'Mazda', 'Subaru'],
    say: { plain: (v) => `My car is a ${v}.`, casual: (v) => `my car is a ${v}, nothing fancy haha`, formal: (v) => `For reference, my car is a ${v}.` },
    change: (v) => `I sold the old one over the weekend, my car is a ${v} now.`,
  },
  {
    key: 'gym',
    question: 'Which gym do I go to?',
    values: ['FitLab', 'IronWorks', 'PulseClub', 'CoreHouse', 'Rowhouse'],
    say: { plain: (v) => `My gym is ${v}.`, casual: (v) => `my gym is ${v}, it's close to home`, formal: (v) => `I should mention that my gym is ${v}.` },
    change: (v) => `I cancelled the old membership; my gym is ${v} now.`,
  },
  {
    key: 'team',
    question: 'Which team am I on at work?',
    values: ['Payments', 'Search', 'Billing', 'Onboarding', 'Logistics'],
    say: { plain: (v) => `My team is ${v}.`, casual: (v) => `my team is ${v} these days, good bunch`, formal: (v) => `For context, my team is ${v}.` },
    change: (v) => `There was a reorg on Monday: my team is ${v} now.`,
  },
  {
    key: 'bank',
    question: 'Which bank am I with?',
    values: ['Northbank', 'Harbor Savings', 'Crestline Bank', 'Meridian Trust', 'Alder Credit'],
    say: { plain: (v) => `My bank is ${v}.`, casual: (v) => `my bank is ${v}, their app is meh`, formal: (v) => `For reference, my bank is ${v}.` },
    change: (v) => `I closed the old account; my bank is ${v} now.`,
  },
  {
    key: 'pharmacy',
    question: 'Which pharmacy do I use?',
    values: ['Greenleaf Pharmacy', 'Corner Chemist', 'Apex Pharmacy', 'Bluebell Pharmacy', 'Station Chemist'],
    say: { plain: (v) => `My pharmacy is ${v}.`, casual: (v) => `my pharmacy is ${v}, right by the bus stop`, formal: (v) => `Please note that my pharmacy is ${v}.` },
    change: (v) => `The old one closed down, so my pharmacy is ${v} now.`,
  },
  {
    key: 'favourite band',
    question: 'What is my favourite band?',
    values: ['Radiohead', 'Fleetwood Mac', 'Daft Punk', 'Portishead', 'Khruangbin'],
    say: { plain: (v) => `My favourite band is ${v}.`, casual: (v) => `my favourite band is ${v}, no contest`, formal: (v) => `If it matters, my favourite band is ${v}.` },
    change: (v) => `I have been listening to them nonstop, my favourite band is ${v} now.`,
  },
];

const PEOPLE: readonly [name: string, pronoun: 'She' | 'He'][] = [
  ['Dana Whitfield', 'She'], ['Marco Rossi', 'He'], ['Priya Natarajan', 'She'], ['Omar Haddad', 'He'], ['Lena Vogel', 'She'],
  ['Tomás Ortega', 'He'], ['Grace Liu', 'She'], ['Felix Brandt', 'He'],
];
const ORGANISATIONS = ['Initech', 'Globex', 'Hooli', 'Umbrella Labs', 'Stark Logistics', 'Wayne Foods', 'Vandelay Industries', 'Soylent Systems', 'Cyberdyne', 'Acme Corp', 'Tyrell Works', 'Oscorp'];
const ROLES = ['product manager', 'head of design', 'data analyst', 'sales director', 'software engineer', 'recruiter', 'marketing lead'];

const INTRODUCE: Record<Style, (name: string, pronoun: string, org: string, role: string) => string> = {
  plain: (name, pronoun, org, role) => `I had lunch with ${name} today. ${pronoun} works at ${org} as ${role}.`,
  casual: (name, pronoun, org, role) => `ran into ${name} at the station, ${pronoun.toLowerCase()} works at ${org} as ${role} now`,
  formal: (name, pronoun, org, role) => `I met ${name} this morning; ${pronoun.toLowerCase()} works at ${org} as ${role}.`,
};
const RESTATE_CONTACT: Record<Style, (first: string, pronoun: string, org: string) => string> = {
  plain: (first, pronoun, org) => `${first} called me today. ${pronoun} works at ${org}, by the way.`,
  casual: (first, _pronoun, org) => `${first} from ${org} says hi`,
  formal: (first, pronoun, org) => `I spoke with ${first} this afternoon; ${pronoun.toLowerCase()} works at ${org}.`,
};
const JOB_CHANGE: readonly ((first: string, pronoun: string, org: string, role: string) => string)[] = [
  (first, _p, org, role) => `Big news: ${first} just started a new job at ${org} as ${role}.`,
  (first, pronoun, org) => `${first} changed jobs, ${pronoun.toLowerCase()} works at ${org} now.`,
  (first, _p, org, role) => `Heard that ${first} joined ${org} as ${role} last week.`,
];

/** Explicit corrections, by style: each takes the corrected statement and the wrong value. */
const CORRECTIONS: readonly [style: string, say: (statement: string, wrong: string) => string][] = [
  ['actually, …, not …', (s, wrong) => `Actually, ${lower(stripEnd(s))}, not ${wrong}.`],
  ['sorry, I misspoke', (s) => `Sorry, I misspoke earlier: ${lower(s)}`],
  ['correction:', (s) => `Correction: ${lower(s)}`],
  ['scratch that', (s) => `Scratch that, ${lower(s)}`],
  ['I got that wrong', (s) => `I got that wrong: ${lower(s)}`],
  ['oops my bad (casual)', (s) => `oops my bad, ${lower(stripEnd(s))}`],
];

const SMALL_TALK: Record<Style, readonly string[]> = {
  plain: ['Morning!', 'How are you today?', 'The weather is grey again.', 'Long day at work.', 'Not much new, honestly.', 'Thanks, that helps.', 'Traffic was terrible this morning.', 'I had way too much coffee today.'],
  casual: ['haha yes', 'ok', 'sounds good', 'lol same', 'ugh mondays', 'brb', 'yep', 'cool cool', 'idk tbh', 'nice'],
  formal: ['Good afternoon.', 'Could you summarise the meeting notes for me?', 'Please draft a short reply to the landlord.', 'I would appreciate a reminder of the agenda.', 'Thank you for the update.'],
};
const ASSISTANT = ['Got it.', 'Thanks for telling me.', 'That sounds nice.', 'Noted.', 'Good to hear.', 'Anything else I can help with?', 'Sure.', 'Take your time.', 'Here is a short draft for you.', 'Happy to help.'];
const USERS = ['Sam', 'Noor', 'Jonas', 'Ana'];
const DAY_MS = 86_400_000;

function lower(text: string): string {
  // "My office …" → "my office …"; names stay capitalised.
  return /^(My|I|For|Please|If)\b/.test(text) && !text.startsWith('I ') ? text[0]!.toLowerCase() + text.slice(1) : text;
}
const stripEnd = (text: string) => text.replace(/[.!]+$/, '');

/**
 * The Monday that lets the scenario end about two weeks before `now`, so the
 * same scenario is replayed every run and recent dates stay recent.
 */
export function loopStart(options: Pick<LoopScenarioOptions, 'batches' | 'spacingDays'> = {}, now = new Date()): string {
  const span = ((options.batches ?? 10) - 1) * (options.spacingDays ?? 3) + 14;
  const day = Math.floor((now.getTime() - span * DAY_MS) / DAY_MS) * DAY_MS;
  const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday).toISOString().slice(0, 10);
}

export function lifecycleScenario(options: LoopScenarioOptions = {}): LoopScenario {
  const batches = Math.max(4, options.batches ?? 10);
  const perBatch = Math.max(12, options.messagesPerBatch ?? 40);
  const random = mulberry32((options.seed ?? 15) * 7_919);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (Math.max(low, high) - low + 1));
  const shuffled = <T>(list: readonly T[]): T[] => [...list].map((v) => [random(), v] as const).sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const user = pick(USERS);

  /** The scripted user lines of each batch (1-based), with the case and value they state. */
  const script = new Map<number, { text: string; caseId?: string; value?: string }[]>();
  const say = (batch: number, text: string, caseId?: string, value?: string) => {
    const list = script.get(batch) ?? [];
    list.push({ text, ...(caseId ? { caseId, value } : {}) });
    script.set(batch, list);
  };
  const cases: Omit<LoopCase, 'lines'>[] = [];
  const last = batches;
  // Wrong values are said in the first half, so one batch or more follows each correction.
  const early = Math.max(1, Math.floor(batches / 2));

  const kinds: CaseKind[] = ['explicit', 'explicit', 'explicit', 'feedback', 'feedback', 'change', 'change', 'stable', 'stable'];
  const corrections = shuffled(CORRECTIONS);
  let correctionIndex = 0;
  shuffled(FACT_SLOTS).forEach((slot, k) => {
    const kind = kinds[k % kinds.length]!;
    const [first, second] = shuffled(slot.values) as [string, string];
    const style = STYLES[k % STYLES.length]!;
    const id = `${kind}-${slot.key.replace(/\s+/g, '-')}`;
    const firstBatch = kind === 'stable' ? between(1, last - 2) : kind === 'change' ? between(1, Math.max(1, Math.floor(batches / 3))) : between(1, early);
    say(firstBatch, slot.say[style](first), id, first);
    if (kind === 'stable') {
      const again = Math.min(last, firstBatch + between(2, 3));
      say(again, slot.say[STYLES[(k + 1) % STYLES.length]!](first), id, first);
      cases.push({ id, kind, topic: 'fact', style, question: slot.question, firstBatch, firstValue: first, finalValue: first });
      return;
    }
    let changeBatch: number;
    let caseStyle: string = style;
    if (kind === 'explicit') {
      changeBatch = Math.min(last - 1, firstBatch + between(1, 2));
      const [name, correct] = corrections[correctionIndex++ % corrections.length]!;
      caseStyle = `${style} statement, "${name}" correction`;
      say(changeBatch, correct(slot.say.plain(second), first), id, second);
    } else if (kind === 'feedback') {
      changeBatch = Math.min(last - 1, firstBatch + between(2, 3));
      say(changeBatch, slot.say[STYLES[(k + 2) % STYLES.length]!](second), id, second);
    } else {
      changeBatch = Math.min(last - 1, firstBatch + between(2, Math.max(2, batches - 4)));
      say(changeBatch, slot.change(second), id, second);
    }
    cases.push({ id, kind, topic: 'fact', style: caseStyle, question: slot.question, firstBatch, changeBatch, firstValue: first, finalValue: second });
  });

  // Contacts: where each works (one corrected in words, one misheard, two changing jobs, one stable).
  const organisations = shuffled(ORGANISATIONS);
  const contactKinds: CaseKind[] = ['explicit', 'explicit', 'feedback', 'change', 'change', 'stable'];
  shuffled(PEOPLE).slice(0, contactKinds.length).forEach(([name, pronoun], k) => {
    const kind = contactKinds[k]!;
    const given = name.split(' ')[0]!;
    const [first, second] = [organisations[2 * k]!, organisations[2 * k + 1]!];
    const style = STYLES[k % STYLES.length]!;
    const id = `${kind}-contact-${given.toLowerCase()}`;
    const question = `Where does ${name} work?`;
    const firstBatch = kind === 'stable' ? between(1, last - 2) : kind === 'change' ? between(1, Math.max(1, Math.floor(batches / 3))) : between(1, early);
    say(firstBatch, INTRODUCE[style](name, pronoun, first, pick(ROLES)), id, first);
    if (kind === 'stable') {
      say(Math.min(last, firstBatch + between(2, 3)), RESTATE_CONTACT[STYLES[(k + 1) % STYLES.length]!](given, pronoun, first), id, first);
      cases.push({ id, kind, topic: 'contact', style, question, firstBatch, firstValue: first, finalValue: first });
      return;
    }
    let changeBatch: number;
    let caseStyle: string = style;
    if (kind === 'explicit') {
      changeBatch = Math.min(last - 1, firstBatch + between(1, 2));
      const [correctionName, correct] = corrections[correctionIndex++ % corrections.length]!;
      caseStyle = `${style} introduction, "${correctionName}" correction`;
      say(changeBatch, correct(`${given} works at ${second}.`, first), id, second);
    } else if (kind === 'feedback') {
      changeBatch = Math.min(last - 1, firstBatch + between(2, 3));
      say(changeBatch, RESTATE_CONTACT[STYLES[(k + 2) % STYLES.length]!](given, pronoun, second), id, second);
    } else {
      changeBatch = Math.min(last - 1, firstBatch + between(2, Math.max(2, batches - 4)));
      say(changeBatch, pick(JOB_CHANGE)(given, pronoun, second, pick(ROLES)), id, second);
    }
    cases.push({ id, kind, topic: 'contact', style: caseStyle, question, firstBatch, changeBatch, firstValue: first, finalValue: second });
  });

  // Each batch: one day's conversation, the scripted lines spread through small talk.
  const start = Date.parse(`${options.start ?? '2025-03-03'}T00:00:00Z`);
  const spacing = options.spacingDays ?? 3;
  const lines: { batch: number; id: string; value: string; text: string; caseId: string }[] = [];
  const out: LoopEvent[][] = [];
  for (let batch = 1; batch <= batches; batch += 1) {
    const scripted = script.get(batch) ?? [];
    const at = start + (batch - 1) * spacing * DAY_MS + (9 + Math.floor(random() * 8)) * 3_600_000;
    const slots = new Map<number, (typeof scripted)[number]>();
    // Scripted lines on even positions (user turns), spread out; each is answered by the assistant.
    const size = Math.max(perBatch, 2 * scripted.length + 2);
    const userSlots = Math.floor(size / 2);
    scripted.forEach((line, i) => slots.set(Math.floor(((i + 0.5) * userSlots) / Math.max(1, scripted.length)), line));
    const events: LoopEvent[] = [];
    for (let i = 0; i < size; i += 1) {
      const role = i % 2 === 0 ? 'user' : 'assistant';
      const line = role === 'user' ? slots.get(i / 2) : undefined;
      const content = line ? line.text : role === 'user' ? pick(SMALL_TALK[pick(STYLES)]) : pick(ASSISTANT);
      const id = `L${batch}:${i + 1}`;
      if (line?.caseId) lines.push({ batch, id, value: line.value!, text: line.text, caseId: line.caseId });
      events.push({ id, type: 'message', role, content, timestamp: new Date(at + i * 45_000).toISOString(), interactionId: `day-${batch}` });
    }
    out.push(events);
  }
  return {
    batches: out,
    user,
    cases: cases.map((c) => ({ ...c, lines: lines.filter((l) => l.caseId === c.id).map(({ caseId: _, ...rest }) => rest) })),
  };
}
