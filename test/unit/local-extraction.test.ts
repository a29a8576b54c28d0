/**
 * The local model's reading rules, each over phrasings that must be read and
 * near-misses that must not. None of these sentences is in the extraction
 * benchmark's corpora.
 */
import { describe, expect, it } from 'vitest';
import { extractContacts } from '../../functions/adapters/models/local/contacts.js';
import { extractFacts } from '../../functions/adapters/models/local/facts.js';
import { extractTasks } from '../../functions/adapters/models/local/tasks.js';
import { authorOf, isHypothetical, recaseKnownNames, resolveDate, sentences } from '../../functions/adapters/models/local/text.js';
import type { PromptRecord, UpdaterInput } from '../../functions/ports/model.js';
import { toPromptRecord } from '../../functions/use-cases/consolidate-batch.js';
import type { RawRecord } from '../../functions/ports/pipeline.js';

const AT = '2026-05-06T10:00:00Z'; // a Wednesday

type Line = string | (Partial<PromptRecord> & { content: string });
function input(updater: UpdaterInput['updater'], lines: readonly Line[], existing: UpdaterInput['existing'] = []): UpdaterInput {
  const records: PromptRecord[] = lines.map((line, i) => ({ id: `r${i + 1}`, sequence: i + 1, timestamp: AT, type: 'message', role: 'user', ...(typeof line === 'string' ? { content: line } : line) }));
  return { updater, records, existing, tables: [] };
}
const contacts = (...lines: Line[]) =>
  extractContacts(input('contacts', lines)).ops.flatMap((op) => (op.op === 'add' ? [op.contact] : []));
// A contact said to have moved within the batch is added as they were, then again as they are: the last add is who they are now.
const contact = (name: string, ...lines: Line[]) => [...contacts(...lines)].reverse().find((c) => c.name === name);
/** Contacts as the consolidator reads them: names the batch spells in capitals elsewhere recased first. */
const casedContacts = (lines: Line[]) => {
  const records = input('contacts', lines).records;
  return extractContacts({ updater: 'contacts', records: recaseKnownNames(records), existing: [], tables: [] }).ops.flatMap((op) => (op.op === 'add' ? [op.contact] : []));
};
const facts = (...lines: Line[]) =>
  extractFacts(input('facts', lines)).ops.flatMap((op) => (op.op === 'add' ? [op.row as Record<string, string | null>] : []));
const fact = (attribute: string, ...lines: Line[]) => facts(...lines).filter((row) => row.attribute === attribute);
const taskOps = (lines: readonly Line[], existing: UpdaterInput['existing'] = []) => extractTasks(input('tasks', lines, existing)).ops;
const openTask = (title: string) => [{ alias: 'T1', title, owner: 'user', state: 'open' }];

describe('attribution: first person belongs to the record’s author', () => {
  it('files a speaker’s statement under the speaker, not under a role word', () => {
    expect(fact('home city', { content: 'Rosa: I live in Valencia now.', speaker: 'Rosa' })).toEqual([expect.objectContaining({ subject: 'Rosa', value: 'Valencia' })]);
  });

  it('files a contact’s statement under the contact id', () => {
    expect(fact('home city', { content: 'We are based in Tampere.', contact: { id: 'cust-77', name: 'Aino Virtanen' } })).toEqual([expect.objectContaining({ subject: 'cust-77' })]);
  });

  it('files the user’s own statement under user when nothing names them', () => {
    expect(fact('home city', 'I live in Ghent.')).toEqual([expect.objectContaining({ subject: 'user', value: 'Ghent' })]);
  });

  it('takes the speaker from metadata.speaker when the event has none', () => {
    const raw = { id: 'e1', type: 'message', role: 'user', content: 'Ivan: hi', tenantId: 't', agentId: 'a', sequence: 1, timestamp: AT, receivedAt: AT, metadata: { speaker: 'Ivan' } } as RawRecord;
    expect(toPromptRecord(raw).speaker).toBe('Ivan');
    expect(toPromptRecord({ ...raw, speaker: 'Olga' }).speaker).toBe('Olga');
  });

  it('does not take "Note to self:" or "Correction:" for a speaker’s name', () => {
    expect(authorOf({ role: 'user', content: 'Note to self: water the plants.' })).toMatchObject({ key: 'user', content: 'Note to self: water the plants.' });
    expect(fact('birthday', 'Correction: my birthday is on 2 May.')).toEqual([expect.objectContaining({ subject: 'user' })]);
  });

  it('treats a name typed precomposed or decomposed as one contact', () => {
    const found = contacts({ content: 'I am a teacher at Lindholm School.', speaker: 'Zoë' }, { content: 'I got a cat.', speaker: 'Zoe\u0308' });
    expect(found.map((c) => c.name)).toEqual(['Zoë']);
  });
});

describe('abbreviations end neither a sentence nor a value', () => {
  it('keeps titles and company suffixes inside sentences', () => {
    expect(sentences('I met Mr. Okafor at St. Pancras. He was late.')).toEqual(['I met Mr. Okafor at St. Pancras.', 'He was late.']);
    expect(sentences('Talked to Brightwell Inc. about it. Then lunch.')).toHaveLength(2);
  });

  it.each([['My dentist is Dr. Weiss.'], ['Dr. Weiss is my dentist.'], ['I have seen Dr. Weiss as my dentist since 2019.'], ['My dentist, Dr. Weiss, retired.']])('stores the dentist as Dr. Weiss: %s', (line) => {
    expect(fact('dentist', line).map((row) => row.value)).toEqual(['Dr. Weiss']);
  });

  it('reads a title before a full name as a title: the contact is the person', () => {
    expect(contact('Amara Osei', 'Yesterday Dr. Amara Osei joined the board.') ?? contact('Dr. Amara Osei', 'Yesterday Dr. Amara Osei joined the board.')).toBeDefined();
  });
});

describe('contacts: organisation and role, in one clause or the next', () => {
  it.each([
    ['I met José Álvarez from Ferrotek, he runs purchasing there.', 'José Álvarez', 'Ferrotek', 'purchasing'],
    ["Yesterday I met Ingrid Solberg; she's a paediatric nurse at Haukeland Hospital.", 'Ingrid Solberg', 'Haukeland Hospital', 'paediatric nurse'],
    ['Tomás Ruiz, our account manager at Vantage Ltd., called twice.', 'Tomás Ruiz', 'Vantage Ltd', 'account manager'],
    ['Chatted with Wei Chen. He works for Northwind as a data engineer.', 'Wei Chen', 'Northwind', 'data engineer'],
  ])('%s', (line, name, organisation, role) => {
    expect(contact(name, line)).toMatchObject({ organisation, role });
  });

  it.each([
    ['Ravi left Quanta and joined Helix Bio as CTO.'],
    ['Heads up, Ravi is now CTO at Helix Bio.'],
    ['Ravi has taken a job as CTO with Helix Bio.'],
    ['Ravi is no longer at Quanta; he moved to Helix Bio as CTO.'],
  ])('follows a job change: %s', (line) => {
    expect(contact('Ravi Menon', 'Ravi Menon is the lead engineer at Quanta.', line)).toMatchObject({ organisation: 'Helix Bio', role: 'CTO' });
  });

  it('adds a contact who moved within the batch as they were first, so the earlier employer and role become history', () => {
    const ops = extractContacts(input('contacts', ['Ravi Menon is the lead engineer at Quanta.', 'Ravi joined Helix Bio last week.'])).ops;
    expect(ops).toEqual([
      expect.objectContaining({ op: 'add', contact: { name: 'Ravi Menon', organisation: 'Quanta', role: 'lead engineer' }, evidence: ['r1'] }),
      expect.objectContaining({ op: 'add', contact: expect.objectContaining({ name: 'Ravi Menon', organisation: 'Helix Bio' }) }),
    ]);
  });

  it.each([['Do you think Ravi will join Helix Bio?'], ['If Ravi moved to Helix Bio, we would lose him.'], ['Should Ravi join Helix Bio?']])('does not take a question or a hypothetical for a change: %s', (line) => {
    expect(contact('Ravi Menon', 'Ravi Menon is the lead engineer at Quanta.', line)).toMatchObject({ organisation: 'Quanta' });
  });

  it('reads a promotion only when the new title is a job', () => {
    expect(contact('Lena Park', 'Lena Park works at Orbis.', 'Lena got promoted to regional director.')).toMatchObject({ role: 'regional director' });
    expect(contact('Lena Park', 'Lena Park works at Orbis.', 'Lena is now happy with the plan.')?.role).toBeUndefined();
  });

  it('reads chat news without a subject as the author’s', () => {
    expect(contact('Mina', { content: 'Joined Larkspur Films last week as an editor!', speaker: 'Mina' })).toMatchObject({ organisation: 'Larkspur Films', role: 'editor' });
    expect(contact('Mina', { content: 'Started at Larkspur Films on Monday.', speaker: 'Mina' })).toMatchObject({ organisation: 'Larkspur Films' });
  });

  it('takes no symbol into a name: "Dolores > greg confirmed" is about Dolores', () => {
    const names = contacts(...recaseKnownNames([{ content: 'Greg left the renewal letter under the door' }, { content: 'love that for us. Dolores > greg confirmed' }]).map((r) => r.content)).map((c) => c.name);
    expect(names).toContain('Dolores');
    expect(names.filter((name) => /[<>]/.test(name))).toEqual([]);
  });

  it('reads a job held for years ("I\'ve been the …at") and an offer taken as the author’s', () => {
    expect(contact('Odile', { content: "long week. i've been the night manager at Corvid Hotels for six years and it shows", speaker: 'Odile' })).toMatchObject({ organisation: 'Corvid Hotels', role: 'night manager' });
    expect(contact('Odile', { content: 'ok decided, taking the Ashgrove Media offer, content strategist, remote', speaker: 'Odile' })).toMatchObject({ organisation: 'Ashgrove Media', role: 'content strategist' });
    expect(contact('Odile', { content: 'I accepted the Ashgrove Media job.', speaker: 'Odile' })).toMatchObject({ organisation: 'Ashgrove Media' });
    expect(contact('Odile', { content: "I'm taking the Ashgrove Media offer!!! so nervous", speaker: 'Odile' })).toMatchObject({ organisation: 'Ashgrove Media' });
    // What follows the comma is a job title or nothing; a guest is no job.
    expect(contact('Odile', { content: 'I accepted the Koru Labs job, starts monday!', speaker: 'Odile' })).toMatchObject({ organisation: 'Koru Labs' });
    expect(contact('Odile', { content: 'I accepted the Koru Labs job, starts monday!', speaker: 'Odile' })?.role).toBeUndefined();
    expect(contact('Odile', { content: "I've been a guest at the Hilton for a week", speaker: 'Odile' })?.organisation).toBeUndefined();
    // An offer weighed is no job.
    expect(contact('Odile', { content: 'still thinking about the Ashgrove Media offer tbh', speaker: 'Odile' })?.organisation).toBeUndefined();
  });

  it('introduces no one in a question, but still sees people already known', () => {
    expect(contacts('Should I call Tom about the offsite?').map((c) => c.name)).toEqual([]);
    expect(contacts('Tom Baker is our designer at Quanta.', 'Should I call Tom about the offsite?').map((c) => c.name)).toEqual(['Tom Baker']);
  });

  it('does not take places for people', () => {
    expect(contacts('We flew to Madrid with Ravi Menon.', 'I moved to Lyon in May.').map((c) => c.name)).toEqual(['Ravi Menon']);
  });

  it('gives no job to a place a role follows in apposition, and takes a saint’s name for part of a place', () => {
    const said = contacts({ content: "Noted: Tom Hale, your flatmate from second year at Leeds, a paramedic at St James's, moving to Perth in March.", role: 'assistant' });
    expect(said.map((c) => c.name)).toEqual(['Tom Hale']);
    expect(contacts('She trained in Cardiff, a midwife at St. Luke’s for ten years.').map((c) => c.name)).toEqual([]);
    // After "to" or "with", a name in apposition is still someone's.
    expect(contact('Dana', 'I spoke to Dana, the head of purchasing at Ferrotek, this morning.')).toMatchObject({ role: 'head of purchasing', organisation: 'Ferrotek' });
    expect(contact('Luke', 'Luke said St Luke’s is hiring.')).toBeDefined();
  });

  it('does not take departments, acronyms or ticket codes for people', () => {
    expect(contacts('Forwarded the invoice to Finance and emailed the IRS about my refund.').map((c) => c.name)).toEqual([]);
    expect(contacts('Had a call with Payroll, then met Oluwaseun Bello about the rota.').map((c) => c.name)).toEqual(['Oluwaseun Bello']);
    expect(contacts('Raised OPS-2231 with Marta Quiroga this morning.').map((c) => c.name)).toEqual(['Marta Quiroga']);
    // Two capitals may be a nickname.
    expect(contacts('Grabbed lunch with JJ after the gym.').map((c) => c.name)).toEqual(['JJ']);
  });
});

describe('contacts: a biography from what the records say', () => {
  const bio = (name: string, ...lines: Line[]) => contact(name, ...lines)?.biography ?? '';

  it('reads roles said plainly, in apposition, or as the work someone does', () => {
    expect(contact('Marcus', 'my neighbour Marcus is a plumber, useful lol')).toMatchObject({ role: 'plumber' });
    expect(contact('Marcus', 'Marcus next door does plumbing for a living')).toMatchObject({ role: 'plumber' });
    expect(contact('Hannah', 'Hannah (their account manager) promised the keys this week.')).toMatchObject({ role: 'account manager' });
    expect(contact('Ravi', 'Ravi, our new tech lead, starts on Monday.')).toMatchObject({ role: 'tech lead' });
    expect(contact('Carla', 'Carla is an auditor there now')).toMatchObject({ role: 'auditor' });
    expect(contact('Nadia', 'omg Nadia quit Boots, shes at Lloyds Pharmacy now')).toMatchObject({ organisation: 'Lloyds Pharmacy' });
  });

  it('reads what someone does as a standing, a mention in workplace chat, a relation in parentheses and a pronoun after the name', () => {
    expect(bio('Nadia Petrova', 'fyi @Nadia Petrova owns the search service now')).toContain('Said: Nadia Petrova owns the search service now');
    expect(bio('Lena Brandt', 'Dr. Lena Brandt keeps chickens behind the surgery.')).toContain('Said: Lena Brandt keeps chickens behind the surgery');
    expect(bio('Bruno', 'my neighbour, Bruno, is mildly allergic to cats')).toContain('Bruno is mildly allergic to cats');
    expect(bio('Tessa', "so my roommate Tessa she's studying architecture in Delft")).toContain('Tessa is studying architecture in Delft');
    expect(contact('Kojo', 'Kojo (my manager) is off today')?.relationships).toEqual([{ type: 'manager', to: 'user' }]);
    expect(bio('Bashir', "um my uncle Bashir he's got a bad shellfish allergy")).toContain("Said: Bashir's got a bad shellfish allergy");
    expect(bio('Kwabena', "Kwabena (my landlord) is away. Also he's studying law at night.")).toContain('Said: Kwabena is studying law at night');
    // What happens once, or what someone keeps saying, is not a standing.
    expect(bio('Priya', 'Priya keeps saying we should book the trip.')).not.toContain('Said:');
    expect(bio('Priya', 'Priya says the venue is booked.')).not.toContain('Said:');
  });

  it('does not take a judgement for a job', () => {
    expect(contact('Amy', 'Amy is a great cook')?.role).toBeUndefined();
  });

  it('reads a relation the way chat says it', () => {
    expect(contact('Ines', 'my big sis Ines is staying with me this week')?.relationships).toEqual([{ type: 'sister', to: 'user' }]);
    expect(contact('Dev', 'my bro Dev got the tickets')?.relationships).toEqual([{ type: 'brother', to: 'user' }]);
  });

  it("reads a relation to someone else as theirs: 'her son Omar' is Nadia's son, not the user's", () => {
    expect(contact('Omar', 'My sister Nadia is coming over with her son Omar next week.')?.relationships).toEqual([{ type: "Nadia's son", to: 'Nadia' }]);
    expect(bio('Raj', 'My friend Jo and her husband Raj are moving to Leeds.')).toBe("Raj. Jo's husband.");
    expect(contact('Theo', "Dana's little brother Theo starts uni in October.")?.relationships).toEqual([{ type: "Dana's brother", to: 'Dana' }]);
    // "his" is not Jo (a name usually a woman's), and nobody from an earlier message owns it.
    expect(contact('Mia', 'Maria said his daughter Mia starts school soon.')?.relationships).toBeUndefined();
    expect(contact('Nadia', 'My sister Nadia is coming over with her son Omar next week.')?.relationships).toEqual([{ type: 'sister', to: 'user' }]);
  });

  it('keeps what is said someone is or has, with the day a relative time was said', () => {
    expect(bio('Diego', 'my brother Diego graduated yesterday!!')).toBe("Diego. The user's brother. Said: Diego graduated (said 2026-05-06) [r1].");
    expect(bio('Carla', 'Carla lives in Leeds with my cousin.')).toBe("Carla. Said: Carla lives in Leeds with the user's cousin [r1].");
    expect(bio('Nadia', { content: "i grew up in Porto and I'm allergic to cats lol", speaker: 'Nadia' })).toBe('Nadia. Said: Nadia grew up in Porto [r1]; Nadia is allergic to cats [r1].');
  });

  it("keeps what speakers say they like, not a liking of a person, a way or what is in another sentence", () => {
    expect(bio('Freya', { content: 'I love bouldering, and i really can’t stand coriander.', speaker: 'Freya' })).toBe("Freya. Loves bouldering; can't stand coriander.");
    expect(bio('Freya', { content: "I love you! I like how you put it. I'd love to come. I love it.", speaker: 'Freya' })).toBe('Freya. First mentioned 2026-05-06.');
    expect(bio('Freya', { content: 'If I hate the job I will quit.', speaker: 'Freya' })).not.toContain('hates');
    expect(bio('Freya', { content: 'I love my allotment.', speaker: 'Freya' })).toBe('Freya. Loves their allotment.');
  });

  it('says no more than the role or the relation already says', () => {
    expect(bio('Tom', 'Tom is my manager, and he is great.')).toBe("Tom. The user's manager.");
  });

  it('names what comes up more than once with someone, and when nothing is said of them, when they were first named', () => {
    expect(bio('Owen', 'Owen got pulled onto the data center migration.', 'Owen says the data center migration runs late.')).toBe('Owen. Comes up with: data center migration.');
    expect(bio('Owen', 'Owen got pulled onto the data center migration.')).toBe('Owen. First mentioned 2026-05-06.');
  });

  it('replaces what was said of someone with what is said of the same thing later', () => {
    expect(bio('Sam', { content: 'I live in Lyon.', speaker: 'Sam' }, { content: 'Actually, I now live in Paris, not Lyon.', speaker: 'Sam' })).toBe('Sam. Said: Sam lives in Paris [r2].');
  });

  it('keeps what an earlier batch said', () => {
    const earlier = [{ alias: 'C1', name: 'Carla', aliases: [], relationships: [], preferences: [], channels: [], summary: '', biography: 'Carla. Said: Carla lives in Leeds.' }];
    const ops = extractContacts(input('contacts', ['Carla has two kids and a dog.'], earlier as unknown as UpdaterInput['existing'])).ops;
    expect(ops).toMatchObject([{ op: 'update', changes: { biography: 'Carla. Said: Carla lives in Leeds; Carla has two kids and a dog [r1].' } }]);
  });

  it('cites the record each thing said of someone was read from, once for a thing said twice', () => {
    expect(bio('Ines', 'Ines is an architect.', 'Ines has two dogs.', 'Ines has two dogs, the lucky thing.')).toBe('Ines: architect. Said: Ines has two dogs [r2].');
    // A record id that would not read back as one citation is left out of the text.
    const said = extractContacts({ updater: 'contacts', records: [{ id: 'msg.7', sequence: 1, timestamp: AT, type: 'message', role: 'user', content: 'Ines has two dogs.' }], existing: [], tables: [] }).ops;
    expect(said).toMatchObject([{ op: 'add', contact: { biography: 'Ines. Said: Ines has two dogs.' } }]);
  });
});

