/** The output contract as a JSON Schema tool definition, shared by the LLM adapters. */
import { z } from 'zod';
import type { ModelRequest } from '../../ports/model.js';

export const SUBMIT_TOOL = 'submit_patch';

export function toolSchema(request: ModelRequest): Record<string, unknown> {
  const schema = z.toJSONSchema(request.outputSchema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export const toolDescription = (request: ModelRequest) =>
  `Submit the ${request.task} patch for this batch (prompt ${request.prompt.id} ${request.prompt.version}).`;
