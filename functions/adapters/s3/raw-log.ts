/**
 * The raw log in S3: one JSON object per record under `raw/<tenant>/<agent>/<sequence>.json`.
 * Every key is written once (`If-None-Match: *`): a record, or a hole marker
 * when the record never arrived, so a late write can never change what a
 * consolidated batch was built from.
 */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { rawRecordKey, type AgentKey } from '../../domain/agent-key.js';
import type { HoleMarker, RawLog, RawRecord } from '../../ports/pipeline.js';
import { MissingRecordsError, RecordDeclaredHoleError } from '../../domain/errors.js';
import { mapWithConcurrency } from '../../commons/concurrency.js';

export { MissingRecordsError };

const RANGE_READ_CONCURRENCY = 16;

type Slot = { readonly kind: 'record'; readonly record: RawRecord } | { readonly kind: 'hole'; readonly hole: HoleMarker } | undefined;

const isPreconditionFailure = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 412 || error.name === 'PreconditionFailed');

export class S3RawLog implements RawLog {
  constructor(
    private readonly client: S3Client,
    private readonly bucketName: string,
  ) {}

  async put(agent: AgentKey, record: RawRecord): Promise<void> {
    if (await this.putOnce(agent, record.sequence, record)) return;
    // Taken already: by this record (a retry rewrites the same bytes), or by a hole marker.
    const slot = await this.slot(agent, record.sequence);
    if (slot?.kind === 'hole') throw new RecordDeclaredHoleError(record.sequence);
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
    const slots = await mapWithConcurrency(sequences, RANGE_READ_CONCURRENCY, (sequence) => this.slot(agent, sequence));
    const records: RawRecord[] = [];
    const missing: number[] = [];
    const holes: number[] = [];
    slots.forEach((slot, i) => {
      if (!slot) missing.push(sequences[i]!);
      else if (slot.kind === 'hole') holes.push(sequences[i]!);
      else records.push(slot.record);
    });
    return { records, missing, holes };
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    const slot = await this.slot(agent, sequence);
    return slot?.kind === 'record' ? slot.record : undefined;
  }

  private async slot(agent: AgentKey, sequence: number): Promise<Slot> {
    try {
      const output = await this.client.send(new GetObjectCommand({ Bucket: this.bucketName, Key: rawRecordKey(agent, sequence) }));
      const value = JSON.parse(await output.Body!.transformToString()) as (RawRecord & { hole?: undefined }) | (HoleMarker & { hole: true });
      if (value.hole) {
        const { hole: _flag, ...hole } = value;
        return { kind: 'hole', hole };
      }
      return { kind: 'record', record: value };
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }
}
