/**
 * A seeded generator of casual chat between two friends over months, in
 * LoCoMo's format (samples, `speaker_a`/`speaker_b`, `session_N` turns with
 * dia_ids, `session_N_date_time`, photos as `img_url` + `blip_caption`, `qa`
 * with evidence dia_ids and LoCoMo's numeric categories).
 *
 * Written in a different style from the synthetic corpus, and not toward
 * any extractor: the world is generated first (siblings, pets, hobbies,
 * trips, a job, a concert, a dinner planned and moved), then each event is
 * written as turns from several templates with varied vocabulary, pronouns,
 * abbreviations and the odd typo, and the questions are written from the
 * events in other words than the turns ("What did Maya's brother study?"
 * when the turn said "my little bro just graduated in marine biology").
 * Relative dates ("yesterday", "last Saturday", "last weekend") are resolved
 * against the session's date for the answers; multi-hop questions rest on
 * turns from two or more sessions.
 */
import { MONTH_NAMES } from './calendar.js';
import { mulberry32 } from './random.js';

export interface FriendsOptions {
  /** Conversations (one agent each). @default 2 */
  readonly samples?: number;
  /** Length of each conversation. @default 4 */
  readonly months?: number;
  /** @default 23 */
  readonly seed?: number;
  /** First day. @default '2025-02-03' */
  readonly start?: string;
}

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  img_url?: string[];
  blip_caption?: string;
}

