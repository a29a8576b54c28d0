/** Index segments in S3: one compressed object per segment under `index/<tenant>/<agent>/`, never overwritten. */
import { randomBytes } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { indexPrefix, type AgentKey } from '../../domain/agent-key.js';
import { decodeSegment, encodeSegment, type IndexSegment } from '../../domain/index-segment.js';
import type { IndexSegmentStore } from '../../ports/retrieval-index.js';

export class S3IndexSegments implements IndexSegmentStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucketName: string,
  ) {}

  async put(agent: AgentKey, name: string, segment: IndexSegment): Promise<{ key: string; bytes: number }> {
    // A fresh key per write: segments are immutable, so a reader's cache by key is never stale.
    const key = `${indexPrefix(agent)}${name}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}.seg`;
    const body = encodeSegment(segment);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucketName, Key: key, Body: body, ContentType: 'application/octet-stream' }));
    return { key, bytes: body.length };
  }

  async get(key: string): Promise<IndexSegment | undefined> {
    try {
      const output = await this.client.send(new GetObjectCommand({ Bucket: this.bucketName, Key: key }));
      return decodeSegment(await output.Body!.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      if (chunk.length > 0) await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucketName, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  async deleteAll(agent: AgentKey): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucketName, Prefix: indexPrefix(agent), ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => o.Key!);
      await this.delete(keys);
      deleted += keys.length;
      token = page.NextContinuationToken;
    } while (token);
    return deleted;
  }
}
