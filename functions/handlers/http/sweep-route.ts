/**
 * Sweep entry: the scheduled rule (every agent due in the sweep index),
 * `POST /v1/agents/{agentId}/sweep` (one agent, on demand), and
 * `POST /v1/agents/{agentId}/summaries/rebuild` (regenerate a range and its ancestors).
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../../commons/powertools.js';
import { eventHandler } from '../../commons/event-handler.js';
import { rebuildRequestSchema } from '../../commons/api-schemas.js';
import { httpRouter, jsonResponse, parseJsonBody, type HttpEvent } from '../../commons/http.js';
import { issuesFromZod } from '../../domain/events.js';
import { ValidationError } from '../../domain/errors.js';
import { dayNumber } from '../../domain/ladders.js';
import { MAX_REBUILD_PERIODS, rebuildSummaries } from '../../use-cases/summaries.js';
import { sweepDueAgents, sweepIfSettled, type SweepDependencies } from '../../use-cases/sweep-agents.js';


export function createSweepHandler(deps: SweepDependencies) {
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
      const rebuilt = await rebuildSummaries(deps, agent, ladder, first, last);
      return jsonResponse(200, { rebuilt });
    },
  });
  const scheduled = eventHandler(async (_event: ScheduledEvent, context: Context) => {
    // Leave a minute of the invocation for the last agent; the agents not reached stay due.
    const result = await sweepDueAgents(deps, { budgetMs: Math.max(10_000, context.getRemainingTimeInMillis() - 60_000) });
    for (const failure of result.failed) logger.warn('sweep failed for an agent; backed off', failure);
    logger.info('scheduled sweep', { agents: result.agents, written: result.written, deferred: result.deferred, failed: result.failed.length, truncated: result.truncated });
    metrics.addMetric('SweepAgentFailures', MetricUnit.Count, result.failed.length);
    return result;
  });
  // One function serves the schedule and two HTTP routes (both run the same sweep code).
  return async (event: HttpEvent | ScheduledEvent, context: Context) =>
    'requestContext' in event && 'http' in event.requestContext ? http(event as HttpEvent, context) : scheduled(event as ScheduledEvent, context);
}
