/** `POST /v1/agents/{agentId}/flush`: consolidate the open partial batch now. */
import { logger } from '../../commons/powertools.js';
import { httpRouter, jsonResponse } from '../../commons/http.js';
import { flushAgent, type FlushDependencies } from '../../use-cases/flush-agent.js';

export interface FlushRouteDependencies extends FlushDependencies {
  /** Flushes within this many seconds of one still consolidating coalesce (FLUSH_COALESCE_SECONDS). */
  readonly coalesceSeconds?: number;
}

export function createFlushHandler(deps: FlushRouteDependencies) {
  return httpRouter('Flush', {
    flushAgent: async ({ agent }) => {
      const result = await flushAgent(deps, agent, deps.coalesceSeconds ? { coalesceSeconds: deps.coalesceSeconds } : {});
      logger.info('flush requested', { ...result });
      if (!result.flushed && result.reason === 'coalesced') {
        // Nothing new since: the running job is the answer. New events: come back after the window.
        return result.pending ? jsonResponse(429, result, { 'retry-after': String(result.retryInSeconds) }) : jsonResponse(202, result);
      }
      return jsonResponse(result.flushed ? 202 : 200, result);
    },
  });
}
