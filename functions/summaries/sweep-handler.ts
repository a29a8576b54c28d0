/**
 * Sweep entry: the scheduled rule (every agent due in the sweep index) and
 * `POST /v1/agents/{agentId}/sweep` (one agent, on demand).
 */
import middy from '@middy/core';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../commons/powertools.js';
import { httpErrors, jsonResponse, requireMethod, type HttpEvent, type HttpResult } from '../commons/http.js';
import { parseAgentId } from '../domain/events.js';
import { sweepDueAgents, sweepIfSettled, type SweepDependencies } from './sweep.js';

export function createSweepHandler(deps: SweepDependencies & { readonly tenantId: string }) {
  const http = middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(httpErrors(logger))
    .handler(async (event) => {
      requireMethod(event, ['POST']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      return jsonResponse(200, await sweepIfSettled(deps, { tenantId: deps.tenantId, agentId }));
    });
  return async (event: HttpEvent | ScheduledEvent, context: Context) => {
    if ('requestContext' in event && 'http' in event.requestContext) return http(event as HttpEvent, context);
    const result = await sweepDueAgents(deps);
    logger.info('scheduled sweep', result);
    return result;
  };
}
