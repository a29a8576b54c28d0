import { Duration } from 'aws-cdk-lib';
import { CfnStage, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, TextWidget, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { CfnFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface OperationsProps {
  /** Every function of the service, by its stack id (alarms on errors and throttles for each). */
  readonly functions: Readonly<Record<string, IFunction>>;
  /** Every dead-letter queue, by name: any message in one raises an alarm. */
  readonly deadLetterQueues: Readonly<Record<string, IQueue>>;
  /**
   * Work queues, by name, with the age of their oldest message that raises an
   * alarm: a consumer that stopped (or cannot keep up) shows as work waiting,
   * whether or not anything failed.
   * @default none
   */
  readonly workQueues?: Readonly<Record<string, { readonly queue: IQueue; readonly maxAge: Duration }>>;
  /** Stream consumers, by name: alarm on their iterator age. */
  readonly streamConsumers: Readonly<Record<string, IFunction>>;
  /** The HTTP API: 5xx rate alarm and access logs on its default stage. */
  readonly httpApi: HttpApi;
  /**
   * Functions whose concurrency is capped, with their reserved concurrency:
   * consolidation and the ladder call the model, so a backlog must not fan out
   * into unbounded model spend or throttle the API's functions.
   * @default no cap
   */
  readonly reservedConcurrency?: readonly { readonly fn: IFunction; readonly limit: number }[];
  /**
   * Email address subscribed to the alarm topic.
   * @default no subscription (subscribe to the topic yourself)
   */
  readonly alarmEmail?: string;
  /**
   * CloudWatch namespace the service publishes its metrics in (Powertools).
   * @default 'AgentMemory'
   */
  readonly metricsNamespace?: string;
  /**
   * Powertools service name (the `service` dimension of the service's metrics).
   * @default 'agent-memory'
   */
  readonly serviceName?: string;
  /**
   * Consolidation lag (age of the oldest record a batch waited to consolidate) that raises an alarm.
   * @default Duration.minutes(30)
   */
  readonly consolidationLagThreshold?: Duration;
  /**
   * Stream iterator age that raises an alarm.
   * @default Duration.minutes(10)
   */
  readonly iteratorAgeThreshold?: Duration;
  /**
   * Share of API requests answered 5xx (over 5 minutes) that raises an alarm.
   * @default 0.01 (1 %)
   */
  readonly api5xxRate?: number;
  /**
   * How long API access logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: RetentionDays;
  /**
   * Where the access log finds the caller's tenant: `authorizer.<field>` of
   * the key authorizer's context, or `authorizer.claims.<claim>` of a JWT.
   * @default 'authorizer.tenantId'
   */
  readonly tenantContextPath?: string;
}

/**
 * Operations: alarms (dead letters, work queues' oldest message, stream
 * iterator age, per-function error rates and throttles, API 5xx rate,
 * consolidation lag) on one SNS topic, a
 * dashboard of the service's own metrics, reserved concurrency for the
 * model-calling consumers, and API access logs.
 */
export class Operations extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Agent memory alarms' });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const namespace = props.metricsNamespace ?? 'AgentMemory';
    const dimensionsMap = { service: props.serviceName ?? 'agent-memory' };
    const serviceMetric = (metricName: string, statistic = 'Sum') => new Metric({ namespace, metricName, dimensionsMap, statistic, period: Duration.minutes(5) });

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      this.alarm(action, `${name}Depth`, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }), 0, `${name}: a job or stream batch failed for good; see its cause, fix, then redrive`);
    }
    for (const [name, fn] of Object.entries(props.streamConsumers)) {
      const iteratorAge = fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' });
      this.alarm(action, `${name}IteratorAge`, iteratorAge, (props.iteratorAgeThreshold ?? Duration.minutes(10)).toMilliseconds(), `${name} is falling behind its stream`);
    }
    for (const [name, { queue, maxAge }] of Object.entries(props.workQueues ?? {})) {
      this.alarm(action, `${name}OldestMessageAge`, queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }), maxAge.toSeconds(), `${name}: work has waited more than ${maxAge.toHumanString()}; its consumer is stalled or falling behind`, { periods: 2, datapoints: 2 });
    }
    // A single failed invocation (a blip, retried by its source) pages no one: failures must persist over
    // two of three 5-minute periods. What fails for good lands on a dead-letter queue, alarmed above.
    for (const [name, fn] of Object.entries(props.functions)) {
      const invocations = fn.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' });
      const errorRate = new MathExpression({ expression: 'IF(invocations > 0, errors / invocations, 0)', usingMetrics: { invocations, errors: fn.metricErrors({ period: Duration.minutes(5) }) }, period: Duration.minutes(5), label: `${name} error rate` });
      this.alarm(action, `${name}Errors`, errorRate, 0.05, `${name}: more than 5 % of invocations failed in two of three 5-minute periods`, { periods: 3, datapoints: 2 });
      this.alarm(action, `${name}Throttles`, fn.metricThrottles({ period: Duration.minutes(5) }), 0, `${name} invocations were throttled in three 5-minute periods running`, { periods: 3, datapoints: 3 });
    }
    const requests = new Metric({ namespace: 'AWS/ApiGateway', metricName: 'Count', dimensionsMap: { ApiId: props.httpApi.apiId }, statistic: 'Sum', period: Duration.minutes(5) });
    const serverErrors = new Metric({ namespace: 'AWS/ApiGateway', metricName: '5xx', dimensionsMap: { ApiId: props.httpApi.apiId }, statistic: 'Sum', period: Duration.minutes(5) });
    const errorRate = new MathExpression({ expression: 'IF(requests > 0, errors / requests, 0)', usingMetrics: { requests, errors: serverErrors }, period: Duration.minutes(5), label: 'API 5xx rate' });
    this.alarm(action, 'Api5xxRate', errorRate, props.api5xxRate ?? 0.01, 'API answers 5xx: a dependency is failing');
    const lag = serviceMetric('ConsolidationLag', 'Maximum');
    this.alarm(action, 'ConsolidationLag', lag, (props.consolidationLagThreshold ?? Duration.minutes(30)).toMilliseconds(), 'records wait too long to be consolidated');

    for (const { fn, limit } of props.reservedConcurrency ?? []) {
      (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = limit;
    }

    this.accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH });
    const stage = props.httpApi.defaultStage!.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: this.accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTime',
        method: '$context.httpMethod',
        path: '$context.path',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
        // Who called: attribute load and abuse to a tenant and a key (never the key itself).
        tenantId: `$context.${props.tenantContextPath ?? 'authorizer.tenantId'}`,
        keyId: '$context.authorizer.keyId',
        sourceIp: '$context.identity.sourceIp',
        userAgent: '$context.identity.userAgent',
        authorizerError: '$context.authorizer.error',
      }),
    };

    const graph = (title: string, metrics: IMetric[]) => new GraphWidget({ title, left: metrics, width: 8 });
    this.dashboard = new Dashboard(this, 'Dashboard');
    this.dashboard.addWidgets(new TextWidget({ markdown: '# Agent memory', width: 24, height: 1 }));
    this.dashboard.addWidgets(
      graph('Ingest rate', [requests]),
      graph('Batches', [serviceMetric('BatchesConsolidated'), serviceMetric('BatchJobsFailed'), serviceMetric('UpdaterFailures'), serviceMetric('PatchedItems')]),
      graph('Model calls and tokens', [serviceMetric('ModelCalls'), serviceMetric('ModelInputTokens'), serviceMetric('ModelOutputTokens')]),
    );
    this.dashboard.addWidgets(
      graph('Consolidation lag (ms)', [lag]),
      graph('Failures', [serverErrors, serviceMetric('SweepAgentFailures'), ...Object.values(props.deadLetterQueues).map((q) => q.metricApproximateNumberOfMessagesVisible())]),
      // `Redactions`: secrets removed before anything is derived (published by the redaction step).
      graph('Redactions', [serviceMetric('Redactions')]),
    );
  }

  private alarm(action: IAlarmAction, id: string, metric: IMetric, threshold: number, description: string, window: { periods: number; datapoints: number } = { periods: 1, datapoints: 1 }): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: window.periods,
      datapointsToAlarm: window.datapoints,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(action);
    this.alarms.push(alarm);
  }
}
