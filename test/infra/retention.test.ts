/** Raw-log retention in the synthesised template: lifecycle rules on the raw prefix, defaults and overrides. */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { MemoryServiceStack, type MemoryServiceStackProps } from '../../lib/memory-service-stack.js';

function rules(props: MemoryServiceStackProps = {}): Record<string, unknown>[] {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const template = Template.fromStack(new MemoryServiceStack(app, 'UnderTest', props));
  const buckets = Object.values(template.findResources('AWS::S3::Bucket'));
  expect(buckets).toHaveLength(1);
  return buckets[0]!.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
}

describe('raw log retention', () => {
  it('by default keeps current records and expires non-current versions after 30 days', () => {
    const [rule] = rules();
    expect(rule).toMatchObject({ Status: 'Enabled', Prefix: 'raw/', NoncurrentVersionExpiration: { NoncurrentDays: 30 }, ExpiredObjectDeleteMarker: true });
    expect(rule).not.toHaveProperty('ExpirationInDays');
  });

  it('expires index segments’ non-current versions after a day, so merged-away segments do not stay for ever', () => {
    const [, index, ...others] = rules();
    expect(others).toEqual([]);
    expect(index).toMatchObject({ Status: 'Enabled', Prefix: 'index/', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, ExpiredObjectDeleteMarker: true });
  });

  it('keeps 35 days of point-in-time recovery on every table by default, and the configured days otherwise', () => {
    const periods = (props: MemoryServiceStackProps = {}) => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
      const template = Template.fromStack(new MemoryServiceStack(app, 'UnderTest', props));
      return Object.values(template.findResources('AWS::DynamoDB::Table')).map((table) => table.Properties.PointInTimeRecoverySpecification);
    };
    expect(periods()).toEqual(Array(4).fill({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 }));
    expect(new Set(periods({ pointInTimeRecoveryDays: 7 }).map((p) => p.RecoveryPeriodInDays))).toEqual(new Set([7]));
  });

  it('expires records and non-current versions after the configured days', () => {
    const [rule] = rules({ retention: { rawRecordsDays: 365, noncurrentVersionsDays: 7 } });
    expect(rule).toMatchObject({ Prefix: 'raw/', ExpirationInDays: 365, NoncurrentVersionExpiration: { NoncurrentDays: 7 } });
  });
});

describe('archived item retention', () => {
  const retentionDays = (props: MemoryServiceStackProps = {}) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const template = Template.fromStack(new MemoryServiceStack(app, 'UnderTest', props));
    const sweep = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('SweepFunction'))!;
    return (sweep[1].Properties.Environment.Variables as Record<string, string>).ARCHIVED_RETENTION_DAYS;
  };

  it('deletes archived items after 365 days by default, and after the configured days otherwise', () => {
    expect(retentionDays()).toBe('365');
    expect(retentionDays({ retention: { archivedItemsDays: 30 } })).toBe('30');
    expect(retentionDays({ retention: { archivedItemsDays: 0 } })).toBe('0');
  });
});