describe('facts: what is stated, not what is wondered', () => {
  it.each([['I moved to Lisbon in May.'], ['We live in Lisbon.'], ["I'm based in Lisbon these days."], ['Home for us is Lisbon.']])('reads a home: %s', (line) => {
    expect(fact('home city', line).map((row) => row.value)).toEqual(['Lisbon']);
  });

  it.each([['If I moved to Lisbon, I would need a bigger flat.'], ['What if I lived in Lisbon?'], ['Should I move to Lisbon?'], ['I might move to Lisbon next year.'], ['I wonder whether I should live in Lisbon.']])('keeps no fact from: %s', (line) => {
    expect(facts(line)).toEqual([]);
  });

  it.each([['he is grumpy in the mornings but i love him'], ['Honestly I adore them both.'], ['my whole family is here for the week'], ['Our car is back, finally.']])('keeps no preference for a pronoun and no value that only says where: %s', (line) => {
    expect(facts(line)).toEqual([]);
  });

  it.each([['We relocated to Utrecht last spring.'], ['My home base these days is Utrecht.'], ['Our home town is now Utrecht.']])('reads a home said another way, for the author alone: %s', (line) => {
    expect(facts(line)).toEqual([expect.objectContaining({ subject: 'user', attribute: 'home city', value: 'Utrecht' })]);
  });

  it.each([['If it matters, my favourite band is Khruangbin.'], ['In case it helps: my favourite band is Khruangbin.'], ['For what it’s worth, my favourite band is Khruangbin.'.replace('’', "'")]])(
    'reads a courtesy condition as no condition: %s',
    (line) => {
      expect(fact('favourite band', line).map((row) => row.value)).toEqual(['Khruangbin']);
    },
  );

  it.each([
    ['I moved to Lisbon last week and I work at Acme as a designer now.', ['I moved to Lisbon last week', 'I work at Acme as a designer now']],
    ['We live in Porto; my favourite tea is oolong.', ['We live in Porto', 'my favourite tea is oolong']],
  ])('states each of two things in one sentence by its own clause: %s', (line, statements) => {
    const ops = extractFacts(input('facts', [line])).ops.flatMap((op) => (op.op === 'add' ? [op.statement] : []));
    expect(ops.sort()).toEqual([...statements].sort());
  });

  it('keeps the whole sentence when one thing is stated', () => {
    const ops = extractFacts(input('facts', ['I live in Lisbon and love it.'])).ops.flatMap((op) => (op.op === 'add' ? [op.statement] : []));
    expect(ops).toEqual(['I live in Lisbon and love it']);
  });

  it('keeps a time qualifier out of the attribute', () => {
    expect(facts('My morning routine these days is a long swim.')).toEqual([expect.objectContaining({ attribute: 'morning routine', value: 'a long swim' })]);
  });

  it('resolves a pronoun to the last person named in the batch', () => {
    expect(fact('home city', 'My cousin Pablo called.', 'He lives in Seville now.')).toEqual([expect.objectContaining({ subject: 'Pablo', value: 'Seville' })]);
  });

  it.each([
    ['sorry, I got that wrong: it is on the 14th, not the 12th', '2026-05-14'],
    ['Apologies, the kickoff is on the 14th, not the 12th.', '2026-05-14'],
    ['The kickoff is not on the 12th but on the 14th.', '2026-05-14'],
    ['My mistake: the kickoff is actually on the 15th.', '2026-05-15'],
  ])('corrects a date: %s', (line, iso) => {
    const ops = extractFacts(input('facts', ['The kickoff is on the 12th.', line])).ops.filter((op) => op.op === 'add');
    const last = ops[ops.length - 1]!;
    expect(last).toMatchObject({ row: { subject: 'kickoff', attribute: 'date', value: iso }, correction: true });
    // The remark is kept as what was said first, and the correction after it supersedes it in the same patch
    // (so the records that say the 12th are marked with the 14th), never the other way round.
    const wrong = ops.findIndex((op) => op.op === 'add' && (op.row as Record<string, string>).value === '2026-05-12');
    expect(wrong === -1 || (wrong < ops.length - 1 && !(ops[wrong] as { correction?: boolean }).correction)).toBe(true);
  });

  it('corrects a date stored in an earlier batch', () => {
    const existing = [{ alias: 'F1', table: 'profile', row: { subject: 'kickoff', attribute: 'date', value: '2026-05-12' }, statement: 'x', status: 'active' }];
    const [op] = extractFacts(input('facts', ['Sorry, I got that wrong: it is on the 14th, not the 12th.'], existing)).ops.filter((o) => o.op === 'add');
    expect(op).toMatchObject({ row: { subject: 'kickoff', value: '2026-05-14' }, correction: true });
  });

  it.each([['The kickoff meeting is next Monday.', '2026-05-11'], ['The launch party has been set for June 3.', '2026-06-03'], ['The offsite is in two weeks.', '2026-05-20']])('dates a thing against the record’s own time: %s', (line, iso) => {
    expect(fact('date', line).map((row) => row.value)).toEqual([iso]);
  });

  it.each([['The train is late again.'], ['Sorry, I am late.'], ['The weather is awful on Mondays.']])('does not date or correct from: %s', (line) => {
    expect(fact('date', line)).toEqual([]);
  });

  it('reads "the 14th" forward from the record’s time', () => {
    expect(resolveDate('the 14th', '2026-05-20T09:00:00Z', true)?.iso).toBe('2026-06-14');
    expect(resolveDate('the 14th', '2026-05-02T09:00:00Z', true)?.iso).toBe('2026-05-14');
  });

  it('reads "bc" in chat as "because", never as an era', () => {
    expect(resolveDate('moved to dec 3 bc the venue flooded', '2026-11-20T09:00:00Z', true)?.iso).toBe('2026-12-03');
    expect(resolveDate('the 4th of july, 1776 AD', '2026-11-20T09:00:00Z')?.iso).toBe('1776-07-04');
  });

  it('knows a question or a conditional when it sees one', () => {
    for (const line of ['Should I call Tom?', 'If I moved to Lisbon, fine.', 'What if we went?', 'Maybe I am allergic to cats.']) expect(isHypothetical(line)).toBe(true);
    for (const line of ['I called Tom.', 'I moved to Lisbon.', 'If anything, it got better.'.replace('If anything, ', '')]) expect(isHypothetical(line)).toBe(false);
  });
});

describe('chat shorthand', () => {
  it.each([
    ['Need to return the rental car by Friday.', 'Return the rental car'],
    ['gotta book the vet for next week', 'Book the vet'],
    ['Reminder: water the neighbour’s plants tomorrow', 'Water the neighbour’s plants'],
  ])('opens a task without a subject: %s', (line, title) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title, owner: 'user' }) })]);
  });

  it.each([['Have to admit the ending surprised me.'], ['I have to say, that was a great dinner.'], ['They need to repave the road.']])('opens no task for a figure of speech or someone else’s need: %s', (line) => {
    expect(taskOps([line])).toEqual([]);
  });

  it('takes the name the author goes by as their name, and neither name as a contact', () => {
    expect(fact('name', 'I go by Theo, not Theodore.')).toEqual([expect.objectContaining({ subject: 'user', value: 'Theo' })]);
    expect(contacts('I go by Theo, not Theodore.')).toEqual([]);
    expect(facts('Call me after lunch.')).toEqual([]);
  });

  it('reads being a fan, or not, as a preference', () => {
    expect(facts('I’m not a big fan of olives.'.replace('’', "'"))).toEqual([expect.objectContaining({ preference: 'olives', polarity: 'dislikes' })]);
    expect(facts('I am a huge fan of bluegrass.')).toEqual([expect.objectContaining({ preference: 'bluegrass', polarity: 'likes' })]);
  });

  it.each([['ran into Ines Duarte at the station, she works at Kestrel Bank as a loan officer now'], ['bumped into Ines Duarte at the gym. she works at Kestrel Bank as a loan officer']])(
    'reads whom the author ran into, and where they work: %s',
    (line) => {
      expect(contact('Ines Duarte', line)).toMatchObject({ organisation: 'Kestrel Bank', role: 'loan officer' });
    },
  );

  it('keeps an in-law relation whole', () => {
    expect(contact('Rosa', 'My mother-in-law Rosa arrives on Sunday.')).toMatchObject({ relationships: [{ type: 'mother-in-law', to: 'user' }] });
  });
});

describe('lower-case chat', () => {

  it('takes a common word opening a sentence, a contraction and a verb after a relation word as the words they are', () => {
    const names = casedContacts([
      'Weight was 90.8 this morning, so no damage done.',
      "You've worked for this since January.",
      "my brother can't come, he's stuck at work",
      'our client retries and the vendor retries too',
      'we had the party at the Fox and Hounds',
    ]).map((c) => c.name);
    expect(names).toEqual([]);
  });

  it('takes languages, weekdays, a business and an event as no one and no job', () => {
    const found = casedContacts([
      'I want to learn a few Swedish phrases before the trip.',
      "I've been going twice a week, Tuesdays and Fridays.",
      "Noted: Biscuit's vet appointment at Harbour Vets with Dr Hannah Reid on Monday.",
    ]);
    expect(found.map((c) => [c.name, c.role])).toEqual([['Hannah Reid', undefined]]);
  });

  it('takes where someone goes or comes from, and a number opening a sentence, as no one', () => {
    const names = casedContacts([
      'Nell is moving to Penrith in the spring.',
      'we drove all the way to Kirkwall and back',
      'Getting the train to Edinburgh tomorrow.',
      'Forty-one candles is a fire hazard.',
      'I sent the photos to Nell and wrote to Farid about it.',
      "We're going to Farid's for dinner.",
      "I'll get back to Oren about the quote.",
    ]).map((c) => c.name);
    expect(names.sort()).toEqual(['Farid', 'Nell', 'Oren']);
  });

  it('reads a name after a title said in lower case, and leaves a title before a word alone', () => {
    expect(recaseKnownNames([{ content: 'found a new dentist, dr amy cho in fairhaven' }, { content: 'booked with dr cho for the 20th' }, { content: 'ms for short, mr nobody' }]).map((r) => r.content)).toEqual([
      'found a new dentist, Dr Amy Cho in fairhaven',
      'booked with Dr Cho for the 20th',
      'ms for short, mr nobody',
    ]);
    expect(casedContacts(['found a new dentist, dr amy cho in fairhaven']).map((c) => c.name)).toEqual(['Amy Cho']);
  });

  it('takes an English word in capitals as said loudly, not as a name to re-case elsewhere', () => {
    const records = recaseKnownNames([{ content: 'I started cello lessons three weeks ago.' }, { content: 'The CELLO? Since when?' }, { content: 'she works at kpmg' }, { content: 'KPMG again' }]);
    expect(records.map((r) => r.content)).toEqual(['I started cello lessons three weeks ago.', 'The CELLO? Since when?', 'she works at KPMG', 'KPMG again']);
  });

  it('reads no role from a clause that goes on with "because" or "got", and an organisation from "has been at"', () => {
    expect(contacts('I got a charity place with Versus Arthritis, because of Mum’s knee.').map((c) => [c.name, c.role])).toEqual([['Versus Arthritis', undefined]]);
    expect(contact('Fatima', 'Fatima is great, she’s been at Deloitte for 12 years.')).toMatchObject({ organisation: 'Deloitte' });
  });

  it('takes a name called out before chat’s "thats" as someone spoken to, and a judgement as nothing said of who he is', () => {
    expect(contact('Beth', 'Beth thats amazing', 'Beth whats the plan')?.biography).toBe('Beth. First mentioned 2026-05-06.');
    expect(contact('Gary', 'Gary deserves a medal.')?.biography).toBe('Gary. First mentioned 2026-05-06.');
  });

  it('keeps a common word as a name where the batch writes it as one inside a sentence', () => {
    const names = casedContacts(['Dev is researching lawnmowers.', 'me and Dev booked Lisbon for May.']).map((c) => c.name);
    expect(names).toContain('Dev');
  });

  it('reads a name the batch spells with a capital elsewhere, where it was written in lower case', () => {
    const found = casedContacts(['bumped into rafa from globex at the conference, hes their new cto', { role: 'assistant', content: 'Good to hear you met Rafa from Globex!' }]);
    expect(found).toEqual([expect.objectContaining({ name: 'Rafa', organisation: 'Globex' })]);
  });

  it('reads a first name, a city or an unknown organisation written in lower case where one belongs', () => {
    const records = recaseKnownNames([{ content: 'drinks w oskar later, hes a designer at figma now' }, { content: 'we might move to glasgow next year' }]);
    expect(records.map((r) => r.content)).toEqual(['drinks w Oskar later, hes a designer at Figma now', 'we might move to Glasgow next year']);
  });

  it('reads a name no lexicon knows after a verb of meeting, and an employer after any job', () => {
    const found = casedContacts(['met up w ifeoma yesterday', 'hes a landscape architect btw', 'my sister ana is an auditor at deloitte now']);
    expect(found).toEqual([
      expect.objectContaining({ name: 'Ifeoma', role: 'landscape architect' }),
      expect.objectContaining({ name: 'Ana', role: 'auditor', organisation: 'Deloitte' }),
    ]);
  });

  it('gives "she" to the last woman named when the last person named is a man, and to no one after an unnamed partner', () => {
    const found = contacts('My sister Ana is an auditor at Deloitte.', 'Marco works for Acme as a data analyst.', 'She is an accountant there now.');
    expect(found.find((c) => c.name === 'Ana')).toMatchObject({ role: 'accountant' });
    expect(found.find((c) => c.name === 'Marco')).toMatchObject({ role: 'data analyst', organisation: 'Acme' });
    const partner = contacts('Tom joined the team on Monday.', 'He moved here with his partner, she got a job at Northwind.');
    expect(partner.find((c) => c.name === 'Tom')?.organisation).toBeUndefined();
  });

  it('leaves out of the biography what was said of a job someone no longer has', () => {
    const ana = contact('Ana', 'Ana works at Deloitte as an auditor.', 'Ana is an accountant there now.');
    expect(ana).toMatchObject({ role: 'accountant', organisation: 'Deloitte' });
    expect(ana?.biography).not.toMatch(/auditor/);
  });

  it('keeps "she" with a name the lexicon takes for a man\'s when no woman was named', () => {
    expect(contact('Sam', 'Sam joined Initech.', 'She is a designer there now.')).toMatchObject({ role: 'designer', organisation: 'Initech' });
  });

  it('reads an employer written in lower case after "joined"', () => {
    expect(casedContacts(['my friend priya joined deloitte last year', 'she is an auditor there now'])).toEqual([expect.objectContaining({ name: 'Priya', role: 'auditor', organisation: 'Deloitte' })]);
  });

  it('takes neither chat shorthand nor what someone saw for a name', () => {
    expect(casedContacts(['they called yday, still waiting', 'saw khruangbin live and i am still not ok', 'told ppl about it']).map((c) => c.name)).toEqual([]);
  });

  it.each([['Bea works nights as a paramedic.'], ['Bea works at the big hospital as a paramedic now.']])('reads the role someone works as, whoever employs them: %s', (line) => {
    expect(contact('Bea', line)).toMatchObject({ role: 'paramedic' });
  });

  it.each([['Noted, I will remind you.'], ["Sure, I'll remind you!"]])('opens no task for an assistant’s bare "I will remind you": %s', (line) => {
    expect(taskOps([{ role: 'assistant', content: line }])).toEqual([]);
  });

  it('reads "you" in a named person’s task as the other person who spoke last, and leaves it after an assistant', () => {
    const titles = (lines: Line[]) => taskOps(lines).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));
    expect(titles([{ content: 'how is the garden doing?', speaker: 'Callum' }, { content: 'I will send you my plum crumble recipe tomorrow.', speaker: 'Margaret' }])).toEqual(["Send Callum Margaret's plum crumble recipe"]);
    expect(titles([{ role: 'assistant', content: 'How can I help?' }, { content: 'I will send you the Q3 deck tomorrow.', speaker: 'Dana' }])).toEqual(['Send you the Q3 deck']);
    expect(titles([{ content: 'see you at the station', speaker: 'Amy' }, { content: "I'll pick you both up in the new car", speaker: 'Rob' }])).toEqual(['Pick you both up in the new car']);
    // Said in passing, a commitment must name what it is about in its own words.
    expect(titles([{ content: 'deal, next time I win', speaker: 'Margaret' }, { content: "ha I'll hold you to that", speaker: 'Callum' }])).toEqual([]);
  });

  it('between two people, reads a question as a question and a request as the other person’s task', () => {
    const ops = (lines: Line[]) => taskOps(lines).flatMap((op) => (op.op === 'add' ? [[op.task.title, op.task.owner]] : []));
    const fromGran = { content: 'The garden is lovely.', speaker: 'Margaret' };
    expect(ops([fromGran, { content: 'amazing!! can you drive again?', speaker: 'Callum' }])).toEqual([]);
    expect(ops([fromGran, { content: 'ok. can you send me the photos of grandad?', speaker: 'Callum' }])).toEqual([['Send Callum the photos of grandad', 'Margaret']]);
  });

  it.each([
    ['I shall simply have to be patient, which has never been my strong point.'],
    ['I must tell you I am quite in love with Rocky.'],
    ['Please do not. It is four days until my operation.'],
  ])('opens no task for what someone will be, tells, or must not do: %s', (line) => {
    expect(taskOps([line])).toEqual([]);
  });

  it('opens no task for a request the assistant answers in its reply, nor for a request in the assistant’s own draft', () => {
    expect(taskOps(['Could you write me a short thank-you message in French?'])).toEqual([]);
    expect(taskOps(['can you give me a list of easy lunches pls'])).toEqual([]);
    expect(taskOps([{ role: 'assistant', content: "Here's a draft: 'Dear Colin, could you please arrange for the fan to be repaired?'" }])).toEqual([]);
    // For later, it is work to do.
    expect(taskOps(['Could you draft the landlord email by Friday?'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ owner: 'assistant' }) })]);
  });

  it('ends a title where chat ends the sentence with an emoji', () => {
    expect(taskOps(['I’ll ring the plumber tomorrow 🙏 oh and the boiler is fine now'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Ring the plumber' }) })]);
  });

  it.each([['Sam works twice as fast as the other developer.'], ['Maya works as hard as any nurse.']])('reads a comparison as no role: %s', (line) => {
    expect(contacts(line).filter((c) => c.role)).toEqual([]);
  });

  it('reads a feeling with someone in it as no role, though an organisation follows', () => {
    expect(contacts("Terry came round. He says he's still mad you beat him at Monopoly at Christmas").filter((c) => c.role || c.organisation)).toEqual([]);
    expect(contacts('Dana is the head of her department at Acme.').map((c) => c.organisation)).toEqual(['Acme']);
  });

  it('says of someone introduced by name their age and the work they did, and what the next clause goes on to say', () => {
    const terry = contact('Terry', "Made a friend at the moorings. His name's Terry, he's about seventy-five, drove buses in Nottingham for thirty years.");
    expect(terry?.biography).toContain('Terry is about seventy-five');
    expect(terry?.biography).toContain('Terry drove buses in Nottingham for thirty years');
    expect(contact('Ines', 'Ines worked as a welder before the kids.')?.biography).toContain('Ines worked as a welder before the kids');
    // A number that is no age, an errand run and an afternoon's work are not read as who someone is.
    for (const line of ["Sam's 20 minutes away.", 'My brother Sam drove me to the station this morning.', 'My colleague Sam worked on the slides all weekend.', 'My friend Sam used to be late to everything lol.']) expect(contact('Sam', line)?.biography ?? '', line).not.toContain('Said:');
    expect(contact('Tom', 'My brother Tom is 34, worked on the car all afternoon with me.')?.biography).not.toContain('worked on the car');
    // "US" is no "us".
    expect(contact('Ana Lopes', 'Ana Lopes is the US sales lead at Brightwave.')).toMatchObject({ role: 'US sales lead', organisation: 'Brightwave' });
  });

  it.each([['Back from vacation, what a week.'], ['home from church now'], ['had dinner with bestie last night']])('takes no everyday word after "from" or "with" for a name: %s', (line) => {
    expect(contacts(line)).toEqual([]);
  });

  it.each([
    ['Had lunch with Tom today. Remind me to ask his wife for her recipe.', 'Ask his wife for her recipe'],
    ['Met Jess at the fair. Remind me to call my mom and thank her', "Call the user's mom and thank her"],
    ['Remind me to invite Maya, her partner and the kids to the bbq', 'Invite Maya, her partner and the kids to the bbq'],
  ])('leaves a pronoun alone when the title names someone else it could mean, and keeps a list whole: %s', (line, title) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title }) })]);
  });

  it('states a corrected value whole, not by a clause of the rewritten sentence', () => {
    const statements = extractFacts(input('facts', ['I live in Lisbon and I am not vegan but I am vegetarian.'])).ops.flatMap((op) => (op.op === 'add' ? [op.statement] : []));
    expect(statements.every((statement) => !/\bI am I am\b/.test(statement))).toBe(true);
  });

  it('reads a role given in parentheses after a name', () => {
    expect(contact('Wen Li', 'Lunch with Wen Li (head of design at Pallet Co) went well.')).toMatchObject({ role: 'head of design', organisation: 'Pallet Co' });
  });

  it.each([['my neighbour is a carpenter'], ['my flatmate zoltan is moving out in june']])('keeps no fact of the user from what a relation is or does: %s', (line) => {
    expect(facts(line)).toEqual([]);
  });

  it('reads "veggie" as a vegetarian diet', () => {
    expect(fact('diet', "i'm veggie these days")).toEqual([expect.objectContaining({ value: 'vegetarian' })]);
  });

  it('leaves addresses and links as written', () => {
    const records = recaseKnownNames([{ content: 'write to farid@example.com or see example.com/farid' }, { content: 'Ask Farid about it.' }]);
    expect(records[0]!.content).toBe('write to farid@example.com or see example.com/farid');
  });

  it('leaves words the lexicon knows as something else in lower case', () => {
    const records = recaseKnownNames([{ content: 'will you mark it done, may be late' }, { content: 'Ask Will, Mark and May.' }]);
    expect(records[0]!.content).toBe('will you mark it done, may be late');
  });

  it.each([
    ['Follow-up call set for Thursday Nov 12 with Priya.', 'Nov'],
    ['Booked the Thai place for Saturday with Priya.', 'Thai'],
  ])('takes neither an abbreviated month nor a cuisine for a person: %s', (line, word) => {
    expect(contacts(line).map((c) => c.name)).not.toContain(word);
  });

  it.each([["Noted that Omar's staying with Lena."], ["Rafa's flying to Globex HQ on Monday."]])('reads what someone is doing as no role: %s', (line) => {
    expect(contacts(line).filter((c) => c.role)).toEqual([]);
  });

  it('reads "my cousin tariq is ..." as no attribute named after him', () => {
    expect(facts('my cousin tariq is staying over the long weekend')).toEqual([]);
  });

  it.each([
    ['Had coffee with Lucia Ferrand today. Remind me to send her the venue list tomorrow.', 'Send Lucia Ferrand the venue list'],
    ['Lunch with Omar ran long, remind me to forward him the article', 'Forward Omar the article'],
    ['Met Ines at the fair. I need to return her umbrella', "Return Ines's umbrella"],
    ['Remind me to call her back tomorrow.', 'Call her back'],
    ['Saw Ana and Ben today, remind me to text her the photos', 'Text her the photos'],
  ])('names the one person a pronoun in a title stands for, and only then: %s', (line, title) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title }) })]);
  });

  it.each([
    ['need to renew my library card before june could you just do it online for me', "Renew the user's library card"],
    ['gotta get tariq a housewarming gift, his party is on the 20th', 'Get tariq a housewarming gift'],
  ])('ends a task title where the request or the aside begins: %s', (line, title) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title }) })]);
  });
});

