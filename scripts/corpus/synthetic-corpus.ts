/**
 * A seeded generator of multi-month conversations with ground truth, in the
 * evaluation corpus format (LoCoMo's JSON plus the `roles` and `stale`
 * extensions, docs/EVAL.md). A user talks to an assistant two or three times
 * a week; between the small talk, storylines unfold: contacts who change
 * jobs, a fact stated wrongly and corrected, a move to another city, things
 * done "yesterday" or "last Tuesday", tasks opened and later closed, stable
 * preferences, a relative whose job is learnt in a later session. Every
 * question names the turns that answer it.
 */
import { MONTH_NAMES } from './calendar.js';
import { mulberry32 } from './random.js';

export interface SyntheticOptions {
  /** Conversations (one agent each). @default 3 */
  readonly samples?: number;
  /** Length of each conversation. @default 4 */
  readonly months?: number;
  /** @default 11 */
  readonly seed?: number;
  /** First day (a Monday is best). @default '2025-01-06' */
  readonly start?: string;
}

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}

interface Qa {
  question: string;
  answer: string;
  evidence: string[];
  category: string;
  stale?: string[];
}

export interface SyntheticSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string; roles: Record<string, 'user' | 'assistant'> };
  qa: Qa[];
}

const USERS = ['Sam', 'Noor', 'Jonas', 'Ana', 'Kenji', 'Maya'];
const PEOPLE: readonly [name: string, pronoun: 'She' | 'He'][] = [
  ['Dana Whitfield', 'She'], ['Marco Rossi', 'He'], ['Priya Natarajan', 'She'], ['Omar Haddad', 'He'], ['Lena Vogel', 'She'],
  ['Tomás Ortega', 'He'], ['Grace Liu', 'She'], ['Felix Brandt', 'He'], ['Hana Sato', 'She'], ['Victor Mensah', 'He'],
];
const ORGANISATIONS = ['Initech', 'Acme Corp', 'Globex', 'Umbrella Labs', 'Stark Logistics', 'Wayne Foods', 'Hooli', 'Vandelay Industries', 'Soylent Systems', 'Cyberdyne'];
const ROLES = ['product manager', 'head of design', 'data analyst', 'sales director', 'software engineer', 'recruiter', 'chief financial officer', 'marketing lead'];
const CITIES = ['Berlin', 'Lisbon', 'Munich', 'Vienna', 'Madrid', 'Oslo', 'Dublin', 'Prague', 'Lyon', 'Utrecht'];
const ACTIVITIES: readonly [did: string, question: string][] = [
  ['went hiking in the hills', 'go hiking'], ['ran a half marathon', 'run a half marathon'], ['visited the science museum', 'visit the science museum'],
  ['saw a jazz concert', 'see a jazz concert'], ['went to a pottery class', 'go to a pottery class'], ['tried the new ramen place downtown', 'try the new ramen place'],
  ['went sailing on the lake', 'go sailing'], ['helped a friend move flat', 'help a friend move'],
];
const TASKS: readonly [todo: string, done: string][] = [
  ['send the signed contract to the landlord', 'I sent the signed contract to the landlord this morning.'],
  ['book a dentist appointment', 'I booked the dentist appointment, finally.'],
  ['renew the gym membership', 'I renewed the gym membership today.'],
  ['pay the electricity bill', 'I paid the electricity bill just now.'],
  ['order a birthday present for Leo', 'I ordered the birthday present for Leo.'],
  ['submit the expense report', 'I submitted the expense report an hour ago.'],
];
const FAVOURITES: readonly [what: string, values: readonly string[]][] = [
  ['food', ['Thai curry', 'sushi', 'lasagne', 'falafel']],
  ['band', ['Radiohead', 'Daft Punk', 'Fleetwood Mac', 'ABBA']],
  ['book', ['Dune', 'Middlemarch', 'The Hobbit', 'Beloved']],
];
const PETS = ['Biscuit', 'Pepper', 'Mochi', 'Juniper', 'Waffles'];
const RELATIVES = ['sister', 'brother', 'cousin'];
const SIBLING_NAMES = ['Elena', 'Rafael', 'Ingrid', 'Tobias', 'Amara', 'Luca'];
const SMALL_TALK = [
  'Morning!', 'Hi again.', 'How are you today?', 'The weather is grey again.', 'Long day at work.', 'haha yes', 'ok', 'sounds good',
  'I had way too much coffee today.', 'Traffic was terrible this morning.', 'Not much new, honestly.', 'Thanks, that helps.', 'let me think about it',
];
const ASSISTANT = ['Got it.', 'Thanks for telling me.', 'That sounds nice.', 'Noted.', 'Good to hear.', 'Anything else I can help with?', 'Sure.', 'Take your time.'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;

/**
 * The Monday that lets `samples` conversations of `months` end about two
 * weeks before `now`: replaying them then leaves only a short silence for the
 * final sweep to mark day by day.
 */
export function recentStart(months: number, now = new Date(), samples = 1): string {
  // Each sample starts 3 days after the one before it.
  const target = now.getTime() - (Math.round(months * 4.35) * 7 + 14 + (samples - 1) * 3) * DAY_MS;
  const day = new Date(Math.floor(target / DAY_MS) * DAY_MS);
  const monday = day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday).toISOString().slice(0, 10);
}

