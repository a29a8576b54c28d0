/** `POST /v1/agents/{agentId}/events`: validate the whole request, then ingest. */
import { logger } from '../../commons/powertools.js';
import { httpRouter, jsonResponse, parseJsonBody } from '../../commons/http.js';
import { MAX_REQUEST_BYTES, checkTimestamps, parseIngestRequest } from '../../domain/events.js';
import { ingestEvents, type IngestDependencies } from '../../use-cases/ingest-events.js';

export type IngestRouteDependencies = IngestDependencies;

export function createIngestHandler(deps: IngestRouteDependencies) {
  return httpRouter('Ingest', {
    ingestEvents: async ({ event, agent }) => {
      const events = parseIngestRequest(parseJsonBody(event, MAX_REQUEST_BYTES));
      checkTimestamps(events, (deps.now ?? (() => new Date()))());
      const result = await ingestEvents(deps, agent, events);
      logger.info('events ingested', {
        accepted: result.accepted,
        duplicates: result.duplicates,
        batchesQueued: result.batchesQueued.map((batch) => batch.index),
      });
      return jsonResponse(202, { accepted: result.accepted, duplicates: result.duplicates, sequence: result.sequence });
    },
  });
}
