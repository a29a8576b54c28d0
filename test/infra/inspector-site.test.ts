/** The web inspector, deployed: private files behind CloudFront, the API on the same origin, never cached. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';

let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new MemoryServiceStack(app, 'WithInspector', { inspector: true }));
});

describe('the deployed inspector', () => {
  it('is not deployed unless asked for', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const plain = Template.fromStack(new MemoryServiceStack(app, 'Plain'));
    expect(Object.keys(plain.findResources('AWS::CloudFront::Distribution'))).toHaveLength(0);
  });

  it('keeps its files in a private, encrypted bucket read only through CloudFront origin access control', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: Match.objectLike({}),
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } })]) },
    });
    template.resourceCountIs('Custom::CDKBucketDeployment', 1);
  });

  it('serves the API on the same origin under /v1/* and /openapi.json, uncached, with the Authorization header forwarded', () => {
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    const behaviors = config.CacheBehaviors as { PathPattern: string; CachePolicyId: string; OriginRequestPolicyId: string; AllowedMethods: string[]; ViewerProtocolPolicy: string }[];
    expect(behaviors.map((b) => b.PathPattern).sort()).toEqual(['/openapi.json', '/v1/*']);
    for (const behavior of behaviors) {
      // The managed CachingDisabled and AllViewerExceptHostHeader policies.
      expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
      expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
      expect(behavior.AllowedMethods).toContain('POST');
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    }
    template.hasOutput('InspectorUrl', {});
  });

  it('sends a content security policy that allows only its own origin', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Match.objectLike({ ContentSecurityPolicy: { ContentSecurityPolicy: Match.stringLikeRegexp("default-src 'self'"), Override: true } }) },
    });
  });
});
