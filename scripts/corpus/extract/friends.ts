/**
 * Corpus 2: two friends chatting over months. Both write as `user`; who is
 * speaking comes from `metadata.speaker` and leads the content ("Zoë: ..."),
 * as the eval sends it. One friend's name is typed both precomposed and
 * decomposed (NFC and NFD), as different keyboards do.
 */
import { CorpusBuilder, fill, sentence, type Person } from './builder.js';
import { interleave, taskTitle, type Step, type TaskSpec } from './threads.js';
import type { ExtractionCorpus } from './types.js';

export function friendsCorpus(seed = 7): ExtractionCorpus {
  const b = new CorpusBuilder(seed, '2026-01-10T19:00:00Z', 'friends');
  const zoe = b.person({ key: 'zoe', name: 'Zoë Brandt', aliases: ['Zoë'], pronoun: 'she' });
  const kai = b.person({ key: 'kai', name: 'Kai Lindqvist', aliases: ['Kai'], pronoun: 'he' });
  b.know(zoe);
  b.know(kai);
  const nameOf = (p: Person) => (p === zoe ? (b.chance(0.3) ? 'Zoe\u0308' : 'Zoë') : 'Kai');
  const other = (p: Person) => (p === zoe ? kai : zoe);
  const say = (p: Person, content: string) => {
    const speaker = nameOf(p);
    return b.say({ role: 'user', content: `${speaker}: ${content}`, metadata: { speaker }, interactionId: `chat-${b.now().toISOString().slice(0, 7)}` });
  };
  const react = (p: Person) => say(other(p), b.pick(['Oh nice!', 'Haha, typical.', 'No way!', 'That sounds great.', 'Ugh, sorry to hear that.', 'Fair enough.', 'Love that for you.', 'Wait, really?']));

  const ingrid = b.person({ key: 'ingrid', name: 'Ingrid Brandt', aliases: ['Ingrid'], pronoun: 'she' });
  const luca = b.person({ key: 'luca', name: 'Luca Bianchi-Rossi', aliases: ['Luca'], pronoun: 'he' });
  const amara = b.person({ key: 'amara', name: 'Amara Osei', aliases: ['Amara', 'Dr. Osei'], pronoun: 'she' });

  const threads: Step[][] = [];

  // The speakers' own jobs: contact details of the speaker, read from the first person.
  threads.push([
    () => {
      say(zoe, b.pick(["I'm a nurse at St. Mary's Hospital, night shifts mostly.", "Work's been mad at St. Mary's Hospital, being a nurse in winter is no joke.", "I got the nurse job at St. Mary's Hospital!"]));
      b.employ(zoe, { organisation: "St. Mary's Hospital", role: 'nurse' });
      react(zoe);
    },
    () => {
      say(zoe, b.pick(["Big news: I've moved to Bristol Royal Infirmary, same job, better hours.", "I left St. Mary's. I work at Bristol Royal Infirmary now.", 'Started at Bristol Royal Infirmary on Monday!']));
      b.employ(zoe, { organisation: 'Bristol Royal Infirmary' });
      react(zoe);
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(["I work at Nimbus Ltd. as a software engineer, it's fine.", "I'm a software engineer at Nimbus Ltd., remember?", 'Another deploy night at Nimbus Ltd. The life of a software engineer.']));
      b.employ(kai, { organisation: 'Nimbus Ltd.', role: 'software engineer' });
    },
    () => {
      say(kai, b.pick(['Do you think I should quit Nimbus?', 'If I left Nimbus, would I regret it?', 'Should I apply somewhere else?']));
      say(zoe, 'Only if the new place pays better.');
    },
    () => {
      say(kai, b.pick(['I got the job! Product manager at Orbital, starting next month.', "I handed in my notice. I'm joining Orbital as a product manager.", "Guess who is Orbital's new product manager? Me!"]));
      b.employ(kai, { organisation: 'Orbital', role: 'product manager' });
      react(kai);
    },
  ]);

  // Where they live.
  threads.push([
    () => {
      say(zoe, b.pick(['I live in Leeds now, did I tell you?', 'Leeds is home for now.', "I'm still in Leeds, same flat."]));
      b.setFact('zoe', 'lives in', 'Leeds');
    },
    () => {
      say(zoe, b.pick(['If I moved to London, would you visit?', 'What if I lived in London? Too expensive?', 'Should I move to London?']));
      say(kai, 'Of course, but London is pricey.');
    },
    () => {
      say(zoe, b.pick(['We finally moved to Bristol! Boxes everywhere.', "I've moved to Bristol, new job and all.", 'Living in Bristol now, it suits me.']));
      b.setFact('zoe', 'lives in', 'Bristol');
      react(zoe);
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(['Glasgow is freezing this week.', 'I live in Glasgow, it rains every day.', "I'm in Glasgow, so nothing new there."]));
      b.setFact('kai', 'lives in', 'Glasgow');
    },
  ]);

  // Pets, hobbies, preferences.
  threads.push([
    () => {
      say(zoe, b.pick(['I adopted a cat! Her name is Miso.', 'Meet my new cat, Miso.', 'My cat is called Miso and she hates mornings.']));
      b.setFact('zoe', 'cat', 'Miso');
      react(zoe);
    },
    () => {
      say(kai, b.pick(['Should I get a dog?', 'If I had a dog, I would call it Biscuit.', 'Would a dog be too much work?']));
      say(zoe, 'A dog is a lot of walks.');
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(["I've taken up climbing, twice a week.", 'My new hobby is climbing.', 'Climbing is my thing now, I go every Tuesday.']));
      b.setFact('kai', 'hobby', 'climbing');
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(['My dentist is Dr. Patel, she is great.', 'Dr. Patel is my dentist, highly recommend.', 'Went to my dentist, Dr. Patel, today.']));
      b.setFact('kai', 'dentist', 'Dr. Patel');
    },
  ]);
  threads.push([
    () => {
      say(zoe, b.pick(["I'm vegetarian now, so no burgers.", 'I went vegetarian in January.', 'Remember, I am vegetarian.']));
      b.setFact('zoe', 'diet', 'vegetarian');
    },
  ]);

  // Third parties, introduced in one clause and described in the next.
  threads.push([
    () => {
      say(zoe, b.pick(['My sister Ingrid moved to Oslo, she works for Equinor there.', 'Ingrid, my sister, is in Oslo now. She got a job at Equinor.', 'Had a call with my sister Ingrid. She lives in Oslo and works at Equinor.']));
      b.employ(ingrid, { organisation: 'Equinor' });
      b.setFact('ingrid', 'lives in', 'Oslo');
      react(zoe);
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(['My flatmate Luca Bianchi-Rossi is a chef at Trattoria Sole.', 'Luca Bianchi-Rossi moved in. He cooks at Trattoria Sole, he is a chef there.', 'New flatmate: Luca Bianchi-Rossi, chef at Trattoria Sole.']));
      b.employ(luca, { organisation: 'Trattoria Sole', role: 'chef' });
    },
    () => {
      say(kai, b.pick(['Luca opened his own place, Osteria Luca.', 'Luca left Trattoria Sole, he runs Osteria Luca now.', 'Luca quit Trattoria Sole and started Osteria Luca.']));
      b.employ(luca, { organisation: 'Osteria Luca' });
      react(kai);
    },
  ]);
  threads.push([
    () => {
      say(kai, b.pick(['I met Dr. Amara Osei at the climbing wall, she is a researcher at the University of Glasgow.', 'Dr. Amara Osei joined our climbing group. She works at the University of Glasgow as a researcher.']));
      b.employ(amara, { organisation: 'University of Glasgow', role: 'researcher' });
    },
  ]);

  // Plans with dates, one corrected.
  threads.push([
    () => {
      const [when, iso] = b.futureDate({ allowRelative: false });
      say(kai, sentence(fill(b.pick(['the concert is {when}, I got us tickets.', 'tickets booked! The concert is {when}.', 'so the concert is {when}, right?']), { when })));
      b.setFact('concert', 'date', iso);
    },
    () => {
      const old = b.fact('concert', 'date')!.value;
      const [day, iso] = b.nearbyDay(old);
      const oldDay = `the ${Number(old.slice(8, 10))}${suffix(Number(old.slice(8, 10)))}`;
      say(kai, fill(b.pick(['Oops, sorry, I got that wrong: the concert is on {day}, not {oldDay}.', 'Correction, the concert is not on {oldDay} but on {day}.', 'My bad, the concert is actually on {day}.']), { day, oldDay }));
      b.setFact('concert', 'date', iso);
      react(kai);
    },
  ]);

  // Tasks between friends.
  const tasks: (TaskSpec & { end: 'done' | 'cancelled' | 'open'; by: Person; done: string[]; cancel?: string[] })[] = [
    { key: 'f1', by: kai, verb: 'send', past: 'sent', participle: 'sent', gerund: 'sending', object: 'the hike photos', counterpart: ' to Zoë', owner: 'kai', end: 'done', done: ['Sent you the hike photos!', 'I sent you the hike photos last night, check your email.', 'The hike photos are in your inbox, sent them this morning.'] },
    { key: 'f2', by: zoe, verb: 'return', past: 'returned', participle: 'returned', gerund: 'returning', object: "Kai's book", owner: 'zoe', end: 'done', done: ['I returned your book yesterday, it is in your mailbox.', 'Returned your book, finally!', "Your book is back with you, I returned it on Sunday."] },
    { key: 'f3', by: zoe, verb: 'book', past: 'booked', participle: 'booked', gerund: 'booking', object: 'the cabin for August', owner: 'zoe', end: 'cancelled', done: [], cancel: ["Let's forget about booking the cabin for August, too expensive.", "I won't book the cabin for August after all.", 'Scrap the cabin booking for August, plans changed.'] },
    { key: 'f4', by: kai, verb: 'renew', past: 'renewed', participle: 'renewed', gerund: 'renewing', object: 'my passport', owner: 'kai', end: 'done', done: ['Renewed my passport at last.', 'Finally renewed my passport, the photo is awful.', 'My passport is renewed, so the trip is on.'] },
    { key: 'f5', by: kai, verb: 'call', past: 'called', participle: 'called', gerund: 'calling', object: 'the landlord about the leak', owner: 'kai', end: 'done', done: ['Called the landlord about the leak, he is sending a plumber.', 'I called the landlord this morning, the leak gets fixed Friday.'] },
    { key: 'f6', by: zoe, verb: 'sign up', past: 'signed up', participle: 'signed up', gerund: 'signing up', object: 'for the half marathon', owner: 'zoe', end: 'open', done: [] },
    { key: 'f7', by: kai, verb: 'buy', past: 'bought', participle: 'bought', gerund: 'buying', object: 'a birthday present for Ingrid', owner: 'kai', end: 'done', done: ['Bought a birthday present for Ingrid, a scarf.', 'I bought the present for Ingrid yesterday.'] },
    { key: 'f8', by: zoe, verb: 'fix', past: 'fixed', participle: 'fixed', gerund: 'fixing', object: 'my bike', owner: 'zoe', end: 'cancelled', done: [], cancel: ['Not going to fix my bike after all, I sold it.', 'Forget fixing my bike, I am getting a new one.'] },
  ];
  for (const t of tasks) {
    const cp = t.counterpart && t.by === kai ? ' to you' : (t.counterpart ?? '');
    const obj = t.key === 'f2' ? 'your book' : t.object;
    const steps: Step[] = [
      () => {
        const withDue = b.chance(0.4);
        const [when, iso] = withDue ? b.futureDate() : ['', ''];
        const due = withDue ? ` ${when.replace(/^on /, 'by ')}` : '';
        say(t.by, sentence(fill(b.pick(["I'll {verb} {obj}{cp}{due}, promise.", 'I need to {verb} {obj}{cp}{due}.', 'remind me to {verb} {obj}{cp}{due}!', 'I have to {verb} {obj}{cp}{due}, I keep forgetting.', 'note to self: {verb} {obj}{cp}{due}.']), { verb: t.verb, obj, cp, due })));
        b.openTask(t.key, { title: taskTitle(t), owner: t.owner, ...(withDue ? { due: iso } : {}) });
        react(t.by);
      },
    ];
    if (t.end !== 'open') {
      steps.push(() => {
        say(t.by, b.pick(t.end === 'done' ? t.done : t.cancel!));
        b.closeTask(t.key, t.end as 'done' | 'cancelled');
        react(t.by);
      });
    }
    threads.push(steps);
  }

  const filler: Step = () => {
    const p = b.chance(0.5) ? zoe : kai;
    say(p, b.pick(['How was your weekend?', 'Haha', 'Did you watch the match?', 'So tired today.', 'Miss you! We should catch up properly.', 'What are you up to tonight?', 'lol', 'The weather is awful again.']));
    react(p);
  };

  interleave(b, threads, filler, { fillerChance: 0.5, daysBetween: [4, 12] });
  return b.build('friends', 'two friends chatting over months');
}

function suffix(day: number): string {
  return day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
}
