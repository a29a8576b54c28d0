/** Operations in the synthesised template: alarms on one topic, dashboard, concurrency caps, access logs. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryServiceStack } from '../../lib/memory-service-stack.js';

let template: Template;
let withEmail: Template;

beforeAll(() => {
  const app = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new MemoryServiceStack(app(), 'Ops'));
  withEmail = Template.fromStack(new MemoryServiceStack(app(), 'OpsWithEmail', { alarmEmail: 'oncall@example.com', reservedConcurrency: { consolidator: 3, ladder: 2 } }));
});

type Resource = { Properties: Record<string, unknown> };
const resources = (t: Template, type: string) => Object.entries(t.findResources(type)) as [string, Resource][];
const topicRef = () => ({ Ref: resources(template, 'AWS::SNS::Topic')[0]![0] });
const alarms = () => resources(template, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
/** Alarms whose metric dimension refers to the given logical id. */
const alarmsOn = (logicalIdPrefix: string, metricName: string) =>
  alarms().filter((a) => a.MetricName === metricName && JSON.stringify(a.Dimensions ?? []).includes(`"${logicalIdPrefix}`));

describe('alarms', () => {
  it('all notify one SNS topic', () => {
    expect(resources(template, 'AWS::SNS::Topic')).toHaveLength(1);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([topicRef()]);
  });

  it('fire on any message in each of the five dead-letter queues', () => {
    const depth = alarms().filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(depth).toHaveLength(5);
    for (const alarm of depth) expect(alarm).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Namespace: 'AWS/SQS' });
    const queues = depth.map((a) => JSON.stringify(a.Dimensions));
    for (const queue of ['ConsolidationDeadLetterQueue', 'IdleChecksDeadLetterQueue', 'LadderDeadLetterQueue', 'ErasureDeadLetterQueue', 'SweepDeadLetterQueue']) expect(queues.some((q) => q.includes(queue))).toBe(true);
  });

  it('fire when work waits too long in a queue, whether or not anything failed (a stalled consumer)', () => {
    const ages = alarms().filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage');
    const threshold = (queue: string) => ages.find((a) => JSON.stringify(a.Dimensions).includes(`"${queue}`))?.Threshold;
    expect(threshold('ConsolidationQueue')).toBe(1800);
    expect(threshold('SweepQueue')).toBe(3600);
    expect(threshold('IdleChecksQueue')).toBe(3600);
    expect(threshold('ErasureQueue')).toBe(3600);
    for (const alarm of ages) expect(alarm).toMatchObject({ EvaluationPeriods: 2, DatapointsToAlarm: 2, Statistic: 'Maximum' });
  });

  it('page on a function’s error rate over two of three periods and on throttles over three running, not on one blip', () => {
    const functions = resources(template, 'AWS::Lambda::Function').map(([id]) => id);
    expect(functions).toHaveLength(13);
    for (const id of functions) {
      const rate = alarms().filter((a) => Array.isArray(a.Metrics) && JSON.stringify(a.Metrics).includes(`"${id}"`) && JSON.stringify(a.Metrics).includes('"Errors"'));
      expect(rate, id).toHaveLength(1);
      expect(rate[0], id).toMatchObject({ Threshold: 0.05, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
      expect(alarmsOn(id, 'Throttles'), id).toHaveLength(1);
      expect(alarmsOn(id, 'Throttles')[0], id).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 3 });
    }
  });

  it('watch the ladder stream’s iterator age, the API 5xx rate and the consolidation lag the service publishes', () => {
    expect(alarmsOn('LadderFunction', 'IteratorAge')).toHaveLength(1);
    const rate = alarms().find((a) => Array.isArray(a.Metrics) && JSON.stringify(a.Metrics).includes('5xx'));
    expect(rate).toMatchObject({ Threshold: 0.01 });
    expect(alarms().find((a) => a.MetricName === 'ConsolidationLag')).toMatchObject({ Namespace: 'AgentMemory', Statistic: 'Maximum', Dimensions: [{ Name: 'service', Value: 'agent-memory' }] });
  });

  it('email the address given as a stack prop, and no one by default', () => {
    expect(resources(template, 'AWS::SNS::Subscription')).toHaveLength(0);
    withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
  });
});

