/** `GET /v1/agents/{agentId}/status`: the agent's pipeline state. */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../commons/powertools.js';
import { httpErrors, jsonResponse, requireMethod, type HttpEvent, type HttpResult } from '../commons/http.js';
import { parseAgentId } from '../domain/events.js';
import { NotFoundError } from '../domain/errors.js';
import type { AgentLedger } from '../use-cases/ports.js';

export interface StatusRouteDependencies {
  readonly ledger: AgentLedger;
  readonly tenantId: string;
}

export function createStatusHandler(deps: StatusRouteDependencies) {
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(httpErrors(logger))
    .handler(async (event) => {
      requireMethod(event, ['GET']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      const status = await deps.ledger.readStatus({ tenantId: deps.tenantId, agentId });
      if (!status) throw new NotFoundError(`agent ${agentId} has no events`);
      return jsonResponse(200, { tenantId: deps.tenantId, agentId, ...status });
    });
}