/** LoCoMo's categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
export const FRIENDS_CATEGORY = { multiHop: 1, temporal: 2, openDomain: 3, singleHop: 4, adversarial: 5 } as const;

interface Qa {
  question: string;
  answer?: string;
  adversarial_answer?: string;
  evidence: string[];
  category: number;
  stale?: string[];
}

export interface FriendsSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: Qa[];
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const FRIENDS = ['Maya', 'Jordan', 'Priya', 'Leo', 'Sofia', 'Kwame', 'Hannah', 'Mateo', 'Aisha', 'Ben', 'Yuki', 'Nadia'];
const BROTHERS = ['Theo', 'Sami', 'Diego', 'Felix', 'Omar', 'Jonah'];
const SISTERS = ['Lina', 'Rosa', 'Mei', 'Clara', 'Zoe', 'Ines'];
const FIELDS = ['marine biology', 'mechanical engineering', 'art history', 'nursing', 'computer science', 'architecture', 'linguistics', 'economics'];
const CITIES: readonly { city: string; country: string; caption: string; sight: string }[] = [
  { city: 'Lisbon', country: 'Portugal', caption: 'a photo of a yellow tram on a steep cobbled street', sight: 'tram' },
  { city: 'Seville', country: 'Spain', caption: 'a photo of a plaza with orange trees and a tiled fountain', sight: 'fountain' },
  { city: 'Kyoto', country: 'Japan', caption: 'a photo of a red wooden gate in a misty forest', sight: 'gate' },
  { city: 'Reykjavik', country: 'Iceland', caption: 'a photo of a huge waterfall under a grey sky', sight: 'waterfall' },
  { city: 'Edinburgh', country: 'Scotland', caption: 'a photo of a castle on a rock above a city', sight: 'castle' },
  { city: 'Split', country: 'Croatia', caption: 'a photo of a harbour with small fishing boats and stone houses', sight: 'boats' },
  { city: 'Montreal', country: 'Canada', caption: 'a photo of a street wall covered in colourful murals', sight: 'murals' },
  { city: 'Marrakesh', country: 'Morocco', caption: 'a photo of a market stall hung with metal lanterns', sight: 'lanterns' },
  { city: 'Vienna', country: 'Austria', caption: 'a photo of a chocolate cake on a marble cafe table', sight: 'cake' },
  { city: 'Istanbul', country: 'Turkey', caption: 'a photo of a mosque with many domes at sunset', sight: 'mosque' },
];
const DAYDREAM_CITIES = ['Buenos Aires', 'Hanoi', 'Cape Town', 'Oaxaca', 'Tbilisi'];
const COMPANIONS: readonly [relation: string, name: string, pronoun: 'she' | 'he'][] = [
  ['cousin', 'Ana', 'she'], ['roommate', 'Dev', 'he'], ['uni friend', 'Carla', 'she'], ['cousin', 'Marek', 'he'], ['coworker', 'Tess', 'she'], ['neighbour', 'Idris', 'he'],
];
const PETS: readonly { young: string; kind: string }[] = [
  { young: 'kitten', kind: 'cat' },
  { young: 'puppy', kind: 'dog' },
  { young: 'bunny', kind: 'rabbit' },
];
const PET_NAMES = ['Miso', 'Pickle', 'Noodle', 'Biscuit', 'Olive', 'Pixel', 'Mango', 'Tofu'];
const PET_COLOURS = ['grey', 'orange', 'black and white', 'brown'];
const MISCHIEF: readonly { says: readonly string[]; question: string; answer: string }[] = [
  { says: ['{pet} knocked my fave mug off the counter lol. RIP mug', 'woke up to {pet} pushing my favourite mug off the shelf. it did not survive'], question: "What did {who}'s {kind} break?", answer: 'mug' },
  { says: ['{pet} chewed through my headphone cable. again.', 'guess who bit clean through my headphone cable. {pet}. it was {pet}'], question: "What did {who}'s {kind} chew up?", answer: 'headphone cable' },
  { says: ['{pet} stole half a sandwich right off my plate', 'turned around for 2 secs and {pet} had my sandwich'], question: 'What food did the {kind} {who} brought home snatch?', answer: 'sandwich' },
];
const HOBBIES: readonly { name: string; start: readonly string[]; asked: string; milestone: { says: readonly string[]; caption?: string; question: string; answer: string } }[] = [
  {
    name: 'pottery',
    start: ['signed up for a pottery class at the community studio', 'finally started those pottery lessons, the wheel is HARD', 'started pottery on wednesday nights, my hands are permanently covered in clay'],
    asked: 'What creative class did {who} start going to?',
    milestone: { says: ['look what came out of the kiln!!', 'ok it is lopsided but it is MINE'], caption: 'a photo of a lumpy blue ceramic bowl on a wooden table', question: "What did {who} make in the class {pronoun} signed up for?", answer: 'bowl' },
  },
  {
    name: 'bouldering',
    start: ['joined a bouldering gym near work', 'got a membership at the bouldering place downtown, my forearms hate me', 'started bouldering with some people from work'],
    asked: 'Which sport did {who} take up at a gym?',
    milestone: { says: ['sent my first V4 today!!! arms are jelly', 'finally topped a V4, took me like 20 tries'], question: 'What grade did {who} reach for the first time at the gym {pronoun} joined?', answer: 'V4' },
  },
  {
    name: 'guitar',
    start: ['bought a secondhand guitar and started lessons', 'started learning guitar, my fingertips are dying', 'got a cheap guitar off a neighbour, taking lessons now'],
    asked: 'What instrument is {who} learning?',
    milestone: { says: ['i can finally play Wonderwall all the way through. yes i know.', 'played Wonderwall start to finish without stopping, pls clap'], question: 'Which song can {who} now play on the instrument {pronoun} took up?', answer: 'Wonderwall' },
  },
  {
    name: 'running',
    start: ['joined a running club that meets on tuesdays', 'started running with a club from the park, they are all terrifyingly fit', 'signed up for a running club, first session nearly killed me'],
    asked: 'What kind of club did {who} join?',
    milestone: { says: ['did my first 10k without stopping!!', 'ran a full 10k today, no walking breaks'], question: 'How far did {who} manage without stopping, after joining the club?', answer: '10k' },
  },
  {
    name: 'watercolour painting',
    start: ['started watercolour painting classes', 'took up watercolour painting, it is so calming', 'my new thing is watercolour painting, I bought way too many brushes'],
    asked: 'What art form did {who} pick up?',
    milestone: { says: ['sold one at the cafe market for 40 quid!!', 'someone actually bought one of mine at the cafe market, 40 quid'], question: 'How much did {who} sell a piece for at the cafe market?', answer: '40 quid' },
  },
];
const BANDS = ['Arctic Monkeys', 'Mitski', 'Tame Impala', 'Florence and the Machine', 'Bon Iver', 'Khruangbin'];
const JOBS: readonly { role: string; employer: string }[] = [
  { role: 'junior architect', employer: 'Brightwater Studio' },
  { role: 'sound engineer', employer: 'Northline Radio' },
  { role: 'UX researcher', employer: 'Cobalt Health' },
  { role: 'pastry chef', employer: 'Fernhill Bakery' },
  { role: 'data journalist', employer: 'the Harbour Gazette' },
];
const RESTAURANTS = ['Olive Tree', 'Casa Lupa', 'Saffron House', 'Little Bao'];
const DINNER_EXCUSES: readonly [said: string, answer: string][] = [
  ['my boss put a late meeting in', 'a late meeting'],
  ['my landlord is sending a plumber that evening', 'a plumber'],
  ['I have a dentist appointment I forgot about', 'a dentist appointment'],
];

const GREETINGS: readonly [string, string][] = [
  ['heyyy how are u', 'hiii! surviving, u?'], ['Hey! long time', 'I know!! life has been a lot'], ['morning!!', 'morning :) coffee #2 already'],
  ['yo', 'yoooo'], ['hi hi, got a sec?', 'always for u'], ['ok I have news', 'tell me everything'],
];
const CLOSINGS: readonly [string, string][] = [
  ['ok gotta run, talk soon', 'byeee'], ['anyway, dinner time, ttyl', 'enjoy!!'], ['going to sleep, night!', 'night night'], ['bus is here, later!', 'later x'],
];
const SMALL_TALK: readonly [string, string][] = [
  ['ugh mondays', 'tell me about it'], ['it has not stopped raining in like 4 days', 'my socks are permanently damp'],
  ['have u watched that baking show yet', 'not yet, no spoilers!!'], ['I ate cereal for dinner, no regrets', 'a classic'],
  ['why did the scarecrow win an award', 'omg. because he was outstanding in his field?? boo'], ['my neighbour is learning the trumpet. at 7am', 'noooo'],
  ['I think my plant is judging me', 'plants do that'], ['what r u up to this weekend', 'absolutely nothing and I cannot wait'],
  ['i need a holiday from my holiday', 'lol same'], ['the coffee machine at work broke, chaos', 'a national emergency'],
  ['why do I always pick the slowest queue', 'it is a gift'], ['saw a dog in a raincoat today, made my week', 'I need pics next time'],
  ['I would love to go to {daydream} someday', 'omg same, lets plan it one day'], ['my coworker keeps talking about getting a parrot', 'parrots live like 60 years, tell him to think hard'],
  ['do u think pineapple goes on pizza', 'we are not having this argument again'], ['traffic was insane this morning', 'I walked and still got rained on'],
];
const CHEERS = ['omg congrats!!', 'no wayyy', 'that is huge!!', 'stoppp this is amazing', 'ahh so happy for you', 'yesss', 'love this for you'];
const JOKES = ['hahaha classic', 'lmaooo', 'I am crying', 'of course it did', 'the drama'];

/** `7 May 2025`, the way LoCoMo writes answers. */
const written = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
/** `1:56 pm on 8 May, 2025`, the way LoCoMo writes session times. */
const sessionDateTime = (ms: number) => {
  const d = new Date(ms);
  const hour = d.getUTCHours();
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
};
const ordinal = (day: number) => `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** Casual spellings: applied now and then to words no answer or date depends on. */
const CASUAL: readonly [RegExp, string][] = [
  [/\byou\b/g, 'u'], [/\bare\b/g, 'r'], [/\bthough\b/g, 'tho'], [/\bprobably\b/g, 'prob'], [/\breally\b/g, 'rly'],
  [/\bgoing to\b/g, 'gonna'], [/\bwant to\b/g, 'wanna'], [/\bbecause\b/g, 'bc'], [/\bto be honest\b/g, 'tbh'], [/\bpeople\b/g, 'ppl'],
  [/\bdefinitely\b/g, 'definately'], [/\bweird\b/g, 'wierd'], [/\bfinally\b/g, 'finaly'], [/\bsomething\b/g, 'smth'], [/\bthanks\b/g, 'thx'],
];

/** A relative date as said in a session, and the answer it stands for. */
interface SaidWhen {
  readonly phrase: string;
  /** The day it happened (for dated events). */
  readonly day: number;
  /** The answer to "when": a written date, or "the weekend before …" / "the week before …". */
  readonly answer: string;
}

/**
 * A past day said relative to the session: `yesterday`, `two days ago`,
 * `last Saturday`, `last weekend`, `last week`. `since` bounds how far back
 * (the previous session's day: things are told the next time the friends talk).
 */
function saidWhen(sessionMs: number, since: number | undefined, random: () => number): SaidWhen {
  const today = dayOf(sessionMs);
  const gap = since === undefined ? 8 : Math.round((today - dayOf(since)) / DAY_MS);
  const options: SaidWhen[] = [];
  options.push(...['yesterday', 'last night', 'yday'].map((phrase) => ({ phrase, day: today - DAY_MS, answer: written(today - DAY_MS) })));
  if (gap > 2) options.push(...['two days ago', 'the day before yesterday', '2 days ago'].map((phrase) => ({ phrase, day: today - 2 * DAY_MS, answer: written(today - 2 * DAY_MS) })));
  for (let back = 2; back < Math.min(gap, 7); back += 1) {
    const day = today - back * DAY_MS;
    const name = WEEKDAYS[new Date(day).getUTCDay()]!;
    options.push({ phrase: `last ${name}`, day, answer: written(day) }, { phrase: `on ${name}`, day, answer: written(day) });
  }
  const weekday = new Date(today).getUTCDay();
  // Said Monday to Thursday, "last weekend" is the one just gone; it must be after the previous session.
  if (weekday >= 1 && weekday <= 4 && weekday + 1 < gap) options.push({ phrase: 'last weekend', day: today - (weekday + 1) * DAY_MS, answer: `the weekend before ${written(today)}` });
  if (gap > 7) options.push({ phrase: 'last week', day: today - 7 * DAY_MS, answer: `the week before ${written(today)}` });
  return options[Math.floor(random() * options.length)]!;
}

interface Person {
  readonly name: string;
  readonly sibling: { relation: 'brother' | 'sister'; casual: string; name: string; pronoun: 'he' | 'she'; possessive: 'his' | 'her'; younger: boolean; field: string };
}

interface Session {
  readonly index: number;
  readonly at: number;
  readonly turns: Turn[];
}

/** What a story beat writes into its session. */
interface Writer {
  readonly session: Session;
  /** The previous session's time, if any (relative dates must fall after it). */
  readonly since: number | undefined;
  say(speaker: string, text: string, options?: { protect?: readonly string[]; photo?: string }): string;
}

interface Beat {
  readonly session: number;
  readonly write: (w: Writer) => void;
}

/** One conversation's seeded draws, schedule and world, shared by the story writers. */
interface Story {
  readonly random: () => number;
  readonly pick: <T>(list: readonly T[]) => T;
  readonly chance: (p: number) => boolean;
  readonly shuffled: <T>(list: readonly T[]) => T[];
  readonly between: (lo: number, hi: number) => number;
  /** Sessions in the conversation. */
  readonly n: number;
  readonly sessions: readonly Session[];
  /** A random session index in [lo, hi], clamped to the conversation. */
  readonly slot: (lo: number, hi: number) => number;
  readonly people: readonly [Person, Person];
  readonly other: (p: Person) => Person;
  readonly cities: typeof CITIES;
  readonly hobbies: typeof HOBBIES;
  readonly companions: typeof COMPANIONS;
  readonly beats: Beat[];
  ask(category: number, question: string, answer: string, evidence: string[], extra?: Partial<Qa>): void;
  adversarial(question: string, answer: string, evidence: string[]): void;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? `{${key}}`);

export function friendsCorpus(options: FriendsOptions = {}): FriendsSample[] {
  return Array.from({ length: options.samples ?? 2 }, (_, index) => friendsSample(index, options));
}

function friendsSample(index: number, options: FriendsOptions): FriendsSample {
  const random = mulberry32((options.seed ?? 23) * 7_919 + index);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const shuffled = <T>(list: readonly T[]): T[] => [...list].map((v) => [random(), v] as const).sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

  // The schedule: a chat every three to eight days, in the evening mostly.
  const start = Date.parse(`${options.start ?? '2025-02-03'}T00:00:00Z`) + index * 3 * DAY_MS;
  const end = start + Math.round((options.months ?? 4) * 30.4) * DAY_MS;
  const sessions: Session[] = [];
  for (let day = start; day < end; day += between(3, 8) * DAY_MS) {
    // Started by 22:00, so a session's turns (30 s apart) never run into the next day.
    sessions.push({ index: sessions.length, at: day + between(9, 21) * 3_600_000 + between(0, 59) * 60_000, turns: [] });
  }
  const n = sessions.length;
  const clampSession = (value: number) => Math.max(0, Math.min(n - 1, value));
  const slot = (lo: number, hi: number) => clampSession(between(clampSession(lo), Math.max(clampSession(lo), clampSession(hi))));

  // The world: two friends, each with a sibling (one a brother, one a sister), hobbies, trips.
  const [nameA, nameB] = shuffled(FRIENDS) as [string, string];
  const brothers = shuffled(BROTHERS);
  const sisters = shuffled(SISTERS);
  const fields = shuffled(FIELDS);
  const brotherFirst = chance(0.5);
  const people: [Person, Person] = [nameA, nameB].map((name, k) => {
    const brother = (k === 0) === brotherFirst;
    const younger = chance(0.6);
    return {
      name,
      sibling: {
        relation: brother ? 'brother' : 'sister',
        casual: brother ? (younger ? pick(['little bro', 'baby brother', 'lil bro']) : pick(['big bro', 'older brother'])) : younger ? pick(['little sis', 'baby sister', 'lil sis']) : pick(['big sis', 'older sister']),
        name: brother ? brothers[k]! : sisters[k]!,
        pronoun: brother ? 'he' : 'she',
        possessive: brother ? 'his' : 'her',
        younger,
        field: fields[k]!,
      },
    } as Person;
  }) as [Person, Person];
  const other = (p: Person) => (p === people[0] ? people[1] : people[0]);
  const cities = shuffled(CITIES);
  const hobbies = shuffled(HOBBIES);
  const companions = shuffled(COMPANIONS);

  const qa: Qa[] = [];
  const beats: Beat[] = [];
  const ask = (category: number, question: string, answer: string, evidence: string[], extra: Partial<Qa> = {}) => {
    qa.push({ question, answer, evidence, category, ...extra });
  };
  const adversarial = (question: string, answer: string, evidence: string[]) => {
    qa.push({ question, adversarial_answer: answer, evidence, category: FRIENDS_CATEGORY.adversarial });
  };
  const story: Story = { random, pick, chance, shuffled, between, n, sessions, slot, people, other, cities, hobbies, companions, beats, ask, adversarial };
  // The stories, in this order (each draws from the same seeded sequence), then the sessions written around them.
  siblingStories(story);
  petStory(story);
  hobbyStories(story);
  tripStories(story);
  jobAndGigStories(story);
  dinnerStory(story);
  const conversation = writeSessions(story, index, nameA, nameB);

  return { sample_id: `friends-${index + 1}`, conversation, qa };
}

/**
 * A line as a friend would type it: now and then a casual spelling, a typo
 * from the list, no capital or full stop, an "lol". Words an answer, a name
 * or a date rests on (`protect`) are left as they are.
 */
function casual(text: string, protect: readonly string[], random: () => number): string {
  const kept = protect.map((value) => value.toLowerCase());
  let out = text;
  if (random() < 0.35) {
    for (const [pattern, replacement] of CASUAL) {
      if (random() < 0.5) continue;
      out = out.replace(pattern, (match, offset: number) => (kept.some((value) => overlaps(out, offset, match.length, value)) ? match : replacement));
    }
  }
  const lead = out[0] ?? '';
  if (random() < 0.3 && !kept.some((value) => out.toLowerCase().startsWith(value))) out = `${lead.toLowerCase()}${out.slice(1)}`;
  if (random() < 0.15) out = `${out.replace(/[.!]+$/, '')} lol`;
  return out;
}

/** Whether the match at `offset` falls inside an occurrence of `value` (case-insensitive). */
function overlaps(text: string, offset: number, length: number, value: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(value); at >= 0; at = lower.indexOf(value, at + 1)) {
    if (offset < at + value.length && at < offset + length) return true;
  }
  return false;
}

/** Siblings: each friend's sibling, introduced early; the graduation told in a later session, sometimes by name only. */
function siblingStories(story: Story): void {
  const { random, pick, chance, n, slot, people, other, beats, ask, adversarial } = story;
  for (const person of people) {
    const sib = person.sibling;
    const introAt = slot(0, Math.floor(n / 3));
    let intro = '';
    beats.push({
      session: introAt,
      write: (w) => {
        intro = w.say(person.name, pick([
          `my ${sib.casual} ${sib.name} is staying with me this week, send help`,
          `${sib.name} (my ${sib.casual}) is crashing on my sofa till sunday`,
          `guess who turned up unannounced. my ${sib.casual} ${sib.name}`,
        ]), { protect: [sib.name, sib.casual] });
        w.say(other(person).name, pick(['haha say hi from me', `omg how is ${sib.pronoun} doing`, 'the sofa life']));
        // "little bro" says younger, "big sis" older: the reader has to know that.
        ask(FRIENDS_CATEGORY.openDomain, `Is ${person.name}'s ${sib.relation} older or younger than ${person.name}?`, sib.younger ? 'younger' : 'older', [intro]);
      },
    });
    const gradAt = slot(introAt + 2, n - 1);
    if (gradAt <= introAt) continue;
    beats.push({
      session: gradAt,
      write: (w) => {
        const when = saidWhen(w.session.at, w.since, random);
        const byName = chance(0.5);
        const grad = byName
          ? w.say(person.name, pick([
              `${sib.name} graduated ${when.phrase}!!! ${sib.possessive} ${sib.field} degree is DONE`,
              `${sib.name} finally finished ${sib.possessive} degree ${when.phrase} - ${sib.field}, can u believe it`,
            ]), { protect: [sib.name, sib.field, when.phrase] })
          : w.say(person.name, pick([
              `my ${sib.casual} graduated ${when.phrase}!! ${sib.field}, so proud`,
              `${when.phrase} my ${sib.casual} walked at graduation. ${sib.field}!! I cried the whole time`,
            ]), { protect: [sib.casual, sib.field, when.phrase] });
        w.say(other(person).name, pick([`${pick(CHEERS)} tell ${sib.pronoun === 'he' ? 'him' : 'her'} I said congrats`, `${pick(CHEERS)} what's next for ${sib.pronoun === 'he' ? 'him' : 'her'}?`]));
        const evidence = byName ? [intro, grad] : [grad];
        ask(byName ? FRIENDS_CATEGORY.multiHop : FRIENDS_CATEGORY.singleHop, pick([`What did ${person.name}'s ${sib.relation} study?`, `What subject is ${person.name}'s ${sib.relation}'s degree in?`]), sib.field, evidence);
        ask(FRIENDS_CATEGORY.temporal, `When did ${person.name}'s ${sib.relation} finish university?`, when.answer, evidence);
        adversarial(`What did ${other(person).name}'s ${sib.relation} study?`, sib.field, evidence);
      },
    });
  }
}

