/**
 * Idle flush: consumes delayed idle checks. A batch that is still open and
 * whose agent has been quiet for the configured period is flushed; one that
 * saw activity is checked again later; one already closed needs nothing.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import { z } from 'zod';
import { eventHandler } from '../../commons/event-handler.js';
import { logger } from '../../commons/powertools.js';
import { AGENT_ID_PATTERN } from '../../domain/agent-key.js';
import { issuesFromZod } from '../../domain/events.js';
import { ValidationError } from '../../domain/errors.js';
import { flushAgent, type FlushDependencies } from '../../use-cases/flush-agent.js';
import { MAX_SQS_DELAY_SECONDS } from '../../use-cases/ingest-events.js';
import type { IdleCheckScheduler } from '../../ports/pipeline.js';

const idleCheckSchema = z.strictObject({
  tenantId: z.string().min(1),
  agentId: z.string().regex(AGENT_ID_PATTERN),
  openFrom: z.number().int().positive(),
});

export interface IdleCheckDependencies extends FlushDependencies {
  readonly idleChecks: IdleCheckScheduler;
  readonly idleFlushSeconds: number;
}

export function createIdleCheckHandler(deps: IdleCheckDependencies) {
  const recordHandler = async (record: SQSRecord) => {
    const parsed = JSONStringified(idleCheckSchema).safeParse(record.body);
    if (!parsed.success) throw new ValidationError(issuesFromZod(parsed.error, 'check'));
    const check = parsed.data;
    const result = await flushAgent(deps, { tenantId: check.tenantId, agentId: check.agentId }, { openFrom: check.openFrom, idleForSeconds: deps.idleFlushSeconds });
    if (!result.flushed && result.reason === 'not-idle') {
      await deps.idleChecks.schedule(check, Math.min(MAX_SQS_DELAY_SECONDS, result.retryInSeconds));
    }
    logger.info('idle check', { agentId: check.agentId, openFrom: check.openFrom, ...result });
  };
  return eventHandler(async (event: SQSEvent, context: Context) =>
    processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context }),
  );
}
