/**
 * Silence costs little: an agent that comes back after three silent years is
 * swept in a bounded number of summary writes, and about as fast as an agent
 * silent for one week, on the local stack (API, consolidator, sweep, Summaries
 * stream and ladder handler, emulator). Its ladders are still contiguous and
 * the parents over its active days still carry their text.
 *
 * Three agents of each kind, swept alternately; the medians are compared and
 * printed as one JSON line (docs/BENCHMARKS.md, "Silence").
 */
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPartitionKey } from '../../functions/domain/agent-key.js';
import { DEFAULT_LADDERS, LADDERS, dayNumber, dayToIso, topLevel, type Ladder } from '../../functions/domain/ladders.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

interface Listed {
  id: string;
  level: number;
  from: string;
  to: string;
  through?: number;
  children: string[];
  text: string;
  empty: boolean;
}

const DAY = 86_400_000;
const startOfToday = Math.floor(Date.now() / DAY) * DAY;
const today = dayNumber(new Date(startOfToday).toISOString());
const RUNS = 3;
/** Two active days, `daysAgo` and the day after, three interactions of three messages each. */
const history = (agentId: string, daysAgo: number) =>
  [daysAgo, daysAgo - 1].flatMap((ago, d) =>
    Array.from({ length: 9 }, (_, i) =>
      message(`${agentId}-${d}-${i}`, i % 3 === 0 ? `Met Ravi Menon about the lease, day ${d}, call ${i / 3}.` : `Noted point ${i} of the lease.`, {
        timestamp: new Date(startOfToday - ago * DAY + 9 * 3_600_000 + i * 120_000).toISOString(),
        interactionId: `${agentId}-${d}-${Math.floor(i / 3)}`,
      }),
    ),
  );
/** The last active day is three years (1,096 days) before yesterday, or one week before today. */
const KINDS = { years: 1_097 + 1, week: 8 + 1 } as const;
type Kind = keyof typeof KINDS;
const agents = (kind: Kind) => Array.from({ length: RUNS }, (_, i) => `silent-${kind}-${i}`);

let stack: LocalStack;
let summariesTable: string;
const measured: Record<Kind, { ms: number; written: number }[]> = { years: [], week: [] };

async function countSummaries(agentId: string): Promise<number> {
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: summariesTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sum)',
        ExpressionAttributeValues: { ':pk': agentPartitionKey({ tenantId: 'default', agentId }), ':sum': 'SUM#' },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

async function listAll(agentId: string, ladder: Ladder): Promise<Listed[]> {
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
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

beforeAll(async () => {
  // No scheduled sweep in the background: the test runs and times the sweeps itself.
  stack = await startTestStack({ scheduleIntervalMs: 3_600_000 });
  summariesTable = stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable');
  for (const kind of ['years', 'week'] as const) {
    for (const agentId of agents(kind)) {
      expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: history(agentId, KINDS[kind]) })).status).toBe(202);
      await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
    }
  }
  for (const agentId of [...agents('years'), ...agents('week')]) {
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === 18, 120_000, 100);
  }
  await stack.eventSources.waitForIdle(120_000);
  // Alternate the two kinds, so both see the same machine load.
  for (let run = 0; run < RUNS; run += 1) {
    for (const kind of ['years', 'week'] as const) {
      const agentId = agents(kind)[run]!;
      const before = await countSummaries(agentId);
      const started = performance.now();
      expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).body).toMatchObject({ swept: true });
      // The sweep's writes, and every ladder step the stream triggers from them.
      await stack.eventSources.waitForIdle(300_000);
      measured[kind].push({ ms: performance.now() - started, written: (await countSummaries(agentId)) - before });
    }
  }
  console.log(
    JSON.stringify({
      bench: 'silence',
      runs: RUNS,
      silentDaysYears: KINDS.years - 2,
      silentDaysWeek: KINDS.week - 2,
      medianMsYears: Math.round(median(measured.years.map((m) => m.ms))),
      medianMsWeek: Math.round(median(measured.week.map((m) => m.ms))),
      medianWrittenYears: median(measured.years.map((m) => m.written)),
      medianWrittenWeek: median(measured.week.map((m) => m.written)),
      measured,
    }),
  );
}, 900_000);

afterAll(async () => {
  await stack?.stop();
});

describe('three silent years', () => {
  it('are swept in a bounded number of summary writes: at most a run and two edge parents per level, not one per day', () => {
    const levels = LADDERS.reduce((sum, ladder) => sum + topLevel(DEFAULT_LADDERS, ladder) + 1, 0);
    for (const { written } of measured.years) {
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThanOrEqual(3 * levels);
    }
    expect(KINDS.years - 2).toBeGreaterThan(3 * 365);
  });

  it('take at most five times as long to sweep as one silent week (medians)', () => {
    expect(median(measured.years.map((m) => m.ms))).toBeLessThanOrEqual(5 * median(measured.week.map((m) => m.ms)));
  });

  it('leave every level contiguous from the first week, through yesterday at the base, with the active days’ text in the blocks above them', async () => {
    const agentId = agents('years')[0]!;
    const time = await listAll(agentId, 'time');
    const active = new Set(history(agentId, KINDS.years).map((e) => e.timestamp.slice(0, 10)));
    for (let level = 0; level <= topLevel(DEFAULT_LADDERS, 'time'); level += 1) {
      const items = time.filter((s) => s.level === level).sort((a, b) => indexOf(a) - indexOf(b));
      expect(items.length, `level ${level}`).toBeGreaterThan(0);
      items.slice(1).forEach((summary, i) => {
        expect(indexOf(summary)).toBe((items[i]!.through ?? indexOf(items[i]!)) + 1);
        expect(summary.from).toBe(dayToIso(dayNumber(`${items[i]!.to}T00:00:00Z`) + 1));
      });
      // The first block at every level above the day holds the active days, written from the level below with their text.
      if (level > 0) expect(items[0]).toMatchObject({ empty: false, text: expect.stringMatching(/Ravi Menon/) });
    }
    const days = time.filter((s) => s.level === 0);
    expect(days.filter((d) => !d.empty).map((d) => d.from).sort()).toEqual([...active].sort());
    expect(days.at(-1)!.to).toBe(dayToIso(today - 1));
    // Fewer items than a handful per level: the silence is one run, whatever its length.
    expect(days.length).toBeLessThanOrEqual(4);
  });
});