/** A pet for one of the friends: adopted (with a photo), and up to mischief sessions later. */
function petStory(story: Story): void {
  const { random, pick, n, slot, people, other, beats, ask, adversarial } = story;
  {
    const owner = pick(people);
    const pet = pick(PETS);
    const petName = pick(PET_NAMES);
    const colour = pick(PET_COLOURS);
    const adoptAt = slot(0, Math.floor(n / 2));
    let adopted = '';
    beats.push({
      session: adoptAt,
      write: (w) => {
        const when = saidWhen(w.session.at, w.since, random);
        adopted = w.say(owner.name, pick([
          `${when.phrase} we brought home a ${pet.young}!! meet ${petName}`,
          `so... I adopted a ${pet.young} ${when.phrase}. ${petName}. I am obsessed`,
          `NEW FAMILY MEMBER. picked up ${petName} from the shelter ${when.phrase}, a tiny ${pet.young}`,
        ]), { protect: [petName, pet.young, when.phrase], photo: `a photo of a small ${colour} ${pet.young} asleep in a shoebox` });
        w.say(other(owner).name, pick(['I am DECEASED, so cute', 'the little face!!!', 'when can I come over and meet', pick(CHEERS)]));
        ask(FRIENDS_CATEGORY.singleHop, pick([`What name did ${owner.name} give the new pet?`, `What is the name of ${owner.name}'s new pet?`]), petName, [adopted]);
        ask(FRIENDS_CATEGORY.singleHop, `What colour is ${owner.name}'s pet?`, colour, [adopted]);
        ask(FRIENDS_CATEGORY.openDomain, `What kind of animal is ${petName}?`, pet.kind, [adopted]);
        ask(FRIENDS_CATEGORY.temporal, `When did ${owner.name} adopt ${petName}?`, when.answer, [adopted]);
        adversarial(`What is the name of ${other(owner).name}'s ${pet.kind}?`, petName, [adopted]);
      },
    });
    const mischiefAt = slot(adoptAt + 2, n - 1);
    if (mischiefAt > adoptAt) {
      const trouble = pick(MISCHIEF);
      beats.push({
        session: mischiefAt,
        write: (w) => {
          const said = w.say(owner.name, fill(pick(trouble.says), { pet: petName }), { protect: [petName, trouble.answer] });
          w.say(other(owner).name, pick(JOKES));
          ask(FRIENDS_CATEGORY.multiHop, fill(trouble.question, { who: owner.name, kind: pet.kind }), trouble.answer, [adopted, said]);
        },
      });
    }
  }
}

