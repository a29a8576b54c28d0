/** `POST /v1/agents/{agentId}/events`: validate the whole request, then ingest. */
import { logger } from '../../commons/powertools.js';
import { httpRouter, jsonResponse, parseJsonBody } from '../../commons/http.js';
import { MAX_REQUEST_BYTES, checkTimestamps, parseIngestRequest } from '../../domain/events.js';
import { ingestEvents, type IngestDependencies } from '../../use-cases/ingest-events.js';
import { checkMetadataShape, checkTimestampFloor } from '../../domain/input-hygiene.js';
import { hasScope } from '../../domain/auth.js';
import { ForbiddenError } from '../../domain/errors.js';

export type IngestRouteDependencies = IngestDependencies;

export function createIngestHandler(deps: IngestRouteDependencies) {
  return httpRouter('Ingest', {
    ingestEvents: async ({ event, agent, principal }) => {
      const body = parseJsonBody(event, MAX_REQUEST_BYTES);
      // Bounded before the schema walks it: a hostile metadata object is a 400, never a stack overflow.
      checkMetadataShape(body);
      const events = parseIngestRequest(body);
      checkTimestamps(events, (deps.now ?? (() => new Date()))());
      checkTimestampFloor(events);
      // System text steers the agent: only an operator's (admin) key may write it.
      const system = events.findIndex((incoming) => incoming.role === 'system');
      if (system >= 0 && !hasScope(principal, 'admin')) throw new ForbiddenError(`events[${system}].role: system events need a key with the admin scope`);
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
