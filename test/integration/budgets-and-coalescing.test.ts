/**
 * Budgets and coalescing: base-summary model calls count against a budget and
 * a retry does not pay again for summaries already written; repeated flushes
 * within the coalescing window start no new consolidation run.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbSummaryStore } from '../../functions/adapters/dynamodb/summary-store.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import { DEFAULT_LADDERS } from '../../functions/domain/ladders.js';
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from '../../functions/ports/model.js';
import { BudgetExceededError, DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';
import { placeRecords, type SummaryDependencies } from '../../functions/use-cases/summaries.js';
import type { LocalStack } from '../../local/local-stack.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';

let stack: LocalStack;
let read: ReturnType<typeof stackReaders>;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.eventSources.stop(); // jobs stay queued: a flushed batch stays "still consolidating"
  read = stackReaders(stack);
});

afterAll(async () => {
  await stack?.stop();
});

/** The local model, counting summary calls, failing the ones listed (1-based). */
class SummaryCounter implements ModelPort {
  readonly modelId = 'counting-local';
  calls = 0;
  private readonly local = new LocalModel();
  constructor(private readonly failCalls: readonly number[] = []) {}
  async invoke(request: ModelRequest): Promise<ModelResponse> {
    if (request.task === 'summary') {
      this.calls += 1;
      if (this.failCalls.includes(this.calls)) throw new ModelCallError('summary model unavailable');
    }
    return this.local.invoke(request);
  }
}

const DAY = 86_400_000;
/** Four past days, one interaction each: placing them closes three days and three interactions. */
const fourDays = (prefix: string) =>
  [5, 4, 3, 2].flatMap((daysAgo) =>
    [0, 1].map((i) =>
      message(`${prefix}-${daysAgo}-${i}`, i === 0 ? `Day ${daysAgo}: I spoke with Ines Duarte.` : 'ok', {
        timestamp: new Date(Math.floor(Date.now() / DAY) * DAY - daysAgo * DAY + 9 * 3_600_000 + i * 60_000).toISOString(),
        interactionId: `${prefix}-${daysAgo}`,
      }),
    ),
  );

function summaryDeps(model: ModelPort, budget?: SummaryDependencies['budget']): SummaryDependencies {
  return {
    summaries: new DynamoDbSummaryStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), stack.resourceRef('AWS::DynamoDB::Table', 'SummariesTable')),
    rawLog: read.rawLog,
    model,
    // Every period is summarised by the model here (none is short enough to be its own summary).
    ladders: { ...DEFAULT_LADDERS, verbatimTokens: DEFAULT_LADDERS.maxTokens.map(() => 0) },
    cursor: { timeZone: 'UTC', idleGapMs: 30 * 60_000 },
    ...(budget ? { budget } : {}),
  };
}

async function recordsOf(agentId: string) {
  await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: fourDays(agentId) });
  return read.rawLog.getRange(read.agent(agentId), 1, 8);
}

describe('base summaries', () => {
  it('are not paid for twice: a retry after a failure calls the model only for what was not written', async () => {
    const agent = read.agent('summary-retry');
    const records = await recordsOf('summary-retry');
    const failing = new SummaryCounter([3]);

    await expect(placeRecords(summaryDeps(failing), agent, records)).rejects.toThrow(ModelCallError);
    const retry = new SummaryCounter();
    const written = await placeRecords(summaryDeps(retry), agent, records);
    const again = new SummaryCounter();
    await placeRecords(summaryDeps(again), agent, records);

    // Six periods close (three days, three interactions); each day is one session, so a day and its
    // interaction share one call: three calls in all. Four periods were written before the third failed.
    expect(written.filter((s) => !s.empty)).toHaveLength(2);
    expect(retry.calls).toBe(1);
    expect(again.calls).toBe(0);
  });

  it('count against the run’s budget', async () => {
    const agent = read.agent('summary-budget');
    const records = await recordsOf('summary-budget');
    const model = new SummaryCounter();

    await expect(placeRecords(summaryDeps(model, { ...DEFAULT_BUDGET, maxCalls: 2 }), agent, records)).rejects.toThrow(BudgetExceededError);
    expect(model.calls).toBe(2);
  });
});

describe('POST /flush within the coalescing window', () => {
  it('answers 202 with the running job when nothing is new, and 429 with Retry-After when events wait', async () => {
    const agentId = 'coalesced-flushes';
    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('c1'), message('c2')] });
    const first = await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ flushed: true, batch: { index: 1, fromSequence: 1, toSequence: 2 } });

    const repeat = await api(stack, 'POST', `/v1/agents/${agentId}/flush`);
    expect(repeat.status).toBe(202);
    expect(repeat.body).toMatchObject({ flushed: false, reason: 'coalesced', batch: { index: 1 }, pending: false });

    await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('c3')] });
    const flushes = await Promise.all(Array.from({ length: 5 }, () => api(stack, 'POST', `/v1/agents/${agentId}/flush`)));
    for (const response of flushes) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const status = (await api(stack, 'GET', `/v1/agents/${agentId}/status`)).body;
    expect(status).toMatchObject({ batchesClosed: 1, batchesQueued: 1, lastSequence: 3 });
  });
});
