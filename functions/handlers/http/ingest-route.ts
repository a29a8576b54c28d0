/** `POST /v1/agents/{agentId}/events`: validate the whole request, then ingest. */
import { logger } from '../../commons/powertools.js';
import { httpRoute, jsonResponse, parseJsonBody, requireMethod } from '../../commons/http.js';
import { MAX_REQUEST_BYTES, checkTimestamps, parseAgentId, parseIngestRequest } from '../../domain/events.js';
import { ingestEvents, type IngestDependencies } from '../../use-cases/ingest-events.js';

export interface IngestRouteDependencies extends IngestDependencies {
  readonly tenantId: string;
}

export function createIngestHandler(deps: IngestRouteDependencies) {
  return httpRoute(logger, async (event) => {
      requireMethod(event, ['POST']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      const events = parseIngestRequest(parseJsonBody(event, MAX_REQUEST_BYTES));
      checkTimestamps(events, (deps.now ?? (() => new Date()))());
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