/** Hobbies: one each, started and, sessions later, a milestone that does not name the hobby. */
function hobbyStories(story: Story): void {
  const { random, pick, chance, n, slot, people, other, hobbies, beats, ask } = story;
  people.forEach((person, k) => {
    const hobby = hobbies[k]!;
    const startAt = slot(0, Math.floor(n / 2));
    let started = '';
    beats.push({
      session: startAt,
      write: (w) => {
        const told = chance(0.5) ? saidWhen(w.session.at, w.since, random) : undefined;
        started = w.say(person.name, told ? `${told.phrase} I ${pick(hobby.start)}` : `I ${pick(hobby.start)}`, { protect: [hobby.name, ...(told ? [told.phrase] : [])] });
        w.say(other(person).name, pick(['look at u, a whole new person', 'ooh I wanna hear how it goes', 'respect', 'who ARE you']));
        ask(FRIENDS_CATEGORY.singleHop, fill(hobby.asked, { who: person.name }), hobby.name, [started]);
        if (told) ask(FRIENDS_CATEGORY.temporal, `When did ${person.name} start ${hobby.name}?`, told.answer, [started]);
      },
    });
    const milestoneAt = slot(startAt + 2, n - 1);
    if (milestoneAt > startAt) {
      beats.push({
        session: milestoneAt,
        write: (w) => {
          const said = w.say(person.name, pick(hobby.milestone.says), { protect: [hobby.milestone.answer], ...(hobby.milestone.caption ? { photo: hobby.milestone.caption } : {}) });
          w.say(other(person).name, pick(CHEERS));
          ask(FRIENDS_CATEGORY.multiHop, fill(hobby.milestone.question, { who: person.name, pronoun: 'they' }), hobby.milestone.answer, [started, said]);
        },
      });
    }
  });
}

