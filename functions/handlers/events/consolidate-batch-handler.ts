/**
 * SQS FIFO consumer for consolidation jobs. Records are processed in order
 * within each message group (one group per agent). A failure fails the rest
 * of its own group only (`skipGroupOnError`): other agents' jobs in the same
 * delivery are still processed. Only failed records are reported back
 * (partial batch response), so the queue redelivers them and, after its
 * maximum receives, moves them to the dead-letter queue. A job that can
 * never succeed (not JSON, or not a job) is parked on the dead-letter queue
 * at once with its cause, so it never blocks its group. Each failure's cause
 * is also recorded on the batch's ledger marker, where the redrive command
 * and operators find it.
 */
import { SqsFifoPartialProcessorAsync, processPartialResponse } from '@aws-lambda-powertools/batch';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { eventHandler } from '../../commons/event-handler.js';
import { logger, metrics } from '../../commons/powertools.js';
import { batchJobSchema, type BatchJobMessage } from '../../domain/batch-job.js';
import { issuesFromZod } from '../../domain/events.js';
import { consolidateBatch, UpdatersFailedError, type ConsolidationDependencies } from '../../use-cases/consolidate-batch.js';
import type { DeadLetterQueue } from '../../ports/pipeline.js';

const jobBody = JSONStringified(batchJobSchema);

export interface ConsolidateBatchHandlerDependencies extends ConsolidationDependencies {
  readonly deadLetters: DeadLetterQueue;
}

export function createConsolidateBatchHandler(deps: ConsolidateBatchHandlerDependencies) {
  const now = deps.now ?? (() => new Date());

  /** Parks a job that no retry can fix; false when it is a well-formed job. */
  const parkIfMalformed = async (record: SQSRecord): Promise<BatchJobMessage | undefined> => {
    const parsed = jobBody.safeParse(record.body);
    if (parsed.success) return parsed.data;
    const cause = `ValidationError: ${issuesFromZod(parsed.error, 'job').map((issue) => `${issue.field} ${issue.rule}`).join('; ')}`;
    await deps.deadLetters.park({
      body: record.body,
      groupId: record.attributes.MessageGroupId ?? 'malformed',
      deduplicationId: record.messageId,
      cause,
    });
    logger.error('malformed consolidation job parked on the dead-letter queue', { messageId: record.messageId, cause });
    metrics.addMetric('MalformedJobs', MetricUnit.Count, 1);
    return undefined;
  };

  const recordHandler = async (record: SQSRecord, context: Context): Promise<void> => {
    const job = await parkIfMalformed(record);
    if (!job) return;
    const agent = { tenantId: job.tenantId, agentId: job.agentId };
    await deps.ledger.markBatchArrived(agent, job.index, now().toISOString());
    // Model calls and waits end a quarter of the invocation (at most a minute) before it does, leaving
    // that time for the commits, the index and the snapshot that follow them.
    const remaining = context.getRemainingTimeInMillis();
    const deadline = Date.now() + remaining - Math.min(60_000, remaining / 4);
    try {
      const outcomes = await consolidateBatch({ ...deps, deadline }, job);
      for (const outcome of outcomes) {
        logger.info('batch consolidated', {
          agentId: job.agentId,
          batch: outcome.batch.index,
          from: outcome.batch.fromSequence,
          to: outcome.batch.toSequence,
          results: outcome.results.map((r) => ({ updater: r.updater, outcome: r.outcome, ...(r.outcome === 'applied' ? { changed: r.changed, quarantined: r.quarantined } : {}) })),
          modelCalls: outcome.modelCalls,
          inputTokens: outcome.inputTokens,
          outputTokens: outcome.outputTokens,
          wallMs: outcome.wallMs,
        });
        metrics.addMetric('BatchesConsolidated', MetricUnit.Count, 1);
        metrics.addMetric('ModelCalls', MetricUnit.Count, outcome.modelCalls);
        metrics.addMetric('ModelInputTokens', MetricUnit.Count, outcome.inputTokens);
        metrics.addMetric('ModelOutputTokens', MetricUnit.Count, outcome.outputTokens);
        metrics.addMetric('ConsolidationWallTime', MetricUnit.Milliseconds, outcome.wallMs);
        const changed = outcome.results.reduce((sum, r) => sum + (r.outcome === 'applied' ? r.changed : 0), 0);
        metrics.addMetric('PatchedItems', MetricUnit.Count, changed);
      }
    } catch (error) {
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (error instanceof UpdatersFailedError) metrics.addMetric('UpdaterFailures', MetricUnit.Count, error.failures.length);
      metrics.addMetric('BatchJobsFailed', MetricUnit.Count, 1);
      logger.warn('batch consolidation failed', { agentId: job.agentId, batch: job.index, cause, receiveCount: record.attributes.ApproximateReceiveCount });
      await deps.ledger.recordBatchFailure(agent, job.index, cause, now().toISOString());
      throw error;
    }
  };

  // Failures are counted as they happen, so the count survives a full-batch failure (which throws);
  // `eventHandler` publishes the metrics on every outcome.
  return eventHandler(async (event: SQSEvent, context: Context) =>
    processPartialResponse(event, (record: SQSRecord) => recordHandler(record, context), new SqsFifoPartialProcessorAsync(), { context, skipGroupOnError: true }),
  );
}
