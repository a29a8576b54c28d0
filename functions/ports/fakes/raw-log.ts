/**
 * In-memory raw log with the S3 adapter's semantics: every slot is written
 * once (a retried put of the same record is a no-op), a slot may instead hold
 * a hole marker, and a put into a hole is refused with RecordDeclaredHoleError.
 */
import type { AgentKey } from '../../domain/agent-key.js';
import { RecordDeclaredHoleError } from '../../domain/errors.js';
import { MissingRecordsError, type HoleMarker, type RawLog, type RawRecord } from '../pipeline.js';
import { AgentPartitions, stored } from './storage.js';

type Slot = { readonly kind: 'record'; readonly record: RawRecord } | { readonly kind: 'hole'; readonly hole: HoleMarker };

export class InMemoryRawLog implements RawLog {
  private readonly agents = new AgentPartitions<Map<number, Slot>>(() => new Map());
  /** Every put, retries included. */
  puts = 0;

  async put(agent: AgentKey, record: RawRecord): Promise<void> {
    this.puts += 1;
    const slots = this.agents.of(agent);
    const taken = slots.get(record.sequence);
    if (taken?.kind === 'hole') throw new RecordDeclaredHoleError(record.sequence);
    if (!taken) slots.set(record.sequence, { kind: 'record', record: stored(record) });
  }

  async putHole(agent: AgentKey, hole: HoleMarker): Promise<boolean> {
    const slots = this.agents.of(agent);
    if (slots.has(hole.sequence)) return false;
    slots.set(hole.sequence, { kind: 'hole', hole: stored(hole) });
    return true;
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    const slot = this.agents.of(agent).get(sequence);
    return slot?.kind === 'record' ? stored(slot.record) : undefined;
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    const { records, missing } = await this.readRange(agent, fromSequence, toSequence);
    if (missing.length > 0) throw new MissingRecordsError(missing);
    return records;
  }

  async readRange(agent: AgentKey, fromSequence: number, toSequence: number) {
    const slots = this.agents.of(agent);
    const records: RawRecord[] = [];
    const missing: number[] = [];
    const holes: number[] = [];
    for (let sequence = fromSequence; sequence <= toSequence; sequence += 1) {
      const slot = slots.get(sequence);
      if (!slot) missing.push(sequence);
      else if (slot.kind === 'hole') holes.push(sequence);
      else records.push(stored(slot.record));
    }
    return { records, missing, holes };
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
