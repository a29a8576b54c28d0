/**
 * One current value everywhere, through the API, in phrasing of this file's
 * own: a changed employer is not shown as current anywhere (the contact's
 * line, its "Lately", the records and summaries that said the old one), and
 * the local model reads assistants' messages as the assistant's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

let counter = 0;
/** Posts the messages (role per message, a minute apart from `at`) as one flushed batch and waits until it is in the snapshot. */
async function consolidate(agentId: string, messages: readonly (readonly [role: 'user' | 'assistant', content: string, speaker?: string])[], at: string, speakerField = false) {
  const status = await api<{ lastSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`);
  const before = status.status === 200 ? (status.body.lastSequence ?? 0) : 0;
  const events = messages.map(([role, content, speaker], i) =>
    message(`${agentId}-${(counter += 1)}`, content, { role, timestamp: new Date(Date.parse(at) + i * 60_000).toISOString(), ...(speaker ? (speakerField ? { speaker } : { metadata: { speaker } }) : {}) }),
  );
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  const last = before + messages.length;
  await waitFor(async () => (await api<{ lastConsolidatedSequence?: number }>(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === last, 120_000);
  await stack.eventSources.waitForIdle(60_000);
  await waitFor(async () => (await api<{ freshness?: { lastConsolidatedSequence: number } }>(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).body.freshness?.lastConsolidatedSequence === last, 60_000);
}

const tasksOf = async (agentId: string) => (await api<{ items: { id: string; title: string; owner: string; state: string; due?: string; evidence: string[] }[] }>(stack, 'GET', `/v1/agents/${agentId}/tasks?limit=100`)).body.items;

const contextFor = async (agentId: string, query?: string) =>
  (await api<{ markdown: string }>(stack, 'GET', `/v1/agents/${agentId}/context?maxTokens=1500${query ? `&query=${encodeURIComponent(query)}` : ''}`)).body.markdown;

describe('a changed employer', () => {
  it('is shown nowhere as current: the contact line names the new one, and lines that say the old one are marked with it', async () => {
    const agentId = 'employer-moves';
    await consolidate(agentId, [['user', 'Had coffee with Marisol Vega, she is a product designer at Fernwood Labs.'], ['assistant', 'Nice, how is she doing?'], ['user', 'Great, she loves it at Fernwood Labs.']], '2026-09-01T09:00:00Z');
    await consolidate(agentId, [['user', 'Big news, Marisol Vega just joined Quillstone as head of design.'], ['assistant', 'That is a big step for her.']], '2026-10-12T09:00:00Z');

    for (const markdown of [await contextFor(agentId), await contextFor(agentId, 'Where does Marisol work?')]) {
      const lines = markdown.split('\n');
      const contact = lines.find((line) => line.includes('**Marisol Vega**'));
      expect(contact).toMatch(/Quillstone/);
      expect(contact).not.toMatch(/Fernwood/);
      // Wherever the old employer is said, the later one is named beside it.
      for (const line of lines.filter((l) => /Fernwood/.test(l))) expect(line).toMatch(/\(later: (head of design at )?Quillstone, from 2026-10-12\)/);
    }
  });
});

describe('replaced values of other shapes', () => {
  it('marks a replaced number where it was said, and drops a person known only as the replaced value from the current state', async () => {
    const agentId = 'numbers-and-names';
    await consolidate(agentId, [['user', 'In case it helps: my bike lock code is 4471.'], ['user', 'My physio is Dr. Okonjo.'], ['assistant', 'Got it.']], '2026-09-03T09:00:00Z');
    await consolidate(agentId, [['user', 'Changed it yesterday, my bike lock code is 9020 now.'], ['user', 'Switched clinics, my physio is Dr. Halvorsen now.']], '2026-10-20T09:00:00Z');

    for (const markdown of [await contextFor(agentId), await contextFor(agentId, 'What is my bike lock code?'), await contextFor(agentId, 'Who is my physio?')]) {
      const lines = markdown.split('\n');
      for (const line of lines.filter((l) => /\b4471\b/.test(l))) expect(line).toMatch(/\(later: 9020, from 2026-10-20\)|(?:later: |; )4471 → 9020, from 2026-10-20/);
      expect(lines.find((l) => l.includes('**Dr. Okonjo**'))).toBeUndefined();
      for (const line of lines.filter((l) => /Okonjo/.test(l))) expect(line).toMatch(/\(later: Dr\. Halvorsen, from 2026-10-20\)|(?:later: |; )Dr\. Okonjo → Dr\. Halvorsen, from 2026-10-20/);
    }
    expect(await contextFor(agentId, 'What is my bike lock code?')).toMatch(/9020/);
  });
});

describe('a value said again by a named user', () => {
  it('marks the assistant’s read-back of an old code, and an employer left within one batch, wherever they are said', async () => {
    const agentId = 'named-user';
    await consolidate(agentId, [
      ['user', 'joined the climbing gym on Rye Lane at last. locker combo is 5528', 'Odile'],
      ['assistant', 'Saved: climbing gym locker combination 5528.'],
      ['user', "long week. i've been the night manager at Corvid Hotels for six years and it shows", 'Odile'],
      ['user', 'ok decided, taking the Ashgrove Media offer, content strategist, remote', 'Odile'],
    ], '2026-09-03T09:00:00Z');
    await consolidate(agentId, [['user', "they reset all the lockers over the weekend, mine's 6081 now", 'Odile']], '2026-10-20T09:00:00Z');

    for (const markdown of [await contextFor(agentId), await contextFor(agentId, 'What is the code of my gym locker?'), await contextFor(agentId, 'Where does Odile work?')]) {
      const lines = markdown.split('\n');
      for (const line of lines.filter((l) => /\b5528\b/.test(l))) expect(line).toMatch(/\(later: 6081, from 2026-10-20\)|5528 → 6081, from 2026-10-20/);
      expect(lines.find((l) => l.includes('**Odile**'))).toMatch(/Ashgrove Media/);
      // A line that says the move itself (a summary of both messages) names the new one.
      for (const line of lines.filter((l) => /Corvid/.test(l))) expect(line).toMatch(/\(later: .*Ashgrove Media, from 2026-09-03\)|Ashgrove Media/);
    }
    expect(await contextFor(agentId, 'What is the code of my gym locker?')).toMatch(/6081/);
    // The lines checked above are there to be checked: the read-back and the old employer's record.
    expect((await contextFor(agentId, 'What is the code of my gym locker?')).split('\n').some((l) => /Saved: climbing gym locker combination 5528/.test(l))).toBe(true);
    expect((await contextFor(agentId, 'Where does Odile work?')).split('\n').some((l) => /night manager at Corvid Hotels/.test(l) && /\(later: .*Ashgrove Media, from 2026-09-03\)/.test(l))).toBe(true);
  });
});

describe('a value said with the one it replaces, and a target changed', () => {
  it('marks the earlier lines with the value now, whether an item held the old one or not', async () => {
    const agentId = 'said-instead';
    await consolidate(agentId, [
      ['user', 'choir concert is booked, the church hall on the 19th. tickets are £9'],
      ['assistant', "Lovely. Let's start with a practice goal of 20 minutes a day until then."],
    ], '2026-09-02T09:00:00Z');
    await consolidate(agentId, [
      ['user', 'ugh the hall messed up, its the 26th not the 19th. and tickets r £11 not £9'],
      ['assistant', "Then let's raise your practice goal to 30 minutes a day."],
    ], '2026-09-10T09:00:00Z');

    const lines = (await contextFor(agentId, 'How much are the concert tickets?')).split('\n');
    // The first price, said when it held, is marked with the one now; the correction itself says both and is not.
    expect(lines.find((l) => /tickets are £9/.test(l))).toMatch(/\(later: [^)]*£11, from 2026-09-10[;)]/);
    expect(lines.find((l) => /tickets r £11 not £9/.test(l))).not.toMatch(/\(later:/);
    expect((await contextFor(agentId, 'What is my daily practice goal?')).split('\n').find((l) => /goal of 20 minutes/.test(l))).toMatch(/\(later: 30 minutes, from 2026-09-10\)/);
    const facts = (await api<{ items: { status: string; row: Record<string, string | null> }[] }>(stack, 'GET', `/v1/agents/${agentId}/facts`)).body.items;
    const current = facts.filter((f) => f.status === 'active').map((f) => f.row.value);
    expect(current).toEqual(expect.arrayContaining(['£11', '30 minutes']));
    expect(current).not.toContain('£9');
    expect(current).not.toContain('20 minutes');
  });
});

describe('a replaced e-mail', () => {
  it('leaves the contact, stays in its history, and is marked where a record says it', async () => {
    const agentId = 'new-address';
    await consolidate(agentId, [['user', 'My accountant is Helena Brandt, you can write to her at h.brandt@oldfirm.example.'], ['assistant', 'Noted.']], '2026-09-07T09:00:00Z');
    await consolidate(agentId, [['user', 'Helena Brandt has a new email: helena@brandt-tax.example, the old one is closed.'], ['assistant', 'Thanks, updated.']], '2026-10-14T09:00:00Z');

    const contacts = (await api<{ items: { name: string; channels: { type: string; value: string }[]}[] }>(stack, 'GET', `/v1/agents/${agentId}/contacts`)).body.items;
    const helena = contacts.find((c) => c.name === 'Helena Brandt');
    expect(helena?.channels).toEqual([{ type: 'email', value: 'helena@brandt-tax.example' }]);
    for (const markdown of [await contextFor(agentId), await contextFor(agentId, 'What is Helena’s email?')]) {
      const lines = markdown.split('\n');
      expect(lines.find((line) => line.includes('**Helena Brandt**'))).not.toMatch(/oldfirm/);
      for (const line of lines.filter((l) => /oldfirm/.test(l))) expect(line).toMatch(/\(later: helena@brandt-tax\.example, from 2026-10-14\)/);
    }
    expect(await contextFor(agentId, 'What is Helena’s email?')).toMatch(/helena@brandt-tax\.example/);
  });
});

describe('an assistant’s words, read as the assistant’s', () => {

  it('keeps a request open when the assistant acknowledges it, as one task with both records behind it', async () => {
    const agentId = 'ack-keeps-open';
    await consolidate(agentId, [['user', 'Please remind me to return the library books to Westgate branch by Friday.'], ['assistant', 'Noted, I will remind you to return the library books to Westgate branch by Friday.']], '2026-11-02T09:00:00Z');

    const tasks = (await tasksOf(agentId)).filter((t) => /library books/i.test(t.title));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ state: 'open', owner: 'user' });
    expect(tasks[0]!.evidence).toHaveLength(2);
  });

  it('closes the task when the user later says it is done, in words of their own', async () => {
    const agentId = 'ack-keeps-open';
    await consolidate(agentId, [['user', 'Dropped the library books off at Westgate this morning.']], '2026-11-05T09:00:00Z');
    expect((await tasksOf(agentId)).find((t) => /library books/i.test(t.title))).toMatchObject({ state: 'done' });
  });

  it('never files what the assistant says it will not do as a task, and calls off the request it turns down', async () => {
    const agentId = 'refusal-no-task';
    await consolidate(agentId, [['user', 'Can you renew my passport online for me?'], ['assistant', "I won't be able to renew the passport for you, but I can walk you through the form."]], '2026-11-02T09:00:00Z');
    const tasks = await tasksOf(agentId);
    expect(tasks.filter((t) => t.state === 'open' && /renew|passport/i.test(t.title))).toEqual([]);
    expect(tasks.filter((t) => /^be able|walk/i.test(t.title))).toEqual([]);
  });

  it('drops a request the assistant cannot do, and gives it to the user who takes it over; a repeating reminder done moves on', async () => {
    const agentId = 'refused-taken-over';
    await consolidate(
      agentId,
      [
        ['user', 'can u order me the 2kg bag of oat flour from Bulkfoods'],
        ['assistant', "I can't place orders for you, sorry. Bulkfoods does next-day delivery on flour though."],
        ['user', 'fine ill order it tonight. also remind me to descale the kettle on the 3rd of every month'],
      ],
      '2026-11-02T09:00:00Z',
    );
    const tasks = await tasksOf(agentId);
    expect(tasks.filter((t) => /oat flour/i.test(t.title))).toEqual([expect.objectContaining({ owner: 'user', state: 'open' })]);
    expect(tasks.find((t) => /kettle/i.test(t.title))).toMatchObject({ state: 'open', due: '2026-11-03' });

    await consolidate(agentId, [['user', 'descaled the kettle, gross']], '2026-11-03T19:00:00Z');
    expect((await tasksOf(agentId)).find((t) => /kettle/i.test(t.title))).toMatchObject({ state: 'open', due: '2026-12-03' });
  });
});

describe('a support log, read as support logs are written', () => {
  const factsOf = async (agentId: string) => (await api<{ items: { row: Record<string, string | null>; statement: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/facts?limit=100`)).body.items;

  it('keeps the references, the agent’s instruction with its deadline and the work it offered, and closes the instruction when the customer reports it', async () => {
    const agentId = 'support-log';
    await consolidate(
      agentId,
      [
        ['user', 'Hello, the blender I bought arrived with a cracked jug. Order number BX-30417.'],
        ['assistant', "I'm sorry about that. I've opened case 77102 for you. Please send a photo of the cracked jug by Friday."],
        ['assistant', 'I can also send a replacement jug by courier. Would you like me to go ahead?'],
        ['user', 'Yes please.'],
      ],
      '2026-11-02T09:00:00Z',
    );
    const rows = (await factsOf(agentId)).map((fact) => fact.row);
    expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ attribute: 'order number', value: 'BX-30417' }), expect.objectContaining({ attribute: 'case number', value: '77102' })]));
    const tasks = await tasksOf(agentId);
    expect(tasks.find((t) => /photo of the cracked jug/i.test(t.title))).toMatchObject({ owner: 'user', state: 'open', due: '2026-11-06' });
    expect(tasks.find((t) => /replacement jug/i.test(t.title))).toMatchObject({ owner: 'assistant', state: 'open' });
    expect(await contextFor(agentId, 'What was my order number?')).toMatch(/BX-30417/);

    await consolidate(agentId, [['user', 'Sent the photo of the jug just now.']], '2026-11-03T10:00:00Z');
    expect((await tasksOf(agentId)).find((t) => /photo of the cracked jug/i.test(t.title))).toMatchObject({ state: 'done' });
  });
});

