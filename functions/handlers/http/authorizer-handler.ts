/**
 * The API Gateway (HTTP API) Lambda authorizer, simple responses, payload 2.0.
 * Identity source: the `Authorization` header, so API Gateway answers 401
 * itself when it is missing and caches each verdict per key.
 *
 * - unknown key (or not a bearer key): throws `Unauthorized`, which API
 *   Gateway turns into a 401 (and the local API server does the same);
 * - known key: `isAuthorized: true` with tenant, scopes, agents and key id in
 *   the context. Scope and agent checks are the route's (functions/commons/http.ts):
 *   the cached verdict is per key, not per route, so the authorizer must not
 *   decide them.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { eventHandler } from '../../commons/event-handler.js';
import { logger, metrics } from '../../commons/powertools.js';
import { toAuthorizerContext, type AuthorizerContext } from '../../domain/auth.js';
import type { ApiKeyStore } from '../../ports/api-keys.js';
import { authorizeKey } from '../../use-cases/api-keys.js';

/** The message API Gateway maps to a 401. Any other error is a 500. */
export const UNAUTHORIZED = 'Unauthorized';

export function createAuthorizerHandler(deps: { readonly keys: ApiKeyStore }) {
  return eventHandler(async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> => {
    const header = event.headers?.authorization ?? event.identitySource?.[0];
    const principal = await authorizeKey(deps.keys, header);
    if (!principal) {
      metrics.addMetric('UnknownApiKey', MetricUnit.Count, 1);
      logger.info('unknown or malformed key refused');
      throw new Error(UNAUTHORIZED);
    }
    logger.info('key accepted', { tenantId: principal.tenantId, keyId: principal.keyId });
    return { isAuthorized: true, context: toAuthorizerContext(principal) };
  });
}
