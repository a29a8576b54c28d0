/** The raw log in S3: one JSON object per record under `raw/<tenant>/<agent>/<sequence>.json`. */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { rawRecordKey, type AgentKey } from '../domain/agent-key.js';
import type { RawLog, RawRecord } from '../use-cases/ports.js';

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
