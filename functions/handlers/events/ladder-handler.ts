/**
 * Consumer of the Summaries table's stream (inserts of summaries only, by
 * the event source's filter): each new summary is registered with its parent
 * slot, and the parent is written once its fan-in is complete. Records are
 * processed one by one (Powertools `BatchProcessor`); failed ones are
 * reported (partial batch response), so Lambda retries from the first of
 * them, bisects, and after a bounded number of attempts sends what still
 * fails to the dead-letter queue. Ladder steps are idempotent, so records
 * after a failed one may safely be processed again.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { DynamoDBMarshalled } from '@aws-lambda-powertools/parser/helpers/dynamodb';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { z } from 'zod';
import { eventHandler } from '../../commons/event-handler.js';
import { logger, metrics } from '../../commons/powertools.js';
import type { AgentKey } from '../../domain/agent-key.js';
import { ValidationError } from '../../domain/errors.js';
import { issuesFromZod } from '../../domain/events.js';
import { climbLadder, type LadderDependencies } from '../../use-cases/summaries.js';
import { assembleSnapshot, type SnapshotDependencies } from '../../use-cases/assemble-snapshot.js';
import { indexSummaries, type IndexDependencies } from '../../use-cases/index-memory.js';
import type { StoredSummary } from '../../ports/summary-store.js';
import { BatchBudget } from '../../use-cases/model-budget.js';

/**
 * Time an invocation keeps for what follows the summaries (one index segment
 * and one snapshot per agent): a quarter of it, at most 30 s. Model calls may
 * use the rest, each timed by what is left, so a slow model fails its record
 * (retried) instead of the whole invocation timing out.
 */
const afterSummariesMs = (remainingMs: number) => Math.min(30_000, remainingMs / 4);

/** The fields of a summary announcement the ladder needs. */
const announcementSchema = DynamoDBMarshalled(
  z.looseObject({
    sk: z.string().startsWith('SUM#'),
    tenantId: z.string().min(1),
    agentId: z.string().min(1),
    id: z.string().min(1),
    ladder: z.enum(['time', 'count']),
    level: z.number().int().nonnegative(),
    index: z.number().int(),
    origin: z.number().int().optional(),
    through: z.number().int().optional(),
  }),
);

export function createLadderHandler(deps: LadderDependencies & { readonly snapshot?: SnapshotDependencies; readonly index?: IndexDependencies }) {
  return eventHandler(async (event: DynamoDBStreamEvent, context: Context) => {
    const changed = new Map<string, AgentKey>();
    const parents = new Map<string, StoredSummary[]>();
    const budget = new BatchBudget({ maxCalls: 10_000, maxInputTokens: Number.MAX_SAFE_INTEGER, maxOutputTokens: Number.MAX_SAFE_INTEGER, maxWallMs: Math.max(1_000, context.getRemainingTimeInMillis() - afterSummariesMs(context.getRemainingTimeInMillis())) });
    const recordHandler = async (record: DynamoDBRecord) => {
      // Slot and cursor writes are filtered out by the event source; skip any that get through.
      if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage?.sk?.S?.startsWith('SUM#')) return;
      const parsed = announcementSchema.safeParse(record.dynamodb.NewImage);
      if (!parsed.success) throw new ValidationError(issuesFromZod(parsed.error, 'NewImage'));
      const image = parsed.data;
      const agent = { tenantId: image.tenantId, agentId: image.agentId };
      const written = await climbLadder(deps, agent, { id: image.id, ladder: image.ladder, level: image.level, index: image.index, origin: image.origin ?? 0, ...(image.through !== undefined ? { through: image.through } : {}) }, budget);
      for (const parent of written) {
        const key = `${agent.tenantId}/${agent.agentId}`;
        changed.set(key, agent);
        parents.set(key, [...(parents.get(key) ?? []), parent]);
        logger.info('summary written', { agentId: agent.agentId, id: parent.id, from: parent.from, to: parent.to, empty: parent.empty, tokens: parent.tokens, ...(parent.through !== undefined ? { through: parent.through } : {}) });
        metrics.addMetric('SummariesWritten', MetricUnit.Count, 1);
        metrics.addMetric('SummaryInputTokens', MetricUnit.Count, parent.inputTokens);
      }
    };
    metrics.addMetric('SummaryAnnouncements', MetricUnit.Count, event.Records.length);
    const response = await processPartialResponse(event, recordHandler, new BatchProcessor(EventType.DynamoDBStreams), { context });
    metrics.addMetric('SummaryAnnouncementsFailed', MetricUnit.Count, response.batchItemFailures.length);
    // One index segment per agent and delivery for the parents written, before the snapshot that lists it;
    // one reassembly per agent, so the snapshot shows the latest summary at each level.
    for (const [key, agent] of changed) {
      if (deps.index) await indexSummaries(deps.index, agent, parents.get(key) ?? []);
      if (deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
    }
    return response;
  });
}
