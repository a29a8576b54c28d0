/**
 * Erasure: `DELETE /v1/agents/{agentId}` (admin) queues the job and answers
 * 202; the same function consumes the erasure queue and erases.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { eventHandler } from '../../commons/event-handler.js';
import { httpRouter, jsonResponse, type HttpEvent } from '../../commons/http.js';
import { logger } from '../../commons/powertools.js';
import { AGENT_ID_PATTERN } from '../../domain/agent-key.js';
import { TENANT_ID_PATTERN } from '../../domain/auth.js';
import { issuesFromZod } from '../../domain/events.js';
import { ValidationError } from '../../domain/errors.js';
import type { ErasureQueue } from '../../ports/erasure.js';
import { eraseAgent, requestErasure, type ErasureDependencies } from '../../use-cases/erase-agent.js';

const erasureJobSchema = z.strictObject({
  tenantId: z.string().regex(TENANT_ID_PATTERN),
  agentId: z.string().regex(AGENT_ID_PATTERN),
  requestedAt: z.iso.datetime(),
  requestedBy: z.string().min(1).max(100),
});

export interface EraseDependencies extends ErasureDependencies {
  readonly queue: ErasureQueue;
}

export function createEraseHandler(deps: EraseDependencies) {
  const http = httpRouter('Erase', {
    eraseAgent: async ({ agent, principal }) => {
      const job = await requestErasure(deps.queue, agent, principal.keyId);
      logger.info('erasure queued', { agentId: agent.agentId, requestedBy: principal.keyId });
      return jsonResponse(202, { status: 'queued', agentId: agent.agentId, requestedAt: job.requestedAt });
    },
  });
  const recordHandler = async (record: SQSRecord) => {
    const parsed = JSONStringified(erasureJobSchema).safeParse(record.body);
    if (!parsed.success) throw new ValidationError(issuesFromZod(parsed.error, 'job'));
    const entry = await eraseAgent(deps, parsed.data);
    logger.info('agent erased', { agentId: entry.agentId, counts: entry.counts });
  };
  const queue = eventHandler(async (event: SQSEvent, context: Context) => processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context }));
  return async (event: HttpEvent | SQSEvent, context: Context) =>
    'Records' in event ? queue(event, context) : http(event as HttpEvent, context);
}
