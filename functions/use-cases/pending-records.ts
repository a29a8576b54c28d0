/**
 * What was just said: the records an agent's ledger has counted that no
 * batch has consolidated yet, so `/context` can recall them at once (an MCP
 * host that calls `remember` then `recall` has no flush). Read on the read
 * path, so bounded: one GetItem of the agent's counters, and S3 reads only
 * for pending records this warm instance has not read before (records are
 * immutable, so they are cached by sequence), at most `maxRecords` of them,
 * the newest. Records are read through the redacting raw log: nothing secret
 * reaches the block.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { AgentLedger, AgentStatus, RawLog, RawRecord } from '../ports/pipeline.js';

export interface PendingRecordsOptions {
  /** The newest pending records read at most (a batch is 50; a slow consolidation may leave more). @default 100 */
  readonly maxRecords?: number;
  /** Agents whose records are kept cached. @default 200 */
  readonly maxAgents?: number;
}

export interface Pending {
  readonly status: AgentStatus;
  /** Pending records in sequence order (holes and records still being written are absent). */
  readonly records: readonly RawRecord[];
}

export class PendingRecords {
  private readonly cache = new Map<string, Map<number, RawRecord>>();
  private readonly maxRecords: number;
  private readonly maxAgents: number;

  constructor(
    private readonly ledger: Pick<AgentLedger, 'readStatus'>,
    private readonly rawLog: Pick<RawLog, 'readRange'>,
    options: PendingRecordsOptions = {},
  ) {
    this.maxRecords = options.maxRecords ?? 100;
    this.maxAgents = options.maxAgents ?? 200;
  }

  /** The agent's counters and pending records; undefined for an agent never seen. */
  async read(agent: AgentKey): Promise<Pending | undefined> {
    const status = await this.ledger.readStatus(agent);
    if (!status) return undefined;
    const from = Math.max(status.lastConsolidatedSequence + 1, status.lastSequence - this.maxRecords + 1);
    if (from > status.lastSequence) return { status, records: [] };
    const key = `${agent.tenantId}/${agent.agentId}`;
    const known = this.cache.get(key) ?? new Map<number, RawRecord>();
    // Most recently used last; the least recently read agent is forgotten first.
    this.cache.delete(key);
    this.cache.set(key, known);
    while (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value!);
    for (const sequence of known.keys()) if (sequence < from) known.delete(sequence);
    const wanted: number[] = [];
    for (let sequence = from; sequence <= status.lastSequence; sequence += 1) if (!known.has(sequence)) wanted.push(sequence);
    // Contiguous runs of what is not cached yet: usually one, the newest records.
    for (const [first, last] of runs(wanted)) {
      const { records } = await this.rawLog.readRange(agent, first, last);
      for (const record of records) known.set(record.sequence, record);
    }
    return { status, records: [...known.values()].filter((r) => r.sequence >= from).sort((a, b) => a.sequence - b.sequence) };
  }
}

function runs(sequences: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const sequence of sequences) {
    const last = out.at(-1);
    if (last && last[1] === sequence - 1) last[1] = sequence;
    else out.push([sequence, sequence]);
  }
  return out;
}
