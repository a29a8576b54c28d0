/** `POST /v1/agents/{agentId}/flush`: consolidate the open partial batch now. */
import { logger } from '../../commons/powertools.js';
import { httpRoute, jsonResponse, requireMethod } from '../../commons/http.js';
import { parseAgentId } from '../../domain/events.js';
import { flushAgent, type FlushDependencies } from '../../use-cases/flush-agent.js';

export interface FlushRouteDependencies extends FlushDependencies {
  readonly tenantId: string;
}

export function createFlushHandler(deps: FlushRouteDependencies) {
  return httpRoute(logger, async (event) => {
      requireMethod(event, ['POST']);
      const agentId = parseAgentId(event.pathParameters?.agentId);
      const result = await flushAgent(deps, { tenantId: deps.tenantId, agentId });
      logger.info('flush requested', { agentId, ...result });
      return jsonResponse(result.flushed ? 202 : 200, result);
    });
}