/** Trips: one each, planned with a companion, sometimes rerouted, then told with a photo. */
function tripStories(story: Story): void {
  const { random, pick, chance, n, slot, people, other, cities, companions, beats, ask } = story;
  people.forEach((person, k) => {
    const [planned, rerouted] = [cities[2 * k]!, cities[2 * k + 1]!];
    const [relation, companion] = companions[k]!;
    const planAt = slot(1, n - 4);
    const changes = chance(0.6);
    const changeAt = changes ? planAt + 1 : planAt;
    const reportAt = slot(changeAt + 1, changeAt + 4);
    if (reportAt <= changeAt) return;
    const destination = changes ? rerouted : planned;
    let plan = '';
    let change = '';
    beats.push({
      session: planAt,
      write: (w) => {
        plan = w.say(person.name, pick([
          `booked a long weekend in ${planned.city} with my ${relation} ${companion}!!`,
          `${companion} (my ${relation}) and I are doing ${planned.city} soon, flights are booked`,
          `ok it's official, me and my ${relation} ${companion} are going to ${planned.city}`,
        ]), { protect: [planned.city, companion, relation] });
        w.say(other(person).name, pick(['JEALOUS', 'bring me back a fridge magnet', 'omg u deserve it']));
      },
    });
    if (changes) {
      beats.push({
        session: changeAt,
        write: (w) => {
          change = w.say(person.name, pick([
            `change of plans, ${planned.city} is off - the airline cancelled everything. we're doing ${rerouted.city} instead`,
            `so ${planned.city} fell through (strikes, ugh) but we rebooked for ${rerouted.city}!`,
          ]), { protect: [planned.city, rerouted.city] });
          w.say(other(person).name, pick(['noooo. but also ooh', 'honestly might be better', 'plot twist']));
        },
      });
    }
    beats.push({
      session: reportAt,
      write: (w) => {
        const when = saidWhen(w.session.at, w.since, random);
        const report = w.say(person.name, pick([
          `back from ${destination.city}!! got in ${when.phrase}, already miss it`,
          `we flew home ${when.phrase}, ${destination.city} was unreal`,
          `${when.phrase} was our last day in ${destination.city} and I want to move there`,
        ]), { protect: [destination.city, when.phrase], photo: destination.caption });
        w.say(other(person).name, pick(['that photo!!!', 'ok I am booking a trip', 'stunning', 'I need the full story']));
        const month = new Date(when.day).getUTCMonth();
        ask(FRIENDS_CATEGORY.openDomain, `Which country did ${person.name} travel to in ${MONTH_NAMES[month]} ${new Date(when.day).getUTCFullYear()}?`, destination.country, [report]);
        ask(FRIENDS_CATEGORY.temporal, `When did ${person.name} get home from the trip to ${destination.city}?`, when.answer, [report]);
        ask(FRIENDS_CATEGORY.singleHop, `What was in the picture ${person.name} sent from ${destination.city}?`, destination.sight, [report]);
        if (changes) {
          ask(FRIENDS_CATEGORY.multiHop, `Where did ${person.name} and ${companion} end up going for their long weekend?`, destination.city, [change, report], { stale: [planned.city] });
          ask(FRIENDS_CATEGORY.multiHop, `Who travelled with ${person.name} to ${destination.city}?`, companion, [plan, change]);
        } else {
          ask(FRIENDS_CATEGORY.singleHop, `Who travelled with ${person.name} to ${destination.city}?`, companion, [plan]);
        }
      },
    });
  });
}