/** `7 May 2023`, the way LoCoMo writes answers. */
export const writtenDate = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
/** `1:56 pm on 8 May, 2023`, the way LoCoMo writes session times. */
const sessionDateTime = (ms: number) => {
  const d = new Date(ms);
  const hour = d.getUTCHours();
  const minute = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hour % 12 === 0 ? 12 : hour % 12}:${minute} ${hour < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
};

/** A storyline step: what the user says in a session, and questions that become answerable. */
interface Beat {
  readonly week: number;
  readonly say: (session: SessionContext) => void;
}

interface SessionContext {
  readonly at: number;
  /** Adds a user turn and returns its dia_id. */
  user(text: string): string;
}

export function syntheticCorpus(options: SyntheticOptions = {}): SyntheticSample[] {
  const samples = options.samples ?? 3;
  return Array.from({ length: samples }, (_, index) => syntheticSample(index, options));
}

function syntheticSample(index: number, options: SyntheticOptions): SyntheticSample {
  const random = mulberry32((options.seed ?? 11) * 1_000 + index);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const shuffled = <T>(list: readonly T[]): T[] => [...list].map((v) => [random(), v] as const).sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const weeks = Math.max(4, Math.round((options.months ?? 4) * 4.35));
  const start = Date.parse(`${options.start ?? '2025-01-06'}T00:00:00Z`) + index * 3 * DAY_MS;
  const user = USERS[index % USERS.length]!;
  const assistant = 'Assistant';
  const qa: Qa[] = [];
  const beats: Beat[] = [];
  const late = (from: number) => Math.min(weeks - 1, from + 2 + Math.floor(random() * Math.max(1, weeks - from - 2)));

  // Contacts who change jobs.
  const people = shuffled(PEOPLE).slice(0, 3);
  const organisations = shuffled(ORGANISATIONS);
  people.forEach(([name, pronoun], k) => {
    const first = name.split(' ')[0]!;
    const [org1, org2] = [organisations[2 * k]!, organisations[2 * k + 1]!];
    const [role1, role2] = [pick(ROLES), pick(ROLES)];
    const introWeek = Math.floor(random() * Math.max(1, weeks / 3));
    let intro = '';
    beats.push({ week: introWeek, say: (s) => { intro = s.user(`I had lunch with ${name} today. ${pronoun} works at ${org1} as a ${role1}.`); } });
    beats.push({
      week: late(introWeek),
      say: (s) => {
        const moved = s.user(`Big news: ${first} just started a new job at ${org2} as ${role2}.`);
        qa.push({ question: `Where does ${name} work now?`, answer: org2, evidence: [moved], category: 'update', stale: [org1] });
        qa.push({ question: `Where did ${name} work before joining ${org2}?`, answer: org1, evidence: [intro, moved], category: 'multi-hop' });
        qa.push({ question: `What is ${name}'s role at ${org2}?`, answer: role2, evidence: [moved], category: 'single-hop' });
      },
    });
  });

  // A fact stated wrongly and corrected in the same conversation.
  const [wrongFloor, rightFloor] = shuffled([2, 3, 4, 5, 6, 7, 8]).slice(0, 2) as [number, number];
  const floorWeek = Math.floor(random() * Math.max(1, weeks / 2));
  beats.push({
    week: floorWeek,
    say: (s) => {
      s.user(`My office is on floor ${wrongFloor}.`);
      const fixed = s.user(`Actually it's floor ${rightFloor}, not ${wrongFloor}.`);
      qa.push({ question: `Which floor is ${user}'s office on?`, answer: `floor ${rightFloor}`, evidence: [fixed], category: 'update', stale: [`floor ${wrongFloor}`] });
    },
  });

  // A move to another city, months apart.
  const [city1, city2] = shuffled(CITIES);
  let livesIn = '';
  beats.push({ week: 0, say: (s) => { livesIn = s.user(`I live in ${city1}.`); } });
  beats.push({
    week: late(Math.floor(weeks / 2)),
    say: (s) => {
      const moved = s.user(`Actually, I now live in ${city2}, not ${city1}.`);
      qa.push({ question: `Which city does ${user} live in?`, answer: city2!, evidence: [moved], category: 'update', stale: [city1!] });
      qa.push({ question: `Where did ${user} live before moving to ${city2}?`, answer: city1!, evidence: [livesIn, moved], category: 'multi-hop' });
    },
  });

  // Things done on a relative date.
  shuffled(ACTIVITIES).slice(0, 4).forEach(([did, asked]) => {
    beats.push({
      week: Math.floor(random() * weeks),
      say: (s) => {
        const today = Math.floor(s.at / DAY_MS) * DAY_MS;
        const form = Math.floor(random() * 3);
        let when: number;
        let phrase: string;
        if (form === 0) {
          when = today - DAY_MS;
          phrase = 'Yesterday';
        } else if (form === 1) {
          when = today - 2 * DAY_MS;
          phrase = 'Two days ago';
        } else {
          const weekday = (new Date(today).getUTCDay() + 7 - (2 + Math.floor(random() * 4))) % 7;
          const back = ((new Date(today).getUTCDay() - weekday + 7) % 7) || 7;
          when = today - back * DAY_MS;
          phrase = `Last ${WEEKDAYS[weekday]}`;
        }
        const said = s.user(`${phrase} I ${did}.`);
        qa.push({ question: `When did ${user} ${asked}?`, answer: writtenDate(when), evidence: [said], category: 'temporal' });
      },
    });
  });

  // Tasks opened, each in its own week (so no two share a due date), and closed a week or two later.
  const openWeeks = shuffled(Array.from({ length: Math.max(1, weeks - 3) }, (_, w) => w));
  shuffled(TASKS).slice(0, Math.min(3, openWeeks.length)).forEach(([todo, done], k) => {
    const openWeek = openWeeks[k]!;
    beats.push({
      week: openWeek,
      say: (s) => {
        const today = Math.floor(s.at / DAY_MS) * DAY_MS;
        // The coming Friday; said on a Friday, "by next Friday" (plain "by Friday" would mean today).
        const isFriday = new Date(today).getUTCDay() === 5;
        const due = today + (isFriday ? 7 : (5 - new Date(today).getUTCDay() + 7) % 7) * DAY_MS;
        const opened = s.user(`Remind me to ${todo} by ${isFriday ? 'next ' : ''}Friday.`);
        qa.push({ question: `What did ${user} need to do by ${writtenDate(due)}?`, answer: todo, evidence: [opened], category: 'task' });
        qa.push({ question: `When was ${user} supposed to ${todo}?`, answer: writtenDate(due), evidence: [opened], category: 'temporal' });
      },
    });
    beats.push({ week: Math.min(weeks - 1, openWeek + 1 + Math.floor(random() * 2)), say: (s) => { s.user(done); } });
  });

  // Stable preferences.
  for (const [what, values] of FAVOURITES) {
    const value = pick(values);
    beats.push({
      week: Math.floor(random() * weeks),
      say: (s) => {
        const said = s.user(`My favourite ${what} is ${value}.`);
        qa.push({ question: `What is ${user}'s favourite ${what}?`, answer: value, evidence: [said], category: 'single-hop' });
      },
    });
  }
  const pet = pick(PETS);
  beats.push({
    week: Math.floor(random() * weeks),
    say: (s) => {
      const said = s.user(`My dog is called ${pet}.`);
      qa.push({ question: `What is the name of ${user}'s dog?`, answer: pet, evidence: [said], category: 'single-hop' });
    },
  });

  // A relative whose job is learnt in a later session.
  const relative = pick(RELATIVES);
  const relativeName = pick(SIBLING_NAMES);
  const relativeCity = pick(CITIES.filter((c) => c !== city1 && c !== city2));
  const relativeOrg = organisations[7]!;
  const relativeWeek = Math.floor(random() * Math.max(1, weeks / 2));
  let relativeTurn = '';
  beats.push({ week: relativeWeek, say: (s) => { relativeTurn = s.user(`My ${relative} ${relativeName} lives in ${relativeCity}.`); } });
  beats.push({
    week: late(relativeWeek),
    say: (s) => {
      const job = s.user(`${relativeName} got a job at ${relativeOrg}.`);
      qa.push({ question: `Where does ${user}'s ${relative} work?`, answer: relativeOrg, evidence: [relativeTurn, job], category: 'multi-hop' });
      qa.push({ question: `Which city does ${user}'s ${relative} live in?`, answer: relativeCity, evidence: [relativeTurn], category: 'single-hop' });
    },
  });

  // Sessions: two or three a week, each a handful of small talk around the week's beats.
  const conversation: SyntheticSample['conversation'] = { speaker_a: user, speaker_b: assistant, roles: { [user]: 'user', [assistant]: 'assistant' } };
  let session = 0;
  for (let week = 0; week < weeks; week += 1) {
    const days = shuffled([0, 1, 2, 3, 4, 5, 6]).slice(0, 2 + Math.floor(random() * 2)).sort((a, b) => a - b);
    const due = beats.filter((beat) => beat.week === week);
    days.forEach((day, k) => {
      session += 1;
      const at = start + (week * 7 + day) * DAY_MS + (8 + Math.floor(random() * 12)) * 3_600_000 + Math.floor(random() * 60) * 60_000;
      const turns: Turn[] = [];
      const add = (speaker: string, text: string) => {
        const id = `D${session}:${turns.length + 1}`;
        turns.push({ speaker, dia_id: id, text });
        return id;
      };
      const chat = () => {
        add(user, pick(SMALL_TALK));
        add(assistant, pick(ASSISTANT));
      };
      const context: SessionContext = {
        at,
        user: (text) => {
          const id = add(user, text);
          add(assistant, pick(ASSISTANT));
          return id;
        },
      };
      const mine = due.filter((_, b) => b % days.length === k);
      const talk = 3 + Math.floor(random() * 5);
      for (let t = 0; t < talk; t += 1) {
        chat();
        if (t < mine.length) mine[t]!.say(context);
      }
      for (const beat of mine.slice(talk)) beat.say(context);
      conversation[`session_${session}_date_time`] = sessionDateTime(at);
      conversation[`session_${session}`] = turns;
    });
  }
  return { sample_id: `synthetic-${index + 1}`, conversation, qa };
}
