/**
 * Sweep entry, four triggers on one function:
 * - the scheduled rule hands every agent due in the sweep index to the sweep
 *   queue (one message each, with a lease so it is not handed out twice);
 * - the sweep queue: a worker sweeps one agent, or carries a summary rebuild
 *   on as far as its time allows and queues the rest;
 * - `POST /v1/agents/{agentId}/sweep` sweeps one agent now;
 * - `POST /v1/agents/{agentId}/summaries/rebuild` queues a rebuild (202): a
 *   range of model calls does not fit API Gateway's 30-second limit.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import type { Context, ScheduledEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../../commons/powertools.js';
import { eventHandler } from '../../commons/event-handler.js';
import { rebuildRequestSchema } from '../../commons/api-schemas.js';
import { httpRouter, jsonResponse, parseJsonBody, type HttpEvent } from '../../commons/http.js';
import { issuesFromZod } from '../../domain/events.js';
import { ValidationError } from '../../domain/errors.js';
import { dayNumber } from '../../domain/ladders.js';
import { SWEEP_SHARDS } from '../../domain/table-layout.js';
import { sweepJobSchema, type RebuildJob } from '../../domain/sweep-job.js';
import type { SweepQueue } from '../../ports/pipeline.js';
import { BatchBudget } from '../../use-cases/model-budget.js';
import { MAX_REBUILD_PERIODS, rebuildStep } from '../../use-cases/summaries.js';
import { enqueueDueAgents, sweepIfSettled, sweepQueuedAgent, type SweepDependencies } from '../../use-cases/sweep-agents.js';

export interface SweepHandlerDependencies extends SweepDependencies {
  /** Where the scheduled run hands out due agents and the rebuild route queues rebuilds. */
  readonly queue: SweepQueue;
  /** How long a handed-out agent is not handed out again: the schedule's interval. */
  readonly leaseMs: number;
}

/** Time a worker keeps for itself after its last model call: the call in flight may take this long. */
const LAST_CALL_MS = 60_000;

const jobBody = JSONStringified(sweepJobSchema);

export function createSweepHandler(deps: SweepHandlerDependencies) {
  const http = httpRouter('Sweep', {
    sweepAgent: async ({ agent }) => jsonResponse(200, await sweepIfSettled(deps, agent)),
    rebuildSummaries: async ({ event, agent }) => {
      const request = rebuildRequestSchema.safeParse(parseJsonBody(event, 4_096));
      if (!request.success) throw new ValidationError(issuesFromZod(request.error));
      const { ladder, from, to } = request.data;
      const first = ladder === 'time' ? dayNumber(`${from}T12:00:00Z`) : Number(from);
      const last = ladder === 'time' ? dayNumber(`${to}T12:00:00Z`) : Number(to);
      if (last < first) throw new ValidationError([{ field: 'to', rule: 'must not be before from' }]);
      if (last - first + 1 > MAX_REBUILD_PERIODS) throw new ValidationError([{ field: 'to', rule: `a rebuild covers at most ${MAX_REBUILD_PERIODS} base periods` }]);
      await deps.queue.enqueue([{ kind: 'rebuild', ...agent, ladder, first, last }]);
      logger.info('summary rebuild queued', { agentId: agent.agentId, ladder, first, last });
      return jsonResponse(202, { status: 'queued', ladder, from, to, periods: last - first + 1 });
    },
  });

  const scheduled = eventHandler(async (event: ScheduledEvent, context: Context) => {
    // Each run starts from another shard, so when time runs out it is never the same shard that waits.
    const startShard = Math.floor(Date.parse(event.time) / deps.leaseMs) % SWEEP_SHARDS;
    const result = await enqueueDueAgents(deps, { leaseMs: deps.leaseMs, startShard, budgetMs: Math.max(10_000, context.getRemainingTimeInMillis() - 30_000) });
    logger.info('scheduled sweep', { enqueued: result.enqueued, truncated: result.truncated, startShard });
    metrics.addMetric('SweepAgentsEnqueued', MetricUnit.Count, result.enqueued);
    return result;
  });

  const rebuild = async (job: RebuildJob, context: Context) => {
    const remaining = () => context.getRemainingTimeInMillis();
    const budget = new BatchBudget({ maxCalls: 10_000, maxInputTokens: Number.MAX_SAFE_INTEGER, maxOutputTokens: Number.MAX_SAFE_INTEGER, maxWallMs: Math.max(1_000, remaining() - LAST_CALL_MS / 2) });
    const step = await rebuildStep(deps, { tenantId: job.tenantId, agentId: job.agentId }, job, () => remaining() > LAST_CALL_MS, budget);
    if (step.next) await deps.queue.enqueue([step.next]);
    logger.info('summary rebuild step', { agentId: job.agentId, ladder: job.ladder, rebuilt: step.rebuilt.length, done: !step.next });
    metrics.addMetric('SummariesRebuilt', MetricUnit.Count, step.rebuilt.length);
  };

  const recordHandler = async (record: SQSRecord, context: Context) => {
    const parsed = jobBody.safeParse(record.body);
    if (!parsed.success) throw new ValidationError(issuesFromZod(parsed.error, 'job'));
    const job = parsed.data;
    if (job.kind === 'rebuild') return rebuild(job, context);
    const outcome = await sweepQueuedAgent(deps, { tenantId: job.tenantId, agentId: job.agentId });
    if (outcome.ok) return;
    // Backed off in the sweep index, which hands the agent out again later: not retried from the queue.
    logger.warn('sweep failed for an agent; backed off', { tenantId: job.tenantId, agentId: job.agentId, error: outcome.error, failures: outcome.failures });
    metrics.addMetric('SweepAgentFailures', MetricUnit.Count, 1);
  };
  const queued = eventHandler(async (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => recordHandler(record, context), new BatchProcessor(EventType.SQS), { context }),
  );

  return async (event: HttpEvent | ScheduledEvent | SQSEvent, context: Context) => {
    if ('Records' in event) return queued(event, context);
    if ('requestContext' in event && 'http' in event.requestContext) return http(event as HttpEvent, context);
    return scheduled(event as ScheduledEvent, context);
  };
}
