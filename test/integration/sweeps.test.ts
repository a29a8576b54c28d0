/**
 * Sweeps are isolated per agent and settle what a client flushed: one agent's
 * failure is reported and backed off while the others are swept; a sweep asked
 * for while the flushed batch is still consolidating is carried out once it is.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbMemoryStore } from '../../functions/adapters/dynamodb/memory-store.js';
import { DynamoDbSummaryStore } from '../../functions/adapters/dynamodb/summary-store.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import { agentPartitionKey } from '../../functions/domain/agent-key.js';
import { DEFAULT_LADDERS, dayNumber } from '../../functions/domain/ladders.js';
import { consolidateBatch } from '../../functions/use-cases/consolidate-batch.js';
import { DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';
import type { SummaryDependencies } from '../../functions/use-cases/summaries.js';
import { sweepDueAgents } from '../../functions/use-cases/sweep-agents.js';
import type { LocalStack } from '../../local/local-stack.js';
import { injectFaults } from '../support/fault-injection.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;
let summariesTable: string;

beforeAll(async () => {
  // No scheduled sweep in the background: these tests run the sweeps they check.
  stack = await startTestStack({ scheduleIntervalMs: 3_600_000 });
  read = stackReaders(stack);
  summariesTable = stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable');
});

afterAll(async () => {
  await stack?.stop();
});

const DAY = 86_400_000;
const startOfToday = Math.floor(Date.now() / DAY) * DAY;
/** Two interactions: the day before yesterday and yesterday, 09:00 UTC. */
const twoDays = (prefix: string) =>
  [2, 1].flatMap((daysAgo) =>
    Array.from({ length: 3 }, (_, i) =>
      message(`${prefix}-${daysAgo}-${i}`, i === 0 ? `I met Ravi Menon ${daysAgo} days ago.` : 'ok', {
        timestamp: new Date(startOfToday - daysAgo * DAY + 9 * 3_600_000 + i * 60_000).toISOString(),
        interactionId: `${prefix}-day-${daysAgo}`,
      }),
    ),
  );
const yesterday = dayNumber(new Date(startOfToday - DAY).toISOString());

function summaryDeps(dynamodb: DynamoDBClient = stack.clients.dynamodb): SummaryDependencies {
  return {
    summaries: new DynamoDbSummaryStore(DynamoDBDocumentClient.from(dynamodb), summariesTable),
    rawLog: read.rawLog,
    model: new LocalModel(),
    ladders: DEFAULT_LADDERS,
    cursor: { timeZone: 'UTC', idleGapMs: 30 * 60_000 },
  };
}

async function baseSummaryIds(agentId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const ladder of ['time', 'count']) {
    const page = await api<{ items: { id: string }[] }>(stack, 'GET', `/v1/agents/${agentId}/summaries?ladder=${ladder}&level=0&limit=100`);
    ids.push(...page.body.items.map((s) => s.id));
  }
  return ids;
}

async function settledAgent(agentId: string): Promise<void> {
  await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: twoDays(agentId) });
  await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
  await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body.lastConsolidatedSequence === 6, 30_000);
  await stack.eventSources.waitForIdle();
}

describe('the scheduled sweep', () => {
  it('continues past a failing agent, reports it, and backs it off', async () => {
    for (const agentId of ['sweep-a', 'sweep-b', 'sweep-c']) await settledAgent(agentId);
    const failing = agentPartitionKey(read.agent('sweep-b'));
    const dynamodb = new DynamoDBClient({ endpoint: stack.endpoint, region: 'us-east-1' });
    // Every read of sweep-b's summary cursor fails; the other agents' calls go through.
    injectFaults(dynamodb, { command: 'GetItemCommand', failCalls: 'all', when: (input) => {
      const pk = (input.Key as Record<string, unknown> | undefined)?.pk;
      return pk === failing || (pk as { S?: string } | undefined)?.S === failing;
    } });

    const result = await sweepDueAgents({ ...summaryDeps(dynamodb), ledger: read.ledger }, { pageSize: 1 });

    expect(result.failed.map((f) => [f.agentId, f.failures]), JSON.stringify(result)).toEqual([['sweep-b', 1]]);
    for (const agentId of ['sweep-a', 'sweep-c']) expect(await baseSummaryIds(agentId)).toEqual(expect.arrayContaining([`time:0:${yesterday}`, 'count:0:2']));
    expect(await baseSummaryIds('sweep-b')).not.toContain(`time:0:${yesterday}`);
    // Backed off: the next run does not try it again at once.
    const next = await sweepDueAgents({ ...summaryDeps(dynamodb), ledger: read.ledger });
    expect(next.failed).toEqual([]);
  });
});

