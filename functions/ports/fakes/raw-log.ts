/** In-memory raw log: one record per sequence number, overwritten by a retried put (as an S3 PutObject is). */
import type { AgentKey } from '../../domain/agent-key.js';
import { MissingRecordsError, type RawLog, type RawRecord } from '../pipeline.js';
import { AgentPartitions, stored } from './storage.js';

export class InMemoryRawLog implements RawLog {
  private readonly agents = new AgentPartitions<Map<number, RawRecord>>(() => new Map());
  /** Every put, retries included. */
  puts = 0;

  async put(agent: AgentKey, record: RawRecord): Promise<void> {
    this.agents.of(agent).set(record.sequence, stored(record));
    this.puts += 1;
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    return stored(this.agents.of(agent).get(sequence));
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    const records = this.agents.of(agent);
    const sequences = Array.from({ length: toSequence - fromSequence + 1 }, (_, i) => fromSequence + i);
    const missing = sequences.filter((sequence) => !records.has(sequence));
    if (missing.length > 0) throw new MissingRecordsError(missing);
    return sequences.map((sequence) => stored(records.get(sequence)!));
  }

  /** Removes a record (tests of a missing record). */
  delete(agent: AgentKey, sequence: number): void {
    this.agents.of(agent).delete(sequence);
  }

  /** Every stored sequence number of an agent, in order. */
  sequences(agent: AgentKey): number[] {
    return [...this.agents.of(agent).keys()].sort((a, b) => a - b);
  }
}