describe('what is told of someone else, in chat', () => {
  it('reads another person’s allergy or diet, even beside a task, and gives "she" to no man', () => {
    expect(facts('my nephew Tomas has a bad egg allergy so i need to bake without eggs')).toContainEqual(expect.objectContaining({ subject: 'Tomas', preference: 'egg', polarity: 'allergic' }));
    expect(facts('Carla is vegan now, did not see that coming')).toContainEqual(expect.objectContaining({ subject: 'Carla', attribute: 'diet', value: 'vegan' }));
    expect(facts('Grandad Pete is visiting.', "She's allergic to cats.").filter((row) => row.polarity === 'allergic')).toEqual([]);
    expect(facts('Aunt Mira is visiting.', "She's allergic to cats.")).toContainEqual(expect.objectContaining({ subject: 'Mira', preference: 'cats' }));
  });

  it('reads a relation to someone named in lower case, but not to a common word', () => {
    expect(contact('Lena', "we're off to see jonas's sister Lena this weekend")).toMatchObject({ relationships: [{ type: "Jonas's sister", to: 'Jonas' }] });
    expect(contact('Lena', "the bakery's owner Lena gave us free rolls")?.relationships ?? []).toEqual([]);
  });

  it('reads who was found to serve the author, and where someone used to work', () => {
    expect(contact('Sam Reyes', 'got a new physio!! Sam Reyes, super patient with my knee')).toMatchObject({ relationships: [{ type: 'physio', to: 'user' }] });
    expect(contacts('I found a vet. It is lovely there.').map((c) => c.name)).toEqual([]);
    const marta = contact('Marta', 'Marta used to work at Kestrel Bank, funny enough.');
    expect(marta?.organisation).toBeUndefined();
    expect(marta?.biography).toContain('used to work at Kestrel Bank');
  });

  it('reads a job named before who holds it, a neighbour named by where they live, and no job from a thing someone has', () => {
    expect(contact('Ines', 'booked swimming lessons at Aqualand, instructor is Ines, tuesdays at 5')).toMatchObject({ role: 'instructor' });
    expect(contact('Mr Osei', 'Mr Osei next door has a spare key')).toMatchObject({ relationships: [{ type: 'neighbour', to: 'user' }] });
    expect(contact('Pepper', "Pepper's vaccination is set for Monday at the Hillside Clinic.")?.role).toBeUndefined();
  });

  it('reads an appointment said in chat as a dated thing, and a later day for it as its new date', () => {
    const ops = extractFacts(input('facts', ['got a scan w dr okoro fri the 15th 9:40', 'physio appt is on the 19th', 'ugh physio appt moved to may 21'])).ops.flatMap((op) => (op.op === 'add' ? [op.row as Record<string, string>] : []));
    expect(ops.map((row) => [row.subject, row.value])).toEqual([
      ['scan with dr okoro', '2026-05-15'],
      ['physio appointment', '2026-05-19'],
      ['physio appointment', '2026-05-21'],
    ]);
  });

  it('reads a dated thing said without its article, and a later day for it as its new date, but no day said of a pronoun or of today', () => {
    const rows = facts('first thing: physio is May 19 at 9:10, the clinic on Larch Road', 'report deadline is june 2. ugh', 'they bumped me to May 26, same time');
    expect(rows.map((row) => [row.subject, row.attribute, row.value])).toEqual([
      ['physio', 'date', '2026-05-19'],
      ['report deadline', 'date', '2026-06-02'],
      ['physio', 'date', '2026-05-26'],
    ]);
    expect(facts('today is May 7, right?')).toEqual([]);
    expect(facts("it's the 12th already, time flies")).toEqual([]);
    expect(facts('which is may 9 i think')).toEqual([]);
    // "maybe" is no May; someone else's birthday is not the user's dated thing; "dentist's" reads like "dentist is".
    expect(fact('date', 'so the drive is maybe 20 minutes')).toEqual([]);
    expect(facts('her birthday is May 3').filter((row) => /her birthday/.test(String(row.subject)))).toEqual([]);
    expect(fact('date', "ok dentist's june 20 at 3")).toEqual([expect.objectContaining({ subject: 'dentist', value: '2026-06-20' })]);
  });

  it('reads what an assistant says it wrote down for the user ("I\'ve updated your X to Y") as the user\'s value, replacing the last', () => {
    const rows = facts(
      { role: 'assistant', content: "Done. I've saved your swim target as 40 lengths, your pool as Leisureland and your coach as Ada, and I'll check in on Fridays." },
      { role: 'assistant', content: "I've updated your swim target to 1,500 metres now that you're in the big pool." },
      { role: 'assistant', content: "I've moved your rest day to Sunday." },
      { role: 'assistant', content: "I've set your reminder to 7:15." },
      { role: 'assistant', content: "I've moved your bookings to Friday." },
      { role: 'assistant', content: "I've noted your preference to avoid dairy." },
      { role: 'assistant', content: "I've changed your pickup time to 5pm, your drop-off time to 7pm." },
    );
    expect(rows.map((row) => [row.attribute, row.value])).toEqual([
      ['swim target', '40 lengths'],
      ['pool', 'Leisureland'],
      ['coach', 'Ada'],
      ['swim target', '1,500 metres'],
      ['rest day', 'Sunday'],
      // Bookings are no note of the user's: moved to a day, they are a dated thing.
      ['date', '2026-05-08'],
      ['pickup time', '5pm'],
      ['drop-off time', '7pm'],
    ]);
    // A day of the month in the note is still a dated thing.
    expect(fact('date', { role: 'assistant', content: "I've moved your dentist appointment to Thursday, May 14." })).toEqual([expect.objectContaining({ subject: 'dentist appointment', value: '2026-05-14' })]);
  });

  it('keeps one fact for a sentence two readings take as the same thing\'s value', () => {
    // Once as the physio's date and once as the user's physio: the same sentence would be shown twice.
    expect(facts({ role: 'assistant', content: "I've moved your physio to Thursday at 14:00." })).toEqual([{ subject: 'physio', attribute: 'date', value: '2026-05-07', date: '2026-05-07' }]);
    // Two values of the same thing in one sentence are two facts (found in review).
    expect(facts('my dentist is Dr Patel and the dentist is booked for Friday 8 May').map((row) => row.value)).toEqual(['Dr Patel', '2026-05-08']);
  });

  it('reads an employer named before what one does there, and an offer taken as the next employer', () => {
    expect(fact('employer', 'i work at Corvid Hotels doing nights so evenings r best')).toEqual([expect.objectContaining({ value: 'Corvid Hotels' })]);
    expect(fact('employer', 'NEWS!! got an offer at Ashgrove Media as a content lead, start on the 9th')).toEqual([expect.objectContaining({ value: 'Ashgrove Media' })]);
    expect(fact('employer', 'should i take the offer from Ashgrove Media?')).toEqual([]);
    // An offer for a car or a deal is no job.
    expect(fact('employer', 'we accepted an offer from Dave for the car')).toEqual([]);
    expect(fact('employer', 'got an offer from Comcast for half price on broadband')).toEqual([]);
  });

  it('moves a dated thing an agent reschedules, whoever it is said to belong to', () => {
    const rows = facts(
      { role: 'assistant', content: 'I have scheduled the site visit for Tuesday, May 12, starting at 9:00 AM.' },
      { role: 'assistant', content: 'I have rescheduled our site visit to Thursday, May 14, still at 9:00 AM.' },
    );
    expect(rows.map((row) => [row.subject, row.value])).toEqual([
      ['site visit', '2026-05-12'],
      ['site visit', '2026-05-14'],
    ]);
  });

  it('reads a stay said with its days as a dated visit, and "wait actually its the …" as its correction', () => {
    const ops = extractFacts(input('facts', ['my brother Ravi is visiting the 9th-11th, cant wait', 'wait actually its the 10th to the 12th not the 9th, his train got moved'])).ops.flatMap((op) => (op.op === 'add' ? [op.row as Record<string, string>] : []));
    expect(ops.map((row) => [row.subject, row.value])).toEqual([
      ["ravi's visit", '2026-05-09'],
      ["ravi's visit", '2026-05-10'],
    ]);
  });

  it('moves the last dated thing when the news is that they moved it', () => {
    const rows = extractFacts(input('facts', ['vet appt is on the 12th', 'the clinic rang, they pushed me back to the 15th'])).ops.flatMap((op) => (op.op === 'add' ? [op.row as Record<string, string>] : []));
    expect(rows.map((row) => [row.subject, row.value])).toEqual([
      ['vet appointment', '2026-05-12'],
      ['vet appointment', '2026-05-15'],
    ]);
    expect(facts('they moved me to a bigger desk')).toEqual([]);
  });

  it('keeps no value from what someone is doing just now, but keeps a hobby', () => {
    expect(facts('my brother is coming over on the 12th to help')).toEqual([]);
    expect(fact('hobby', 'my hobby is painting')).toEqual([expect.objectContaining({ value: 'painting' })]);
  });

  it('takes a pet’s name and a shop one orders from for no one', () => {
    expect(contacts('we got a rescue kitten!! her name is Miso and she already bit Tom', 'my dog Rolo hates the rain').map((c) => c.name)).toEqual(['Tom']);
    expect(contacts('can you order the 5kg bag from Zooplus for me').map((c) => c.name)).toEqual([]);
  });

  it('reads a job said before the name in a support reply', () => {
    expect(contact('Hannah Reyes', 'Your account manager, Hannah Reyes, will email you the new contract.')).toMatchObject({ role: 'account manager' });
  });

  it('reads a first name before a surname said in lower case as one person', () => {
    const [record] = recaseKnownNames([{ content: 'had lunch with dax garcia from the design team' }]);
    expect(record!.content).toContain('Dax Garcia');
    expect(recaseKnownNames([{ content: 'the garcia twins are loud' }])[0]!.content).toBe('the garcia twins are loud');
    // A surname that is also an English word is a job or a thing where it stands.
    expect(recaseKnownNames([{ content: 'need a midday walker for the pup' }])[0]!.content).toBe('need a midday walker for the pup');
  });
});

describe('notes, errands and requests', () => {
  const titled = (line: string) => taskOps([line]).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));

  it.each([
    ['I shall need to renew the parking permit before March.', 'Renew the parking permit'],
    ['Next step: chase the insurer for the claim form.', 'Chase the insurer for the claim form'],
    ['Action required: return the signed tenancy agreement.', 'Return the signed tenancy agreement'],
    ['I need buy new tyres for the van.', 'Buy new tyres for the van'],
    ['Tomorrow I must to send the visa forms.', 'Send the visa forms'],
    ['Renew the car tax before the 9th.', 'Renew the car tax'],
    ['+ pick up the dry cleaning', 'Pick up the dry cleaning'],
    ['Follow up with the bank by Friday if nothing changes.', 'Follow up with the bank if nothing changes'],
  ])('opens a task from: %s', (line, title) => {
    expect(titled(line)).toEqual([title]);
  });

  it.each([
    ['I need help with my CV.'],
    ['Call me when you are free.'],
    ['Please note that the office is closed on Friday.'],
    ['Please be advised that the meeting moved.'],
    ['Could you kindly translate this paragraph into German?'],
    ['Please keep this in mind when you plan meals.'],
    ['Please, when you book restaurants, avoid anything spicy.'],
    ['Order arrived damaged.'],
    ['Book club was fun.'],
    ['Pay slip looks wrong.'],
    ['Return flight got cancelled.'],
  ])('opens no task from: %s', (line) => {
    expect(titled(line)).toEqual([]);
  });

  it('reads an errand as a note only from the user', () => {
    expect(taskOps([{ content: 'Call the clinic in the morning.', role: 'assistant' }])).toEqual([]);
  });

  it('still gives the assistant what it is asked to do later', () => {
    expect(taskOps(['Could you kindly send the invoice to Marco on Friday?'])).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Send the invoice to Marco', owner: 'assistant' }) })]);
  });
});

describe('facts told in passing', () => {
  it.each([
    ['We have done the same loop every Sunday since moving to Aarhus.', 'Aarhus'],
    ['Our new flat in Ghent has no lift.', 'Ghent'],
    ['We finally moved into a house in Tartu.', 'Tartu'],
  ])('a home: %s', (line, city) => {
    expect(fact('home city', line)).toEqual([expect.objectContaining({ subject: 'user', value: city })]);
  });

  it('a job, with or without an article, or as news', () => {
    expect(fact('occupation', 'Nine years I am pharmacist in a small town.')).toEqual([expect.objectContaining({ value: 'pharmacist' })]);
    const news = 'Starting as a senior copy editor at Halberd Press on Monday!';
    expect(fact('occupation', news)).toEqual([expect.objectContaining({ value: 'senior copy editor' })]);
    expect(fact('employer', news)).toEqual([expect.objectContaining({ value: 'Halberd Press' })]);
    expect(facts('It started as a joke at the office party.')).toEqual([]);
  });

  it('what the author eats, and does not', () => {
    expect(fact('diet', 'im vegan now, since the summer')).toEqual([expect.objectContaining({ value: 'vegan' })]);
    expect(facts('I don’t eat pork.'.replace('’', "'"))).toEqual([expect.objectContaining({ preference: 'pork', polarity: 'avoids' })]);
    expect(facts("Gluten's off the menu for me now.")).toEqual([expect.objectContaining({ preference: 'gluten', polarity: 'avoids' })]);
  });

  it('a pet adopted by name', () => {
    expect(fact('lurcher', "We're adopting a rescue lurcher called Moss.")).toEqual([expect.objectContaining({ value: 'Moss' })]);
  });
});

describe('people, shows, places and passing states', () => {
  it('takes the show one has tickets or seats for as no one, but keeps a person they are for', () => {
    expect(contacts('finally got tickets for Sinners on friday!!').map((c) => c.name)).toEqual([]);
    expect(contacts('Bought two seats for Wicked in March.').map((c) => c.name)).toEqual([]);
    expect(contacts('Got two seats for Priya at the gala.').map((c) => c.name)).toEqual(['Priya']);
  });

  it('takes a name the lexicon does not know as a person when it moved or relocated', () => {
    expect(contacts('Kwabena moved to Leeds over the summer.').map((c) => c.name)).toEqual(['Kwabena']);
    expect(contacts('Anneliese relocated to Porto, of all places').map((c) => c.name)).toEqual(['Anneliese']);
  });

  it('gives no job to the place someone moved to', () => {
    expect(contact('Nottingham', 'Tomas moved to Nottingham, a nurse at Southmead now.')).toBeUndefined();
    expect(contact('Marco', 'Sent the deck to Marco, our account manager at Brightwell.')).toMatchObject({ role: 'account manager' });
  });

  it('gives a job said after the place someone moved to to who moved', () => {
    expect(contact('Ingrid', 'Ingrid relocated to Gothenburg, a product owner at Volvo Cars these days.')).toMatchObject({ role: 'product owner', organisation: 'Volvo Cars' });
    expect(contact('Gothenburg', 'Ingrid relocated to Gothenburg, a product owner at Volvo Cars these days.')).toBeUndefined();
  });

  it('takes a name one books a table at for a place, wherever else the batch names it', () => {
    expect(contacts('can you find us a table for four at Kanpai on saturday', { role: 'assistant', content: 'Sure, I will remind you to ring Kanpai.' }).map((c) => c.name)).toEqual([]);
  });

  it('goes on about the person a message asked about when the answer opens on "she" or "he"', () => {
    const asked = contact('Yusuf', 'have you heard from Yusuf lately?', { content: 'nope?', role: 'assistant' }, 'he got married in Lisbon in June');
    expect(asked?.biography).toContain('Yusuf got married in Lisbon');
    // A sentence that names someone else in between breaks the thread.
    expect(contact('Yusuf', 'have you heard from Yusuf lately?', 'Spoke to Carmen about the rota.', 'he got married in Lisbon in June')?.biography ?? '').not.toContain('married');
    // "she" is not a name the lexicon gives "he".
    expect(contact('Yusuf', 'have you heard from Yusuf lately?', 'she got married in Lisbon in June')?.biography ?? '').not.toContain('married');
  });

  it('reads chat without apostrophes or capitals: an allergy, a move, a new employer', () => {
    expect(facts('btw im severely allergic to sesame (epipen and all)')).toEqual([expect.objectContaining({ preference: 'sesame', polarity: 'allergic' })]);
    // Re-cased first, as consolidation does: only a place can follow "moved to".
    const [moved] = recaseKnownNames([{ content: 'oh and we moved to penzance over the summer' }]);
    expect(fact('home city', moved!.content)).toEqual([expect.objectContaining({ value: 'Penzance' })]);
    expect(fact('employer', 'so i start at Ordnance Survey on the 3rd!')).toEqual([expect.objectContaining({ value: 'Ordnance Survey' })]);
    expect(facts('I start at Christmas, all being well.')).toEqual([]);
    // A named author's employer lives on their contact.
    expect(contact('Wren', { content: 'i officially start at Halcyon Bio next week', speaker: 'Wren' })).toMatchObject({ organisation: 'Halcyon Bio' });
  });

  it('keeps no fact of how the body or the mood is just now', () => {
    expect(facts('My brain is full after that workshop.', 'my back is killing me today')).toEqual([]);
    expect(fact('commute', 'My commute is 40 minutes.')).toEqual([expect.objectContaining({ value: '40 minutes' })]);
  });
});

describe('relations in apposition', () => {
  it('reads "Name, my relation" and "Name — my relation —"', () => {
    expect(contact('Lior', 'Lior, my nephew, starts university in Haifa.')).toMatchObject({ relationships: [{ type: 'nephew', to: 'user' }] });
    expect(contact('Dmitri Volkov', 'Dmitri Volkov — my landlord — finally texted back.')).toMatchObject({ relationships: [{ type: 'landlord', to: 'user' }] });
  });

  it('does not take "my wife’s cousin" for a wife, or a dash for part of a name', () => {
    expect(contact('Tariq Aziz', 'Tariq Aziz — my wife’s cousin — is visiting.'.replace('’', "'"))?.relationships ?? []).toEqual([]);
    expect(contacts('Lunch with Bernadette Okafor — she is back from Quito.').map((c) => c.name)).toEqual(['Bernadette Okafor']);
  });
});

