/**
 * Corpus 1: an assistant working with one person at work. The user writes
 * (role `user`, no contact: first person is the user), the assistant answers
 * briefly. Colleagues and clients are introduced, change jobs; the user
 * mentions personal details, meeting dates (and corrects some), and opens,
 * finishes and cancels tasks in everyday words.
 */
import { CorpusBuilder, fill, sentence, type Person } from './builder.js';
import { interleave, taskTitle, type Step, type TaskSpec } from './threads.js';
import type { ExtractionCorpus } from './types.js';

const USER = 'user';

interface Colleague {
  person: Person;
  first: string;
  org: string;
  title: string;
  dept: string;
  move?: { org?: string; title?: string };
}

export function workAssistantCorpus(seed = 12): ExtractionCorpus {
  const b = new CorpusBuilder(seed, '2026-03-02T08:30:00Z', 'work');
  b.person({ key: USER, name: 'user', aliases: [], pronoun: 'they' });
  const say = (content: string) => b.say({ role: 'user', content, interactionId: `day-${b.now().toISOString().slice(0, 10)}` });
  const reply = (content: string) => b.say({ role: 'assistant', content, interactionId: `day-${b.now().toISOString().slice(0, 10)}` });
  const ack = () => reply(b.pick(['Noted.', 'Got it.', 'Okay, I will keep that in mind.', 'Thanks, noted.', 'Understood.', 'Sure thing.', 'All right.']));

  const colleagues: Colleague[] = [
    { first: 'José', org: 'Ferrotek', title: 'head of purchasing', dept: 'purchasing', move: { title: 'purchasing director' }, person: b.person({ key: 'jose', name: 'José Álvarez', aliases: ['José', 'Mr. Álvarez'], pronoun: 'he' }) },
    { first: 'Priya', org: 'Brightwell Inc.', title: 'CFO', dept: 'finance', move: { org: 'Koru Labs', title: 'COO' }, person: b.person({ key: 'priya', name: 'Priya Natarajan', aliases: ['Priya', 'Ms. Natarajan'], pronoun: 'she' }) },
    { first: 'Chinedu', org: 'Dunmore Freight', title: 'logistics manager', dept: 'logistics', person: b.person({ key: 'chinedu', name: 'Chinedu Okafor', aliases: ['Chinedu', 'Mr. Okafor'], pronoun: 'he' }) },
    { first: 'Anne-Marie', org: 'Lumen Analytics', title: 'data scientist', dept: 'the data team', move: { org: 'Ferrotek' }, person: b.person({ key: 'annemarie', name: 'Anne-Marie Dubois', aliases: ['Anne-Marie'], pronoun: 'she' }) },
    { first: 'Søren', org: 'Kestrel Bank', title: 'relationship manager', dept: 'business accounts', person: b.person({ key: 'soren', name: 'Søren Holm', aliases: ['Søren'], pronoun: 'he' }) },
    { first: 'Mark', org: 'Brightwell Inc.', title: 'procurement lead', dept: 'procurement', move: { org: 'Halden Group', title: 'head of sourcing' }, person: b.person({ key: 'mark', name: "Mark O'Neill", aliases: ['Mark'], pronoun: 'he' }) },
  ];

  const pron = (p: Person) => p.pronoun;
  const Pron = (p: Person) => sentence(p.pronoun);
  const be = (p: Person) => (p.pronoun === 'they' ? 'are' : 'is');
  const an = (title: string) => (/^[aeiouAEIOU]/.test(title) ? `an ${title}` : `a ${title}`);

  const introduce = (c: Colleague): Step => () => {
    const slots = { name: c.person.name, first: c.first, org: c.org, title: c.title, dept: c.dept, pron: pron(c.person), Pron: Pron(c.person), be: be(c.person), aTitle: an(c.title) };
    // Each phrasing implies a role: the title when it names one, the department when it only says what they run.
    const phrasings: [string, 'title' | 'dept'][] = [
      ['I met {name} from {org} today, {pron} runs {dept} there.', 'dept'],
      ['Had coffee with {name} this morning. {Pron} {be} the {title} at {org}.', 'title'],
      ['Just got off a call with {name}, the {title} at {org}.', 'title'],
      ['New contact: {name}, {title} at {org}.', 'title'],
      ['{name} ({title}, {org}) wants to set up a regular call.', 'title'],
      ['I was introduced to {name} at the conference; {pron} works at {org} as {aTitle}.', 'title'],
      ['Say hello to {name}: {pron} just joined {org} as their {title}.', 'title'],
      ['Spoke with {name} from {org}. {Pron} {be} in charge of {dept} over there.', 'dept'],
      ['{org} finally sent someone sensible: {name}, who leads {dept}.', 'dept'],
      ['Lunch with {name} went well. {Pron} works for {org}, {title}.', 'title'],
    ];
    const [template, implied] = b.pick(phrasings);
    say(fill(template, slots));
    b.employ(c.person, { organisation: c.org, role: implied === 'title' ? c.title : c.dept.replace(/^the /, '') });
    if (b.chance(0.6)) ack();
  };

  const moveOn = (c: Colleague): Step => () => {
    const move = c.move!;
    const slots = { first: c.first, name: c.person.name, org: c.org, org2: move.org ?? c.org, title2: move.title ?? c.title, pron: pron(c.person), Pron: Pron(c.person), aTitle2: an(move.title ?? c.title) };
    const templates = move.org && move.title
      ? ['{first} left {org} and joined {org2} as {title2}.', 'Heads up: {first} is now {title2} at {org2}.', 'Big news, {first} has taken a job as {title2} with {org2}.', '{first} is no longer at {org}; {pron} moved to {org2} as {title2}.', '{name} starts at {org2} next week as their new {title2}.']
      : move.org
        ? ['{first} has moved to {org2}.', '{first} left {org}, {pron} works for {org2} now.', '{first} switched jobs, {pron} is at {org2} these days.', 'FYI {name} joined {org2} last month.']
        : ['{first} got promoted to {title2}.', '{first} is {title2} now, congratulations are in order.', 'Good news for {first}: {pron} was made {title2}.', '{first} has been named {title2} at {org}.'];
    say(fill(b.pick(templates), slots));
    b.employ(c.person, { ...(move.org ? { organisation: move.org } : {}), ...(move.title ? { role: move.title } : {}) });
    if (b.chance(0.5)) ack();
  };

  const threads: Step[][] = [];
  for (const c of colleagues) threads.push(c.move ? [introduce(c), moveOn(c)] : [introduce(c)]);

  // Personal details, some changed or corrected later.
  threads.push([
    () => {
      say(b.pick(['My dentist is Dr. Weiss.', 'Dr. Weiss is my dentist, by the way.', 'For the record, my dentist is Dr. Weiss on Elm St.', 'I have been going to Dr. Weiss as my dentist for years.']));
      b.setFact(USER, 'dentist', 'Dr. Weiss');
      ack();
    },
  ]);
  threads.push([
    () => {
      say(b.pick(['I live in Porto.', "I'm based in Porto.", 'Home for me is Porto.', 'We live in Porto, near the river.']));
      b.setFact(USER, 'lives in', 'Porto');
    },
    () => {
      say(b.pick(['If I moved to Lisbon, would the commute be worse?', 'Should I move to Lisbon next year?', 'What if I lived in Lisbon instead?', 'I sometimes wonder whether I should live in Lisbon.']));
      reply('Hard to say; it depends on where the office ends up.');
    },
    () => {
      say(b.pick(['We just moved to Lyon.', 'I relocated to Lyon last week.', "I'm living in Lyon now.", 'New address: we moved to Lyon over the weekend.']));
      b.setFact(USER, 'lives in', 'Lyon');
      ack();
    },
  ]);
  threads.push([
    () => {
      say(b.pick(["I'm allergic to shellfish.", 'I have a shellfish allergy, so no seafood places please.', 'Please remember I am allergic to shellfish.']));
      b.setFact(USER, 'allergy', 'shellfish');
    },
  ]);
  threads.push([
    () => {
      say(b.pick(['My birthday is on June 12.', 'I was born on 12 June.', "My birthday's the 12th of June."]));
      b.setFact(USER, 'birthday', 'June 12');
    },
    () => {
      say(b.pick(['Sorry, I got that wrong: my birthday is on the 14th of June, not the 12th.', 'Correction: my birthday is not June 12 but June 14.', 'My mistake earlier, my birthday is actually June 14.']));
      b.setFact(USER, 'birthday', 'June 14');
      ack();
    },
  ]);
  threads.push([
    () => {
      say(b.pick(['My wife is called Ana.', "My wife's name is Ana.", 'My wife Ana says hello.']));
      b.setFact(USER, 'wife', 'Ana');
    },
    () => {
      say(b.pick(['Should I call Tom about the offsite?', 'Do you think I should ask Tom to join?', 'Would Tom be a good fit for the project, or not?']));
      reply('Possibly; you know him better than I do.');
    },
  ]);
  threads.push([
    () => {
      say(b.pick(['My favourite restaurant is Casa Nova.', 'Casa Nova is my favourite restaurant.', 'Book somewhere nice, my favourite restaurant is Casa Nova.']));
      b.setFact(USER, 'favourite restaurant', 'Casa Nova');
    },
  ]);

  // Meeting dates, two of them corrected.
  const meetings: { subject: string; phrase: string; corrected: 'apology' | 'not-but' | 'none' }[] = [
    { subject: 'quarterly review', phrase: 'the quarterly review', corrected: 'apology' },
    { subject: 'board meeting', phrase: 'the board meeting', corrected: 'not-but' },
    { subject: 'team offsite', phrase: 'the team offsite', corrected: 'none' },
    { subject: 'product launch', phrase: 'the product launch', corrected: 'apology' },
  ];
  for (const m of meetings) {
    const steps: Step[] = [
      () => {
        const [when, iso] = b.futureDate({ allowRelative: m.corrected === 'none' });
        const bare = when.startsWith('on ') ? ["We've scheduled {m} for {whenBare}.", '{m} has been set for {whenBare}.'] : [];
        say(sentence(fill(b.pick(['{m} is {when}.', 'Just so you know, {m} is {when}.', ...bare]), { m: m.phrase, when, whenBare: when.replace(/^on /, '') })));
        b.setFact(m.subject, 'date', iso);
      },
    ];
    if (m.corrected !== 'none') {
      steps.push(() => {
        const old = b.fact(m.subject, 'date')!.value;
        const [day, iso] = b.nearbyDay(old);
        const oldDay = `the ${Number(old.slice(8, 10))}${['th', 'st', 'nd', 'rd'][Number(old.slice(8, 10)) % 10 > 3 || [11, 12, 13].includes(Number(old.slice(8, 10))) ? 0 : Number(old.slice(8, 10)) % 10]}`;
        const slots = { m: m.phrase, day, oldDay };
        say(sentence(fill(b.pick(m.corrected === 'apology'
          ? ['sorry, I got that wrong: {m} is on {day}, not {oldDay}.', 'apologies, my mistake: {m} is on {day}.', 'sorry about the confusion, {m} is actually on {day}, not {oldDay}.']
          : ['correction: {m} is not on {oldDay} but on {day}.', '{m} is not {oldDay} but {day}, I misread the invite.', 'I was wrong about {m}: not {oldDay}, {day}.']), slots)));
        b.setFact(m.subject, 'date', iso);
        ack();
      });
    }
    threads.push(steps);
  }

  // Tasks.
  const tasks: (TaskSpec & { end: 'done' | 'cancelled' | 'open' })[] = [
    { key: 't1', verb: 'send', past: 'sent', participle: 'sent', gerund: 'sending', object: 'the contract', counterpart: ' to Priya', dative: 'sent Priya the contract', owner: USER, end: 'done' },
    { key: 't2', verb: 'book', past: 'booked', participle: 'booked', gerund: 'booking', object: 'a flight to Madrid', owner: USER, end: 'cancelled' },
    { key: 't3', verb: 'call', past: 'called', participle: 'called', gerund: 'calling', object: 'José about the delivery delay', owner: USER, end: 'done' },
    { key: 't4', verb: 'renew', past: 'renewed', participle: 'renewed', gerund: 'renewing', object: 'the parking permit', owner: USER, end: 'done' },
    { key: 't5', verb: 'pay', past: 'paid', participle: 'paid', gerund: 'paying', object: 'the Dunmore invoice', owner: USER, end: 'done' },
    { key: 't6', verb: 'prepare', past: 'prepared', participle: 'prepared', gerund: 'preparing', object: 'slides for the quarterly review', owner: USER, end: 'open' },
    { key: 't7', verb: 'review', past: 'reviewed', participle: 'reviewed', gerund: 'reviewing', object: 'the Ferrotek proposal', owner: USER, end: 'done' },
    { key: 't8', verb: 'order', past: 'ordered', participle: 'ordered', gerund: 'ordering', object: 'a birthday gift for Ana', owner: USER, end: 'open' },
    { key: 't9', verb: 'schedule', past: 'scheduled', participle: 'scheduled', gerund: 'scheduling', object: 'a check-up', counterpart: ' with Dr. Weiss', owner: USER, end: 'cancelled' },
    { key: 't10', verb: 'update', past: 'updated', participle: 'updated', gerund: 'updating', object: 'the budget spreadsheet', owner: USER, end: 'open' },
    { key: 't11', verb: 'email', past: 'emailed', participle: 'emailed', gerund: 'emailing', object: 'Søren about the loan terms', owner: USER, end: 'done' },
    { key: 't12', verb: 'file', past: 'filed', participle: 'filed', gerund: 'filing', object: 'the expense report', owner: USER, end: 'cancelled' },
  ];
  for (const t of tasks) threads.push(taskThread(b, t, say, ack));

  const filler: Step = () => {
    say(b.pick(['Morning! Busy day ahead.', 'Thanks!', 'What is on my calendar today?', "That's all for now.", 'Can you summarise what I have this week?', 'Ugh, the train was late again.', 'Quick one before my next meeting.', 'Ok, back to work.']));
    reply(b.pick(['Happy to help.', 'Here is what I have.', 'You are welcome.', 'Sure, one moment.']));
  };

  interleave(b, threads, filler, { fillerChance: 0.45, daysBetween: [1, 3] });
  return b.build('work-assistant', 'an assistant working with one person at work');
}