describe('a biography from what was said', () => {
  const contactsOf = async (agentId: string) => (await api<{ items: { name: string; role?: string; biography: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/contacts?limit=100`)).body.items;

  it('is never the bare name: it gathers what two batches said about the person, in chat words', async () => {
    const agentId = 'biography-grows';
    await consolidate(agentId, [['user', 'my big sis Okoye grew up in Lagos but she lives in Hull now'], ['assistant', 'Good to know.']], '2026-08-04T09:00:00Z');
    await consolidate(agentId, [['user', 'okoye has two kids btw, and Okoye is a midwife these days'], ['user', 'Lunch with Bram Dekker, no idea what he does yet.']], '2026-09-14T09:00:00Z');

    const contacts = await contactsOf(agentId);
    const okoye = contacts.find((c) => c.name === 'Okoye');
    expect(okoye).toMatchObject({ role: 'midwife' });
    expect(okoye!.biography).toMatch(/^Okoye: midwife\. The user's sister\. Said: .*Okoye grew up in Lagos.*Okoye lives in Hull.*Okoye has two kids/);
    // Nothing said of him but his name: the day he came up is still said, not the name alone.
    expect(contacts.find((c) => c.name === 'Bram Dekker')?.biography).toBe('Bram Dekker. First mentioned 2026-09-14.');
  });
});

describe('a speaker named on the event', () => {
  it('is who a recalled line says spoke, as metadata.speaker is', async () => {
    const agentId = 'speaker-field';
    await consolidate(agentId, [
      ['user', 'Catch-up on the allotment society. The seed swap is at the scout hut. Our old tortoise Gerald woke up from hibernating on Tuesday and went back under the shed.', 'Ines'],
      ['user', 'The raffle prizes are in my boot.', 'Tomasz'],
    ], '2026-03-01T10:00:00Z', true);
    const lines = (await contextFor(agentId, 'What did Ines say about Gerald the tortoise?')).split('\n');
    expect(lines.some((l) => /^- speaker-field-\d+ Ines: .*tortoise Gerald/.test(l))).toBe(true);
    expect(lines.some((l) => / user: /.test(l))).toBe(false);
  });
});