describe('tasks: closed by meaning, not by wording', () => {
  it.each([
    ['send the contract to Priya', 'I sent Priya the contract this morning.'],
    ['pick up the dry cleaning', 'Picked up the dry cleaning on the way home.'],
    ['call the plumber about the boiler', 'Rang the plumber, the boiler gets fixed Thursday.'],
    ['email the slides to Omar', 'The slides went out to Omar an hour ago.'],
    ['submit the grant application', 'The grant application is done and submitted.'],
  ])('closes "%s" with "%s"', (title, line) => {
    expect(taskOps([line], openTask(title))).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } })]);
  });

  it.each([
    ['send the contract to Priya', "I haven't sent the contract to Priya yet."],
    ['send the contract to Priya', 'I sent Priya a birthday card.'],
    ['send the contract to Priya', 'Priya sent me a long email about the weather.'.replace('sent me a long email about the weather', 'is on holiday')],
    ['book the venue', "Don't forget to book the venue."],
    ['prepare slides for the quarterly review', 'I got the date of the quarterly review wrong.'],
  ])('leaves "%s" open after "%s"', (title, line) => {
    expect(taskOps([line], openTask(title)).filter((op) => op.op === 'update')).toEqual([]);
  });

  it.each([['No need to book the venue anymore.'], ['Forget about booking the venue, we are staying home.'], ["We won't book the venue after all."], ['Please cancel the venue booking.']])('cancels on: %s', (line) => {
    expect(taskOps([line], openTask('book the venue'))).toEqual([expect.objectContaining({ changes: { state: 'cancelled' } })]);
  });

  it('calls off a task named by its thing alone, but takes cancelling something else as work of its own', () => {
    expect(taskOps(['ok forget the Ikea thing, the old shelves will do'], openTask('drive to Ikea'))).toEqual([expect.objectContaining({ changes: { state: 'cancelled' } })]);
    expect(taskOps(['I need to cancel the gym membership.'], openTask('book a gym session')).filter((op) => op.op === 'update')).toEqual([]);
  });

  it('reads "need to" after a comma, names the thing "it" stands for, and leaves out what happens if not', () => {
    expect(taskOps(['still got the library book from october, need to renew it by monday or they fine me'])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Renew the library book', due: '2026-05-11' }) }),
    ]);
    // Two things before leave "it" as said, and an idiom keeps its "it".
    const titles = taskOps(['the library book is still on my desk, need to renew it by monday']).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));
    expect(titles.filter((title) => /desk|book/.test(title))).toEqual([]);
    expect(taskOps(['my car is a state, need to make it to the gym tonight'])).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Make it to the gym' }) })]);
  });

  it('names "it" from the sentence the task is said in before the message before it', () => {
    const titles = taskOps(['picked up my new glasses and the case. still have the rental bike from last week, need to return it by sunday']).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));
    expect(titles).toEqual(['Return the rental bike']);
  });

  it('names "them" in an explicit reminder from the one business the last messages name, and keeps it as said otherwise', () => {
    const asked = [
      'can you book me a screen repair at Pixelworks?',
      { role: 'assistant' as const, content: "I can't book repairs, but Pixelworks takes walk-ins most mornings." },
      'ok remind me friday to phone them',
    ];
    expect(taskOps(asked)).toContainEqual(expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Phone Pixelworks', due: '2026-05-08' }) }));
    const two = ['Halden Motors or Brookside Garage, whichever is cheaper', 'remind me friday to phone them'];
    expect(taskOps(two)).toContainEqual(expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Phone them' }) }));
  });

  it('keeps a repeating reminder as one task with its repetition and no single due day', () => {
    const ops = taskOps(['remind me every thursday night to put the bins out', 'pls remind me each morning at 7 abt my vitamins']);
    expect(ops.map((op) => (op.op === 'add' ? op.task : undefined))).toEqual([
      { title: 'Put the bins out (every Thursday night)', owner: 'user' },
      { title: "The user's vitamins (each morning at 7)", owner: 'user' },
    ]);
  });

  it('keeps "remind me about" a thing as a task named by the thing, due on the day said', () => {
    const ops = taskOps(['Remind me about my hearing test on Thursday at 9:15 at the Brook Street clinic.', 'remind me abt it later']);
    expect(ops.filter((op) => op.op === 'add').map((op) => op.op === 'add' && [op.task.title, op.task.due])).toEqual([['Hearing test at the Brook Street clinic', '2026-05-07']]);
    // No day, a memory, a refusal, a question, or a request to be told now: no task (found in review).
    for (const line of [
      'remind me about the refund policy for damaged items',
      'the smell of rain will always remind me of summer camp on Fridays',
      'please do not remind me about the gym on Monday anymore',
      'can you remind me about the parking permit on Friday?',
      'remind me about what we discussed on Tuesday',
    ]) expect(taskOps([line]).filter((op) => op.op === 'add')).toEqual([]);
  });

  it('closes each task a line of chat reports, and reads buying as getting', () => {
    const existing = [
      { alias: 'T1', title: 'Renew the bike insurance', owner: 'user', state: 'open' },
      { alias: 'T2', title: 'Get printer ink', owner: 'user', state: 'open' },
    ];
    const ops = taskOps(['insurance renewed, ink bought too. what a productive morning'], existing);
    expect(ops.filter((op) => op.op === 'update').map((op) => op.op === 'update' && [op.target, op.changes.state])).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
    ]);
  });

  it('reads needing someone who serves you as finding one, closed when one is found', () => {
    const ops = taskOps(['ugh i need a new physio, mine retired', 'found a physio near the office!']);
    expect(ops).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Find a new physio' }) }),
      expect.objectContaining({ op: 'update', target: 'new:t1', changes: { state: 'done' } }),
    ]);
    expect(taskOps(['I need a new phone case.'])).toEqual([]);
  });

  it('moves a reminder in passing: a time moves the repeating one, a day the one named', () => {
    const ops = taskOps(['remind me every monday at 8 to take the bins out', 'remind me to renew the car tax by friday', 'council changed collection so pls move that reminder to 7:30']);
    expect(ops.filter((op) => op.op === 'update')).toEqual([expect.objectContaining({ target: 'new:t1', changes: { title: 'Take the bins out (every Monday at 7:30)' } })]);
    const moved = taskOps(['can you push the car tax reminder to next tuesday'], openTask('Renew the car tax'));
    expect(moved).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { due: '2026-05-12' } })]);
    // With no words before "reminder", the task asked for last moves; words that name two tasks move neither.
    expect(taskOps(['move the reminder to friday'], [...openTask('Renew the car tax'), { alias: 'T2', title: 'Book the car service', owner: 'user', state: 'open' }]).filter((op) => op.op === 'update')).toHaveLength(1);
    expect(taskOps(['move the car reminder to friday'], [...openTask('Renew the car tax'), { alias: 'T2', title: 'Book the car service', owner: 'user', state: 'open' }]).filter((op) => op.op === 'update')).toEqual([]);
  });

  it('drops a request the assistant refuses at once, and gives it to the user who takes it over', () => {
    const ops = taskOps([
      'could u book me a court at the Leisure Centre for thursday',
      { role: 'assistant', content: "I'm not able to make bookings, sorry. Courts there tend to go quickly on Thursdays." },
      'ugh ok ill book it later',
    ]);
    expect(ops.filter((op) => op.op === 'add').map((op) => op.op === 'add' && [op.task.title, op.task.owner])).toEqual([['Book a court at the Leisure Centre', 'user']]);
    // A request the assistant takes on stays the assistant's.
    expect(taskOps(['can you send the agenda to Ines tomorrow', { role: 'assistant', content: "Sure, I will send it first thing. I don't think she needs the minutes." }])).toContainEqual(expect.objectContaining({ op: 'add', task: expect.objectContaining({ owner: 'assistant' }) }));
  });

  it('reads the day inside an assistant’s restated reminder as its due date, and keeps a date the task names', () => {
    const ops = taskOps(['yes pls', { role: 'assistant', content: "I'll remind you Monday morning (May 11) to renew the May 20 parking permit." }]);
    expect(ops).toEqual([expect.objectContaining({ op: 'add', task: { title: 'Renew the May 20 parking permit', owner: 'user', due: '2026-05-11' } })]);
  });

  it('keeps "on the 1st of every month" as a repeating reminder, moved on a month when it is done', () => {
    const ops = taskOps(['remind me to water the fern on the 15th of every month', 'watered the fern!']);
    expect(ops[0]).toMatchObject({ op: 'add', task: { title: 'Water the fern (every month on the 15th)', due: '2026-05-15' } });
    expect(ops[1]).toMatchObject({ op: 'update', target: 'new:t1', changes: { due: '2026-06-15' } });
    // The assistant saying it was done is the same occurrence, not the next one.
    const again = taskOps(['remind me to water the fern on the 15th of every month', 'watered the fern!', { role: 'assistant', content: 'Nice, the fern has been watered for May; next reminder is June 15.' }]);
    expect(again.filter((op) => op.op === 'update' && op.changes.due)).toHaveLength(1);
  });

  it('moves the day of what was just asked for: "make it thursday not wed"', () => {
    const ops = taskOps(['remind me wed to call the garage', 'hmm make it thursday not wed']);
    expect(ops.map((op) => (op.op === 'add' ? op.task.due : op.op === 'update' ? op.changes.due : undefined))).toEqual(['2026-05-06', '2026-05-07']);
    // With nothing asked for just before, it moves nothing.
    expect(taskOps(['make it thursday not wed'])).toEqual([]);
  });

  it('reads a two-word report, an errand said without its object, and no progress from a question', () => {
    expect(taskOps(['phoned halden.'], openTask('Phone Halden Motors about the MOT'))).toEqual([expect.objectContaining({ changes: { state: 'done' } })]);
    expect(taskOps(['the parking fine is £60, need to pay by friday'])).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Pay the parking fine' }) })]);
    expect(taskOps([{ role: 'assistant', content: "Did they say the venue won't be ready until after the 14th?" }], openTask('Book the venue for the 14th'))).toEqual([]);
  });

  it('takes no task from an assistant relaying what someone else will do', () => {
    expect(taskOps([{ role: 'assistant', content: 'Lovely, so Grandma June will collect the kids on Fridays.' }])).toEqual([]);
  });

  it('takes the user’s yes to a reminder the assistant offered as the user’s task, and a fuller restatement as its title', () => {
    const ops = taskOps([
      { role: 'assistant', content: 'Halden Motors sounds good. Want me to remind you to ring them about the MOT?' },
      'yep remind me tmrw morning',
      { role: 'assistant', content: "Done, I'll remind you tomorrow morning (May 7) to ring Halden Motors about the MOT." },
    ]);
    expect(ops[0]).toMatchObject({ op: 'add', task: { title: 'Ring them about the MOT', owner: 'user', due: '2026-05-07' }, evidence: ['r2'] });
    expect(ops[1]).toMatchObject({ op: 'update', target: 'new:t1', changes: { title: 'Ring Halden Motors about the MOT' }, evidence: ['r3'] });
    // A yes to an offer about an open task gives that task the offered day.
    const dated = taskOps([{ role: 'assistant', content: 'Shall I set a reminder on the 9th to post the tax return?' }, 'yes please'], openTask('Post the tax return'));
    expect(dated).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { due: '2026-05-09' } })]);
    // "Do you want a reminder to … too?" is an offer as well, and "too" is no part of the title.
    expect(taskOps([{ role: 'assistant', content: 'Do you want a reminder to renew the parking permit too?' }, 'yes pls, fri'])).toEqual([expect.objectContaining({ op: 'add', task: { title: 'Renew the parking permit', owner: 'user', due: '2026-05-08' } })]);
    // No yes, no task.
    expect(taskOps([{ role: 'assistant', content: 'Want me to remind you to ring them about the MOT?' }, 'nah ill remember'])).toEqual([]);
  });

  it('reads a plan for a day said as what one is doing as an errand, and no plan in what was done', () => {
    const titled = (line: string) => taskOps([line]).flatMap((op) => (op.op === 'add' ? [[op.task.title, op.task.due]] : []));
    expect(titled('so excited!! collecting the keys from the letting agent fri')).toEqual([['Collect the keys from the letting agent', '2026-05-08']]);
    expect(titled("we're dropping the bikes off for a service tmrw")).toEqual([['Drop the bikes off for a service', '2026-05-07']]);
    expect(titled('returning that jacket was a pain on monday')).toEqual([]);
    // "her" is never a man's name.
    expect(titled('me and my flatmate tom adopted a kitten, picking her up from the shelter sat')[0]![0]).toBe('Pick her up from the shelter');
  });

  it('closes an assistant’s own promise when it reports the work done beside a "will"', () => {
    const ops = taskOps([
      { role: 'assistant', content: "I'll refund the £20 delivery charge to your card today." },
      { role: 'assistant', content: 'Good news: the £20 delivery charge has been refunded and will reach your card in 3 days.' },
    ]);
    expect(ops.filter((op) => op.op === 'update')).toEqual([expect.objectContaining({ target: 'new:t1', changes: { state: 'done' } })]);
    // A promise alone still closes nothing.
    expect(taskOps([{ role: 'assistant', content: "I'll refund the £20 delivery charge today." }, { role: 'assistant', content: 'I will make sure the £20 delivery charge is refunded.' }]).filter((op) => op.op === 'update' && op.changes.state)).toEqual([]);
  });

  it('calls off an errand at a business said to be out when the writer chose another, and nothing when no other was chosen', () => {
    const errand = openTask('Book the function room at Tamsin Hall');
    expect(taskOps(['ugh tamsin hall is fully booked that weekend. went with Larchmont Social instead, same price'], errand)).toEqual([expect.objectContaining({ target: 'T1', changes: { state: 'cancelled' } })]);
    expect(taskOps(['Tamsin Hall has closed for good. Switched to Larchmont Social.'], errand)).toEqual([expect.objectContaining({ changes: { state: 'cancelled' } })]);
    // Out, but no other chosen: the errand may just wait.
    expect(taskOps(['tamsin hall is closed till monday'], errand).filter((op) => op.op === 'update')).toEqual([]);
    // Another chosen, but the one out is not the task's.
    expect(taskOps(['the bakery is closed, went with Larchmont Social for the venue'], errand).filter((op) => op.op === 'update')).toEqual([]);
    // "going with the flow" chose no one; a viewing moved to a day is no other business.
    expect(taskOps(['ugh tamsin hall is closed till monday. going with the flow, will call then'], errand).filter((op) => op.op === 'update')).toEqual([]);
    expect(taskOps(['Tamsin Hall is closed friday so the viewing moved to saturday'], errand).filter((op) => op.op === 'update')).toEqual([]);
    // An agent's message calls off nothing of the user's.
    expect(taskOps([{ role: 'assistant', content: 'Tamsin Hall is fully booked. I went with Larchmont Social for the quote.' }], errand).filter((op) => op.op === 'update' && op.changes.state)).toEqual([]);
  });

  it('calls off a task by the name right after a dismissal', () => {
    expect(taskOps(['nvm the Bundt, mum is baking one anyway'], openTask('Order a Bundt cake'))).toEqual([expect.objectContaining({ changes: { state: 'cancelled' } })]);
    expect(taskOps(['nvm, the Bundt shop closed early'], openTask('Order a Bundt cake')).filter((op) => op.op === 'update' && op.changes.state === 'cancelled')).toEqual([]);
  });

  it.each([
    ['need to tidy the garage before then its a mess', 'Tidy the garage'],
    ['gotta hoover the stairs before they get here', 'Hoover the stairs'],
    ['need to reset the modem when you get home from work', 'Reset the modem when you get home from work'],
    ['remind me to book the ferry by thursday the 14th', 'Book the ferry'],
  ])('leaves a deadline said by an arrival, and a sentence run on, out of the title, but keeps a condition: %s', (line, title) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title }) })]);
  });

  it('reads "my manager\'s gonna be" as a relation', () => {
    expect(contact('Idris Bello', "my manager's gonna be Idris Bello apparently")).toMatchObject({ relationships: [{ type: 'manager', to: 'user' }] });
    // "my running buddy": after a possessive and a modifier it is a noun, whatever names it could be.
    expect(contacts(...recaseKnownNames([{ content: 'went for a jog w my running buddy this morning' }]).map((r) => r.content)).map((c) => c.name)).toEqual([]);
    // A name after a word for a person is still a name.
    expect(recaseKnownNames([{ content: 'this morning my trainer jake said hi' }])[0]!.content).toContain('Jake');
  });

  it('takes no task from an assistant filing a request into a reminder the user already has', () => {
    expect(taskOps([{ role: 'assistant', content: "Sure, I'll add the bin bags to your Saturday reminder." }])).toEqual([]);
  });

  it('reads a day with a part of it or a time between "remind me" and the task', () => {
    expect(taskOps(['pls remind me fri evening to pay the window cleaner'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Pay the window cleaner', due: '2026-05-08' }) })]);
    expect(taskOps(['remind me tomorrow at 7.30 to defrost the chicken'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Defrost the chicken', due: '2026-05-07' }) })]);
  });

  it('takes the day said between "remind me" and the task as its due date', () => {
    expect(taskOps(['remind me tmrw to water the tomatoes'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Water the tomatoes', due: '2026-05-07' }) })]);
    expect(taskOps(['Remind me on Friday to book the MOT.'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Book the MOT', due: '2026-05-08' }) })]);
  });

  it.each([['Remind me to renew the car insurance.'], ["Don't let me forget to renew the car insurance."], ['Can you make sure I renew the car insurance?'], ['Note to self: renew the car insurance.'], ["I'll renew the car insurance on Friday."]])('opens a task from: %s', (line) => {
    expect(taskOps([line])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Renew the car insurance', owner: 'user' }) })]);
  });

  it.each([['Should I renew the car insurance?'], ['If I renew the car insurance, it costs more.'], ["I'll keep that in mind."], ['Please let me know what you can do.']])('opens no task from: %s', (line) => {
    expect(taskOps([line])).toEqual([]);
  });

  it('names a speaker as the owner of their own commitment', () => {
    expect(taskOps([{ content: 'Kai: I need to renew my passport.', speaker: 'Kai' }])).toEqual([expect.objectContaining({ task: expect.objectContaining({ owner: 'Kai', title: "Renew Kai's passport" }) })]);
  });
});

describe('linear reading', () => {
  const hostile = [
    'a'.repeat(32_768),
    `My ${'x '.repeat(16_000)}`,
    `I met ${'Aa '.repeat(10_000)}from`,
    `the ${'a-'.repeat(16_000)} is on`,
    'Dr. '.repeat(8_000),
    `${'Bob, '.repeat(6_000)}the manager at`,
    `remind me to ${'send the '.repeat(3_500)}`,
    `${'not '.repeat(8_000)}but`,
    // A value said with the one it replaces, thousands of times; "make that" as often.
    '£7 not £5. '.repeat(3_000),
    'could we make that 5pm? '.repeat(1_400),
  ].map((text) => text.slice(0, 32_768));
  // 32 KB of ordinary statements, read the same way: the yardstick, timed in the same run, so a busy
  // machine slows both sides alike (an absolute limit failed on a shared CI machine running 2.6x slower).
  const proseText = Array.from({ length: 400 }, (_, i) => [
    `Yesterday I met Priya Raman, the new manager at Northwind, and we talked about release ${i}.`,
    'My sister Ana moved to Lisbon in March and she works as a nurse there now.',
    'Remind me to send the contract to Omar by Friday, and book a table for two.',
    'I really love oolong tea, though my favourite colour is still teal.',
  ][i % 4]).join(' ').slice(0, 32_768);
  const updaters = [
    (text: string) => extractContacts(input('contacts', [text])),
    (text: string) => extractFacts(input('facts', [text])),
    (text: string) => extractTasks(input('tasks', [text], openTask('send the contract to Priya'))),
  ];
  /** The quickest of two reads, after one to warm up: the least disturbed by other work on the machine. */
  const fastest = (read: (text: string) => unknown, text: string) => {
    read(text);
    return Math.min(...[0, 1].map(() => {
      const started = performance.now();
      read(text);
      return performance.now() - started;
    }));
  };

  it('reads a batch of values followed by "make that" no slower than three times as much prose', () => {
    const batch = (first: string, last: string) => [...Array.from({ length: 10 }, () => first.repeat(Math.ceil(16_384 / first.length)).slice(0, 16_384)), last.repeat(Math.ceil(16_384 / last.length)).slice(0, 16_384)];
    const read = (lines: string[]) => extractFacts(input('facts', lines));
    const values = batch('1pm ', 'make that 5pm. ');
    const sentences = batch(`${proseText.slice(0, 400)} `, `${proseText.slice(0, 400)} `);
    const time = (lines: string[]) => fastest(() => read(lines), '');
    expect(time(values)).toBeLessThan(3 * time(sentences) + 50);
  });

  it.each(hostile.map((text, i) => [i, text]))('reads a 32 KB adversarial message %i no slower than five times 32 KB of ordinary prose, per updater', (_, text) => {
    for (const [i, read] of updaters.entries()) {
      // The prose is read again beside each message, so that both are timed under the same load (a yardstick
      // taken once, before the other workers of the suite got busy, failed a run). Five times: "£7 not £5."
      // repeated takes 2.8 times prose for the facts updater on an idle machine, at stop 45 as now; a read that
      // is quadratic in the message takes tens of seconds here. 50 ms of slack for the updaters that read prose
      // in a few tens of milliseconds.
      const prose = fastest(read, proseText);
      expect(fastest(read, text), `updater ${i}`).toBeLessThan(5 * prose + 50);
    }
  });
});

describe('speaker roles: an assistant’s words are read as the assistant’s', () => {
  it('does not close a task when the assistant acknowledges it', () => {
    const ops = taskOps([{ content: 'Noted. I will remind you to post the signed lease back to Omar by Monday.', role: 'assistant' }], openTask('Post the signed lease back to Omar'));
    expect(ops.filter((op) => op.op === 'update' && 'changes' in op && op.changes.state !== undefined)).toEqual([]);
  });

  it('makes one task of a request and its restatement, with both records as evidence', () => {
    const ops = taskOps([
      'Can you remind me to water the neighbours’ orchids on Thursday?',
      { content: 'Sure thing, I’ll remind you to water the neighbours’ orchids on Thursday.', role: 'assistant' },
    ]);
    expect(ops.filter((op) => op.op === 'add')).toHaveLength(1);
    expect(ops.find((op) => op.op === 'update')).toMatchObject({ op: 'update', changes: {}, target: expect.stringMatching(/^new:/) });
  });

  it('takes no task from what someone will be, feel or pretend, however hedged', () => {
    for (const content of [
      "Okay, starting Monday. Cheese is going to be the hard part.",
      'Priya will be impressed you thought ahead.',
      "I'll probably be sore from moving boxes all weekend.",
      "Ha, I'll pretend I didn't hear the first part of that.",
      'Would you want to have changed anything about the plan?',
    ]) expect(taskOps([content]), content).toEqual([]);
    // A hedged commitment is still one; a named person's errand too.
    expect(taskOps(["I'll probably ring the landlord about the boiler tomorrow."]).filter((op) => op.op === 'add')).toHaveLength(1);
    expect(taskOps(['Marco will book the table for Friday.'])).toMatchObject([{ op: 'add', task: { owner: 'Marco' } }]);
  });

  it('takes no task from a commitment said in passing that names nothing, but keeps an explicit request as said', () => {
    for (const content of ["ok i'll grab them then", "I'll believe it when I see it", "fine, I'll sort mine", 'Noor will handle it']) expect(taskOps([content]), content).toEqual([]);
    expect(taskOps(["ok i'll grab the tickets then"])).toMatchObject([{ op: 'add', task: { title: 'Grab the tickets then' } }]);
    expect(taskOps(['Noor will handle the seating plan'])).toMatchObject([{ op: 'add', task: { owner: 'Noor' } }]);
    expect(taskOps(['remind me to call her back'])).toMatchObject([{ op: 'add', task: { title: 'Call her back' } }]);
  });

  it('never takes a refusal for a task', () => {
    expect(taskOps([{ content: 'I will not be able to book the flights for you, but I can list the cheapest options.', role: 'assistant' }])).toEqual([]);
    expect(taskOps([{ content: "I can't change the billing address on the invoice myself.", role: 'assistant' }])).toEqual([]);
  });

  it('closes a task when the user reports the deed, whatever the verb', () => {
    const ops = taskOps(['Mailed the signed lease to Omar this morning.'], openTask('Post the signed lease back to Omar'));
    expect(ops).toContainEqual(expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } }));
  });

  it('reads an explicit "add a task for me"', () => {
    expect(taskOps(['add a task for me: renew the parking permit before the 30th'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Renew the parking permit', owner: 'user' }) })]);
  });

  it('names the person an assistant’s "you" stands for in a task title', () => {
    const ops = taskOps([{ content: 'Thanks!', speaker: 'Dana' }, { content: 'I’ll send you the quarterly slides tonight.', role: 'assistant' }]);
    expect(ops).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Send Dana the quarterly slides', owner: 'assistant' }) })]);
  });
});

describe('chat: news, errands taken over and plans said without articles', () => {
  it('reads a job one is starting, said ahead with the role after a comma', () => {
    expect(contact('Rui', { content: 'guess what, starting at Halden Freight in porto on jan 5, junior logistics planner', speaker: 'Rui' })).toMatchObject({ organisation: 'Halden Freight', role: 'junior logistics planner' });
  });

  it('takes over a refused request with its own work when the user says they will "do it"', () => {
    const ops = taskOps([
      { content: 'can u cancel my streaming subscription at Flixly for me', speaker: 'Rui' },
      { content: 'I’m not able to cancel subscriptions for you, but Flixly has a cancel button under Account.', role: 'assistant' },
      { content: 'meh ok ill do it later', speaker: 'Rui' },
      { content: 'cancelled the flixly thing, finally', speaker: 'Rui' },
    ]);
    expect(ops.filter((op) => op.op === 'add')).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: expect.stringMatching(/^Cancel .*streaming subscription at Flixly$/), owner: 'Rui' }) })]);
    expect(ops.at(-1)).toMatchObject({ op: 'update', changes: { state: 'done' }, evidence: ['r4'] });
  });

  it('takes over a refused request by its own verb ("k ill enter tonight")', () => {
    const ops = taskOps([
      { content: 'can u enter me into the 10k? entries close friday', speaker: 'Rui' },
      { content: 'I can’t enter races for you, but the form is short.', role: 'assistant' },
      { content: 'k ill enter tonight then', speaker: 'Rui' },
    ]);
    expect(ops).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Enter into the 10k', owner: 'Rui' }) })]);
  });

  it('keeps whose and what kind of appointment it is, and leaves a second reminder out of a restated title', () => {
    const rows = facts({ content: 'moms dermatology appt got moved to fri the 15th', speaker: 'Rui' });
    expect(rows).toEqual([expect.objectContaining({ subject: "mom's dermatology appointment", value: '2026-05-15' })]);
    const ops = taskOps(['remind me to collect her prescription tmrw', { content: 'Sure, I’ll remind you tomorrow to collect her prescription and about the appointment.', role: 'assistant' }]);
    expect(ops.filter((op) => op.op === 'update')).toEqual([expect.objectContaining({ changes: {} })]);
  });

  it('reads a helper named as called so-and-so, or named in the next sentence, with what they do', () => {
    expect(contact('Marta', { content: 'our new cleaner is called Marta, she does tuesdays', speaker: 'Rui' })).toMatchObject({ role: 'cleaner' });
    expect(contact('Ilse Brandt', { content: 'my physio wants me off hills for a bit. her name is Ilse Brandt', speaker: 'Rui' })).toMatchObject({ role: 'physio', relationships: [expect.objectContaining({ type: 'physio' })] });
  });

  it('reads a number said with "number" after its label, however short', () => {
    expect(fact('bib number', { content: 'registered!! bib number 417', speaker: 'Rui' })).toEqual([expect.objectContaining({ value: '417' })]);
    expect(fact('order number', { content: 'the order 417 times was a joke', speaker: 'Rui' })).toEqual([]);
  });

  it('dates nothing by "now" alone: a value said to hold now is current, not a thing on today', () => {
    expect(fact('date', { content: 'Also the budget is 40 pounds a head now, not 35.', speaker: 'Rui' })).toEqual([]);
    expect(fact('date', { content: 'the venue is the Old Mill now', speaker: 'Rui' })).toEqual([]);
    expect(fact('date', { content: 'the tasting is on friday the 15th', speaker: 'Rui' })).toEqual([expect.objectContaining({ subject: 'tasting' })]);
  });

  it('reads "order #1047" in a shop’s log as naming one order, and "order number: 5531" as the author’s order', () => {
    expect(fact('order number', { content: 'Hi Kwame — order #1047: the coastal chart, oak frame.', role: 'assistant' })).toEqual([]);
    expect(fact('ticket number', { content: 'Ticket #1047. Has it shipped yet?', speaker: 'Kwame' })).toEqual([]);
    expect(fact('order number', { content: 'order number: 5531', speaker: 'Rui' })).toEqual([expect.objectContaining({ value: '5531' })]);
  });

  it('reads chat’s "tues", "weds" and "thur" as the weekdays they are', () => {
    expect(resolveDate('pick up the cake tues morning', AT, true)).toEqual({ iso: '2026-05-12', text: 'tues morning' });
    expect(resolveDate('weds at 5', AT, true)?.iso).toBe('2026-05-13');
    expect(resolveDate('thur', AT, true)?.iso).toBe('2026-05-07');
  });

  it('reads a dated thing of one’s own said with "we have", and one put off to a weekday as the one after it', () => {
    const rows = facts({ content: 'we have the fitting next tues', speaker: 'Rui' }, { content: 'ugh the fitting got pushed to mon', speaker: 'Rui' });
    expect(rows.map((row) => [row.subject, row.value])).toEqual([['fitting', '2026-05-12'], ['fitting', '2026-05-18']]);
    const ops = extractFacts(input('facts', [{ content: 'ugh the fitting got pushed to mon', speaker: 'Rui' }])).ops.filter((op) => op.op === 'add');
    expect(ops).toEqual([expect.objectContaining({ correction: true })]);
  });

  it('reads what is said of someone past an aside saying who they are', () => {
    expect(fact('diet', { content: 'Jonas (my fiance) is vegan so need to ask the caterer', speaker: 'Rui' })).toEqual([expect.objectContaining({ subject: 'Jonas', value: 'vegan' })]);
    expect(contact('Jonas', { content: 'Jonas (my fiance) is vegan', speaker: 'Rui' })?.relationships).toEqual([expect.objectContaining({ type: 'fiancé' })]);
  });

  it('turns a declined reminder into the user’s own task when they say they will do it, and a refused request into theirs by "ill call them"', () => {
    const declined = taskOps([{ content: 'Want a reminder to ask the school for the permission slip?', role: 'assistant' }, { content: 'nah ill ask at drop-off tmrw', speaker: 'Rui' }]);
    expect(declined).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Ask the school for the permission slip at drop-off', owner: 'Rui', due: '2026-05-07' }) })]);
    const refused = taskOps([
      { content: 'can u email the caterer for a new quote', speaker: 'Rui' },
      { content: 'I can’t send emails for you, but I can draft one.', role: 'assistant' },
      { content: 'nah ill just call them tmrw', speaker: 'Rui' },
    ]);
    expect(refused).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Call the caterer for a new quote', owner: 'Rui', due: '2026-05-07' }) })]);
  });

  it('takes the day inside an accepted reminder offer as its due date', () => {
    const ops = taskOps([{ content: 'Want me to remind you to pick up the cake on the 19th?', role: 'assistant' }, { content: 'ya pls', speaker: 'Rui' }]);
    expect(ops).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Pick up the cake', due: '2026-05-19' }) })]);
  });

  it('reads a booking said without an article, and its correction with "are"', () => {
    const rows = facts({ content: 'ok movers are booked for may 24, all sorted', speaker: 'Rui' }, { content: 'wait no the movers are the 23rd not 24th', speaker: 'Rui' });
    expect(rows.filter((row) => row.attribute === 'date')).toEqual([expect.objectContaining({ subject: 'movers', value: '2026-05-24' }), expect.objectContaining({ subject: 'movers', value: '2026-05-23' })]);
    expect(facts({ content: 'we are booked for may 24', speaker: 'Rui' }).filter((row) => row.attribute === 'date')).toEqual([]);
  });
});

describe('read after the stop 40 held-out sets were scored (their failures, in phrasing of my own)', () => {
  const C = 'Ines Moreau';
  it('takes "Mrs Okafor" for the Grace Okafor already named, and leaves a number with the one it belongs to', () => {
    const people = contacts(
      { content: 'My aunt, Grace Okafor, will be home for the delivery. My mobile is 07700 900311.', speaker: C },
      { content: 'Noted: Mrs Okafor will receive it, and the driver should ring 07700 900311 if needed.', role: 'assistant' },
    );
    expect(people.map((c) => c.name).sort()).toEqual(['Grace Okafor', C]);
    expect(people.find((c) => c.name === 'Grace Okafor')?.channels ?? []).toEqual([]);
  });

  it('reads an agent’s "my manager" as the agent’s, and no person in a thing, a place, a practice or a venue', () => {
    const people = contacts(
      { content: 'The shelf is loose.', speaker: C },
      { content: 'I’ve asked my supervisor, Abel Tesfaye, to approve a refund. Tighten it with the Torx driver in the box, or meet our fitter at Kingsway Retail Park.', role: 'assistant' },
      { content: 'thx. saw dr oduya at Northgate Physio, and booked Casa Lupe for 4 on sat', speaker: C },
    );
    expect(people.find((c) => c.name === 'Abel Tesfaye')).toMatchObject({ role: 'supervisor' });
    expect(people.find((c) => c.name === 'Abel Tesfaye')?.relationships ?? []).toEqual([]);
    expect(people.map((c) => c.name)).not.toEqual(expect.arrayContaining(['Torx']));
    expect(people.map((c) => c.name).filter((name) => /Kingsway|Northgate|Casa/.test(name))).toEqual([]);
  });

  it('reads "sam (bf)" as a boyfriend named Sam, and a doctor at a practice as working there', () => {
    expect(contact('Sam', { content: 'Sam (bf) is cooking tonight', speaker: 'Rui' })?.relationships).toEqual([expect.objectContaining({ type: 'boyfriend' })]);
    expect(contact('Dr Osei', { content: 'booked in w Dr Osei at Riverside Dental', speaker: 'Rui' })).toMatchObject({ organisation: 'Riverside Dental' });
  });

  it('takes no task from what is done by saying it, or a courtesy passed on, and reads a request past "please"', () => {
    for (const content of ["I'll decline the upgrade offer, thanks.", "We'll pass on the loan car.", 'please pass on my thanks to Abel', { content: "Glad it worked out, I'll forget the exchange then.", role: 'assistant' as const }]) expect(taskOps([content]), JSON.stringify(content)).toEqual([]);
    expect(taskOps(['could you please cancel the extra shelf?'])).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Cancel the extra shelf', owner: 'assistant' }) })]);
  });

  it('keeps the day an offer named when the yes gives only a time', () => {
    const ops = taskOps([{ content: 'Do you want me to remind you tomorrow evening to pay the deposit?', role: 'assistant' }, { content: 'ya pls, 8pm. fyi im in the office tue wed thu', speaker: 'Rui' }]);
    expect(ops).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Pay the deposit', due: '2026-05-07' }) })]);
  });

  it('reads an allergy named alone as the author’s', () => {
    expect(facts({ content: 'no satay for me, peanut allergy', speaker: 'Rui' })).toEqual([expect.objectContaining({ subject: 'Rui', preference: 'peanut', polarity: 'allergic' })]);
    expect(facts({ content: 'his peanut allergy is mild', speaker: 'Rui' }).filter((row) => row.preference === 'peanut' && row.subject === 'Rui')).toEqual([]);
  });

  it('keeps an e-mail address whole in a title, cuts what follows a deadline, and names "it" from the sentence before', () => {
    expect(taskOps(['Could you change it to ines.m@post.example.org, please?'])).toEqual([expect.objectContaining({ task: expect.objectContaining({ title: 'Change it to ines.m@post.example.org' }) })]);
    const ops = taskOps([{ content: 'Thanks. I’ve attached a delivery waiver. Please sign and return it by Friday, as the van cannot leave without it. I’ll email you the schedule by Monday at the latest.', role: 'assistant' }]);
    expect(ops.filter((op) => op.op === 'add').map((op) => (op.op === 'add' ? op.task.title : ''))).toEqual(['Sign and return the delivery waiver', 'Email the user the schedule']);
  });

  it('names a replacement order as such, not as a second order number', () => {
    const rows = facts({ content: 'About order KD-20011.', speaker: C }, { content: 'I’ve raised replacement order KD-20098 for you.', role: 'assistant' });
    expect(rows.map((row) => [row.attribute, row.value])).toEqual([['order number', 'KD-20011'], ['replacement order', 'KD-20098']]);
  });

  it('keeps a recurring reminder asked of the assistant as the user’s, and calls it off when asked to stop it', () => {
    const ops = taskOps([
      { content: 'can u set a recurring reminder mon + wed 7am for stretching 15 min', speaker: 'Rui' },
      { content: 'Done: every Monday and Wednesday at 7am.', role: 'assistant' },
      { content: 'pls stop the stretching reminder, keep the other one', speaker: 'Rui' },
      { content: "I'll stop the stretching reminder.", role: 'assistant' },
    ]);
    expect(ops).toEqual([
      expect.objectContaining({ op: 'add', task: { title: 'Stretching 15 min (every mon and wed at 7am)', owner: 'Rui' } }),
      expect.objectContaining({ op: 'update', target: 'new:t1', changes: { state: 'cancelled' }, evidence: ['r3'] }),
    ]);
  });

  it('reads a job said before a name even in a supposition', () => {
    expect(contact('Lena Brandt', { content: 'If it still rattles, I can send our fitter, Lena Brandt, on Monday.', role: 'assistant' })).toMatchObject({ role: 'fitter' });
  });
});

describe('support logs: what an agent tells the customer, and what is no one', () => {
  const C = 'Ines Moreau';
  it('reads reference numbers as the customer’s facts, whoever says them', () => {
    const rows = facts(
      { content: 'My policy no. is HX-20931-B and I filed the claim last week.', speaker: C },
      { content: 'Thanks Ines, I’ve logged this under case 55817 and the replacement went out as order #RT-4410.', role: 'assistant' },
      { content: 'The courier gave me tracking number 1Z 9981 2231 0047 for it.', speaker: C },
    );
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ subject: C, attribute: 'policy number', value: 'HX-20931-B' }),
      expect.objectContaining({ subject: C, attribute: 'case number', value: '55817' }),
      expect.objectContaining({ subject: C, attribute: 'order number', value: 'RT-4410' }),
    ]));
    // A year or a count after such a word is no reference.
    expect(fact('order number', { content: 'I placed the order 3 weeks ago, in 2025 I think.', speaker: C })).toEqual([]);
  });

  it('reads what an agent states about the customer’s own account, and nothing it only advises', () => {
    const rows = facts(
      { content: 'Hello, I need help with my card.', speaker: C },
      { content: 'I can see you’re on the Premier Plus plan, and your billing address is 4 Quay Street, Bristol. Your balance is $1,204.50 today.', role: 'assistant' },
      { content: 'If your limit is too low, you could ask for a review.', role: 'assistant' },
    );
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ subject: C, attribute: 'plan', value: 'Premier Plus' }),
      expect.objectContaining({ subject: C, attribute: 'billing address', value: '4 Quay Street, Bristol' }),
      expect.objectContaining({ subject: C, attribute: 'balance', value: '$1,204.50 today' }),
    ]));
    expect(rows.filter((row) => row.attribute === 'limit')).toEqual([]);
  });

  it('reads a day an agent books or moves, named by what is booked, as a dated thing (a reminder is a task, not one)', () => {
    const rows = facts(
      { content: 'Can the inspection be on Tuesday?', speaker: C },
      { content: 'Of course, I’ve booked the inspection for Tuesday, May 12.', role: 'assistant' },
      { content: 'Update: I’ve rescheduled the inspection to Friday, May 15, as the surveyor is ill.', role: 'assistant' },
      { content: 'And I’ve moved your reminder to Thursday.', role: 'assistant' },
    );
    // The first booking is added and superseded in the same patch by the correction that moves it.
    expect(rows.filter((row) => row.attribute === 'date')).toEqual([
      expect.objectContaining({ subject: 'inspection', value: '2026-05-12' }),
      expect.objectContaining({ subject: 'inspection', value: '2026-05-15' }),
    ]);
    const moved = extractFacts(input('facts', [{ content: 'I’ve rescheduled the inspection to Friday, May 15.', role: 'assistant' }])).ops.find((op) => op.op === 'add');
    expect(moved).toMatchObject({ correction: true, statement: 'I’ve rescheduled the inspection to Friday, May 15' });
  });

  it('reads codes of digits without "my", and a code said again by its value alone as the new value of the last one', () => {
    expect(fact('locker combination', 'joined the pool at last. locker combo is 3391, remind me if i forget')).toEqual([expect.objectContaining({ value: '3391' })]);
    expect(fact('door code', 'the host says the side door code is 7720')).toEqual([expect.objectContaining({ value: '7720' })]);
    const ops = extractFacts(input('facts', ['the host says the door code is 7720', 'ok so they reset the keypad, it’s 1846 now'])).ops.filter((op) => op.op === 'add');
    expect(ops.at(-1)).toMatchObject({ row: expect.objectContaining({ attribute: 'door code', value: '1846' }), correction: true });
    // A time, a year or an amount said that way is no code.
    for (const line of ['it’s 2026 now, time flies', 'it’s 6:30 now', 'it’s 40 dollars now']) {
      const again = extractFacts(input('facts', ['the host says the door code is 7720', line])).ops.filter((op) => op.op === 'add');
      expect(again).toHaveLength(1);
    }
    // The assistant saving it is the user's value, replacing the old one.
    expect(extractFacts(input('facts', [{ content: 'Done, saved your pool locker combination as 5120.', role: 'assistant' }])).ops.find((op) => op.op === 'add')).toMatchObject({ row: expect.objectContaining({ attribute: 'locker combination', value: '5120' }), correction: true });
  });

  it('takes an agent’s "Mr. Pryce" for the customer who gave their full name, not for someone new', () => {
    const people = contacts({ content: 'hi, name is Gareth Pryce, I want fibre at my new place', speaker: 'Gareth' }, { content: 'Good morning, Mr. Pryce, and thank you for choosing Lumenline.', role: 'assistant' }, { content: 'Good evening, Mr Pryce. My name is Renée.', role: 'assistant' });
    expect(people.map((c) => c.name).sort()).toEqual(['Gareth Pryce', 'Renée']);
  });

  it('reads a reference the agent gives value first as the customer’s new one', () => {
    const ops = extractFacts(input('facts', [{ content: 'Your booking is confirmed, reference is booking QX-4471.', role: 'assistant' }, { content: 'The old booking was merged, and QX-5820 is now your active booking reference.', role: 'assistant' }])).ops.filter((op) => op.op === 'add');
    expect(ops.at(-1)).toMatchObject({ row: expect.objectContaining({ attribute: 'booking reference', value: 'QX-5820' }), correction: true });
    expect(extractFacts(input('facts', [{ content: 'Your number 5 is now your favourite, I see.', role: 'assistant' }])).ops.filter((op) => op.op === 'add')).toEqual([]);
  });

  it('reads an address with its unit, city and postcode, and the agent’s correction of it as its new value', () => {
    const lines: Line[] = ['hi, setting up service. address is 77 W Alder St, Unit 5, Eugene OR 97401. thanks', { content: 'I have corrected the service address to 71 W Alder St, Unit 5, Eugene OR 97401, as you asked.', role: 'assistant' }];
    const ops = extractFacts(input('facts', lines)).ops.filter((op) => op.op === 'add');
    expect(ops.map((op) => op.op === 'add' && [op.row.attribute, op.row.value, op.correction ?? false])).toEqual([
      ['address', '77 W Alder St, Unit 5, Eugene OR 97401', false],
      ['address', '71 W Alder St, Unit 5, Eugene OR 97401', true],
    ]);
    // A billing address is its own.
    expect(fact('billing address', 'billing address is 9 Quay Road, Cobh')).toEqual([expect.objectContaining({ value: '9 Quay Road, Cobh' })]);
  });

  it('keeps a time of day that names a thing in a task’s title, and leaves a reason run on after a comma out of it', () => {
    const titles = (line: string) => taskOps([line]).flatMap((op) => (op.op === 'add' ? [[op.task.title, op.task.due]] : []));
    expect(titles('ok I’ll book the evening ferry, the car is at Rosslare')).toEqual([['Book the evening ferry', undefined]]);
    expect(titles('I’ll ask for the night off, head chef at the hotel means weekends are hard')).toEqual([['Ask for the night off', undefined]]);
  });

  it('reads a diet said with a hedging question mark, or told back by the assistant', () => {
    expect(fact('diet', 'so i guess i’m vegan now? weird to say')).toEqual([expect.objectContaining({ value: 'vegan' })]);
    expect(fact('diet', 'am i vegan now?')).toEqual([]);
    expect(extractFacts(input('facts', [{ content: 'Noted: you’re pescatarian now, so fish is fine.', role: 'assistant' }])).ops.find((op) => op.op === 'add')).toMatchObject({ row: expect.objectContaining({ attribute: 'diet', value: 'pescatarian' }), correction: true });
  });

  it('gives an address said of "him" or "her" to the person just spoken of, not to the one saying it', () => {
    const known = [{ alias: 'C1', name: 'Theo', aliases: [], relationships: [{ type: 'brother', to: 'user' }], preferences: [], channels: [{ type: 'email', value: 'theo.b@oldmail.example' }], summary: '' }];
    const ops = extractContacts(input('contacts', [{ content: 'Theo says stop using the oldmail one. he’s only on theo@newpost.example now', speaker: 'Nell' }], known)).ops;
    expect(ops.find((op) => op.op === 'update')).toMatchObject({ target: 'C1', changes: { channels: [{ type: 'email', value: 'theo@newpost.example', replacesEarlier: true }] } });
    expect(ops.some((op) => op.op === 'add' && op.contact.name === 'Nell' && (op.contact.channels ?? []).length > 0)).toBe(false);
  });

  it('reads a number or an address said as new as replacing the old one, and one said plainly as another', () => {
    const known = [{ alias: 'C1', name: 'Maria Lopez', aliases: [], relationships: [], preferences: [], channels: [{ type: 'email', value: 'maria@oldmail.com' }, { type: 'phone', value: '0161 496 0732' }], summary: '' }];
    const update = (...lines: Line[]) => extractContacts(input('contacts', lines, known)).ops.find((op) => op.op === 'update');
    const changed = update('Maria’s new email is maria.lopez@newmail.com, the old one bounces.');
    expect(changed).toMatchObject({ changes: { channels: [{ type: 'email', value: 'maria.lopez@newmail.com', replacesEarlier: true }] } });
    // The biography lists what reaches them now.
    expect(changed?.op === 'update' && changed.changes.biography).toContain('maria.lopez@newmail.com');
    expect(changed?.op === 'update' && changed.changes.biography).not.toContain('maria@oldmail.com');
    expect(update('Maria changed her number to 0161 496 0999.')).toMatchObject({ changes: { channels: [{ type: 'phone', value: '0161 496 0999', replacesEarlier: true }] } });
    expect(update('Maria has a work email too: maria@studio.example')).toMatchObject({ changes: { channels: [{ type: 'email', value: 'maria@studio.example' }] } });
    // Said twice in one batch, both are sent in order (the patch keeps the old one in history), and the biography has the new one.
    const twice = contact('Maria Lopez', 'Maria Lopez emails from maria@oldmail.com.', 'Maria Lopez has a new email: maria.lopez@newmail.com');
    expect(twice?.channels).toEqual([{ type: 'email', value: 'maria@oldmail.com' }, { type: 'email', value: 'maria.lopez@newmail.com', replacesEarlier: true }]);
    expect(twice?.biography).toContain('Reach: email maria.lopez@newmail.com.');
  });

  it('gives no one the digits of an account or a tracking number as a phone, and an agent’s "your number" to the customer', () => {
    const people = contacts(
      { content: 'Reference KL-5530291, for Ines Moreau. The parcel is 7741 2209 5518 3306.', speaker: C },
      { content: 'I’ve passed this to our claims adjuster, Tomas Berg. He’ll be in touch.', role: 'assistant' },
      { content: 'Done, your phone number is now +44 7700 900123.', role: 'assistant' },
    );
    expect(people.find((c) => c.name === C)?.channels).toEqual([{ type: 'phone', value: '+44 7700 900123', replacesEarlier: true }]);
    expect(people.find((c) => c.name === 'Tomas Berg')).toMatchObject({ role: 'claims adjuster' });
    expect(people.find((c) => c.name === 'Tomas Berg')?.channels ?? []).toEqual([]);
  });

  it('takes no address for a person, and a job said before a name with "your"', () => {
    const people = contacts(
      { content: 'Please send it to 12 Larch Avenue, Leeds.', speaker: C },
      { content: 'The parcel will go to Harbour Road depot. Your courier is Ama Mensah.', role: 'assistant' },
    );
    expect(people.map((c) => c.name)).not.toEqual(expect.arrayContaining(['Larch Avenue']));
    expect(people.map((c) => c.name)).not.toEqual(expect.arrayContaining(['Harbour Road']));
    expect(people.find((c) => c.name === 'Ama Mensah')).toMatchObject({ role: 'courier' });
  });

  it('keeps an agent’s dated promise as its task, and its dated instruction as the customer’s, restated once', () => {
    const ops = taskOps([
      { content: 'The sofa arrived with a torn cushion.', speaker: C },
      { content: 'I’m sorry! I’ll get back to you by Thursday with a replacement date. Please upload two photos of the damage by Wednesday.', role: 'assistant' },
      { content: 'Just a quick reminder to upload the photos of the damage by Wednesday.', role: 'assistant' },
      { content: 'I’ll keep you posted, and I’ll get back to you soon.', role: 'assistant' },
    ]);
    const added = ops.filter((op) => op.op === 'add');
    expect(added).toEqual([
      expect.objectContaining({ task: expect.objectContaining({ owner: 'assistant', due: '2026-05-07' }) }),
      expect.objectContaining({ task: expect.objectContaining({ title: 'Upload two photos of the damage', owner: C, due: '2026-05-06' }) }),
    ]);
    expect(ops.filter((op) => op.op === 'update')).toEqual([expect.objectContaining({ target: 'new:t2', evidence: ['r3'] })]);
  });

  it('reads an agent who names themself, and a team said in lower case, as contacts with what they do', () => {
    const people = contacts(
      { content: 'My boiler cover renewal went wrong.', speaker: C },
      { content: 'Good morning, I’m Yusuf Adeyemi from the renewals team. Let me look into it.', role: 'assistant' },
      { content: 'Thanks. Lena Park on your billing desk said it was sorted.', speaker: C },
    );
    expect(people.find((c) => c.name === 'Yusuf Adeyemi')).toMatchObject({ role: 'renewals team' });
    expect(people.find((c) => c.name === 'Lena Park')).toMatchObject({ role: 'billing desk' });
    // "I'm sorry", "I am Happy to help" name no one.
    expect(contacts({ content: 'I’m Sorry to hear that. I am Happy to help.', role: 'assistant' })).toEqual([]);
  });

  it('reads an e-mail or a phone number whole, under one name however it is called, and an amount without what it replaced', () => {
    const rows = facts(
      { content: 'My new e-mail address is ines.m@post.example.org and my mobile number is 07700 900456.', speaker: C },
      { content: 'Thanks, I have updated your email to ines.m@post.example.org. Your excess is now £250 instead of £400.', role: 'assistant' },
    );
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ attribute: 'email', value: 'ines.m@post.example.org' }),
      expect.objectContaining({ attribute: 'phone', value: '07700 900456' }),
      expect.objectContaining({ attribute: 'excess', value: '£250' }),
    ]));
    // The agent's update states the same address again: one fact, with both records behind it.
    expect(rows.filter((row) => /mail|phone|mobile/.test(String(row.attribute))).map((row) => row.attribute).sort()).toEqual(['email', 'phone']);
    const email = extractFacts(input('facts', [{ content: 'My new e-mail address is ines.m@post.example.org.', speaker: C }, { content: 'Thanks, I have updated your email to ines.m@post.example.org.', role: 'assistant' }])).ops.find((op) => op.op === 'add' && (op.row as Record<string, string>).attribute === 'email');
    expect(email).toMatchObject({ evidence: ['r1', 'r2'] });
  });

  it('keeps the work an agent offers as its task when the customer says yes, and nothing when they decline or it is the reply itself', () => {
    const accepted = taskOps([
      { content: 'The wardrobe door arrived split.', speaker: C },
      { content: 'I’m sorry! I can send a new door panel by courier. Would you like me to go ahead?', role: 'assistant' },
      { content: 'Yes please.', speaker: C },
    ]);
    expect(accepted).toEqual([expect.objectContaining({ op: 'add', task: { title: 'Send a new door panel by courier', owner: 'assistant' }, evidence: ['r2', 'r3'] })]);
    expect(taskOps([{ content: 'Shall I refund the delivery charge?', role: 'assistant' }, { content: 'No thanks, keep it.', speaker: C }])).toEqual([]);
    expect(taskOps([{ content: 'Would you like me to draft a complaint letter?', role: 'assistant' }, { content: 'yes pls', speaker: C }])).toEqual([]);
  });

  it('names a reference by what it is of, a flight by its number, and a value an agent changes as replacing the old', () => {
    const rows = facts(
      { content: 'Booking reference MZ4T8R, and the claim reference is CR-20077.', speaker: C },
      { content: 'I’ve changed your flight to BA2491 on Friday, and upgraded your seat to 3A.', role: 'assistant' },
    );
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ attribute: 'booking reference', value: 'MZ4T8R' }),
      expect.objectContaining({ attribute: 'claim reference', value: 'CR-20077' }),
      expect.objectContaining({ attribute: 'flight', value: 'BA2491' }),
    ]));
    const changed = extractFacts(input('facts', [{ content: 'I’ve changed your flight to BA2491 on Friday.', role: 'assistant' }])).ops.find((op) => op.op === 'add');
    expect(changed).toMatchObject({ correction: true });
  });

  it('gives "her number" to the relation the message named, and takes an agent’s "Ms Moreau" for the customer', () => {
    const people = contacts(
      { content: 'My brother Tiago is collecting me, could you add him to the booking? His number is 0161 496 0732.', speaker: C },
      { content: 'Of course, Ms Moreau. Tiago is added.', role: 'assistant' },
    );
    expect(people.find((c) => c.name === 'Tiago')?.channels).toEqual([{ type: 'phone', value: '0161 496 0732' }]);
    expect(people.find((c) => c.name === C)?.channels ?? []).toEqual([]);
    expect(people.map((c) => c.name)).not.toContain('Ms Moreau');
  });

  it('closes a task an agent reports done in a word, and reads "I’ll drop it off" after a reminder as that task, not new work', () => {
    const open = [{ alias: 'T1', title: 'Add Tiago to the booking', owner: 'assistant', state: 'open' }];
    expect(taskOps([{ content: 'All done, Tiago is added.', role: 'assistant' }], open)).toEqual([expect.objectContaining({ target: 'T1', changes: { state: 'done' } })]);
    const ops = taskOps([
      { content: 'Please post the old card reader back to us by the 20th.', role: 'assistant' },
      { content: 'Sure. I’ll drop it at the depot on Saturday.', speaker: C },
    ]);
    expect(ops.filter((op) => op.op === 'add')).toHaveLength(1);
    expect(ops.find((op) => op.op === 'update')).toMatchObject({ target: 'new:t1', evidence: ['r2'] });
  });

  it('reads a second errand’s deadline in an agent’s "please …, and … by"', () => {
    expect(taskOps([{ content: 'Please keep the boxes, and return the faulty unit by May 22.', role: 'assistant' }, { content: 'ok', speaker: C }])).toEqual([
      expect.objectContaining({ task: expect.objectContaining({ title: 'Return the faulty unit', due: '2026-05-22' }) }),
    ]);
  });

  it('reads any code said as a thing’s ID, how many seats an account has, and a price an agent changes', () => {
    const rows = facts(
      { content: 'Our tenant ID is KX-4410 and we want to go from 12 seats to 8 seats.', speaker: C },
      { content: 'Done: from June 1 you will have 8 seats, and your monthly price drops to $96.', role: 'assistant' },
      { content: 'Actually, make that 10 seats.', speaker: C },
      { content: 'Updated it to 10 seats. Your new monthly price from June 1 will be $120.', role: 'assistant' },
    );
    expect(rows.filter((row) => row.attribute === 'tenant id')).toEqual([expect.objectContaining({ value: 'KX-4410' })]);
    expect(rows.filter((row) => row.attribute === 'seats').at(-1)).toMatchObject({ value: '10' });
    expect(rows.filter((row) => row.attribute === 'monthly price').map((row) => row.value)).toEqual(['$96', '$120']);
    const ops = extractFacts(input('facts', [{ content: 'Your new monthly price from June 1 will be $120.', role: 'assistant' }])).ops.filter((op) => op.op === 'add');
    expect(ops).toEqual([expect.objectContaining({ correction: true })]);
  });

  it('reads a role said as what someone is to us', () => {
    expect(contact('Ewa Zielińska', { content: 'One more thing: my colleague Ewa Zielińska is our new workspace admin.', speaker: C })).toMatchObject({ role: 'workspace admin' });
  });

  it('reads working from home as where the author works', () => {
    expect(fact('workplace', { content: 'I mostly work from home, so the outages hurt.', speaker: C })).toEqual([expect.objectContaining({ subject: C, value: 'home' })]);
  });

  it('closes a numbered thing’s task by its number, not another’s', () => {
    const open = [{ alias: 'T1', title: 'Return the Model 3 handset', owner: 'user', state: 'open' }, { alias: 'T2', title: 'Return the Model 4 charger', owner: 'user', state: 'open' }];
    expect(taskOps([{ content: 'The Model 3 went out this morning.', speaker: C }], open)).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } })]);
  });
});

