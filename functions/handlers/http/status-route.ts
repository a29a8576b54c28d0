/** `GET /v1/agents/{agentId}/status`: the agent's pipeline state. */
import { logger } from '../../commons/powertools.js';
import { httpRoute, jsonResponse, requireMethod } from '../../commons/http.js';
import { parseAgentId } from '../../domain/events.js';
import { NotFoundError } from '../../domain/errors.js';
import type { AgentLedger } from '../../ports/pipeline.js';

export interface StatusRouteDependencies {
  readonly ledger: AgentLedger;
  readonly tenantId: string;
}

export function createStatusHandler(deps: StatusRouteDependencies) {
  return httpRoute(logger, async (event) => {
      requireMethod(event, ['GET']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      const status = await deps.ledger.readStatus({ tenantId: deps.tenantId, agentId });
      if (!status) throw new NotFoundError(`agent ${agentId} has no events`);
      return jsonResponse(200, { tenantId: deps.tenantId, agentId, ...status });
    });
}
