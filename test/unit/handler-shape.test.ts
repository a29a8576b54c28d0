/**
 * Every handler has the same shape: metrics are flushed on every outcome,
 * including a delivery in which every record failed (Powertools throws
 * FullBatchFailureError then, before any code after it could run).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { metrics } from '../../functions/commons/powertools.js';
import { createConsolidateBatchHandler, type ConsolidateBatchHandlerDependencies } from '../../functions/handlers/events/consolidate-batch-handler.js';
import { lambdaContext, sqsRecord } from '../../local/lambda-events.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function failingDependencies(): ConsolidateBatchHandlerDependencies {
  const unavailable = () => Promise.reject(new Error('store unavailable'));
  return {
    ledger: { markBatchArrived: async () => {}, recordBatchFailure: async () => {}, readStatus: unavailable, readBatch: unavailable },
    rawLog: { getRange: unavailable },
    memory: { loadHeads: unavailable },
    deadLetters: { park: async () => {} },
  } as unknown as ConsolidateBatchHandlerDependencies;
}

describe('consolidation handler metrics', () => {
  it('publishes the failure metrics when every record of a delivery fails', async () => {
    const published = vi.spyOn(metrics, 'publishStoredMetrics');
    const stored: string[] = [];
    const added = vi.spyOn(metrics, 'addMetric').mockImplementation((name: string) => {
      stored.push(name);
      return metrics;
    });
    vi.spyOn(metrics, 'hasStoredMetrics').mockImplementation(() => stored.length > 0);
    const handler = createConsolidateBatchHandler(failingDependencies());
    const job = { tenantId: 't', agentId: 'a1', index: 1, fromSequence: 1, toSequence: 50 };

    await expect(handler({ Records: [sqsRecord({ body: JSON.stringify(job), groupId: 'T#t#A#a1' })] }, lambdaContext('Consolidator'))).rejects.toThrow(/All records failed/);

    expect(added).toHaveBeenCalledWith('BatchJobsFailed', expect.anything(), 1);
    expect(published).toHaveBeenCalledTimes(1);
  });

  it('publishes nothing, and warns about nothing, when an invocation stored no metric', async () => {
    const published = vi.spyOn(metrics, 'publishStoredMetrics');
    vi.spyOn(metrics, 'hasStoredMetrics').mockReturnValue(false);
    const handler = createConsolidateBatchHandler(failingDependencies());

    await handler({ Records: [] }, lambdaContext('Consolidator'));

    expect(published).not.toHaveBeenCalled();
  });
});
