/**
 * SQS FIFO consumer for consolidation jobs. Records are processed in order;
 * the first failure in a message group fails the rest of that group, and only
 * the failed ones are reported back (partial batch response), so the queue
 * redelivers them and, after its maximum receives, moves them to the
 * dead-letter queue. Each failure's cause is recorded on the batch's ledger
 * marker, where the redrive command and operators find it.
 */
import { SqsFifoPartialProcessorAsync, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics } from '../../commons/powertools.js';
import { batchJobSchema } from '../../domain/batch-job.js';
import { issuesFromZod } from '../../domain/events.js';
import { ValidationError } from '../../domain/errors.js';
import { consolidateBatch, UpdatersFailedError, type ConsolidationDependencies } from '../../use-cases/consolidate-batch.js';

export function createConsolidateBatchHandler(deps: ConsolidationDependencies) {
  const now = deps.now ?? (() => new Date());
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      throw new ValidationError([{ field: 'body', rule: 'must be valid JSON' }]);
    }
    const parsed = batchJobSchema.safeParse(body);
    if (!parsed.success) throw new ValidationError(issuesFromZod(parsed.error, 'job'));
    const job = parsed.data;
    const agent = { tenantId: job.tenantId, agentId: job.agentId };
    await deps.ledger.markBatchArrived(agent, job.index, now().toISOString());
    try {
      const outcomes = await consolidateBatch(deps, job);
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
      logger.warn('batch consolidation failed', { agentId: job.agentId, batch: job.index, cause, receiveCount: record.attributes.ApproximateReceiveCount });
      await deps.ledger.recordBatchFailure(agent, job.index, cause, now().toISOString());
      throw error;
    }
  };

  return async (event: SQSEvent, context: Context) => {
    const processor = new SqsFifoPartialProcessorAsync();
    const response = await processPartialResponse(event, recordHandler, processor, { context });
    metrics.addMetric('BatchJobsFailed', MetricUnit.Count, response.batchItemFailures.length);
    metrics.publishStoredMetrics();
    return response;
  };
}