/** A job offer for one friend, a concert for the other. */
function jobAndGigStories(story: Story): void {
  const { random, pick, shuffled, n, slot, people, other, beats, ask, adversarial } = story;
  {
    const [worker, fan] = shuffled(people) as [Person, Person];
    const job = pick(JOBS);
    const band = pick(BANDS);
    beats.push({
      session: slot(Math.floor(n / 4), n - 1),
      write: (w) => {
        const when = saidWhen(w.session.at, w.since, random);
        const news = w.say(worker.name, pick([
          `I GOT THE JOB. they called ${when.phrase}. ${job.role} at ${job.employer}!!!`,
          `${when.phrase} ${job.employer} rang and offered me the ${job.role} job`,
        ]), { protect: [job.role, job.employer, when.phrase] });
        w.say(other(worker).name, `${pick(CHEERS)} drinks on me`);
        ask(FRIENDS_CATEGORY.singleHop, `What position was ${worker.name} offered?`, job.role, [news]);
        ask(FRIENDS_CATEGORY.singleHop, `Which company hired ${worker.name}?`, job.employer, [news]);
        ask(FRIENDS_CATEGORY.temporal, `When did ${worker.name} hear back about the offer?`, when.answer, [news]);
      },
    });
    beats.push({
      session: slot(0, n - 1),
      write: (w) => {
        const when = saidWhen(w.session.at, w.since, random);
        const gig = w.say(fan.name, pick([
          `saw ${band} live ${when.phrase} and I am still not ok`,
          `${when.phrase}: ${band}, front row-ish, best night of the year`,
        ]), { protect: [band, when.phrase] });
        w.say(other(fan).name, pick(['SO jealous', 'did they play the good one', 'u lucky thing']));
        ask(FRIENDS_CATEGORY.singleHop, `Which artist did ${fan.name} see perform?`, band, [gig]);
        ask(FRIENDS_CATEGORY.temporal, `When was the gig ${fan.name} went to?`, when.answer, [gig]);
        adversarial(`Which band did ${other(fan).name} see in concert?`, band, [gig]);
      },
    });
  }
}

