/**
 * The last counters this process committed for each agent. Ingest uses them as
 * the expected version of its conditional commit, which saves a read on the
 * hot path when the same warm function serves an agent's consecutive
 * requests. A stale entry costs one refused transaction and a reload; it can
 * never produce a wrong sequence number, because the commit's condition is
 * checked by DynamoDB.
 */
import type { AgentCounters } from '../domain/sequencing.js';

export class AgentCounterCache {
  private readonly entries = new Map<string, AgentCounters>();

  constructor(private readonly maxAgents = 10_000) {}

  get(key: string): AgentCounters | undefined {
    return this.entries.get(key);
  }

  set(key: string, counters: AgentCounters): void {
    this.entries.delete(key);
    this.entries.set(key, counters);
    if (this.entries.size > this.maxAgents) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
