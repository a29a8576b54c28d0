/**
 * Names the stack and the adapters share: the sweep index of the summaries
 * table and how many shards it spreads agents over. Declared once here so the
 * CDK stack need not import an adapter.
 */
import { createHash } from 'node:crypto';
import { agentPartitionKey, type AgentKey } from './agent-key.js';

export const SWEEP_INDEX = 'sweep';
export const SWEEP_SHARDS = 8;

/** A sweep that failed for an agent is retried after a backoff doubling from a minute up to six hours. */
export function sweepBackoffMs(consecutiveFailures: number): number {
  return Math.min(6 * 3_600_000, 60_000 * 2 ** (Math.max(1, consecutiveFailures) - 1));
}

/** Agents spread over the sweep index's shards by a hash of their partition key. */
export function sweepShard(agent: AgentKey): string {
  const digest = createHash('sha256').update(agentPartitionKey(agent)).digest();
  return `S${digest[0]! % SWEEP_SHARDS}`;
}
