/**
 * `POST /v1/agents/{agentId}/feedback` with `{ injectionId?, itemId,
 * outcome: helpful|wrong|outdated, note?, evidence?: [eventIds] }`: applies
 * the feedback to the item (see use-cases/give-feedback.ts).
 * `POST /v1/agents/{agentId}/audit/{batch}/revert`: applies the inverse of a
 * batch's patches (see use-cases/revert-batch.ts).
 */
import { httpRouter, integerParameter, jsonResponse, parseJsonBody } from '../../commons/http.js';
import { ValidationError } from '../../domain/errors.js';
import { issuesFromZod } from '../../domain/events.js';
import { feedbackRequestSchema } from '../../domain/lifecycle.js';
import { giveFeedback, type FeedbackDependencies } from '../../use-cases/give-feedback.js';
import { revertBatch } from '../../use-cases/revert-batch.js';

const MAX_FEEDBACK_BYTES = 16_384;

export function createFeedbackHandler(deps: FeedbackDependencies) {
  return httpRouter('Feedback', {
    giveFeedback: async ({ event, agent }) => {
      const request = feedbackRequestSchema.safeParse(parseJsonBody(event, MAX_FEEDBACK_BYTES));
      if (!request.success) throw new ValidationError(issuesFromZod(request.error));
      return jsonResponse(200, await giveFeedback(deps, agent, request.data));
    },
    revertBatch: async ({ event, agent }) => {
      const batch = integerParameter(event.pathParameters?.batch, 'batch', 1, Number.MAX_SAFE_INTEGER);
      return jsonResponse(200, await revertBatch(deps, agent, batch));
    },
  });
}