/** A dinner the two plan together, moved a session later. */
function dinnerStory(story: Story): void {
  const { pick, shuffled, between, n, sessions, slot, people, beats, ask } = story;
  if (n >= 3) {
    const planAt = slot(0, n - 3);
    const [host, mover] = shuffled(people) as [Person, Person];
    const restaurant = pick(RESTAURANTS);
    const [excuse, excuseAnswer] = pick(DINNER_EXCUSES);
    const changeSession = sessions[planAt + 1]!;
    const firstDay = dayOf(changeSession.at) + between(2, 6) * DAY_MS;
    const movedDay = firstDay + between(1, 6) * DAY_MS;
    let plan = '';
    beats.push({
      session: planAt,
      write: (w) => {
        plan = w.say(host.name, pick([`dinner at ${restaurant} on the ${ordinal(new Date(firstDay).getUTCDate())}? my treat`, `we should finally try ${restaurant}. the ${ordinal(new Date(firstDay).getUTCDate())}?`]), { protect: [restaurant, ordinal(new Date(firstDay).getUTCDate())] });
        w.say(mover.name, pick(['yesss, in the calendar', 'deal', 'omg yes']));
      },
    });
    beats.push({
      session: planAt + 1,
      write: (w) => {
        const moved = w.say(mover.name, pick([
          `ugh can we move ${restaurant} to the ${ordinal(new Date(movedDay).getUTCDate())}? ${excuse}`,
          `sorry sorry, ${excuse}. ${restaurant} on the ${ordinal(new Date(movedDay).getUTCDate())} instead?`,
        ]), { protect: [restaurant, excuse, ordinal(new Date(movedDay).getUTCDate())] });
        w.say(host.name, pick(['np, works for me', 'fine but u owe me dessert', 'sure!']));
        ask(FRIENDS_CATEGORY.temporal, `When are ${host.name} and ${mover.name} now eating at ${restaurant}?`, written(movedDay), [plan, moved]);
        ask(FRIENDS_CATEGORY.singleHop, `Why did ${mover.name} ask to reschedule the dinner?`, excuseAnswer, [moved]);
      },
    });
  }
}

