import { CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { Construct } from 'constructs';

export interface MemoryApiRoute {
  /** Path with `{param}` placeholders, e.g. `/v1/agents/{agentId}/events`. */
  readonly path: string;
  readonly handler: IFunction;
}

export interface MemoryApiProps {
  readonly routes: readonly MemoryApiRoute[];
  /**
   * Default-stage throttling (requests per second, and burst).
   * @default { rateLimit: 1000, burstLimit: 500 }
   */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
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
    props.routes.forEach((route, index) => {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod.ANY],
        integration: new HttpLambdaIntegration(`Route${index}`, route.handler),
      });
    });
    const throttle = props.throttle ?? { rateLimit: 1000, burstLimit: 500 };
    const stage = this.api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };
  }
}
