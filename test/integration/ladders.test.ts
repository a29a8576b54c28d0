/**
 * Thirteen months of uneven activity (burst days, then days or weeks of silence)
 * through the local stack with the local model: both ladders are complete
 * wherever their inputs are, never built before their inputs, contiguous,
 * bounded in length, and unchanged by duplicated or out-of-order deliveries.
 *
 * A silent stretch is one empty run per level (an item with `through`): it
 * stands for every period from its index through `through`, so "present at a
 * level" means "a summary, or inside a run", and contiguity steps from a run's
 * `through`.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbSummaryStore } from '../../functions/adapters/dynamodb/summary-store.js';
import { DEFAULT_LADDERS, childIndices, dayNumber, parentIndex, topLevel, type Ladder } from '../../functions/domain/ladders.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import { climbLadder } from '../../functions/use-cases/summaries.js';
import type { LocalStack } from '../../local/local-stack.js';
import { simulatedHistory } from '../../scripts/corpus/simulated-history.js';
import { api, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

interface Listed {
  id: string;
  ladder: Ladder;
  level: number;
  from: string;
  to: string;
  through?: number;
  children: string[];
  text: string;
  tokens: number;
  empty: boolean;
  createdAt: string;
  rebuiltAt?: string;
}

let stack: LocalStack;
const agentId = 'two-years';
// Long enough for a complete 52-week summary and the 120-interaction level; short enough for CI (npm run bench covers longer histories).
const history = simulatedHistory({ start: '2024-11-25', days: 400, burstSize: 10 });
const interactions = new Set(history.map((e) => e.interactionId)).size;
const summaries: Record<Ladder, Listed[]> = { time: [], count: [] };

async function listAll(ladder: Ladder): Promise<Listed[]> {
  const items: Listed[] = [];
  let token: string | undefined;
  do {
    const page = await api<{ items: Listed[]; nextToken?: string }>(stack, 'GET', `/v1/agents/${agentId}/summaries?ladder=${ladder}&limit=100${token ? `&nextToken=${token}` : ''}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    token = page.body.nextToken;
  } while (token);
  return items;
}

const indexOf = (summary: Listed) => Number(summary.id.split(':')[2]);
/** Levels above the week count weeks from the agent's first one. */
const origin = parentIndex(DEFAULT_LADDERS, 'time', 0, dayNumber(history[0]!.timestamp));
const originOf = (ladder: Ladder) => (ladder === 'time' ? origin : 0);
/** The periods present at a level: each summary's own, and every period inside an empty run. */
const levelIndices = (ladder: Ladder, level: number) =>
  new Set(summaries[ladder].filter((s) => s.level === level).flatMap((s) => Array.from({ length: (s.through ?? indexOf(s)) - indexOf(s) + 1 }, (_, i) => indexOf(s) + i)));
const lastOf = (summary: Listed) => summary.through ?? indexOf(summary);

beforeAll(async () => {
  stack = await startTestStack();
  for (let start = 0; start < history.length; start += 100) {
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: history.slice(start, start + 100) })).status).toBe(202);
  }
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === history.length, 600_000, 250);
  // The agent has been quiet since its last burst: the sweep closes its last day and interaction.
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).body).toMatchObject({ swept: true });
  await stack.eventSources.waitForIdle(600_000);
  summaries.time = await listAll('time');
  summaries.count = await listAll('count');
}, 1_200_000);

afterAll(async () => {
  await stack?.stop();
});

