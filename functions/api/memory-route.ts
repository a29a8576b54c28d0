/**
 * `GET /v1/agents/{agentId}/contacts|facts|tasks`: a store, page by page
 * (`limit` 1-100, default 50; `nextToken` from the previous page).
 * `GET /v1/agents/{agentId}/audit?batch=N`: the patches applied for batch N,
 * with before and after of every changed item.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../commons/powertools.js';
import { httpErrors, jsonResponse, requireMethod, type HttpEvent, type HttpResult } from '../commons/http.js';
import { parseAgentId } from '../domain/events.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { UPDATERS, type UpdaterName } from '../domain/memory.js';
import type { MemoryStore } from '../use-cases/memory-ports.js';

export interface MemoryRouteDependencies {
  readonly memory: MemoryStore;
  readonly tenantId: string;
}

function positiveInteger(value: string | undefined, field: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > max) {
    throw new ValidationError([{ field, rule: `must be an integer from 1 to ${max}` }]);
  }
  return parsed;
}

export function createMemoryHandler(deps: MemoryRouteDependencies) {
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(httpErrors(logger))
    .handler(async (event) => {
      requireMethod(event, ['GET']);
      const agent = { tenantId: deps.tenantId, agentId: parseAgentId(event.pathParameters?.agentId) };
      const resource = event.rawPath.split('/').pop() ?? '';
      const query = event.queryStringParameters ?? {};
      if (resource === 'audit') {
        const batch = positiveInteger(query.batch, 'batch', Number.NaN, Number.MAX_SAFE_INTEGER);
        if (Number.isNaN(batch)) throw new ValidationError([{ field: 'batch', rule: 'is required: a batch index' }]);
        const entries = (await Promise.all(UPDATERS.map((updater) => deps.memory.readAudit(agent, batch, updater)))).filter(Boolean);
        if (entries.length === 0) throw new NotFoundError(`no patch applied for batch ${batch} of agent ${agent.agentId}`);
        return jsonResponse(200, { batch, entries });
      }
      if (!(UPDATERS as readonly string[]).includes(resource)) throw new NotFoundError(`unknown store ${resource}`);
      const limit = positiveInteger(query.limit, 'limit', 50, 100);
      const page = await deps.memory.listItems(agent, resource as UpdaterName, { limit, ...(query.nextToken ? { nextToken: query.nextToken } : {}) });
      return jsonResponse(200, { items: page.items, ...(page.nextToken ? { nextToken: page.nextToken } : {}) });
    });
}
