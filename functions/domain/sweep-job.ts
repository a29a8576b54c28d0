/**
 * Messages of the sweep queue: the scheduled sweep hands each due agent to
 * the sweep workers as one `sweep` job, and a summary rebuild runs as
 * `rebuild` jobs, each carrying on from where the last stopped (`next` base
 * period, or `level` and `parent` of the ancestors), so no single invocation
 * needs more time than it has.
 */
import { z } from 'zod';
import { AGENT_ID_PATTERN } from './agent-key.js';

const agentFields = { tenantId: z.string().min(1).max(64), agentId: z.string().regex(AGENT_ID_PATTERN) };
const index = z.number().int();

export const sweepJobSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sweep'), ...agentFields }),
  z.strictObject({
    kind: z.literal('rebuild'),
    ...agentFields,
    ladder: z.enum(['time', 'count']),
    first: index,
    last: index,
    /** The next base period to regenerate; absent once every base period is done. */
    next: index.optional(),
    /** The ancestor level being regenerated (bases done), and its next parent index. */
    level: z.number().int().positive().optional(),
    parent: index.optional(),
  }),
]);

export type SweepJob = z.infer<typeof sweepJobSchema>;
export type RebuildJob = Extract<SweepJob, { kind: 'rebuild' }>;