describe('the scheduled sweep through its queue', () => {
  it('hands every due agent to the sweep workers once, and the workers sweep each', async () => {
    for (const agentId of ['queued-a', 'queued-b']) await settledAgent(agentId);
    const sweep = [...stack.functions.values()].find((fn) => fn.logicalId.startsWith('SweepFunction'))!;
    const scheduledEvent = () => ({ version: '0', id: 'local', 'detail-type': 'Scheduled Event', source: 'aws.events', account: '123456789012', time: new Date().toISOString(), region: 'us-east-1', resources: [], detail: {} });

    const first = (await sweep.invoke(scheduledEvent())) as { enqueued: number; truncated: boolean };
    const second = (await sweep.invoke(scheduledEvent())) as { enqueued: number };
    await stack.eventSources.waitForIdle();

    // Every due agent of the stack (these two, and any an earlier test left due), then none while the lease runs.
    expect(first.enqueued).toBeGreaterThanOrEqual(2);
    expect(first.truncated).toBe(false);
    expect(second.enqueued).toBe(0);
    for (const agentId of ['queued-a', 'queued-b']) expect(await baseSummaryIds(agentId)).toEqual(expect.arrayContaining([`time:0:${yesterday}`, 'count:0:2']));
  });
});

describe('flush then sweep', () => {
  it('closes the last day and the last interaction without waiting for the schedule', async () => {
    const agentId = 'flush-then-sweep';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: twoDays(agentId) });

    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
    const swept = await api(stack, 'POST', `/v1/agents/${agentId}/sweep`);

    expect(swept.status).toBe(200);
    await waitFor(async () => (await baseSummaryIds(agentId)).includes(`time:0:${yesterday}`), 30_000);
    expect(await baseSummaryIds(agentId)).toEqual(expect.arrayContaining([`time:0:${yesterday - 1}`, `time:0:${yesterday}`, 'count:0:1', 'count:0:2']));
  });

  it('defers a sweep that arrives while the flushed batch is queued, and the consolidator carries it out', async () => {
    await stack.eventSources.stop(); // the job stays queued until this test consolidates it
    const agentId = 'deferred-sweep';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: twoDays(agentId) });
    await api(stack, 'POST', `/v1/agents/${agentId}/flush`);

    const swept = await api(stack, 'POST', `/v1/agents/${agentId}/sweep`);

    expect(swept.body).toEqual({ swept: false, reason: 'consolidation-pending', deferred: true });
    expect(await baseSummaryIds(agentId)).toEqual([]);
    const marker = await read.ledger.readBatch(read.agent(agentId), 1);
    await consolidateBatch(
      {
        ledger: read.ledger,
        rawLog: read.rawLog,
        memory: new DynamoDbMemoryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable')),
        model: new LocalModel(),
        budget: DEFAULT_BUDGET,
        summaries: summaryDeps(),
      },
      { tenantId: 'default', agentId, index: 1, fromSequence: marker!.fromSequence, toSequence: marker!.toSequence },
    );
    expect(await baseSummaryIds(agentId)).toEqual(expect.arrayContaining([`time:0:${yesterday - 1}`, `time:0:${yesterday}`, 'count:0:1', 'count:0:2']));
    expect((await read.ledger.readStatus(read.agent(agentId)))?.sweepRequestedAt).toBeUndefined();
  });
});