describe('stop 43: targets, numbered places, codes and businesses', () => {
  it('reads a target agreed or changed by either side, named with what it counts, and not a goal reached', () => {
    expect(fact('daily water goal', { role: 'assistant', content: "Let's start with a daily water goal of 2.5 litres and see how it feels." })).toEqual([expect.objectContaining({ value: '2.5 litres' })]);
    expect(fact('weekly reading target', { role: 'assistant', content: 'Good call, I think we should set a weekly reading target of 120 pages.' })).toEqual([expect.objectContaining({ value: '120 pages' })]);
    expect(fact('calorie limit', { role: 'assistant', content: 'Then we can drop your calorie limit down to 1,900 kcal from Monday.' })).toEqual([expect.objectContaining({ value: '1,900 kcal' })]);
    expect(fact('screen time cap', "ok bumping my screen time cap to 3 hours, 2 was impossible")).toEqual([expect.objectContaining({ value: '3 hours' })]);
    expect(facts('I finally hit my goal of 10 push-ups in a row!', 'We reached the fundraising target at last.')).toEqual([]);
    // Advice, other people's targets, a denial and a condition are no target of the user's.
    expect(facts(
      { role: 'assistant', content: 'You can increase the memory limit to 2048 in the config.' },
      { role: 'assistant', content: 'Most people set a savings goal of 10% of income.' },
      { role: 'assistant', content: 'Raising your credit limit to 5000 is possible if you apply.' },
      'the league raised the salary cap to $140 million',
      "don't set a goal of 10k steps yet",
    )).toEqual([]);
  });

  it('reads a numbered place of one’s own, and not a distance from it', () => {
    expect(fact('locker number', 'they moved me, its locker 54 now, top row')).toEqual([expect.objectContaining({ value: '54' })]);
    expect(fact('desk number', 'My desk is 7C, next to the window.')).toEqual([expect.objectContaining({ value: '7C' })]);
    expect(fact('parking space number', 'our parking space number is 118')).toEqual([expect.objectContaining({ value: '118' })]);
    expect(fact('locker number', 'my locker is 3 minutes from the pool')).toEqual([]);
    expect(fact('desk number', 'my desk 3 monitors are broken')).toEqual([]);
  });

  it('reads a padlock’s code, and a code with where it opens said between', () => {
    expect(fact('padlock code', 'new padlock code is 7305, dont lose it')).toEqual([expect.objectContaining({ value: '7305' })]);
    expect(fact('alarm code', 'The alarm code at the studio is 9146.')).toEqual([expect.objectContaining({ value: '9146' })]);
  });

  it('takes a provider, a firm or a technical term for no one', () => {
    const names = casedContacts([
      'Our phones are with Tidewater Telecom and the line is from Bramble Broadband.',
      'I have asked Kestrel Accounting for the statements, and Ana Ruiz at Hollis Architects is copied.',
      'We recommend a PoE injector and moving the VoIP handsets.',
    ]).map((c) => c.name);
    expect(names).not.toEqual(expect.arrayContaining(['Tidewater Telecom']));
    expect(names.filter((n) => /Telecom|Broadband|Accounting|Architects|^PoE$|^VoIP$/.test(n))).toEqual([]);
    expect(names).toContain('Ana Ruiz');
    // English words joined by a hyphen are no one; joined names are.
    expect(casedContacts(['Drop-off is at 8am and Follow-up is booked.', 'Anne-Marie is coming over.']).map((c) => c.name)).toEqual(['Anne-Marie']);
  });
});

