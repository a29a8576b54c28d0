/**
 * `GET /v1/agents/{agentId}/status`: the agent's pipeline state.
 * `GET /openapi.json`: the API's description (no key; built on first request).
 */
import { httpRouter, jsonResponse } from '../../commons/http.js';
import { openApiDocument } from '../../commons/openapi.js';
import { NotFoundError } from '../../domain/errors.js';
import type { AgentLedger } from '../../ports/pipeline.js';

export interface StatusRouteDependencies {
  readonly ledger: AgentLedger;
}

export function createStatusHandler(deps: StatusRouteDependencies) {
  return httpRouter('Status', {
    readStatus: async ({ agent }) => {
      const status = await deps.ledger.readStatus(agent);
      if (!status) throw new NotFoundError(`agent ${agent.agentId} has no events`);
      return jsonResponse(200, { tenantId: agent.tenantId, agentId: agent.agentId, ...status });
    },
    readOpenApi: async () => jsonResponse(200, openApiDocument(), { 'cache-control': 'public, max-age=300' }),
  });
}
