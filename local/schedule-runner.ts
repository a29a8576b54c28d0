/**
 * A local stand-in for EventBridge schedule rules: invokes each rule's target
 * function with a scheduled event at the rule's rate (or a shorter interval
 * for tests and demos).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { LocalFunction } from './lambda-functions.js';
import type { CfnTemplate } from './template.js';

export interface ScheduleSpec {
  readonly logicalId: string;
  readonly intervalMs: number;
  readonly target: LocalFunction;
}

const UNITS: Record<string, number> = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 };

export function schedulesFromTemplate(template: CfnTemplate, functions: ReadonlyMap<string, LocalFunction>): ScheduleSpec[] {
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Events::Rule' && resource.Properties?.ScheduleExpression)
    .flatMap(([logicalId, resource]) => {
      const rate = /^rate\((\d+) (\w+)\)$/.exec(String(resource.Properties!.ScheduleExpression));
      if (!rate) return [];
      const targets = (resource.Properties!.Targets as { Arn: { 'Fn::GetAtt': [string, string] } }[]) ?? [];
      return targets
        .map((t) => functions.get(t.Arn['Fn::GetAtt']?.[0]))
        .filter((fn): fn is LocalFunction => fn !== undefined)
        .map((target) => ({ logicalId, intervalMs: Number(rate[1]) * UNITS[rate[2]!]!, target }));
    });
}

export function startScheduleRunner(schedules: readonly ScheduleSpec[], options: { intervalMs?: number; log?: (line: string) => void } = {}) {
  const timers = schedules.map((schedule) =>
    setInterval(() => {
      const event: ScheduledEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '123456789012',
        time: new Date().toISOString(),
        region: 'us-east-1',
        resources: [`arn:aws:events:us-east-1:123456789012:rule/${schedule.logicalId}`],
        detail: {},
      };
      schedule.target.invoke(event).catch((error: unknown) => options.log?.(`schedule ${schedule.logicalId}: ${String(error)}`));
    }, options.intervalMs ?? schedule.intervalMs),
  );
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
