/**
 * Deploy-time settings (`cdk deploy -c key=value`, cdk.json, or a config
 * file): each production setting reaches the template, a wrong one stops the
 * synth naming the setting and the rule, and the defaults need nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DeployConfigError, readDeploySettings, stackPropsFrom } from '../../lib/deploy-config.js';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';

/** As bin/app.ts does: context lookup, settings, props, stack. */
function synth(context: Record<string, unknown>) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const settings = readDeploySettings((key) => app.node.tryGetContext(key));
  return Template.fromStack(new MemoryServiceStack(app, settings.stackName ?? 'AgentMemory', stackPropsFrom(settings)));
}

const fn = (template: Template, prefix: string) => Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1].Properties;

describe('deploy-time settings', () => {
  it('take the model, embeddings, alarm e-mail, concurrency, retention and redaction from command-line context (text)', () => {
    const template = synth({
      modelProvider: 'bedrock',
      modelId: 'eu.anthropic.claude-haiku-4-5-20251001-v1:0',
      embeddingProvider: 'bedrock',
      embeddingDimensions: '1024',
      alarmEmail: 'oncall@example.com',
      consolidatorConcurrency: '12',
      pointInTimeRecoveryDays: '7',
      rawRecordsDays: '400',
      redactEmail: 'mask',
      redactRawLog: 'true',
    });
    const consolidator = fn(template, 'ConsolidatorFunction');
    expect(consolidator.Environment.Variables).toMatchObject({ MODEL_PROVIDER: 'bedrock', MODEL_ID: 'eu.anthropic.claude-haiku-4-5-20251001-v1:0', EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_DIMENSIONS: '1024', REDACT_PII_EMAIL: 'mask', REDACT_RAW_LOG: 'true' });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 12 } });
    template.hasResourceProperties('AWS::DynamoDB::Table', { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 } });
    const rules = Object.values(template.findResources('AWS::S3::Bucket'))[0]!.Properties.LifecycleConfiguration.Rules as { Prefix: string; ExpirationInDays?: number }[];
    expect(rules.find((rule) => rule.Prefix === 'raw/')?.ExpirationInDays).toBe(400);
  });

  it('switch to a JWT authorizer with its issuer and audiences, and read a config file that the command line overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deploy-config-'));
    const file = join(dir, 'deploy.json');
    writeFileSync(file, JSON.stringify({ stackName: 'MemoryProd', jwtIssuer: 'https://issuer.example.com/', jwtAudience: ['client-a', 'client-b'], sweepConcurrency: 3, inspector: false }));

    const template = synth({ configFile: file, sweepConcurrency: '4' });

    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { AuthorizerType: 'JWT', JwtConfiguration: { Issuer: 'https://issuer.example.com/', Audience: ['client-a', 'client-b'] } });
    expect(Object.keys(template.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('AuthorizerFunction'))).toBe(false);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 4 } });
  });

  it('refuse a wrong value, a wrong combination or an unknown key in the file, naming each and the rule', () => {
    const problems = (context: Record<string, unknown>) => {
      try {
        readDeploySettings((key) => context[key]);
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(DeployConfigError);
        return (error as Error).message;
      }
    };
    const dir = mkdtempSync(join(tmpdir(), 'deploy-config-'));
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ modelProvidr: 'bedrock' }));

    expect(problems({ modelProvider: 'bedrok', consolidatorConcurrency: '1', alarmEmail: 'oncall' })).toMatch(/modelProvider: must be local, bedrock or openai[\s\S]*alarmEmail: must be an e-mail address[\s\S]*consolidatorConcurrency: must be at least 2/);
    expect(problems({ modelProvider: 'openai' })).toContain('modelProvider: openai needs openAiBaseUrl and modelId');
    expect(problems({ jwtAudience: 'x' })).toContain('jwtIssuer: required when any jwt* setting is given');
    expect(problems({ pointInTimeRecoveryDays: '90' })).toContain('pointInTimeRecoveryDays: must be at most 35');
    expect(problems({ configFile: join(dir, 'typo.json') })).toContain('unknown setting modelProvidr');
    expect(problems({})).toBe('');
  });

  it('deploy cleanly on a new account by default: no reserved concurrency, the local model, API keys', () => {
    const template = synth({});
    for (const resource of Object.values(template.findResources('AWS::Lambda::Function'))) expect(resource.Properties.ReservedConcurrentExecutions).toBeUndefined();
    expect(fn(template, 'ConsolidatorFunction').Environment.Variables).toMatchObject({ MODEL_PROVIDER: 'local', EMBEDDING_PROVIDER: 'local' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { AuthorizerType: 'REQUEST' });
  });
});
