/**
 * SQS FIFO consumer for consolidation jobs. Records are processed in order;
 * the first failure in a message group fails the rest of that group, and only
 * the failed ones are reported back (partial batch response), so the queue
 * redelivers them and, after its maximum receives, moves them to the
 * dead-letter queue with their attributes intact.
 *
 * This slice records that the batch arrived; the updaters come with the
 * consolidation issue.
 */
import { SqsFifoPartialProcessorAsync, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics } from '../commons/powertools.js';
import { batchJobSchema } from '../domain/batch-job.js';
import { issuesFromZod } from '../domain/events.js';
import { ValidationError } from '../domain/errors.js';
import type { AgentLedger } from '../use-cases/ports.js';
import { MetricUnit } from '@aws-lambda-powertools/metrics';

export interface ConsolidateBatchDependencies {
  readonly ledger: AgentLedger;
  readonly now?: () => Date;
}

export function createConsolidateBatchHandler(deps: ConsolidateBatchDependencies) {
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
    await deps.ledger.markBatchArrived({ tenantId: job.tenantId, agentId: job.agentId }, job.index, now().toISOString());
    logger.info('batch arrived', { agentId: job.agentId, batch: job.index, from: job.fromSequence, to: job.toSequence });
    metrics.addMetric('BatchesArrived', MetricUnit.Count, 1);
  };

  return async (event: SQSEvent, context: Context) => {
    const processor = new SqsFifoPartialProcessorAsync();
    const response = await processPartialResponse(event, recordHandler, processor, { context });
    metrics.addMetric('BatchJobsFailed', MetricUnit.Count, response.batchItemFailures.length);
    metrics.publishStoredMetrics();
    return response;
  };
}
