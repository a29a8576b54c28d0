/**
 * One raw record by its event id, as every derived output shows it
 * (redacted), with the batch that consolidated it: what a cited id in a
 * context block stands for. The event id's claim gives the sequence number,
 * the raw log the record, and the batch markers (searched by halving: each
 * batch covers a run of consecutive sequence numbers) the batch.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError } from '../domain/errors.js';
import type { AgentLedger, BatchMarker, RawLog } from '../ports/pipeline.js';

export interface RecordView {
  readonly id: string;
  readonly sequence: number;
  readonly type: string;
  readonly role: string;
  readonly speaker?: string;
  readonly timestamp: string;
  readonly content: string;
  /** The batch it belongs to, and whether that batch is consolidated yet. */
  readonly batch?: { readonly index: number; readonly fromSequence: number; readonly toSequence: number; readonly consolidated: boolean };
}

export interface ReadRecordDependencies {
  readonly ledger: Pick<AgentLedger, 'loadForIngest' | 'readBatch'>;
  readonly rawLog: Pick<RawLog, 'get'>;
}

export async function readRecord(deps: ReadRecordDependencies, agent: AgentKey, recordId: string): Promise<RecordView> {
  const { status, claims } = await deps.ledger.loadForIngest(agent, [recordId]);
  const claim = claims.get(recordId);
  if (!status || !claim) throw new NotFoundError(`agent ${agent.agentId} has no record ${recordId}`);
  const record = await deps.rawLog.get(agent, claim.sequence);
  if (!record) throw new NotFoundError(`record ${recordId} of agent ${agent.agentId} is not stored (a hole, or still being written)`);
  const batch = await batchOf(deps, agent, claim.sequence, status.batchesClosed);
  const speaker = record.speaker ?? (typeof record.metadata?.speaker === 'string' ? record.metadata.speaker : undefined);
  return {
    id: record.id,
    sequence: record.sequence,
    type: record.type,
    role: record.role,
    ...(speaker ? { speaker } : {}),
    timestamp: record.timestamp,
    content: record.content,
    ...(batch ? { batch: { index: batch.index, fromSequence: batch.fromSequence, toSequence: batch.toSequence, consolidated: batch.index <= status.lastConsolidatedBatch } } : {}),
  };
}

/** The closed batch holding `sequence`: batches are numbered in sequence order, so it is found by halving. */
async function batchOf(deps: ReadRecordDependencies, agent: AgentKey, sequence: number, closed: number): Promise<BatchMarker | undefined> {
  let low = 1;
  let high = closed;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const marker = await deps.ledger.readBatch(agent, middle);
    if (!marker) return undefined;
    if (sequence < marker.fromSequence) high = middle - 1;
    else if (sequence > marker.toSequence) low = middle + 1;
    else return marker;
  }
  return undefined;
}
