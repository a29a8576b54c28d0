/** `POST /v1/agents/{agentId}/events`: validate the whole request, then ingest. */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../commons/powertools.js';
import { httpErrors, jsonResponse, parseJsonBody, requireMethod, type HttpEvent, type HttpResult } from '../commons/http.js';
import { MAX_REQUEST_BYTES, parseAgentId, parseIngestRequest } from '../domain/events.js';
import { ingestEvents, type IngestDependencies } from '../use-cases/ingest-events.js';

export interface IngestRouteDependencies extends IngestDependencies {
  readonly tenantId: string;
}

export function createIngestHandler(deps: IngestRouteDependencies) {
  return middy<HttpEvent, HttpResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(httpErrors(logger))
    .handler(async (event) => {
      requireMethod(event, ['POST']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      const events = parseIngestRequest(parseJsonBody(event, MAX_REQUEST_BYTES));
      logger.appendKeys({ agentId });
      const result = await ingestEvents(deps, { tenantId: deps.tenantId, agentId }, events);
      logger.info('events ingested', {
        accepted: result.accepted,
        duplicates: result.duplicates,
        batchesQueued: result.batchesQueued.map((batch) => batch.index),
      });
      return jsonResponse(202, { accepted: result.accepted, duplicates: result.duplicates, sequence: result.sequence });
    });
}
