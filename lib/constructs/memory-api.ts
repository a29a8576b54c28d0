import { CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { HttpMethod, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { Construct } from 'constructs';
import { ROUTES, pathsOf, type HttpFunctionId, type RouteSpec } from '../../functions/commons/routes.js';

export interface MemoryApiProps {
  /** The functions serving the route table's routes, by the table's function id. */
  readonly functions: Readonly<Record<HttpFunctionId, IFunction>>;
  /**
   * The routes to serve.
   * @default the service's route table (functions/commons/routes.ts)
   */
  readonly routes?: readonly RouteSpec[];
  /**
   * Default-stage throttling (requests per second, and burst).
   * @default { rateLimit: 1000, burstLimit: 500 }
   */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * The authorizer on every path of the table but those whose every route is
   * `public` (the API's own description); `/health` is served outside it.
   */
  readonly authorizer: IHttpRouteAuthorizer;
}

/**
 * The HTTP API. Every route takes ANY method so the function can answer 405
 * with an Allow header (API Gateway alone would answer 404); unknown paths get
 * API Gateway's own 404.
 */
export class MemoryApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: MemoryApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'HttpApi', { description: 'Agent memory consolidation API' });
    // One integration per function; one ANY route per path of the table.
    const integrations = new Map<HttpFunctionId, HttpLambdaIntegration>();
    const routes = props.routes ?? ROUTES;
    for (const [path, functionId] of pathsOf(routes)) {
      let integration = integrations.get(functionId);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${functionId}Integration`, props.functions[functionId]);
        integrations.set(functionId, integration);
      }
      // A path is served without a key only when every route on it is public.
      const open = routes.filter((route) => route.path === path).every((route) => route.scope === 'public');
      this.api.addRoutes({ path, methods: [HttpMethod.ANY], integration, ...(open ? {} : { authorizer: props.authorizer }) });
    }
    const throttle = props.throttle ?? { rateLimit: 1000, burstLimit: 500 };
    const stage = this.api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };
  }
}
