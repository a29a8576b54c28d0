/** `POST /v1/agents/{agentId}/flush`: consolidate the open partial batch now. */
import { logger } from '../../commons/powertools.js';
import { httpRouter, jsonResponse } from '../../commons/http.js';
import { flushAgent, type FlushDependencies } from '../../use-cases/flush-agent.js';

export type FlushRouteDependencies = FlushDependencies;

export function createFlushHandler(deps: FlushRouteDependencies) {
  return httpRouter('Flush', {
    flushAgent: async ({ agent }) => {
      const result = await flushAgent(deps, agent);
      logger.info('flush requested', { ...result });
      return jsonResponse(result.flushed ? 202 : 200, result);
    },
  });
}
