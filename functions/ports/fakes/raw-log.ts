/**
 * In-memory raw log with the S3 adapter's semantics: one object per run,
 * keyed by its first sequence and written once (a retried run is a no-op);
 * a key may instead hold a hole marker, and a run whose key holds one is not
 * stored. Sequences of a run's range it was written without read as holes.
 */
import type { AgentKey } from '../../domain/agent-key.js';
import { MissingRecordsError, type HoleMarker, type RawLog, type RawRecord, type RawRun } from '../pipeline.js';
import { AgentPartitions, stored } from './storage.js';

type StoredObject = { readonly kind: 'run'; readonly run: RawRun } | { readonly kind: 'hole'; readonly hole: HoleMarker };
type Slot = { readonly kind: 'record'; readonly record: RawRecord } | { readonly kind: 'hole' } | undefined;

export class InMemoryRawLog implements RawLog {
  private readonly agents = new AgentPartitions<Map<number, StoredObject>>(() => new Map());
  /** Every run written, retries included. */
  puts = 0;

  async putRun(agent: AgentKey, run: RawRun): Promise<readonly number[]> {
    this.puts += 1;
    const objects = this.agents.of(agent);
    const taken = objects.get(run.from);
    if (!taken) {
      objects.set(run.from, { kind: 'run', run: stored(run) });
      return [];
    }
    if (taken.kind === 'hole') return run.records.map((record) => record.sequence);
    return run.records.filter((record) => !taken.run.records.some((kept) => kept.sequence === record.sequence)).map((record) => record.sequence);
  }

  async putHole(agent: AgentKey, hole: HoleMarker): Promise<boolean> {
    const objects = this.agents.of(agent);
    if (objects.has(hole.sequence)) return false;
    objects.set(hole.sequence, { kind: 'hole', hole: stored(hole) });
    return true;
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    const slot = this.slot(agent, sequence);
    return slot?.kind === 'record' ? stored(slot.record) : undefined;
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    const { records, missing } = await this.readRange(agent, fromSequence, toSequence);
    if (missing.length > 0) throw new MissingRecordsError(missing);
    return records;
  }

  async readRange(agent: AgentKey, fromSequence: number, toSequence: number) {
    const records: RawRecord[] = [];
    const missing: number[] = [];
    const holes: number[] = [];
    for (let sequence = fromSequence; sequence <= toSequence; sequence += 1) {
      const slot = this.slot(agent, sequence);
      if (!slot) missing.push(sequence);
      else if (slot.kind === 'hole') holes.push(sequence);
      else records.push(stored(slot.record));
    }
    return { records, missing, holes };
  }

  private slot(agent: AgentKey, sequence: number): Slot {
    const objects = this.agents.of(agent);
    const own = objects.get(sequence);
    if (own?.kind === 'hole') return { kind: 'hole' };
    const holder = own ?? [...objects.values()].find((object) => object.kind === 'run' && object.run.from < sequence && sequence <= object.run.to);
    if (holder?.kind !== 'run') return undefined;
    const record = holder.run.records.find((candidate) => candidate.sequence === sequence);
    return record ? { kind: 'record', record } : { kind: 'hole' };
  }

  /** Removes a run or hole by its key (tests of a missing record). */
  delete(agent: AgentKey, sequence: number): void {
    this.agents.of(agent).delete(sequence);
  }

  /** Every stored record's sequence number of an agent, in order. */
  sequences(agent: AgentKey): number[] {
    return [...this.agents.of(agent).values()]
      .flatMap((object) => (object.kind === 'run' ? object.run.records.map((record) => record.sequence) : [object.hole.sequence]))
      .sort((a, b) => a - b);
  }
}