describe('stop 43: a value said with the one it replaces', () => {
  const adds = (lines: Line[], existing: UpdaterInput['existing'] = []) =>
    extractFacts(input('facts', lines, existing)).ops.flatMap((op): (Record<string, string | null | boolean> & { attribute?: string | null; value?: string | null })[] => (op.op === 'add' ? [{ ...(op.row as Record<string, string | null>), correction: op.correction === true }] : []));

  it('keeps what it was and what it is, named by the words before it, when nothing held the old value', () => {
    expect(adds(['ok the raffle prize is £40 not £25, they added a voucher'])).toEqual([
      expect.objectContaining({ attribute: 'raffle prize', value: '£25', correction: false }),
      expect.objectContaining({ attribute: 'raffle prize', value: '£40', correction: true }),
    ]);
    expect(adds([{ role: 'assistant', content: 'Sorry for the mix-up: your locker fee is not 180, it is 150 for the term.' }])).toEqual([
      expect.objectContaining({ attribute: 'locker fee', value: '180' }),
      expect.objectContaining({ attribute: 'locker fee', value: '150', correction: true }),
    ]);
    expect(adds(['The booking ref is no longer QT-77120, it is now QT-77164.']).map((row) => row.value)).toEqual(['QT-77120', 'QT-77164']);
    // A code that starts with digits is one value, not the digits before its hyphen.
    expect(adds(['the claim ref is no longer 448-120, its now 448-172']).map((row) => row.value)).toEqual(['448-120', '448-172']);
    // Nothing names what it is of, and nothing held it: named by the value it replaces (marked only before it);
    // two bare numbers say too little even for that.
    expect(adds(['hmm no its the 23rd not the 21st']).map((row) => [row.attribute, row.value])).toEqual([['value replacing 21st', '21st'], ['value replacing 21st', '23rd']]);
    expect(adds(['we have not 1 but 2 dogs', '2 + 2 is 4 not 5', 'it happened in 2019, not 2020'])).toEqual([]);
  });

  it('corrects the fact that held the old value, in the batch or the store', () => {
    const inBatch = adds(['my physio appointment is on the 11th', 'wait sorry, the 12th not the 11th']);
    expect(inBatch.at(-1)).toEqual(expect.objectContaining({ subject: 'physio appointment', attribute: 'date', value: '2026-05-12', correction: true }));
    // An English word after a relation is the thing, not a name: no contact "Appointment".
    expect(casedContacts(['my physio appointment is on the 11th']).map((c) => c.name)).toEqual([]);
    const fact = (row: Record<string, string>) => ({ alias: `F${row.value}`, table: 'profile', row, status: 'active' });
    // The one the sentence names, not Grandad's age that happens to be the same number.
    const stored = adds(['its 95 not 85 for the van'], [fact({ subject: 'Grandad', attribute: 'age', value: '85' }), fact({ subject: 'user', attribute: 'van hire', value: '85' })]);
    expect(stored).toEqual([expect.objectContaining({ subject: 'user', attribute: 'van hire', value: '95', correction: true })]);
    expect(adds(['ok 3 not 2 then'], [fact({ subject: 'user', attribute: 'house number', value: '2' })])).toEqual([]);
    // No 31st of June.
    expect(adds(['re the dentist, its the 31st not the 30th'], [fact({ subject: 'dentist appointment', attribute: 'date', value: '2026-06-30' })])).toEqual([]);
  });

  it('reads "make that X" as the new value of the last value of its kind said before it in the batch', () => {
    const made = adds([{ role: 'assistant', content: 'All set: the groomer has her from 9am and you can collect her at 2:15pm.' }, 'hmm can we make that 3:30? meeting runs late']);
    expect(made.map((row) => [row.value, row.correction])).toEqual([['2:15pm', false], ['3:30', true]]);
    expect(adds(['i can manage 20 minutes of stretching a day', 'make that 30 minutes, my back is better']).map((row) => row.value)).toEqual(['20 minutes', '30 minutes']);
    // A bare number says too little of what it replaces; "make that work" says no value.
    expect(adds(['we are 4 for dinner', 'make it 6'])).toEqual([]);
    expect(adds(['the slides are rough', "let's make that work somehow"])).toEqual([]);
    // "make it" as arriving, doubted or hedged, replaces nothing.
    // (The show's time is read as said, and stays 7pm.)
    expect(adds(['the show starts at 7pm', "I don't think we can make it 8pm", 'we might make it 6pm if traffic is ok'])).toEqual([{ subject: 'show', attribute: 'time', value: '7pm', correction: false }]);
  });

  it('reads no correction between values of different kinds, or where "not" says something else', () => {
    expect(adds(['we need 4 chairs, not 6 tables', "I'd rather have 2 than 3", 'bring 2 not 3pm snacks'])).toEqual([]);
  });
});

describe('stop 44: amounts, times, targets, counts, lines of things and dates', () => {
  const adds = (lines: Line[], existing: UpdaterInput['existing'] = []) =>
    extractFacts(input('facts', lines, existing)).ops.flatMap((op): (Record<string, string | null | boolean> & { subject?: string | null; attribute?: string | null; value?: string | null })[] => (op.op === 'add' ? [{ ...(op.row as Record<string, string | null>), correction: op.correction === true }] : []));

  it('keeps the digits after a thousands comma or a decimal point in a value', () => {
    expect(adds(['Our renovation budget is £42,500, and the builder knows it.']).map((row) => row.value)).toEqual(['£42,500']);
    expect(adds(['my hourly rate is $23.75 at the moment']).map((row) => row.value)).toEqual(['$23.75']);
    // A point or comma that ends a clause still ends the value.
    expect(adds(['my locker code is 4417. my favourite snack is 7, the chocolate bar']).map((row) => row.value)).toEqual(['4417', '7']);
  });

  it('reads an amount said plainly or said to go up or down, and not one said of nothing', () => {
    expect(adds(['ok so parking is £85 a month, ugh']).map((row) => [row.attribute, row.value])).toEqual([['parking', '£85 a month']]);
    expect(adds(['heads up the gym membership is going up to £39.99 a month in june'])).toEqual([expect.objectContaining({ attribute: 'gym membership', value: '£39.99 a month', correction: true })]);
    expect(adds(['our water bill dropped to $61 after the leak was fixed'])).toEqual([expect.objectContaining({ attribute: 'water bill', value: '$61', correction: true })]);
    expect(adds(['it went up to £20 last time', 'the price is £12 now', 'he has gone up to £30 an hour'])).toEqual([]);
  });

  it('moves a thing named shorter or longer when a change is said, and only then', () => {
    const held = [{ alias: 'F1', table: 'profile', row: { subject: 'user', attribute: 'swimming coach', value: 'Marta' } }];
    expect(adds(['my coach is now Ingrid, Marta moved away'], held)).toEqual([expect.objectContaining({ attribute: 'swimming coach', value: 'Ingrid', correction: true })]);
    // Said plainly, it may be another coach: its own row.
    expect(adds(['my coach is Ingrid'], held)).toEqual([expect.objectContaining({ attribute: 'coach', value: 'Ingrid' })]);
    // Two rows it could be: neither is guessed.
    const two = [...held, { alias: 'F2', table: 'profile', row: { subject: 'user', attribute: 'driving coach', value: 'Sol' } }];
    expect(adds(['my coach is now Ingrid'], two)).toEqual([expect.objectContaining({ attribute: 'coach' })]);
  });

  it('reads the time a thing is at, and a new time it moves to', () => {
    expect(adds(['heads up for newcomers: the choir warm-up is 6:15, and sectionals are tue 7pm in hall b']).map((row) => [row.subject, row.attribute, row.value])).toEqual([
      ['choir warm-up', 'time', '6:15'],
      ['sectionals', 'time', 'tue 7pm'],
    ]);
    expect(adds(['from next week warm-up moves to 6:40, the hall is booked before us'])).toEqual([expect.objectContaining({ subject: 'warm-up', attribute: 'time', value: '6:40', correction: true })]);
    expect(adds(['the quiz night is now 8.30pm'])).toEqual([expect.objectContaining({ subject: 'quiz night', value: '8.30pm', correction: true })]);
    // Said of no thing, a room number, or a time that passed.
    expect(adds(["ok it's 5pm now", 'the lab is room 3.12', 'the call ran to 4pm', "I'm at 3pm with the optician"])).toEqual([]);
  });

  it('reads a target said plainly, and a known target changed by whoever changed it', () => {
    expect(adds(['fyi the error budget for the payments api is 0.5% this quarter', 'update from leadership: they relaxed the payments error budget to 1% for q3']).map((row) => [row.attribute, row.value, row.correction])).toEqual([
      ['error budget', '0.5%', false],
      ['error budget', '1%', true],
    ]);
    expect(adds(['p95 target for the search api is 400ms']).map((row) => [row.attribute, row.value])).toEqual([['p95 target', '400ms']]);
    // A target nobody here held, changed by someone else, is no target of the user's.
    expect(adds(['the council lowered the emissions target to 40%'])).toEqual([]);
    // A number that does not end its clause is no target's whole value: the general reading takes all of it.
    expect(adds(['Our budget is 40 thousand euros.']).map((row) => [row.attribute, row.value])).toEqual([['budget', '40 thousand euros']]);
  });

  it('reads how many, said as a plan, and how many now', () => {
    expect(adds(["for the reunion we're expecting about 40 people", "we've cut it down to 32 people after the RSVPs"]).map((row) => [row.attribute, row.value, row.correction])).toEqual([
      ['people', '40', false],
      ['people', '32', true],
    ]);
    expect(adds(['there were 200 people at the gig', 'I met 3 people there'])).toEqual([]);
  });

  it('reads a line of a thing or a service as its own fact, and a new one as its change', () => {
    expect(adds(['fyi the out of hours line is 0161 496 0321 if the app is down', 'heads up the out of hours line is now 0161 496 0777, they switched providers']).map((row) => [row.attribute, row.value, row.correction])).toEqual([
      ['out of hours line', '0161 496 0321', false],
      ['out of hours line', '0161 496 0777', true],
    ]);
    expect(adds(['the agent sent a new contact number for repairs, it is 07700 900661']).map((row) => [row.attribute, row.value])).toEqual([['repairs number', '07700 900661']]);
  });

  it('gives a line held already the new number a record tells of, whoever said the first, and not one said in passing', () => {
    const said = adds([
      { speaker: 'Sam', content: 'rota: kim primary. the out of hours line is 0161 496 0321 if the pager fails' },
      { speaker: 'Ravi', content: 'fyi the out of hours line changed, new provider. new number is 0161 496 0777, old one dies friday' },
    ]);
    expect(said.map((row) => [row.subject, row.attribute, row.value, row.correction])).toEqual([
      ['Sam', 'out of hours line', '0161 496 0321', false],
      ['Sam', 'out of hours line', '0161 496 0777', true],
    ]);
    const held = [{ alias: 'F1', table: 'profile', row: { subject: 'user', attribute: 'repairs number', value: '07700 900233' } }];
    expect(adds(["the repairs number they gave me doesn't work. they've now said it's actually 07700 900871"], held)).toEqual([expect.objectContaining({ attribute: 'repairs number', value: '07700 900871', correction: true })]);
    // The thing said in passing, or one's own number: no change of the line.
    expect(adds(['now call me on 07700 900999 about the repairs', 'my mobile is now 07700 900444 for the repairs number stuff'], held).filter((row) => row.attribute === 'repairs number')).toEqual([]);
  });

  it('reads when someone starts, a last day, a thing named with digits, and "it is … now" after a move', () => {
    const rows = (...lines: Line[]) => adds(lines).map((row) => [row.subject, row.value, row.correction]);
    expect(rows('fyi the new intern marco starts june 2nd', "marco's start date is now june 9th, his visa took longer")).toEqual([
      ["marco's start date", '2026-06-02', false],
      ["marco's start date", '2026-06-09', true],
    ]);
    expect(rows('big news, handed in my notice. last day is june 12', "so my last day's been moved up to june 5")).toEqual([
      ['last day', '2026-06-12', false],
      ['last day', '2026-06-05', true],
    ]);
    expect(rows('MTH2210 is Friday 15 May, in the sports hall', "the registry moved MTH2210. it's Tuesday 19 May now, same hall")).toEqual([
      ['mth2210', '2026-05-15', false],
      ['mth2210', '2026-05-19', true],
    ]);
    // "last week is …" and a pronoun that starts is no dated thing; "it's … now" with no move before it moves nothing.
    expect(rows('last week is June 1 to June 7 on the rota', 'she starts june 2nd', "it's Tuesday 19 May now, time flies")).toEqual([]);
  });

  it('moves a dated thing named shorter, and reads the day of the month after a weekday', () => {
    const dated = adds(['but my final kitchen inspection is booked for 9 June', 'wait, I just checked the letter and the inspection is 16 June, not the 9th']);
    expect(dated.map((row) => [row.subject, row.value])).toEqual([['final kitchen inspection', '2026-06-09'], ['final kitchen inspection', '2026-06-16']]);
    // AT is Wednesday 6 May: "fri the 22nd" is the 22nd, not this Friday, and its time of day is no date.
    expect(adds(['the boiler service is now fri the 22nd at 8:30']).map((row) => [row.subject, row.value])).toEqual([['boiler service', '2026-05-22']]);
  });
});

