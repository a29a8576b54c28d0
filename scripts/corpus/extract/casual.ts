/**
 * Corpus 4: casual chat. One user texting an assistant the way people text:
 * lower case, little punctuation, shorthand (pls, tmrw, thx, w/), several
 * things in one line, changes and corrections said in passing. The assistant
 * answers in plain sentences, sometimes naming people properly and sometimes
 * not ("ok!", "noted"). Expected state is written from the events, not from
 * what the rules read.
 */
import { CorpusBuilder, type Person } from './builder.js';
import { interleave, type Step } from './threads.js';
import type { ExtractionCorpus } from './types.js';

export function casualCorpus(seed = 53): ExtractionCorpus {
  const b = new CorpusBuilder(seed, '2026-03-02T08:30:00Z', 'casual');
  const me = (content: string) => b.say({ role: 'user', content, interactionId: `day-${b.now().toISOString().slice(0, 10)}` });
  const bot = (content: string) => b.say({ role: 'assistant', content, interactionId: `day-${b.now().toISOString().slice(0, 10)}` });
  const ack = () => bot(b.pick(['ok!', 'Noted.', 'Got it.', 'Sounds good.', 'Okay, noted.']));
  const person = (key: string, name: string, pronoun: 'she' | 'he') => b.person({ key, name, aliases: [name.split(' ')[0]!], pronoun });

  b.person({ key: 'user', name: 'user', aliases: [], pronoun: 'they' });
  const nadia = person('nadia', 'Nadia', 'she');
  const theo = person('theo', 'Theo', 'he');
  const priti = person('priti', 'Priti', 'she');
  const marcus = person('marcus', 'Marcus', 'he');
  const lower = (p: Person) => p.name.toLowerCase();

  const threads: Step[][] = [];

  // People: where they work, and a change of job said in passing.
  threads.push([
    () => {
      me(b.pick([`had lunch w ${lower(nadia)} today, shes a pharmacist at boots now`, `${lower(nadia)} (my old flatmate) is a pharmacist at boots these days`, `ran into ${lower(nadia)} at the station, she works at boots as a pharmacist`]));
      b.employ(nadia, { organisation: 'Boots', role: 'pharmacist' });
      bot(b.pick(['Nice that you caught up with Nadia!', 'Good to hear from Nadia.', 'ok!']));
    },
    () => {
      me(b.pick([`omg ${lower(nadia)} quit boots, shes at lloyds pharmacy now`, `${lower(nadia)} moved to lloyds pharmacy btw`, `update: ${lower(nadia)} left boots and joined lloyds pharmacy`]));
      b.employ(nadia, { organisation: 'Lloyds Pharmacy' });
      bot(b.pick(['Noted, Nadia is at Lloyds Pharmacy now.', 'Got it.']));
    },
  ]);
  threads.push([
    () => {
      me(b.pick([`my brother ${lower(theo)} got a job at spotify as a data analyst!!`, `${lower(theo)} (my bro) starts at spotify next week, data analyst`, `big news ${lower(theo)} is a data analyst at spotify now`]));
      b.employ(theo, { organisation: 'Spotify', role: 'data analyst' });
      bot(b.pick(['Congratulations to Theo!', 'That is great news for Theo.', 'Amazing!']));
    },
  ]);
  threads.push([
    () => {
      me(b.pick([`met ${lower(priti)} from greenway today, shes their head of sales`, `${lower(priti)} is head of sales at greenway, nice woman`, `had coffee w ${lower(priti)} (head of sales at greenway)`]));
      b.employ(priti, { organisation: 'Greenway', role: 'head of sales' });
      ack();
    },
  ]);
  threads.push([
    () => {
      me(b.pick([`my neighbour ${lower(marcus)} is a plumber, useful lol`, `${lower(marcus)} next door does plumbing for a living`, `turns out ${lower(marcus)} my neighbour is a plumber`]));
      b.employ(marcus, { role: 'plumber' });
      ack();
    },
  ]);

  // The user's own facts, one changed in passing.
  threads.push([
    () => {
      me(b.pick(['we live in leeds btw', 'im based in leeds', 'home is leeds for now']));
      b.setFact('user', 'home city', 'Leeds');
      ack();
    },
    () => {
      me(b.pick(['finally moved to york last weekend, boxes everywhere', 'we moved to york!! new flat is tiny but cute', 'done w the move, living in york now']));
      b.setFact('user', 'home city', 'York');
      bot(b.pick(['Congrats on the move to York!', 'Welcome to York!', 'Noted.']));
    },
  ]);
  threads.push([
    () => {
      me(b.pick(['fyi im vegetarian so no meat places pls', 'reminder to self and u: i dont eat meat', 'im veggie, keep that in mind for restaurant ideas']));
      b.setFact('user', 'diet', 'vegetarian');
      ack();
    },
  ]);
  threads.push([
    () => {
      me(b.pick(['my fav coffee is a flat white', 'flat white is my go-to coffee', 'i always get a flat white']));
      b.setFact('user', 'favourite coffee', 'flat white');
      ack();
    },
  ]);

  // Tasks: opened in shorthand, closed or called off in passing.
  const tasks: { key: string; title: string; open: string[]; close?: { state: 'done' | 'cancelled'; texts: string[] } }[] = [
    { key: 'c1', title: 'book the car service', open: ['pls remind me to book the car service', 'gotta book the car service this week', 'need to book the car service'], close: { state: 'done', texts: ['booked the car service for thurs', 'car service booked finally', 'ok booked the car service'] } },
    { key: 'c2', title: 'send nadia the wedding photos', open: ['remind me to send nadia the wedding photos', 'gotta send the wedding photos to nadia', 'must send nadia those wedding photos'], close: { state: 'done', texts: ['sent nadia the wedding photos', 'wedding photos sent to nadia', 'finally sent the wedding photos to nadia'] } },
    { key: 'c3', title: 'renew the gym membership', open: ['need to renew the gym membership before it runs out', 'remind me to renew my gym membership', 'gotta renew the gym membership'], close: { state: 'cancelled', texts: ['nvm about the gym membership, im not renewing', 'no need to renew the gym membership anymore, quitting', 'forget the gym membership renewal, cancelling it'] } },
    { key: 'c4', title: 'pick up the dry cleaning', open: ['remind me to pick up the dry cleaning tmrw', 'gotta pick up the dry cleaning', 'need to grab the dry cleaning tmrw'], close: { state: 'done', texts: ['picked up the dry cleaning', 'got the dry cleaning', 'dry cleaning picked up'] } },
    { key: 'c5', title: 'call the landlord about the boiler', open: ['pls remind me to call the landlord about the boiler', 'need to call the landlord re the boiler', 'gotta ring the landlord about the boiler'] },
    { key: 'c6', title: 'buy a birthday present for theo', open: ['need to buy theo a birthday present', 'remind me to buy a bday present for theo', 'gotta get theo a birthday present'] },
  ];
  for (const task of tasks) {
    const steps: Step[] = [
      () => {
        me(b.pick(task.open));
        b.openTask(task.key, { title: task.title, owner: 'user' });
        bot(b.pick(['Will do.', "Noted, I'll remind you.", 'Okay, added to your list.']));
      },
    ];
    if (task.close) {
      const close = task.close;
      steps.push(() => {
        me(b.pick(close.texts));
        b.closeTask(task.key, close.state);
        bot(b.pick(['Nice, ticked off.', 'Okay, updated.', 'Got it.']));
      });
    }
    threads.push(steps);
  }

  // A refusal and a request the assistant restates: one task, never two, and no task for what it will not do.
  threads.push([
    () => {
      me('can u pay my council tax for me');
      bot("I can't make payments for you, but I can remind you when it's due.");
    },
  ]);

  const filler: Step = () => {
    me(b.pick(['lol', 'thx', 'ugh mondays', 'so tired today', 'haha ok', 'did u see the match last night', 'brb']));
    bot(b.pick(['Ha!', 'You are welcome.', 'Hang in there.', "I don't follow live sports, but I hope it was a good one!", 'Sure.']));
  };

  interleave(b, threads, filler, { fillerChance: 0.4, daysBetween: [1, 2] });
  return b.build('casual', 'one user texting an assistant in lower-case shorthand');
}