describe('dashboard, concurrency and access logs', () => {
  it('has a dashboard with ingest, batches, model calls and tokens, lag, failures and redactions', () => {
    const [dashboard] = resources(template, 'AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard![1].Properties.DashboardBody);
    for (const title of ['Ingest rate', 'Batches', 'Model calls and tokens', 'Consolidation lag', 'Failures', 'Redactions']) expect(body).toContain(title);
    for (const metric of ['BatchesConsolidated', 'ModelCalls', 'ModelInputTokens', 'ConsolidationLag', 'Redactions']) expect(body).toContain(metric);
  });

  it('reserves no concurrency by default (it fails on accounts with a small quota), and only what is asked for', () => {
    expect(resources(template, 'AWS::Lambda::Function').filter(([, r]) => r.Properties.ReservedConcurrentExecutions !== undefined)).toEqual([]);
    const reserved = resources(withEmail, 'AWS::Lambda::Function').filter(([, r]) => r.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserved.map(([id, r]) => [id.replace(/Function.*$/, ''), r.Properties.ReservedConcurrentExecutions]).sort()).toEqual([['Consolidator', 3], ['Ladder', 2]]);
  });

  it('writes API access logs to a log group with a retention', () => {
    const [logGroupId, logGroup] = resources(template, 'AWS::Logs::LogGroup').find(([id]) => id.startsWith('OperationsApiAccessLogs'))!;
    expect(logGroup.Properties.RetentionInDays).toBe(30);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] }, Format: Match.stringLikeRegexp('requestId') },
    });
    const [, stage] = resources(template, 'AWS::ApiGatewayV2::Stage')[0]!;
    const format = JSON.parse(String((stage.Properties.AccessLogSettings as { Format: string }).Format)) as Record<string, string>;
    // Who called, for every request: the tenant and key id from the authorizer, the source address, and why a key was refused.
    expect(format).toMatchObject({ tenantId: '$context.authorizer.tenantId', keyId: '$context.authorizer.keyId', sourceIp: '$context.identity.sourceIp', authorizerError: '$context.authorizer.error' });
  });
});

describe('model permission', () => {
  const bedrockResources = (props: ConstructorParameters<typeof MemoryServiceStack>[2]) => {
    const t = Template.fromStack(new MemoryServiceStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Scoped', props));
    return resources(t, 'AWS::IAM::Policy')
      .flatMap(([, r]) => (r.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement)
      .filter((s) => s.Action === 'bedrock:InvokeModel')
      .map((s) => JSON.stringify(s.Resource));
  };

  it('lets Bedrock be invoked for the configured model only', () => {
    const statements = bedrockResources({ modelProvider: 'bedrock', modelId: 'anthropic.claude-3-haiku-20240307-v1:0' });

    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement).toContain('foundation-model/anthropic.claude-3-haiku-20240307-v1:0');
      expect(statement).not.toContain('foundation-model/*');
      expect(statement).not.toContain('inference-profile');
    }
  });

  it('allows a cross-region inference profile and the foundation model it routes to', () => {
    for (const statement of bedrockResources({ modelProvider: 'bedrock', modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' })) {
      expect(statement).toContain('inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0');
      expect(statement).toContain('foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    }
  });

  it('defaults to Claude Haiku 4.5 through the global inference profile, allowed in every Region it routes to', () => {
    const statements = bedrockResources({ modelProvider: 'bedrock' });
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement).toContain('inference-profile/global.anthropic.claude-haiku-4-5-20251001-v1:0');
      // Any Region, and none: a global profile's foundation-model ARN names no Region.
      expect(statement).toContain('bedrock:*::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0');
    }
  });
});
