/**
 * A ladder announcement the stream gave up on: every invocation of the ladder
 * function is killed at its first AWS call, so the stream mapping spends its
 * retries and sends each announcement to the ladder's dead-letter queue, and
 * no parent is written. Once the ladder works again, the sweep's ladder check
 * (checking at once here: `ladderCheckAfter` 0) writes the parents those
 * announcements would have completed, and the stream climbs on from them.
 */
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { Duration } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LADDERS, dayNumber, parentIndex } from '../../functions/domain/ladders.js';
import { FaultInjector } from '../../local/fault-injection.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

interface Listed {
  id: string;
  level: number;
  empty: boolean;
  children: string[];
}

let stack: LocalStack;
const faults = new FaultInjector({ awsRate: 0, modelFailRate: 0, modelTimeoutRate: 0, killRate: 1, maxCallsBeforeKill: 1, killFunctions: ['LadderFunction'], seed: 59 });
const agentId = 'lost-announcements';
// Twelve days from a Monday, one call a day: the first week and ten interactions close, and the count ladder's first parent completes.
const events = Array.from({ length: 12 }, (_, i) => ({
  id: `e${i + 1}`,
  type: 'message',
  role: 'user',
  content: `Day ${i + 1}: watered the tomatoes and wrote up the allotment rota.`,
  timestamp: new Date(Date.parse('2026-10-05T09:00:00Z') + i * 86_400_000).toISOString(),
}));

async function listed(ladder: 'time' | 'count'): Promise<Listed[]> {
  const page = await api<{ items: Listed[] }>(stack, 'GET', `/v1/agents/${agentId}/summaries?ladder=${ladder}&limit=100`);
  expect(page.status).toBe(200);
  return page.body.items;
}

async function deadLettered(): Promise<number> {
  const attributes = await stack.clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: stack.resourceRef('AWS::SQS::Queue', 'LadderDeadLetterQueue'), AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0);
}

beforeAll(async () => {
  // Faults wrap the in-process clients: this file runs on the sources in the bundled lane too.
  stack = await startTestStack({ faults, functions: 'sources', stackProps: { ladderCheckAfter: Duration.minutes(0) } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a ladder announcement given up on', () => {
  it('leaves the parents unwritten while the ladder fails, and the sweep writes them once it works', async () => {
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events })).status).toBe(202);
    await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === events.length, 120_000, 100);
    await stack.eventSources.waitForIdle(120_000);

    // The base summaries are there (the consolidator writes them); nothing above them, and the announcements are dead letters.
    expect((await listed('time')).filter((s) => s.level === 0).length).toBeGreaterThan(7);
    expect((await listed('count')).filter((s) => s.level === 0).length).toBe(11);
    expect((await listed('time')).filter((s) => s.level > 0)).toEqual([]);
    expect((await listed('count')).filter((s) => s.level > 0)).toEqual([]);
    const kills = Object.entries(faults.counts.kills);
    expect(kills.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(0);
    expect(kills.every(([name]) => name.startsWith('LadderFunction'))).toBe(true);
    expect(await deadLettered()).toBeGreaterThan(0);

    faults.enabled = false;
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).body).toMatchObject({ swept: true });
    await stack.eventSources.waitForIdle(120_000);

    // 2026-10-05 is a Monday: the week of 5 to 11 October, whose last day's announcement was a dead letter.
    const firstWeek = parentIndex(DEFAULT_LADDERS, 'time', 0, dayNumber(events[0]!.timestamp));
    const week = (await listed('time')).find((s) => s.id === `time:1:${firstWeek}`);
    expect(week).toMatchObject({ empty: false, children: Array.from({ length: 7 }, (_, i) => `time:0:${dayNumber(events[i]!.timestamp)}`) });
    const tens = (await listed('count')).filter((s) => s.level === 1);
    expect(tens.map((s) => s.id)).toEqual(['count:1:0']);
    expect(tens[0]!.children).toEqual(Array.from({ length: 10 }, (_, i) => `count:0:${i + 1}`));
  });
});
