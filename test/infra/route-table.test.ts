/** The route table is the one declaration of the HTTP API: the stack serves exactly its paths, each with the function it names. */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, pathsOf, matchPath } from '../../functions/commons/routes.js';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';

let template: Template;

beforeAll(() => {
  // Routes need no function bundles: bundling is skipped, as the other template tests do.
  template = Template.fromStack(new MemoryServiceStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'RouteTable'));
});

describe('the route table', () => {
  it('is what API Gateway serves: one ANY route per path, and no other route', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => String(route.Properties.RouteKey)).sort();
    expect(routeKeys).toEqual([...pathsOf().keys()].map((path) => `ANY ${path}`).sort());
  });

  it('sends each path to the function the table names', () => {
    const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
    for (const route of Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')) {
      const path = String(route.Properties.RouteKey).split(' ')[1]!;
      const integration = resources[route.Properties.Target['Fn::Join'][1][1].Ref]!;
      const functionLogicalId: string = integration.Properties.IntegrationUri['Fn::GetAtt'][0];
      expect(functionLogicalId.startsWith(pathsOf().get(path)!)).toBe(true);
    }
  });

  it('gives every route a scope, and every operation a unique name', () => {
    expect(new Set(ROUTES.map((route) => route.operation)).size).toBe(ROUTES.length);
    for (const route of ROUTES) expect(['read', 'write', 'admin', 'public']).toContain(route.scope);
    expect(ROUTES.filter((route) => route.scope === 'public').map((route) => route.path)).toEqual(['/openapi.json']);
  });

  it('matches concrete paths to their templates, and nothing else', () => {
    expect(matchPath('/v1/agents/{agentId}/injections/{requestId}', '/v1/agents/a-1/injections/r9')).toEqual({ agentId: 'a-1', requestId: 'r9' });
    expect(matchPath('/v1/agents/{agentId}/summaries', '/v1/agents/a-1/summaries/rebuild')).toBeUndefined();
    expect(matchPath('/v1/agents/{agentId}/events', '/v1/agents//events')).toBeUndefined();
  });
});
