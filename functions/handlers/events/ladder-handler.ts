/**
 * Consumer of the Summaries table's stream (inserts of summaries only, by
 * the event source's filter): each new summary is registered with its parent
 * slot, and the parent is written once its fan-in is complete. A failure
 * fails the batch; the event source bisects it, retries a bounded number of
 * times and sends what still fails to the dead-letter queue.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../../commons/powertools.js';
import { ladderStep, type LadderDependencies } from '../../use-cases/summaries.js';
import { assembleSnapshot, type SnapshotDependencies } from '../../use-cases/assemble-snapshot.js';
import { indexSummaries, type IndexDependencies } from '../../use-cases/index-memory.js';
import type { StoredSummary } from '../../ports/summary-store.js';

export function createLadderHandler(deps: LadderDependencies & { readonly snapshot?: SnapshotDependencies; readonly index?: IndexDependencies }) {
  return async (event: DynamoDBStreamEvent): Promise<void> => {
    const changed = new Map<string, { tenantId: string; agentId: string }>();
    const parents = new Map<string, StoredSummary[]>();
    for (const record of event.Records) {
      if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) continue;
      const image = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
      if (!String(image.sk).startsWith('SUM#')) continue;
      const agent = { tenantId: String(image.tenantId), agentId: String(image.agentId) };
      const parent = await ladderStep(deps, agent, { id: String(image.id), ladder: image.ladder, level: Number(image.level), index: Number(image.index), origin: Number(image.origin ?? 0) });
      if (parent) {
        changed.set(`${agent.tenantId}/${agent.agentId}`, agent);
        parents.set(`${agent.tenantId}/${agent.agentId}`, [...(parents.get(`${agent.tenantId}/${agent.agentId}`) ?? []), parent]);
        logger.info('summary written', { agentId: agent.agentId, id: parent.id, from: parent.from, to: parent.to, empty: parent.empty, tokens: parent.tokens });
        metrics.addMetric('SummariesWritten', MetricUnit.Count, 1);
        metrics.addMetric('SummaryInputTokens', MetricUnit.Count, parent.inputTokens);
      }
    }
    // One reassembly per agent and delivery: the snapshot shows the latest summary at each level.
    // One index segment per agent and delivery for the parents written, before the snapshot that lists it.
    for (const [key, agent] of changed) {
      if (deps.index) await indexSummaries(deps.index, agent, parents.get(key) ?? []);
      if (deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
    }
    metrics.addMetric('SummaryAnnouncements', MetricUnit.Count, event.Records.length);
    metrics.publishStoredMetrics();
  };
}