describe.each(['time', 'count'] as const)('%s ladder', (ladder) => {
  it('has every level complete where its inputs are complete, and no level built before its inputs', () => {
    for (let level = 1; level <= topLevel(DEFAULT_LADDERS, ladder); level += 1) {
      const below = levelIndices(ladder, level - 1);
      const here = levelIndices(ladder, level);
      const candidates = new Set([...below].map((child) => parentIndex(DEFAULT_LADDERS, ladder, level - 1, child, originOf(ladder))));
      for (const parent of candidates) {
        const complete = childIndices(DEFAULT_LADDERS, ladder, level, parent, originOf(ladder)).every((child) => below.has(child));
        expect(here.has(parent), `${ladder} level ${level} index ${parent}`).toBe(complete);
      }
      for (const parent of here) expect(candidates.has(parent)).toBe(true);
    }
  });

  it('lists each parent’s children in order, and covers contiguous ranges at every level', () => {
    for (let level = 0; level <= topLevel(DEFAULT_LADDERS, ladder); level += 1) {
      const sorted = summaries[ladder].filter((s) => s.level === level).sort((a, b) => indexOf(a) - indexOf(b));
      sorted.forEach((summary, i) => {
        if (level > 0 && summary.through === undefined) expect(summary.children).toEqual(childIndices(DEFAULT_LADDERS, ladder, level, indexOf(summary), originOf(ladder)).map((c) => `${ladder}:${level - 1}:${c}`));
        if (level > 0 && summary.through !== undefined) {
          // A run names the run below it was derived from, which covers every one of its children.
          const [from] = summary.children;
          const below = summaries[ladder].find((s) => s.id === from)!;
          expect(below).toMatchObject({ level: level - 1, empty: true });
          expect(indexOf(below)).toBeLessThanOrEqual(childIndices(DEFAULT_LADDERS, ladder, level, indexOf(summary), originOf(ladder))[0]!);
          expect(lastOf(below)).toBeGreaterThanOrEqual(childIndices(DEFAULT_LADDERS, ladder, level, summary.through, originOf(ladder)).at(-1)!);
        }
        if (i === 0) return;
        expect(indexOf(summary)).toBe(lastOf(sorted[i - 1]!) + 1);
        const previousEnd = sorted[i - 1]!.to;
        const expectedStart = ladder === 'time' ? new Date(Date.parse(`${previousEnd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : String(Number(previousEnd) + 1);
        expect(summary.from).toBe(expectedStart);
      });
    }
  });

  it('keeps every summary within its level’s length bound', () => {
    for (const summary of summaries[ladder]) expect(summary.tokens).toBeLessThanOrEqual(DEFAULT_LADDERS.maxTokens[summary.level]!);
  });
});

describe('shape of thirteen months', () => {
  it('has a summary for every interaction, and 10-, 40- and 120-interaction levels where fan-in allows', () => {
    const counts = [0, 1, 2, 3, 4].map((level) => levelIndices('count', level).size);

    expect(counts).toEqual([interactions, Math.floor(interactions / 10), Math.floor(interactions / 40), Math.floor(interactions / 120), Math.floor(interactions / 480)]);
  });

  it('covers every day from the first Monday, with empty markers for silent days and complete 52-week summaries', () => {
    const days = summaries.time.filter((s) => s.level === 0);
    const active = new Set(history.map((e) => e.timestamp.slice(0, 10)));

    expect(days[0]!.from).toBe('2024-11-25');
    // The agent's first 4-, 12- and 52-week summaries start with its first week, whatever the calendar.
    for (const level of [2, 3, 4]) expect(summaries.time.filter((s) => s.level === level).sort((a, b) => indexOf(a) - indexOf(b))[0]?.from).toBe('2024-11-25');
    expect(days.filter((d) => !d.empty).map((d) => d.from).sort()).toEqual([...active].sort());
    // Silent stretches of more than a day are one run each, not a marker per day.
    expect(days.some((d) => d.through !== undefined && d.empty)).toBe(true);
    expect(days.filter((d) => d.through !== undefined).every((d) => d.empty && !active.has(d.from) && !active.has(d.to))).toBe(true);
    expect(levelIndices('time', 4).size).toBeGreaterThanOrEqual(1);
    expect(summaries.time.find((s) => s.level === 4)).toMatchObject({ empty: false, text: expect.stringMatching(/\d{4}-\d{2}-\d{2}(?: \[\S+(?:, \S+)*\])?: /) });
  });

  it('writes nothing twice when stream deliveries are duplicated or out of order', async () => {
    const store = new DynamoDbSummaryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable'));
    const deps = { summaries: store, model: new LocalModel(), ladders: DEFAULT_LADDERS };
    const week = summaries.time.find((s) => s.level === 1 && !s.empty && s.children.some((id) => !summaries.time.some((d) => d.id === id)))!;
    const [first, last] = [week.children[0]!, week.children.at(-1)!].map((id) => Number(id.split(':')[2]));
    // The week's days, and the empty runs that stand for the rest of them.
    const days = summaries.time.filter((s) => s.level === 0 && indexOf(s) <= last! && lastOf(s) >= first!);
    expect(days.some((d) => d.through !== undefined)).toBe(true);

    for (const day of [...days].reverse().concat(days)) {
      expect(await climbLadder(deps, { tenantId: 'default', agentId }, { id: day.id, ladder: 'time', level: 0, index: indexOf(day), origin, ...(day.through !== undefined ? { through: day.through } : {}) })).toEqual([]);
    }

    const after = await listAll('time');
    expect(after).toHaveLength(summaries.time.length);
    expect(after.find((s) => s.id === week.id)).toEqual(week);
  });
});

describe('rebuild', () => {
  it('regenerates a range and every ancestor that depends on it on the sweep workers, idempotently, inserting nothing', async () => {
    const week = summaries.time.find((s) => s.level === 1 && !s.empty)!;
    const before = await listAll('time');
    const rebuilt = (listed: Listed[], since: string) => listed.filter((s) => s.rebuiltAt !== undefined && s.rebuiltAt >= since).map((s) => s.id);

    const firstAt = new Date().toISOString();
    const first = await api<{ status: string; periods: number }>(stack, 'POST', `/v1/agents/${agentId}/summaries/rebuild`, { ladder: 'time', from: week.from, to: week.to });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued', periods: 7 });
    await stack.eventSources.waitForIdle();
    const afterFirst = await listAll('time');
    const ids = rebuilt(afterFirst, firstAt);

    expect(ids).toEqual(expect.arrayContaining([week.id]));
    expect(ids.filter((id) => id.startsWith('time:0:')).sort()).toEqual(week.children.filter((id) => before.some((s) => s.id === id && !s.empty)).sort());
    const levels = new Set(ids.map((id) => Number(id.split(':')[1])));
    expect(Math.max(...levels)).toBe(Math.max(...before.filter((s) => s.from <= week.from && s.to >= week.to).map((s) => s.level)));
    expect(Math.max(...levels)).toBe(4);

    const secondAt = new Date().toISOString();
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/summaries/rebuild`, { ladder: 'time', from: week.from, to: week.to })).status).toBe(202);
    await stack.eventSources.waitForIdle();
    const after = await listAll('time');
    expect(rebuilt(after, secondAt).sort()).toEqual([...ids].sort());
    expect(after).toHaveLength(before.length);
    expect(after.map((s) => [s.id, s.text])).toEqual(before.map((s) => [s.id, s.text]));
  });

  it('refuses a malformed or oversized range, naming the field', async () => {
    const bad = await api(stack, 'POST', `/v1/agents/${agentId}/summaries/rebuild`, { ladder: 'time', from: 'March', to: '2025-03-09' });
    const large = await api(stack, 'POST', `/v1/agents/${agentId}/summaries/rebuild`, { ladder: 'count', from: 1, to: 500 });

    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ field: 'from', rule: 'must be an ISO date' }]);
    expect(large.body.issues).toEqual([{ field: 'to', rule: 'a rebuild covers at most 92 base periods' }]);
  });
});