describe('stop 44: contacts: lines of things, and a job at a place that is also a place', () => {
  it('gives no one a line of a thing or a service, and the speaker their own number said beside it', () => {
    expect(contact('Ravi', { speaker: 'Ravi', content: 'rota is up. the support line is 0161 496 0123 if the pager fails' })?.channels ?? []).toEqual([]);
    expect(contact('Ravi', { speaker: 'Ravi', content: 'my mobile is 07700 900345, and the office line is 0161 496 0000' })?.channels).toEqual([{ type: 'phone', value: '07700 900345' }]);
    expect(contact('Ravi', { speaker: 'Ravi', content: 'fyi the out of hours line changed, new provider. new number is 0161 496 0777' })?.channels ?? []).toEqual([]);
    // One's own old number that stopped working is no line's news: the new one is the speaker's, and replaces the old.
    expect(contact('Ravi', { speaker: 'Ravi', content: 'my old number stopped working. new one is 07700 900512' })?.channels).toEqual([{ type: 'phone', value: '07700 900512', replacesEarlier: true }]);
    // With no speaker, "call me on …" is the author's, not the last person named.
    expect(contact('Kim', 'Kim is on the rota this week.', 'call me on 07700 900999 about it')?.channels ?? []).toEqual([]);
  });

  it('takes "got a job at" a library or a museum for an employer, and "moved to" one for no job', () => {
    expect(contact('Noor', { speaker: 'Noor', content: 'i work at Pebble Bakery, weekends only.' }, { speaker: 'Noor', content: 'news: i got a job at the Castlegate Museum on the high street, starting in june' })).toMatchObject({ organisation: 'Castlegate Museum' });
    expect(contact('Noor', { speaker: 'Noor', content: 'i work at Pebble Bakery, weekends only.' }, { speaker: 'Noor', content: 'we moved to Castlegate last spring' })).toMatchObject({ organisation: 'Pebble Bakery' });
  });
});

describe('stop 45: changes noted by an agent, counts and amounts per unit, a password, and a number to ring', () => {
  const adds = (lines: Line[], existing: UpdaterInput['existing'] = []) =>
    extractFacts(input('facts', lines, existing)).ops.flatMap((op): (Record<string, string | null | boolean> & { subject?: string | null; attribute?: string | null; value?: string | null })[] => (op.op === 'add' ? [{ ...(op.row as Record<string, string | null>), correction: op.correction === true }] : []));
  const agent = (content: string): Line => ({ role: 'assistant', content });
  const pick = (rows: ReturnType<typeof adds>) => rows.map((row) => [row.subject, row.attribute, row.value, row.correction]);

  it('reads what a note-keeping agent says it changed: an amount, a count or a time, of a thing or a person', () => {
    expect(pick(adds([agent('Done. Updated the Harbour Road parking permit to £48 a quarter from May.')]))).toEqual([['user', 'harbour road parking permit', '£48', true]]);
    expect(pick(adds([agent('Corrected: choir subs are £6.50 a week, not what I wrote before.')]))).toEqual([['user', 'choir subs', '£6.50 a week', true]]);
    expect(pick(adds([agent("Updated Maeve's rate to $31 an hour.")]))).toEqual([['Maeve', 'rate', '$31 an hour', true]]);
    expect(pick(adds([agent('Updated: Maeve is now on 20 hours a week.')]))).toEqual([['Maeve', 'hours a week', '20 hours a week', true]]);
    expect(pick(adds([agent('Thanks, updated to 41 volunteers.')]))).toEqual([['user', 'volunteers', '41 volunteers', true]]);
    // Words that are not a note of a value: a pronoun, a day, nothing counted or priced.
    expect(adds([agent('Updated it to the new template.'), agent('Changed Thursday to 3 weeks later.'), agent('Updated the plan to include stretching.')])).toEqual([]);
  });

  it('reads counts and amounts per unit said by the user, the first time only as a running count', () => {
    expect(pick(adds(["Bookings are good, we've got 58 volunteers signed up for the autumn term."]))).toEqual([['user', 'volunteers', '58 volunteers', false]]);
    expect(pick(adds(['the club is doing well, so im now at 64 volunteers']))).toEqual([['user', 'volunteers', '64 volunteers', true]]);
    // "I have 3 meetings today" is no count to keep.
    expect(adds(['I have 3 meetings today and 2 calls after lunch'])).toEqual([]);
    expect(pick(adds(['Maeve helps in the shop. I pay her $29 an hour, cash on Saturdays.']))).toEqual([['Maeve', 'pay', '$29 an hour', false]]);
    expect(pick(adds(['Maeve has been great, so I bumped her to $31 an hour.']))).toEqual([['Maeve', 'pay', '$31 an hour', true]]);
    expect(pick(adds(['i am putting the price up to $4.20 per loaf next month']))).toEqual([['user', 'price per loaf', '$4.20 per loaf', true]]);
    expect(pick(adds(['ok let me make the fuel money £10 a week then']))).toEqual([['user', 'fuel money', '£10 a week', true]]);
  });

  it('reads when the author sets off, a wifi password, and its new value after a sentence saying it changed', () => {
    expect(pick(adds([{ speaker: 'Oli', content: 'i leave at 8:05 if anyone wants a lift' }]))).toEqual([['Oli', 'leave time', '8:05', false]]);
    expect(pick(adds([{ speaker: 'Oli', content: 'the guest wifi password is harbour77 btw' }]))).toEqual([['Oli', 'wifi password', 'harbour77', false]]);
    expect(adds([{ speaker: 'Oli', content: 'the guest wifi password is harbour77 btw' }, { speaker: 'Oli', content: 'neighbours were leeching so i reset the password. its now gull2024x' }]).map((row) => [row.attribute, row.value])).toEqual([
      ['wifi password', 'harbour77'],
      ['wifi password', 'gull2024x'],
    ]);
    // A value with no digit, or no sentence saying the password changed, is none.
    expect(adds([{ speaker: 'Oli', content: 'its now sorted, ta' }])).toEqual([]);
  });

  it('reads an agent correcting an amount it gave', () => {
    expect(pick(adds([agent('Apologies: your annual premium is actually £312, not the figure quoted on the phone.')]))).toEqual([['user', 'premium', '£312', true]]);
  });
});

describe('stop 45: contacts: the number of someone to ring is not the speaker’s', () => {
  it('gives "ring him <number>" to no one, and the speaker their own number', () => {
    expect(contact('Tariq', { speaker: 'Tariq', content: 'the landlord ignores emails. call him 07700 900261' })?.channels ?? []).toEqual([]);
    expect(contact('Tariq', { speaker: 'Tariq', content: 'text me on 07700 900262 if the door is locked' })?.channels).toEqual([{ type: 'phone', value: '07700 900262' }]);
  });

  it('gives a number said alone after a sentence naming one person to that person, and "his new phone" to whom it is his', () => {
    expect(contact('Idris', { speaker: 'Noor', content: 'the caretaker is a man called Idris, for when the hall is locked. 07700 900263' })?.channels).toEqual([{ type: 'phone', value: '07700 900263' }]);
    expect(contact('Noor', { speaker: 'Noor', content: 'the caretaker is a man called Idris, for when the hall is locked. 07700 900263' })?.channels ?? []).toEqual([]);
    // One's own number, after naming someone, stays one's own.
    expect(contact('Noor', { speaker: 'Noor', content: 'Idris has the keys. my number is 07700 900264' })?.channels).toEqual([{ type: 'phone', value: '07700 900264' }]);
    const lines = [{ speaker: 'Noor', content: 'the caretaker is a man called Idris.' }, { speaker: 'Noor', content: "Idris's number for the keys: 07700 900263" }, { speaker: 'Noor', content: 'Idris got a new phone, use 07700 900265 now, his old one broke' }];
    // The old number, then the new one said to replace it (the store keeps the new one).
    expect(contact('Idris', ...lines)?.channels).toEqual([{ type: 'phone', value: '07700 900263' }, { type: 'phone', value: '07700 900265', replacesEarlier: true }]);
    expect(contact('Noor', ...lines)?.channels ?? []).toEqual([]);
  });
});

describe('stop 45: tasks: "rang him" closes the one call to a named person', () => {
  const updates = (line: string, existing: UpdaterInput['existing']) => taskOps([line], existing).filter((op) => op.op === 'update');
  it('closes the single open call or message to someone named, and nothing when it could be two or none', () => {
    expect(updates('called her back this morning.', openTask('Call Odile about the deposit'))).toEqual([expect.objectContaining({ changes: { state: 'done' } })]);
    expect(updates('ok texted him', openTask('Text Bram the door code'))).toEqual([expect.objectContaining({ changes: { state: 'done' } })]);
    const two = [...openTask('Call Odile about the deposit'), { alias: 'T2', title: 'Ring Bram tonight', owner: 'user', state: 'open' }];
    expect(updates('rang him.', two.slice(1))).toEqual([expect.objectContaining({ changes: { state: 'done' } })]);
    expect(updates('called her.', two)).toEqual([]);
    // No one named in the task: "call the bank" is not closed by "called her".
    expect(updates('called her.', openTask('call the bank'))).toEqual([]);
    // More than the call itself is another report ("called her about the flat" is read by the usual rules).
    expect(updates('rang him about the boiler, no answer', openTask('Ring Bram tonight'))).toEqual([]);
  });
});

describe('stop 45: a role that changed hands', () => {
  const rows = (...lines: Line[]) => facts(...lines).map((row) => [row.attribute, row.value]);
  it('gives the role its new holder, said any of four ways', () => {
    expect(rows('Update from the allotment society: the new secretary is Wendell, as of Monday.')).toEqual([['secretary', 'Wendell']]);
    expect(rows('Odile is our new bass player, starting with the May gigs.')).toEqual([['bass player', 'Odile']]);
    expect(rows('Wendell is taking over from Odile as club secretary in June.')).toEqual([['club secretary', 'Wendell']]);
    expect(rows('Marguerite replaced Bram as head coach after the cup run.')).toEqual([['head coach', 'Marguerite']]);
  });
});

describe('stop 46: contacts: a new number said as "new one", "use … now", or of someone named in lower case', () => {
  it('replaces the number before it when the new one is said as a change', () => {
    expect(contact('Greta', { speaker: 'Greta', content: 'My mobile is 07700 900301.' }, { speaker: 'Greta', content: 'Can you change the number on my account? The old one is being cut off. New one is 07700 900302.' })?.channels?.at(-1)).toEqual({ type: 'phone', value: '07700 900302', replacesEarlier: true });
    expect(contact('Idris', { speaker: 'Mo', content: 'my brother Idris is on 07700 900411 if the van breaks down' }, { speaker: 'Mo', content: "idris's got a new phone, use 07700 900412 for him now" })?.channels?.at(-1)).toEqual({ type: 'phone', value: '07700 900412', replacesEarlier: true });
  });

  it('gives a lower-case name’s new number to no one the batch does not know by that name', () => {
    expect(contact('Mo', { speaker: 'Mo', content: "pete's got a new phone, 07700 900413" })?.channels ?? []).toEqual([]);
  });
});

describe('stop 48: tasks: good wishes, preferences and titles cut short are not tasks', () => {
  const titles = (...lines: Line[]) => taskOps(lines).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));
  it('passes on good wishes without making them errands', () => {
    expect(titles({ speaker: 'Maren', content: 'Ha, what a week for him. Send him my congratulations!' })).toEqual([]);
    expect(titles({ speaker: 'Maren', content: "I'll give Jonas our warmest wishes when I see him." })).toEqual([]);
    expect(titles({ speaker: 'Maren', content: 'Say hi to your sister from me.' })).toEqual([]);
    expect(titles({ speaker: 'Maren', content: 'Give the cat a big cuddle for me.' })).toEqual([]);
    // An errand to send a thing is still one.
    expect(titles({ speaker: 'Maren', content: 'Send him the invoice for the frames by Friday.' })).toHaveLength(1);
  });

  it('reads "I\'ll stick with …", a plea to pray and telling someone as talk, not work', () => {
    expect(titles({ speaker: 'Ines', content: "No thanks, I'll stick with my green tea." })).toEqual([]);
    expect(titles({ speaker: 'Ines', content: "Exam at nine tomorrow. I'll pray for a miracle." })).toEqual([]);
    expect(titles({ speaker: 'Tomas', content: 'hey' }, { speaker: 'Ines', content: 'Off to the parents evening now. Please pray for me.' })).toEqual([]);
    expect(titles({ speaker: 'Ines', content: 'I have to tell somebody about the gig last night.' })).toEqual([]);
    expect(titles({ speaker: 'Ines', content: "I'll tell Rosa about the gig on Friday." })).toEqual(['Tell Rosa about the gig']);
  });

  it('gives an errand said bare between two people to the one it is said to', () => {
    const ops = taskOps([{ speaker: 'Ines', content: 'The keys come tomorrow, finally!' }, { speaker: 'Tomas', content: 'Post the photos of the view on the group chat tonight.' }]);
    expect(ops).toMatchObject([{ op: 'add', task: { owner: 'Ines' } }]);
  });
});

describe('stop 48: contacts: a book just started is no employer, and "runs your life" no department', () => {
  it('reads "just started <Title>" as no job', () => {
    expect(contact('Maren', { speaker: 'Tomas', content: 'hi' }, { speaker: 'Maren', content: "I've just started The Glass Orchard, the new one by Okafor." })?.organisation).toBeUndefined();
    expect(contact('Tomas', { speaker: 'Maren', content: 'hi' }, { speaker: 'Tomas', content: 'I finished Dune and have started Children of Dune.' })?.organisation).toBeUndefined();
    // Founding a business is still read.
    expect(contact('Ines', { speaker: 'Tomas', content: 'Ines started Fernhill Ceramics in 2019 and it is doing well.' })?.organisation).toBe('Fernhill Ceramics');
  });

  it('gives no department to a pet that "runs your house"', () => {
    expect(contact('Mochi', { speaker: 'Tomas', content: 'hi' }, { speaker: 'Maren', content: 'Ha, Mochi runs your whole house.' })?.role).toBeUndefined();
    expect(contact('Ines', { speaker: 'Tomas', content: 'Ines runs purchasing there now.' })?.role).toBe('purchasing');
  });

  it('takes a holiday for no one', () => {
    expect(contacts({ speaker: 'Tomas', content: "I'm lining up a scary film every weekend for Halloween. Want some picks?" }).map((c) => c.name)).not.toContain('Halloween');
  });
});

describe('stop 48: facts: invoices to different clients are different numbers', () => {
  it('names the client an invoice number is for, so a second client\'s invoice replaces nothing', () => {
    expect(fact('invoice number for corrie', 'Invoice INV-88-104 went to Corrie this morning.')).toEqual([expect.objectContaining({ value: 'INV-88-104' })]);
    expect(facts('Invoice INV-88-104 went to Corrie this morning.', 'Invoice INV-88-107 sent to Baxter Joinery.').map((row) => row.attribute)).toEqual(['invoice number for corrie', 'invoice number for baxter joinery']);
    expect(fact('deposit invoice for lindqvist', 'All sorted: the Lindqvist deposit invoice is INV-88-102.')).toEqual([expect.objectContaining({ value: 'INV-88-102' })]);
    expect(fact('invoice number', 'The invoice is INV-88-110.')).toEqual([expect.objectContaining({ value: 'INV-88-110' })]);
  });
});


describe('stop 49: what a chat between friends says of people', () => {
  it('takes no month for an employer, no "gone by …" for a role, and no year for a person', () => {
    const said = contacts(
      "Mick rang on Monday. He's moving to Whitby to be near his son Alfie. The flat is going up for sale and he's gone by the end of September.",
      "Happy New Year, all! So you're Tamsin, I hear you fly helicopters.",
    );
    expect(said.map((c) => c.name)).not.toContain('Year');
    for (const c of said) {
      expect(c.organisation ?? '').not.toMatch(/September/);
      expect(c.role ?? '').not.toMatch(/^gone\b/);
    }
    // A role and an employer said plainly are still read.
    expect(contact('Alfie', "My son Alfie is a paramedic at the Royal Infirmary.")).toMatchObject({ role: 'paramedic', organisation: 'Royal Infirmary' });
  });
});

describe("stop 49: a visit to a shop is no new job", () => {
  it('reads "went to" a shop as a visit, and a move to another firm as one', () => {
    expect(contact('Bernie', "Bernie went to Stan's yesterday for the oak.")?.organisation).toBeUndefined();
    expect(contact('Bernie', 'Bernie went to Harcourt Timber to buy a board of ash.')?.organisation).toBeUndefined();
    expect(contact('Bernie', 'Bernie went to Harcourt Timber last month, as their yard manager.')).toMatchObject({ organisation: 'Harcourt Timber' });
  });
});

describe('stop 50: whose number a chat gives, and likings that name nothing', () => {
  it('gives "her numbers …" and "priyas number …" to the person meant, not to the one texting', () => {
    const said = contacts(
      { content: 'priya his gf is the decoy, Priya is taking him to dinner first', speaker: 'Tash' },
      { content: 'her numbers 07700 900412 save it pls', speaker: 'Tash' },
    );
    expect(said.find((c) => c.name === 'Tash')?.channels ?? []).toEqual([]);
    const corrected = contacts(
      { content: 'Priya is taking him bowling first', speaker: 'Tash' },
      { content: 'omg i gave u priyas number wrong the last 2 digits r swapped its 07700 900421', speaker: 'Tash' },
    );
    expect(corrected.find((c) => c.name === 'Priya')?.channels).toEqual([expect.objectContaining({ type: 'phone', value: '07700 900421' })]);
    expect(corrected.find((c) => c.name === 'Tash')?.channels ?? []).toEqual([]);
    // The author's own number is still the author's.
    expect(contact('Tash', { content: 'Priya is sorted. my number is 07700 900555 if u need me', speaker: 'Tash' })?.channels).toEqual([{ type: 'phone', value: '07700 900555' }]);
  });

  it('keeps no liking of "that" or "it" with nothing after it', () => {
    expect(contact('Jay', { content: 'so lemon drizzle. Jay likes that too so fine', speaker: 'Tash' })?.preferences ?? []).toEqual([]);
    expect(contact('Jay', { content: 'Jay loves that band from Leeds.', speaker: 'Tash' })?.preferences).toEqual(['loves that band from Leeds']);
  });
});

