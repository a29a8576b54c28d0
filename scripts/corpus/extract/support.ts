/**
 * Corpus 3: a support agent with several customers. Customers write as
 * `user` with `contact` set (first person is that customer); the agent
 * answers as `assistant` and commits to follow-ups, which are the tasks.
 */
import { CorpusBuilder, fill, sentence, type Person } from './builder.js';
import { interleave, type Step } from './threads.js';
import type { ExtractionCorpus } from './types.js';

interface Customer {
  person: Person;
  first: string;
  org: string;
  title: string;
  plan: string;
  city: string;
  device: string;
}

export function supportCorpus(seed = 31): ExtractionCorpus {
  const b = new CorpusBuilder(seed, '2026-02-02T09:00:00Z', 'support');
  const customers: Customer[] = [
    { first: 'Hiroshi', org: 'Parkside Dental Ltd.', title: 'IT manager', plan: 'Business', city: 'Leeds', device: 'X200 router', person: b.person({ key: 'cust-1042', id: 'cust-1042', name: 'Hiroshi Tanaka', aliases: ['Hiroshi', 'Mr. Tanaka'], pronoun: 'he' }) },
    { first: 'Marie-Claire', org: 'Fontaine & Fils', title: 'office manager', plan: 'Starter', city: 'Lyon', device: 'M5 mesh kit', person: b.person({ key: 'cust-2207', id: 'cust-2207', name: 'Marie-Claire Fontaine', aliases: ['Marie-Claire', 'Mrs. Fontaine'], pronoun: 'she' }) },
    { first: 'Oluwaseun', org: 'Adeyemi Logistics', title: 'operations director', plan: 'Enterprise', city: 'Lagos', device: 'X200 router', person: b.person({ key: 'cust-3310', id: 'cust-3310', name: 'Oluwaseun Adeyemi', aliases: ['Oluwaseun', 'Seun'], pronoun: 'he' }) },
    { first: 'Łukasz', org: 'Nowak Studio', title: 'founder', plan: 'Pro', city: 'Kraków', device: 'Z9 switch', person: b.person({ key: 'cust-4521', id: 'cust-4521', name: 'Łukasz Nowak', aliases: ['Łukasz'], pronoun: 'he' }) },
    { first: 'Emma', org: 'Greenleaf School', title: 'head teacher', plan: 'Education', city: 'Cardiff', device: 'M5 mesh kit', person: b.person({ key: 'cust-5903', id: 'cust-5903', name: 'Emma Schultz', aliases: ['Emma', 'Ms. Schultz'], pronoun: 'she' }) },
  ];
  const ticket = (c: Customer) => `ticket-${c.person.id}`;
  const from = (c: Customer, content: string) => b.say({ role: 'user', content, contact: { id: c.person.id!, name: c.person.name }, interactionId: ticket(c) });
  const agent = (c: Customer, content: string) => b.say({ role: 'assistant', content, interactionId: ticket(c) });
  const thanks = (c: Customer) => agent(c, b.pick(['Thanks for the details.', 'Thank you, that helps.', 'Got it, thanks.', 'Understood, thank you for letting me know.']));

  const threads: Step[][] = [];
  /** Each customer's own story, so a change always follows what it changes. */
  const story = new Map<Customer, Step[]>();
  for (const c of customers) {
    const key = c.person.key;
    const slots = { first: c.first, org: c.org, title: c.title, plan: c.plan, city: c.city, device: c.device, aTitle: /^[aeiou]/i.test(c.title) ? `an ${c.title}` : `a ${c.title}` };
    // Who they are.
    story.set(c, [
      () => {
        from(c, fill(b.pick([
          "Hi, I'm the {title} at {org} and our internet keeps dropping.",
          'Hello, {first} here, {title} at {org}. We have a problem with the {device}.',
          'Good morning. I work at {org} as {aTitle}; the {device} is acting up.',
          'Hi there, I look after IT for {org} (I am the {title}). Something is wrong with our {device}.',
        ]), slots));
        b.employ(c.person, { organisation: c.org, role: c.title });
        b.setFact(key, 'device', c.device);
        agent(c, b.pick(['Sorry to hear that. Which plan are you on?', 'Thanks for reaching out. Could you tell me your plan?', "I'm sorry about the trouble. What plan is the account on?"]));
      },
      () => {
        from(c, fill(b.pick(["We're on the {plan} plan.", 'Our account is on the {plan} plan.', 'The {plan} plan, I believe. Yes, {plan}.', 'We pay for the {plan} plan.']), slots));
        b.setFact(key, 'plan', c.plan);
        thanks(c);
      },
      () => {
        from(c, fill(b.pick(['Our office is in {city}.', 'We are based in {city}.', 'The site is in {city}, if that matters.']), slots));
        b.setFact(key, 'location', c.city);
        thanks(c);
      },
    ]);
  }

  // Questions and hypotheticals that change nothing.
  const later = (index: number, step: Step) => story.get(customers[index]!)!.push(step);
  later(0, () => { const c = customers[0]!; from(c, b.pick(['Should I upgrade to the Enterprise plan?', 'If we switched to the Enterprise plan, would it be cheaper per seat?', 'What if we moved to the Enterprise plan?'])); agent(c, 'I can send you a comparison.'); });
  later(3, () => { const c = customers[3]!; from(c, b.pick(['If I moved the studio to Warsaw, would the service transfer?', 'Would the service work if we were in Warsaw?'])); agent(c, 'Yes, the service works anywhere in the country.'); });

  // Changes and corrections.
  later(1,
    () => {
      const c = customers[1]!;
      from(c, b.pick(['Sorry, I got that wrong: our office is in Villeurbanne, not Lyon.', 'Correction: the office is not in Lyon but in Villeurbanne.', 'My mistake, we are actually based in Villeurbanne.']));
      b.setFact(c.person.key, 'location', 'Villeurbanne');
      thanks(c);
    },
  );
  later(2,
    () => {
      const c = customers[2]!;
      from(c, b.pick(["Quick update: I'm now chief operating officer, so I sign off on purchases.", 'I was promoted to chief operating officer last week.', 'My title changed, I am chief operating officer now.']));
      b.employ(c.person, { role: 'chief operating officer' });
      agent(c, 'Congratulations! I have updated our notes.');
    },
  );
  later(4,
    () => {
      const c = customers[4]!;
      from(c, b.pick(['I have moved to Riverside Academy as head teacher, but I still manage this account.', 'New school for me: I joined Riverside Academy last month.', "I'm at Riverside Academy now, same role."]));
      b.employ(c.person, { organisation: 'Riverside Academy' });
      thanks(c);
    },
  );
  later(3,
    () => {
      const c = customers[3]!;
      from(c, b.pick(['We upgraded to the Business plan yesterday.', 'We switched to the Business plan this week.', 'Our plan is Business now, we changed it on Monday.']));
      b.setFact(c.person.key, 'plan', 'Business');
      thanks(c);
    },
  );

  for (const steps of story.values()) threads.push(steps);

  // The agent's follow-ups (tasks), closed in other words; some cancelled by the customer.
  const followUps: { c: number; title: string; open: string[]; close?: { state: 'done' | 'cancelled'; by: 'agent' | 'customer'; texts: string[] } }[] = [
    { c: 0, title: 'send a replacement X200 router to Hiroshi', open: ["I'll send you a replacement X200 router today.", 'I will ship a replacement X200 router to you.', "Let me arrange a replacement X200 router for you, I'll get it sent out."], close: { state: 'done', by: 'agent', texts: ['Your replacement X200 router has shipped, tracking is in your inbox.', 'I sent the replacement router this morning.', 'The replacement X200 router went out with the courier today.'] } },
    { c: 1, title: 'refund the double charge for Marie-Claire', open: ['I will refund the double charge by Friday.', "I'll process a refund for the double charge.", 'I am going to refund the duplicate charge for you.'], close: { state: 'done', by: 'agent', texts: ['The refund for the double charge has been processed.', 'I refunded the double charge, it should show in 3-5 days.', 'Done: the duplicate charge was refunded this morning.'] } },
    { c: 2, title: 'escalate the dropped connections to engineering', open: ["I'll escalate the dropped connections to our engineering team.", 'I am escalating the connection drops to engineering now.', 'Let me escalate this to engineering; I will update you.'], close: { state: 'done', by: 'agent', texts: ['Engineering fixed the dropped connections, I escalated it on Tuesday and they patched it.', 'I escalated the connection drops and engineering has resolved them.'] } },
    { c: 3, title: 'send Łukasz the Z9 switch manual', open: ["I'll email you the Z9 switch manual.", 'I will send you the manual for the Z9 switch.', 'Let me send over the Z9 switch manual.'], close: { state: 'done', by: 'agent', texts: ['I sent you the Z9 switch manual just now.', 'The Z9 switch manual is in your inbox, I emailed it earlier.'] } },
    { c: 4, title: 'book an engineer visit for Greenleaf School', open: ['I will book an engineer visit for your site.', "I'll arrange an engineer visit for next week.", 'Let me book an engineer visit to look at the mesh kit.'], close: { state: 'cancelled', by: 'customer', texts: ['Please cancel the engineer visit, the mesh kit works again.', 'No need for the engineer visit anymore, it is fixed.', "We don't need the engineer visit after all, you can cancel it."] } },
    { c: 0, title: 'call Hiroshi back about the invoice', open: ["I'll call you back tomorrow about the invoice.", 'I will ring you back about the invoice tomorrow.'], close: { state: 'cancelled', by: 'customer', texts: ['No need to call me back about the invoice, I found the answer.', 'Forget the call back about the invoice, it is sorted.'] } },
    { c: 1, title: 'send Marie-Claire a quote for two extra mesh units', open: ["I'll send you a quote for two extra mesh units.", 'I will prepare a quote for two more mesh units.'] },
    { c: 2, title: 'send the firmware update instructions', open: ['I will send you the firmware update instructions.', "I'll email the firmware update instructions to you."], close: { state: 'done', by: 'agent', texts: ['I emailed you the firmware update instructions.', 'The firmware update instructions have been sent.'] } },
  ];
  followUps.forEach((f, index) => {
    const c = customers[f.c]!;
    const key = `s${index + 1}`;
    const steps: Step[] = [
      () => {
        from(c, b.pick(['Can you help?', 'What are the next steps?', 'Is there anything you can do?', 'Please let me know what you can do.']));
        agent(c, b.pick(f.open));
        b.openTask(key, { title: f.title, owner: 'agent' });
        if (b.chance(0.5)) from(c, b.pick(['Thank you!', 'Great, thanks.', 'Perfect.']));
      },
    ];
    if (f.close) {
      const close = f.close;
      steps.push(() => {
        if (close.by === 'agent') agent(c, b.pick(close.texts));
        else from(c, b.pick(close.texts));
        b.closeTask(key, close.state);
        if (close.by === 'agent') from(c, b.pick(['Thanks!', 'Brilliant, thank you.', 'Received, thanks.']));
        else agent(c, b.pick(['Cancelled, glad it is sorted.', 'Done, I have cancelled it.']));
      });
    }
    threads.push(steps);
  });

  const filler: Step = () => {
    const c = b.pick(customers);
    from(c, sentence(b.pick(['any update on my ticket?', 'just checking in.', 'thanks for the quick reply.', 'is the status page up to date?'])));
    agent(c, b.pick(['Still working on it, thanks for your patience.', 'You are welcome.', 'Yes, the status page is current.', 'I will update you as soon as I know more.']));
  };

  interleave(b, threads, filler, { fillerChance: 0.35, daysBetween: [1, 2] });
  return b.build('support', 'a support agent with several customers');
}
