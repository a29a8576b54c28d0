/**
 * A scripted six-week conversation posted through the local stack with the
 * local model yields the expected contacts, facts and tasks, with evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import type { ContactItem, FactItem, TaskItem } from '../../functions/domain/memory.js';
import { api, startTestStack } from '../support/local-stack.js';
import { scriptedConversation } from '../../scripts/corpus/scripted-conversation.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'scripted';
const conversation = scriptedConversation(300);
let contacts: ContactItem[];
let facts: FactItem[];
let tasks: TaskItem[];

async function all<T>(store: string): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await api<{ items: T[]; nextToken?: string }>(stack, 'GET', `/v1/agents/${agentId}/${store}?limit=100${token ? `&nextToken=${token}` : ''}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    token = page.body.nextToken;
  } while (token);
  return items;
}

beforeAll(async () => {
  stack = await startTestStack();
  for (let start = 0; start < conversation.length; start += 25) {
    const response = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: conversation.slice(start, start + 25) });
    expect(response.status).toBe(202);
  }
  await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === 300, 120_000);
  [contacts, facts, tasks] = await Promise.all([all<ContactItem>('contacts'), all<FactItem>('facts'), all<TaskItem>('tasks')]);
});

afterAll(async () => {
  await stack?.stop();
});

const ids = (item: { evidence: readonly { recordId: string }[] }) => item.evidence.map((e) => e.recordId);
const idOf = (content: string) => conversation.find((event) => event.content === content)!.id;

describe('contacts', () => {
  it('follows a contact who changes jobs, keeping the old job in history', () => {
    const dana = contacts.find((c) => c.name === 'Dana Whitfield');

    expect(dana).toMatchObject({ organisation: 'Acme Corp', role: 'head of design', status: 'active' });
    expect(dana!.history).toContainEqual(expect.objectContaining({ field: 'organisation', from: 'Initech', to: 'Acme Corp' }));
    expect(ids(dana!)).toEqual(
      expect.arrayContaining([
        idOf('I had coffee with Dana Whitfield today. She works at Initech as a product manager.'),
        idOf('Big news: Dana joined Acme Corp as head of design last week.'),
      ]),
    );
    expect(dana!.biography).toContain('head of design at Acme Corp');
    expect(dana!.summary).toContain('joined Acme Corp');
  });

  it('records relationships to the user', () => {
    expect(contacts.find((c) => c.name === 'Elena')?.relationships).toEqual([{ type: 'sister', to: 'user' }]);
  });

  it('creates contacts only for the people in the conversation', () => {
    expect(contacts.map((c) => c.name).sort()).toEqual(['Dana Whitfield', 'Elena', 'Marco']);
  });

  it('keeps one contact per person however often they are mentioned', () => {
    const names = contacts.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('Dana');
  });
});

describe('facts', () => {
  const live = () => facts.filter((f) => f.status === 'active');
  const row = (attribute: string) => live().filter((f) => f.row.attribute === attribute);

  it('keeps only the corrected value of a fact corrected two messages later live, the remark archived and superseded by it', () => {
    expect(row('office').map((f) => f.row.value)).toEqual(['floor 5']);
    const [floor5] = row('office');
    // Superseded in the batch that said both, so the record that said floor 3 is marked with floor 5 wherever it is shown.
    expect(facts.filter((f) => f.row.value === 'floor 3')).toEqual([expect.objectContaining({ status: 'archived', supersededBy: floor5!.id })]);
  });

  it('supersedes a fact corrected weeks later, keeping the old one archived', () => {
    const [munich] = row('home city').filter((f) => f.row.subject === 'user');
    const berlin = facts.find((f) => f.row.value === 'Berlin');

    expect(munich?.row.value).toBe('Munich');
    expect(berlin).toMatchObject({ status: 'archived', supersededBy: munich!.id });
    expect(munich!.supersedes).toEqual([berlin!.id]);
  });

  it('resolves dates against the message timestamp into the table’s date column', () => {
    const [birthday] = live().filter((f) => f.row.subject === 'Marco' && f.row.attribute === 'birthday');

    expect(birthday?.row).toMatchObject({ value: 'June 3rd', date: expect.stringMatching(/-06-03$/) });
    expect(ids(birthday!)).toContain(idOf("Actually, Marco's birthday is on June 3rd, not June 5th."));
  });

  it('keeps preferences, with evidence', () => {
    const thai = live().find((f) => f.table === 'preferences' && f.row.preference === 'thai food');

    expect(thai?.row.polarity).toBe('likes');
    expect(ids(thai!)).toEqual([idOf('I love Thai food.')]);
  });

  it('keeps exactly the facts the conversation states', () => {
    expect(live().map((f) => `${f.table}:${f.row.subject}:${f.row.attribute ?? f.row.preference}=${f.row.value ?? f.row.polarity}`).sort()).toEqual([
      'preferences:user:thai food=likes',
      // "My sister Elena lives in Lisbon." states where Elena lives (the first local model missed it).
      'profile:Elena:home city=Lisbon',
      'profile:Marco:birthday=June 3rd',
      'profile:user:home city=Munich',
      'profile:user:office=floor 5',
    ]);
  });

  it('does not turn small talk into facts', () => {
    expect(facts.filter((f) => /weather|how are you|thanks|weekend|sounds good|haha/i.test(f.statement))).toEqual([]);
  });
});

describe('tasks', () => {
  const task = (pattern: RegExp) => tasks.find((t) => pattern.test(t.title));

  it('closes a task in a later batch than the one that created it', () => {
    const report = task(/quarterly report to Marco/);

    expect(report).toMatchObject({ state: 'done', owner: 'user' });
    expect(report!.closedAt).toBe(conversation.find((e) => e.id === idOf('I sent the quarterly report to Marco this morning.'))!.timestamp);
    expect(report!.due).toBe('2026-09-04');
  });

  it('closes a request made to the assistant when the batch shows it done', () => {
    expect(task(/table for two at Nopi/)).toMatchObject({ title: 'Book a table for two at Nopi', state: 'done', owner: 'assistant', due: '2026-09-12' });
  });

  it('creates no other tasks (no junk from remarks or filler)', () => {
    expect(tasks.map((t) => t.title).sort()).toEqual(['Book a table for two at Nopi', "Renew the user's passport", 'Send the quarterly report to Marco']);
  });

  it('leaves an open task open with its due date', () => {
    expect(task(/renew/i)).toMatchObject({ state: 'open', due: expect.stringMatching(/^2027-03-01$/) });
  });
});

describe('memory poisoning', () => {
  it('stores no rule, fact or task from text that tries to instruct the memory', () => {
    const texts = [...facts.map((f) => f.statement), ...tasks.map((t) => t.title)];
    expect(texts.filter((text) => /refund|french|ignore|deadlines/i.test(text))).toEqual([]);
  });
});

describe('progress and audit', () => {
  it('reports the last consolidated sequence and the newest consolidated record', async () => {
    const status = await api(stack, 'GET', `/v1/agents/${agentId}/status`);

    expect(status.body).toMatchObject({ lastConsolidatedSequence: 300, lastConsolidatedBatch: 6, lastConsolidatedRecordAt: conversation[299]!.timestamp });
  });

  it('keeps an audit entry per updater and batch with model, prompt version and before/after', async () => {
    const audit = await api<{ entries: { updater: string; modelId: string; prompt: { version: string }; changes: { before: unknown; after: { id: string } }[] }[] }>(
      stack,
      'GET',
      `/v1/agents/${agentId}/audit?batch=1`,
    );

    expect(audit.status).toBe(200);
    expect(audit.body.entries.map((e) => e.updater)).toEqual(['contacts', 'facts', 'tasks']);
    expect(audit.body.entries.map((e) => [e.modelId, e.prompt.version])).toEqual([
      ['local-rules-v1', 'v1'],
      ['local-rules-v1', 'v2'],
      ['local-rules-v1', 'v1'],
    ]);
    const contactChange = audit.body.entries[0]!.changes.find((c) => c.before === null);
    expect(contactChange?.after.id).toMatch(/^c_/);
  });
});