/** The sessions written: a greeting, the session's beats between small talk, a goodbye. */
function writeSessions(story: Story, index: number, nameA: string, nameB: string): FriendsSample['conversation'] {
  const { random, pick, chance, shuffled, between, sessions, people, other, beats } = story;
  const conversation: FriendsSample['conversation'] = { speaker_a: nameA, speaker_b: nameB };
  for (const session of sessions) {
    const since = session.index > 0 ? sessions[session.index - 1]!.at : undefined;
    const writer: Writer = {
      session,
      since,
      say: (speaker, text, sayOptions = {}) => {
        const id = `D${session.index + 1}:${session.turns.length + 1}`;
        const turn: Turn = { speaker, dia_id: id, text: casual(text, sayOptions.protect ?? [], random) };
        if (sayOptions.photo) {
          turn.img_url = [`https://example.invalid/friends/${index + 1}/${id.replace(':', '-')}.jpg`];
          turn.blip_caption = sayOptions.photo;
        }
        session.turns.push(turn);
        return id;
      },
    };
    const first = chance(0.5) ? people[0] : people[1];
    const [hi, hello] = pick(GREETINGS);
    writer.say(first.name, hi);
    writer.say(other(first).name, hello);
    // The session's beats in their order, with small talk (no exchange twice) before, between and after them.
    const mine = beats.filter((beat) => beat.session === session.index);
    const chatter = shuffled(SMALL_TALK).slice(0, between(1, 3) + Math.max(0, 2 - mine.length));
    const blocks: (Beat | readonly [string, string])[] = [...mine];
    for (const exchange of chatter) blocks.splice(between(0, blocks.length), 0, exchange);
    for (const block of blocks) {
      if ('write' in block) {
        block.write(writer);
        continue;
      }
      const opener = chance(0.5) ? people[0] : people[1];
      writer.say(opener.name, fill(block[0], { daydream: pick(DAYDREAM_CITIES) }));
      writer.say(other(opener).name, block[1]);
    }
    const [bye, byeBack] = pick(CLOSINGS);
    const leaver = chance(0.5) ? people[0] : people[1];
    writer.say(leaver.name, bye);
    writer.say(other(leaver).name, byeBack);
    conversation[`session_${session.index + 1}_date_time`] = sessionDateTime(session.at);
    conversation[`session_${session.index + 1}`] = session.turns;
  }
  return conversation;
}