/** Opens a task, and later closes it (done or cancelled) in other words, or leaves it open. */
export function taskThread(b: CorpusBuilder, t: TaskSpec & { end: 'done' | 'cancelled' | 'open' }, say: (text: string) => unknown, ack: () => unknown): Step[] {
  const cp = t.counterpart ?? '';
  const steps: Step[] = [
    () => {
      const withDue = b.chance(0.4);
      const [when, iso] = withDue ? b.futureDate() : ['', ''];
      const due = withDue ? ` ${when.replace(/^on /, 'by ')}` : '';
      const slots = { verb: t.verb, obj: t.object, cp, due, gerund: t.gerund };
      say(sentence(fill(b.pick([
        'remind me to {verb} {obj}{cp}{due}.',
        'I need to {verb} {obj}{cp}{due}.',
        'can you make sure I {verb} {obj}{cp}{due}?',
        "don't let me forget to {verb} {obj}{cp}{due}.",
        'note to self: {verb} {obj}{cp}{due}.',
        'I have to {verb} {obj}{cp}{due}.',
        'add to my to-do list: {verb} {obj}{cp}{due}.',
        'I must {verb} {obj}{cp}{due}, please keep track of it.',
      ]), slots)));
      b.openTask(t.key, { title: taskTitle(t), owner: t.owner, ...(withDue ? { due: iso } : {}) });
      ack();
    },
  ];
  if (t.end === 'done') {
    steps.push(() => {
      const slots = { past: t.past, Past: sentence(t.past), obj: t.object, Obj: sentence(t.object), cp, participle: t.participle };
      const passive = /^(the|a|an|slides) /.test(t.object) ? ['{Obj} has been {participle}{cp}, one less thing.'] : [];
      const templates = [
        ...passive,
        'I {past} {obj}{cp} this morning.',
        'Just {past} {obj}{cp}.',
        'Finally {past} {obj}{cp}!',
        'All done: {past} {obj}{cp} yesterday.',
        'Good news, I {past} {obj}{cp} an hour ago.',
      ];
      const text = t.dative && b.chance(0.5) ? `I ${t.dative} ${b.pick(['this morning', 'earlier today', 'before lunch'])}.` : fill(b.pick(templates), slots);
      say(text);
      b.closeTask(t.key, 'done');
      ack();
    });
  } else if (t.end === 'cancelled') {
    steps.push(() => {
      const slots = { verb: t.verb, obj: t.object, cp, gerund: t.gerund };
      say(sentence(fill(b.pick([
        'forget about {gerund} {obj}{cp}, it is not needed anymore.',
        'no need to {verb} {obj}{cp} anymore.',
        'cancel the reminder to {verb} {obj}{cp}.',
        'scrap {gerund} {obj}{cp}, plans changed.',
        "I won't {verb} {obj}{cp} after all, so drop it.",
      ]), slots)));
      b.closeTask(t.key, 'cancelled');
      ack();
    });
  }
  return steps;
}
