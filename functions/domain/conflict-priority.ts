/**
 * Which value wins when a batch gives a key another value than memory holds.
 * From strongest to weakest:
 *
 * 1. `correction`: the user's explicit statement in the newest batch
 *    ("actually, it is …"; `correction: true` on the operation).
 * 2. `tool`: a current fact from a tool (a record with `role: tool`).
 * 3. `consistent`: two or more independent records of the batch agree on it.
 * 4. `observation`: one record says it.
 * 5. `memory`: what was stored before this batch, however often it was
 *    confirmed then.
 *
 * A new value at `consistent` or above supersedes rivals weaker than it (they
 * are archived, superseded by it, with both evidence trails kept and the
 * change reversible by a revert). A single observation never overwrites:
 * against memory it is a conflict, or a draft to verify when the old value
 * is well verified (domain/verification.ts). A conflict that stands is
 * down-ranked in context until feedback or a further independent record
 * restating one side decides it.
 */
import type { Evidence } from './memory.js';

export type SourcePriority = 'correction' | 'tool' | 'consistent' | 'observation' | 'memory';

const RANK: Record<SourcePriority, number> = { correction: 4, tool: 3, consistent: 2, observation: 1, memory: 0 };

/** The priority of a value a batch states, from the operation and the records it cites. */
export function newValuePriority(op: { readonly correction?: boolean | undefined }, evidence: readonly Evidence[]): SourcePriority {
  if (op.correction) return 'correction';
  // The agent's own words are no independent source (domain/verification.ts).
  const independent = evidence.filter((e) => e.role !== 'assistant');
  if (independent.some((e) => e.role === 'tool')) return 'tool';
  if (new Set(independent.map((e) => e.recordId)).size >= 2) return 'consistent';
  return 'observation';
}

/** Whether a new value of `priority` supersedes a rival of `rival` priority outright. */
export function supersedes(priority: SourcePriority, rival: SourcePriority): boolean {
  return RANK[priority] >= RANK.consistent && RANK[priority] > RANK[rival];
}
