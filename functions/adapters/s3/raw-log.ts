/** The raw log in S3: one JSON object per record under `raw/<tenant>/<agent>/<sequence>.json`. */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { rawRecordKey, type AgentKey } from '../../domain/agent-key.js';
import { MissingRecordsError, type RawLog, type RawRecord } from '../../ports/pipeline.js';
import { mapWithConcurrency } from '../../commons/concurrency.js';

// Part of the port's contract (the in-memory fake throws it too); re-exported for existing importers.
export { MissingRecordsError };

const RANGE_READ_CONCURRENCY = 16;

export class S3RawLog implements RawLog {
  constructor(
    private readonly client: S3Client,
    private readonly bucketName: string,
  ) {}

  async put(agent: AgentKey, record: RawRecord): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucketName,
        Key: rawRecordKey(agent, record.sequence),
        Body: JSON.stringify(record),
        ContentType: 'application/json',
      }),
    );
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    const sequences = Array.from({ length: toSequence - fromSequence + 1 }, (_, i) => fromSequence + i);
    const records = await mapWithConcurrency(sequences, RANGE_READ_CONCURRENCY, (sequence) => this.get(agent, sequence));
    const missing = sequences.filter((_, i) => records[i] === undefined);
    if (missing.length > 0) throw new MissingRecordsError(missing);
    return records as RawRecord[];
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    try {
      const output = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucketName, Key: rawRecordKey(agent, sequence) }),
      );
      return JSON.parse(await output.Body!.transformToString()) as RawRecord;
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }
}
