/** The consolidation job message, as the queue carries it. */
import { z } from 'zod';
import { AGENT_ID_PATTERN } from './agent-key.js';

const positive = z.number().int().positive();

export const batchJobSchema = z
  .strictObject({
    tenantId: z.string().min(1),
    agentId: z.string().regex(AGENT_ID_PATTERN),
    index: positive,
    fromSequence: positive,
    toSequence: positive,
  })
  .refine((job) => job.fromSequence <= job.toSequence, { error: 'fromSequence must not exceed toSequence' });

export type BatchJobMessage = z.infer<typeof batchJobSchema>;