describe('stop 50: terse notes name things, not people', () => {
  it('makes no contact of "Medals from Podium Awards" or of a firm whose name says it sells awards', () => {
    const said = contacts(
      { content: 'Medals: going with Podium Awards, 200 medals on a navy ribbon at £1.20 each, plus 4 trophies.', speaker: 'Dan' },
      { content: 'Medals from Podium Awards: 200 at £1.20 = £240, navy ribbon, plus 4 trophies.', role: 'assistant' },
    );
    expect(said.map((c) => c.name)).toEqual(['Dan']);
    // A person from a firm is still read so.
    expect(contact('Søren', 'I spoke with Søren from Kestrel Bank this morning.')).toMatchObject({ organisation: 'Kestrel Bank' });
  });
});

describe('stop 54: what friends say they will do, read as chat', () => {
  const titles = (line: Line) => taskOps([line]).flatMap((op) => (op.op === 'add' ? [op.task.title] : []));

  it('leaves an offer’s courtesy out of its title', () => {
    expect(titles({ content: 'I’ll bring the long ladder over on Saturday if you like.', speaker: 'Odile' })).toEqual(['Bring the long ladder over']);
    expect(titles({ content: 'I can pick the parcel up from the depot tomorrow, or I’ll post the form back if that’s easier.', speaker: 'Odile' })).toEqual(['Post the form back']);
  });

  it('takes no sayings for errands', () => {
    expect(titles({ content: 'No idea what the landlord will do. I’ll cross that bridge when it comes.', speaker: 'Odile' })).toEqual([]);
    expect(titles({ content: 'Big decision. I’ll sleep on it and text you tomorrow.', speaker: 'Odile' })).toEqual([]);
  });

  it('needs a commitment to name what it is about, however it is said', () => {
    expect(titles({ content: 'Gran says I have to forgive him.', speaker: 'Odile' })).toEqual([]);
    expect(titles({ content: 'I need to go and lie down.', speaker: 'Odile' })).toEqual([]);
    // Near misses: the same forms naming something.
    expect(titles({ content: 'I have to renew the van insurance before the 30th.', speaker: 'Odile' })).toEqual([expect.stringMatching(/^Renew the van insurance/)]);
    expect(titles({ content: 'I need to ring the surgery about my results.', speaker: 'Odile' })).toHaveLength(1);
  });
});

describe('stop 55: a name given with an address or a number in brackets', () => {
  it('gives what the brackets hold to the person they follow, not to the speaker or another name in the sentence', () => {
    const found = contacts({ content: "Priya, Tom — from Monday I'm passing the site visits over to our surveyor, Helen Heath at Heath & Vale Surveyors (helen@heathvale.co.uk, 0113 496 0720).", speaker: 'Graham Otway' });
    expect(found.find((c) => c.name === 'Helen Heath')?.channels).toEqual([
      { type: 'email', value: 'helen@heathvale.co.uk' },
      { type: 'phone', value: '0113 496 0720' },
    ]);
    for (const other of found.filter((c) => c.name !== 'Helen Heath')) expect((other.channels ?? []).map((c) => c.value)).not.toContain('helen@heathvale.co.uk');
  });
});

describe('stop 61: a day moved in news, a reminder restated with another day, and a name inside an employer’s', () => {
  const at = (role: 'user' | 'assistant', content: string, timestamp: string): Line => ({ content, role, timestamp, speaker: role === 'user' ? 'Ines' : 'Assistant' });

  it('moves what was just spoken of when the next message says it is now on another day, and says the new day in its title', () => {
    const ops = taskOps([
      at('assistant', 'Reminder: optician tomorrow, Thursday 12 June, at 2:30pm on Mill Lane.', '2025-06-11T08:00:00Z'),
      at('user', "Oh, I meant to say. They rang on Monday and moved it. It's now Monday 23 June, same time.", '2025-06-11T08:04:00Z'),
    ]);
    expect(ops[0]).toMatchObject({ op: 'add', task: { owner: 'user', due: '2025-06-12', title: 'Optician, Thursday 12 June, at 2:30pm on Mill Lane' } });
    expect(ops[1]).toMatchObject({ op: 'update', changes: { due: '2025-06-23', title: 'Optician, Monday 23 June, at 2:30pm on Mill Lane' } });
    // Said as a move by someone else ("they've moved me to …") it moves it too.
    const moved = taskOps([
      at('assistant', 'Reminder: boiler service tomorrow, Friday 13 June, 8am.', '2025-06-12T08:00:00Z'),
      at('user', "Ah, the engineer's ill, so they've moved me to Wednesday 18 June.", '2025-06-12T09:00:00Z'),
    ]);
    expect(moved[1]).toMatchObject({ op: 'update', changes: { due: '2025-06-18' } });
    // Moved twice, the title follows the second day too.
    const twice = taskOps([
      at('assistant', 'Reminder: optician tomorrow, Thursday 12 June, at 2:30pm on Mill Lane.', '2025-06-11T08:00:00Z'),
      at('user', "They moved it. It's now Monday 23 June.", '2025-06-11T08:04:00Z'),
      at('user', "Argh, moved again. It's now Friday 27 June.", '2025-06-11T08:10:00Z'),
    ]);
    expect(twice[2]).toMatchObject({ op: 'update', changes: { due: '2025-06-27', title: 'Optician, Friday 27 June, at 2:30pm on Mill Lane' } });
    // News of a day that is not a move: "it's now wednesday and he still hasn't replied", "my boss pushed for tomorrow".
    expect(taskOps([at('assistant', 'Reminder: optician tomorrow, Thursday 12 June.', '2025-06-11T08:00:00Z'), at('user', "ugh it's now wednesday and he still hasn't replied", '2025-06-11T09:00:00Z')])).toHaveLength(1);
    expect(taskOps([at('assistant', 'Reminder: optician tomorrow, Thursday 12 June.', '2025-06-11T08:00:00Z'), at('user', 'my boss pushed for tomorrow on the report', '2025-06-11T09:00:00Z')])).toHaveLength(1);
    // A time of day said as news ("it's now 9am"), a day gone by, or news of something else, moves nothing.
    expect(taskOps([at('assistant', 'Reminder: boiler service tomorrow, Friday 13 June, 8am.', '2025-06-12T08:00:00Z'), at('user', "It's now 9am and nobody has rung.", '2025-06-12T09:00:00Z')])).toHaveLength(1);
    expect(taskOps([at('assistant', 'Reminder: boiler service tomorrow, Friday 13 June, 8am.', '2025-06-12T08:00:00Z'), at('user', "Thanks. It's now raining, typical.", '2025-06-12T09:00:00Z')])).toHaveLength(1);
  });

  it('moves an open task when the assistant restates it with another day to come, and only then', () => {
    const existing = [{ alias: 'T1', title: 'Optician, Thursday 12 June, at 2:30pm on Mill Lane', owner: 'user', state: 'open', due: '2025-06-12' }];
    const restated = taskOps([at('assistant', 'Reminder: optician tomorrow, Monday 23 June, at 2:30pm on Mill Lane.', '2025-06-22T08:00:00Z')], existing);
    expect(restated).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { due: '2025-06-23', title: 'Optician, Monday 23 June, at 2:30pm on Mill Lane' } })]);
    const same = taskOps([at('assistant', 'Reminder: optician tomorrow, Thursday 12 June, at 2:30pm on Mill Lane.', '2025-06-11T08:00:00Z')], existing);
    expect(same).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: {} })]);
    // A day the title names is what the task is about, not a new due date.
    const booster = taskOps([at('assistant', "I'll remind you to book the Nov 10 booster.", '2025-10-01T08:00:00Z')], [{ alias: 'T2', title: 'Book the Nov 10 booster', owner: 'user', state: 'open', due: '2025-10-02' }]);
    expect(booster.every((op) => op.op !== 'update' || op.changes.due === undefined)).toBe(true);
  });

  it('reads a role held somewhere within an employer, and a first name that is part of the employer’s is still a person', () => {
    // "Ann" is inside "Annandale", not a word of it.
    const existing = [{ alias: 'C1', name: 'Ann', aliases: [], role: 'staff nurse', organisation: 'Annandale Hospital', relationships: [], preferences: [], channels: [] }];
    const ops = extractContacts(input('contacts', [{ content: "Ann rang, she got it! She's the charge nurse on the children's ward now.", speaker: 'Ines' }], existing)).ops;
    expect(ops).toContainEqual(expect.objectContaining({ op: 'update', target: 'C1', changes: expect.objectContaining({ role: 'charge nurse' }) }));
    expect(contact('Ann', { content: 'Ann is now deputy manager in the sales team at Annandale Hospital.', speaker: 'Ines' })).toMatchObject({ role: 'deputy manager', organisation: 'Annandale Hospital' });
    // A name that is a word of the employer's stays the employer's.
    expect(contacts({ content: 'I rang Annandale Hospital about the results.', speaker: 'Ines' }).map((c) => c.name)).not.toContain('Annandale');
  });
});

describe('stop 61: a number said as the old one is no way to reach someone now', () => {
  it('keeps the new number and leaves out the one said to be replaced', () => {
    const numbers = (content: string) => contact('Marta Ruiz', { content, speaker: 'Marta Ruiz' })?.channels?.map((c) => c.value);
    expect(numbers('Quick note: my new mobile is 07700 900555. The old one, 07700 900111, stops working on Friday.')).toEqual(['07700 900555']);
    expect(numbers('Please stop using 07700 900111; my number is 07700 900555 now.')).toEqual(['07700 900555']);
    expect(numbers('You can reach me on 07700 900222.')).toEqual(['07700 900222']);
    // A new number said after the word "old" is still the new one.
    expect(numbers('My old mobile died so 07700 900333 for now.')).toEqual(['07700 900333']);
  });
});

describe('stop 61: a reminder of an appointment said as a sentence', () => {
  it('titles it without the verb its day was taken from, and leaves that verb in other titles', () => {
    expect(taskOps([{ content: 'I need to find out where the spare keys are.', speaker: 'Ines' }])).toContainEqual(expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Find out where the spare keys are' }) }));
    const ops = taskOps([{ content: "Reminder: the gas engineer's visit is tomorrow from 8am. Please clear the cupboard.", role: 'assistant', speaker: 'Assistant', timestamp: '2025-06-11T08:00:00Z' }]);
    expect(ops).toContainEqual(expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: "The gas engineer's visit", due: '2025-06-12' }) }));
  });
});

describe('stop 62: tasks moved with their time, done by the assistant asked, given up for another, and records kept at once', () => {
  it('moves an appointment to the new day and time said as "new one is …", and a later reminder restates it', () => {
    const ops = taskOps([
      { role: 'assistant', content: 'Reminder: physio tomorrow, Thursday 7 May at 8:40 on Wilmslow Road. Leave by 8:15.' },
      { role: 'user', content: 'oh god, forgot to tell you - they rang and moved it, the physio is off sick. new one is Monday 11 May at 17:20, same place' },
      { role: 'assistant', content: "No problem - I've moved your physio to Monday 11 May at 17:20 on Wilmslow Road." },
      { role: 'assistant', content: 'Reminder: physio on Monday 11 May at 17:20, Wilmslow Road.' },
    ]);
    expect(ops.filter((op) => op.op === 'add')).toHaveLength(1);
    expect(ops).toContainEqual(expect.objectContaining({ op: 'update', changes: { due: '2026-05-11', title: 'Physio, Monday 11 May at 17:20 on Wilmslow Road' } }));
    // Moved is not done.
    expect(ops.some((op) => op.op === 'update' && op.changes.state)).toBe(false);
  });

  it('closes what the assistant was asked to take off when it says it removed it', () => {
    const ops = taskOps([
      { role: 'user', content: "Can you take the nail clip off Biscuit's booking? The vet did them on Monday." },
      { role: 'assistant', content: "No problem - I've removed the nail clip, so it's just the full groom." },
    ]);
    expect(ops).toContainEqual(expect.objectContaining({ op: 'update', changes: { state: 'done' } }));
  });

  it('reads "<thing> dropped off" as done when one open task holds the thing', () => {
    expect(taskOps(['kettle dropped off btw'], openTask('Take the kettle back to Argos'))).toContainEqual(expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } }));
    // Money moved is no task moved: the bill paid still closes it.
    expect(taskOps(['I moved some money over from savings and paid the gas bill.'], openTask('Pay the gas bill'))).toContainEqual(expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } }));
  });

  it("makes no task of an assistant's record kept as it says so", () => {
    expect(taskOps([{ role: 'assistant', content: "I didn't have it before - I'll save Kate's address as 41 Mauldeth Road." }])).toEqual([]);
    expect(taskOps([{ role: 'assistant', content: "I'll note that and add it to your calendar." }])).toEqual([]);
    expect(taskOps([{ role: 'assistant', content: 'A week is a sensible margin. I shall record the printer as Tregear Press, £4 a copy, delivery by 9 May.' }])).toEqual([]);
    expect(taskOps([{ role: 'assistant', content: "Understood. I'll add these details to the running record." }])).toEqual([]);
    expect(taskOps([{ role: 'assistant', content: 'Good call. I\'ll take "hire the 50mm" off the list and note that you\'re using your own.' }])).toEqual([]);
    // Courtesies are no tasks: "I must trouble you with a change", "I shall do so".
    expect(taskOps(['I must trouble you with a rather larger change to the itinerary.', 'An excellent suggestion; I shall do so.'])).toEqual([]);
    // A promise of later work still is one, and a user's own "I'll save …", "need to record …" are tasks.
    expect(taskOps([{ role: 'assistant', content: "I'll email the payment link to you tomorrow." }])).toEqual([expect.objectContaining({ op: 'add' })]);
    expect(taskOps(["I'll save the receipts and send them to Priya on Monday."])).toEqual([expect.objectContaining({ op: 'add' })]);
    expect(taskOps(["I'll log into the portal and pay the council tax tonight."])).toEqual([expect.objectContaining({ op: 'add' })]);
  });
});

describe('stop 64: an amount with pence stays whole in a task title, and is no time of day', () => {
  it('keeps "£18.50" in the title and reads the day said after it', () => {
    // AT is a Wednesday: "tomorrow" is Thursday 7 May, "by Friday" the 8th.
    const title = (content: string) => taskOps([content]).flatMap((op) => (op.op === 'add' ? [op.task] : []));
    expect(title('Remind me to pay Kenji £18.50 by Friday.')).toEqual([expect.objectContaining({ title: 'Pay Kenji £18.50', due: '2026-05-08' })]);
    expect(title('Can you remind me to refund Kenji £18.50 tomorrow?')).toEqual([expect.objectContaining({ title: 'Refund Kenji £18.50', due: '2026-05-07' })]);
    expect(title('I need to pay the plumber $1,112.50 on Friday')).toEqual([expect.objectContaining({ title: 'Pay the plumber $1,112.50', due: '2026-05-08' })]);
    // A time with a dot is still a time.
    expect(title('Remind me to ring the garage at 9.30 tomorrow.')).toEqual([expect.objectContaining({ title: 'Ring the garage', due: '2026-05-07' })]);
  });
});

describe('stop 64: a task moved by its name, and an assistant saying only when it will remind', () => {
  it('moves the one open task the words name ("move the dentist call to Friday"), in the same batch or a later one', () => {
    // AT is Wednesday 6 May: Thursday is the 7th, Friday the 8th.
    expect(taskOps(['Actually move the dentist call to Friday.'], [{ alias: 'T1', title: 'Call the dentist', owner: 'user', state: 'open', due: '2026-05-07' }])).toEqual([
      expect.objectContaining({ op: 'update', target: 'T1', changes: { due: '2026-05-08' } }),
    ]);
    expect(taskOps(['Remind me to call the dentist on Thursday.', 'Can you push the dentist back to Friday?'])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Call the dentist', due: '2026-05-07' }) }),
      expect.objectContaining({ op: 'update', target: 'new:t1', changes: { due: '2026-05-08' } }),
    ]);
    // Words naming no open task, or a place rather than a day, move nothing.
    const open = [{ alias: 'T1', title: 'Call the dentist', owner: 'user', state: 'open', due: '2026-05-07' }];
    expect(taskOps(['move the meeting room to the third floor'], open)).toEqual([]);
    expect(taskOps(['move the team lunch to Friday'], open)).toEqual([]);
  });

  it('reads "Noted, I\'ll remind you on Thursday." as the request acknowledged, not a second task', () => {
    expect(taskOps(['Remind me to call the dentist on Thursday.', { role: 'assistant', content: "Noted, I'll remind you on Thursday." }])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Call the dentist' }) }),
    ]);
    expect(taskOps([{ role: 'assistant', content: "I'll remind you on Thursday to call the dentist." }])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Call the dentist', owner: 'user' }) }),
    ]);
  });
});

describe('stop 64: work put on the list, and a thing said done (from s71 after its blind run)', () => {
  it('reads "add to the list: …" as the user’s task, and the assistant’s "Added to the to-do list: …" as neither a task nor the work done', () => {
    expect(taskOps(['the polytunnel has a massive rip. add to the list: repair the polytunnel cover', { role: 'assistant', content: 'Added to the to-do list: repair the polytunnel cover. When are you hoping to plant out?' }])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Repair the polytunnel cover', owner: 'user' }) }),
    ]);
    // "add it to the list, thanks" names no work.
    expect(taskOps(['add it to the list, thanks'])).toEqual([]);
  });

  it('takes the quoted work of an accepted "Shall I add "…" to your to-do list?" as the user’s, closed when reported', () => {
    expect(taskOps([{ role: 'assistant', content: 'Good idea. Shall I add "submit flexible working request" to your to-do list?' }, 'yes please', "I've submitted the flexible working request to Marcus today!!"])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Submit flexible working request', owner: 'user' }) }),
      expect.objectContaining({ op: 'update', target: 'new:t1', changes: { state: 'done' } }),
    ]);
  });

  it('closes the one open task about a thing said done ("polytunnel\'s done!"), not one of two, nor on "it\'s done"', () => {
    const open = (title: string, alias = 'T1') => ({ alias, title, owner: 'user', state: 'open' });
    expect(taskOps(["polytunnel's done! patched it saturday"], [open('Repair the polytunnel cover')])).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } })]);
    expect(taskOps(["polytunnel's done!"], [open('Repair the polytunnel cover'), open('Order a polytunnel heater', 'T2')])).toEqual([]);
    expect(taskOps(["it's done, what a relief"], [open('Repair the polytunnel cover')])).toEqual([]);
  });
});

describe('stop 64: a task about a name alone, and a value said to change (from s72 after its blind run)', () => {
  it('closes "Stop QuickDrop completely" on "I have stopped QuickDrop fully now", not on "I have decided to stop QuickDrop"', () => {
    const open = [{ alias: 'T1', title: 'Stop QuickDrop completely', owner: 'user', state: 'open' }];
    expect(taskOps(['RapidBee update, it is much better. I have stopped QuickDrop fully now.'], open)).toEqual([expect.objectContaining({ op: 'update', target: 'T1', changes: { state: 'done' } })]);
    expect(taskOps(['I have decided to stop QuickDrop.'], open)).toEqual([]);
  });

  it('makes no task of a price said to change ("Sourdough will go to Rs 210 from next week")', () => {
    expect(taskOps(['Yes I have to. Sourdough will go to Rs 210 from next week.'])).toEqual([]);
    expect(taskOps(['Priya will go to the bank on Friday.'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Go to the bank', owner: 'Priya' }) })]);
  });
});

describe('stop 64 review: tasks the new rules must leave alone', () => {
  const open = (title: string) => [{ alias: 'T1', title, owner: 'user', state: 'open' }];

  it('closes no task on a thing said done that is not the work’s ("Kitchen\'s done" for "Buy kitchen paint", "done for", someone else’s)', () => {
    expect(taskOps(["Kitchen's done, it looks amazing!"], open('Buy kitchen paint'))).toEqual([]);
    expect(taskOps(['The boiler is done for, need a new one'], open('Service the boiler'))).toEqual([]);
    expect(taskOps(["Next door's garden is finished, looks great"], open('Mow the garden'))).toEqual([]);
  });

  it('moves no task that a sentence names by one word, nor to a day said further on', () => {
    expect(taskOps(['Can you move my dentist appointment to next Monday?'], open('Pay the dentist bill'))).toEqual([]);
    expect(taskOps(['Move my mum to the new care home in June.'], open('Call mum'))).toEqual([]);
  });

  it('keeps tasks that only start like a value changing, and the day of an accepted list offer; no shopping item as a task', () => {
    expect(taskOps(['remind me to come to 5-a-side on Thursday'])).toEqual([expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Come to 5-a-side' }) })]);
    expect(taskOps([{ role: 'assistant', content: "Would you like me to add 'call Gran' to your reminders for Sunday?" }, 'yes'])).toEqual([
      expect.objectContaining({ op: 'add', task: expect.objectContaining({ title: 'Call Gran', owner: 'user', due: '2026-05-10' }) }),
    ]);
    expect(taskOps([{ role: 'assistant', content: "Should I add 'bin bags' to the shopping list?" }, 'yes please']).filter((op) => op.op === 'add' && op.task.owner === 'user')).toEqual([]);
  });
});

describe('stop 68: a relation named with a title and a full name', () => {
  it('reads "Our accountant is Mr Harold Beane" as Harold Beane, not a second contact "Mr Harold"', () => {
    const found = contacts('Our accountant is Mr Harold Beane at Lowther Partners.');
    expect(found.map((c) => c.name)).toEqual(['Harold Beane']);
    expect(found[0]).toMatchObject({ relationships: [{ type: 'accountant', to: 'user' }] });
    expect(contact('Amy Cho', 'My doctor is Dr Amy Cho.')).toMatchObject({ relationships: [{ type: 'doctor', to: 'user' }] });
    expect(contacts('Her son Mr Omar Said rang.').map((c) => c.name)).toEqual(['Omar Said']);
  });
});
