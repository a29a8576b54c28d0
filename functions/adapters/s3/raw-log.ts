/**
 * The raw log in S3: one JSON object per run of records under
 * `raw/<tenant>/<agent>/<first sequence>.json` (a request's events, split
 * where a batch closes; a record written alone is a bare record, as every
 * record was before runs). Every key is written once (`If-None-Match: *`):
 * a run, or a hole marker when the records never arrived, so a late write
 * can never change what a consolidated batch was built from.
 *
 * Reading a range gets each sequence's key at once, as before runs; a key
 * that holds nothing is a sequence inside a run read from an earlier key. Only
 * when the range's first sequence is inside a run that starts before the
 * range is the run's key found by one LIST (a batch always starts a run, so
 * the consolidator never needs it).
 */
import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { rawRecordKey, rawRecordPrefix, SEQUENCE_DIGITS, type AgentKey } from '../../domain/agent-key.js';
import type { HoleMarker, RawLog, RawRecord, RawRun } from '../../ports/pipeline.js';
import { MissingRecordsError } from '../../domain/errors.js';
import { mapWithConcurrency } from '../../commons/concurrency.js';

export { MissingRecordsError };

const RANGE_READ_CONCURRENCY = 16;
/** No run is longer than one commit (at most 90 events), so a run holding sequence s starts within this many keys before it. */
const LONGEST_RUN = 100;

/** What one key holds: a run (one record or more, and the sequences of its range it was written without), or a hole. */
type StoredObject = { readonly kind: 'run'; readonly from: number; readonly to: number; readonly records: ReadonlyMap<number, RawRecord> } | { readonly kind: 'hole'; readonly hole: HoleMarker };
type Slot = { readonly kind: 'record'; readonly record: RawRecord } | { readonly kind: 'hole' };

const isPreconditionFailure = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 412 || error.name === 'PreconditionFailed');

export class S3RawLog implements RawLog {
  constructor(
    private readonly client: S3Client,
    private readonly bucketName: string,
  ) {}

  async putRun(agent: AgentKey, run: RawRun): Promise<readonly number[]> {
    const body = run.from === run.to && run.records.length === 1 ? run.records[0] : { run: { from: run.from, to: run.to }, records: run.records };
    if (await this.putOnce(agent, run.from, body)) return [];
    // Taken already: by this run (a retry), by a hole marker, or by a retry that held only part of the run.
    const stored = await this.object(agent, run.from);
    if (stored?.kind === 'run') return run.records.filter((record) => !stored.records.has(record.sequence)).map((record) => record.sequence);
    return run.records.map((record) => record.sequence);
  }

  async putHole(agent: AgentKey, hole: HoleMarker): Promise<boolean> {
    return this.putOnce(agent, hole.sequence, { hole: true, ...hole });
  }

  private async putOnce(agent: AgentKey, sequence: number, body: unknown): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucketName,
          Key: rawRecordKey(agent, sequence),
          Body: JSON.stringify(body),
          ContentType: 'application/json',
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      if (isPreconditionFailure(error)) return false;
      throw error;
    }
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    const { records, missing } = await this.readRange(agent, fromSequence, toSequence);
    if (missing.length > 0) throw new MissingRecordsError(missing);
    return records;
  }

  async readRange(agent: AgentKey, fromSequence: number, toSequence: number) {
    const sequences = Array.from({ length: Math.max(0, toSequence - fromSequence + 1) }, (_, i) => fromSequence + i);
    const objects = await mapWithConcurrency(sequences, RANGE_READ_CONCURRENCY, (sequence) => this.object(agent, sequence));
    const slots = new Map<number, Slot>();
    objects.forEach((object, i) => object && place(slots, sequences[i]!, object));
    if (sequences.length > 0 && !slots.has(fromSequence)) {
      const earlier = await this.runBefore(agent, fromSequence);
      if (earlier) place(slots, fromSequence, earlier);
    }
    const records: RawRecord[] = [];
    const missing: number[] = [];
    const holes: number[] = [];
    for (const sequence of sequences) {
      const slot = slots.get(sequence);
      if (!slot) missing.push(sequence);
      else if (slot.kind === 'hole') holes.push(sequence);
      else records.push(slot.record);
    }
    return { records, missing, holes };
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    const object = (await this.object(agent, sequence)) ?? (await this.runBefore(agent, sequence));
    return object?.kind === 'run' ? object.records.get(sequence) : undefined;
  }

  /** The run that starts before `sequence` and reaches it, found by one LIST of the keys just before it. */
  private async runBefore(agent: AgentKey, sequence: number): Promise<StoredObject | undefined> {
    if (sequence <= 1) return undefined;
    const prefix = rawRecordPrefix(agent);
    const output = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.bucketName,
        Prefix: prefix,
        StartAfter: sequence - LONGEST_RUN > 0 ? rawRecordKey(agent, sequence - LONGEST_RUN) : undefined,
        MaxKeys: LONGEST_RUN,
      }),
    );
    const starts = (output.Contents ?? [])
      .map((entry) => Number(entry.Key?.slice(prefix.length, prefix.length + SEQUENCE_DIGITS)))
      .filter((start) => Number.isInteger(start) && start < sequence);
    if (starts.length === 0) return undefined;
    const start = Math.max(...starts);
    const object = await this.object(agent, start);
    return object?.kind === 'run' && object.to >= sequence ? object : undefined;
  }

  private async object(agent: AgentKey, sequence: number): Promise<StoredObject | undefined> {
    try {
      const output = await this.client.send(new GetObjectCommand({ Bucket: this.bucketName, Key: rawRecordKey(agent, sequence) }));
      return parseObject(sequence, JSON.parse(await output.Body!.transformToString()));
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }
}

type StoredBody = (RawRecord & { hole?: undefined; records?: undefined }) | (HoleMarker & { hole: true }) | { hole?: undefined; run: { from: number; to: number }; records: RawRecord[] };

function parseObject(key: number, value: StoredBody): StoredObject {
  if (value.hole) {
    const { hole: _flag, ...hole } = value;
    return { kind: 'hole', hole };
  }
  if ('run' in value && Array.isArray(value.records)) {
    return { kind: 'run', from: value.run.from, to: value.run.to, records: new Map(value.records.map((record) => [record.sequence, record])) };
  }
  const record = value as RawRecord;
  return { kind: 'run', from: key, to: key, records: new Map([[record.sequence, record]]) };
}

/** Places what the key `start` holds over the slots it covers; a sequence whose own key holds something keeps it. */
function place(slots: Map<number, Slot>, start: number, object: StoredObject): void {
  if (object.kind === 'hole') {
    slots.set(start, { kind: 'hole' });
    return;
  }
  for (let sequence = Math.max(start, object.from); sequence <= object.to; sequence += 1) {
    if (sequence !== start && slots.has(sequence)) continue;
    const record = object.records.get(sequence);
    // A sequence of the run's range it was written without (a retry held only part of it) is a hole.
    slots.set(sequence, record ? { kind: 'record', record } : { kind: 'hole' });
  }
}
