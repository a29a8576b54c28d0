/** Erases an agent's raw log: every version and delete marker under its prefix (and the search index prefix, if any). */
import { DeleteObjectsCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import { rawRecordPrefix, type AgentKey } from '../../domain/agent-key.js';
import type { AgentDataEraser } from '../../ports/erasure.js';

export class S3AgentPrefixEraser implements AgentDataEraser {
  readonly name = 'rawLog';

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async erase(agent: AgentKey): Promise<number> {
    let deleted = 0;
    for (const prefix of [rawRecordPrefix(agent), `index/${agent.tenantId}/${agent.agentId}/`]) {
      // Listing again after each deletion: the pages shrink until nothing is left.
      for (;;) {
        const page = await this.client.send(new ListObjectVersionsCommand({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 }));
        const targets = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]
          .filter((entry) => entry.Key !== undefined)
          .map((entry) => ({ Key: entry.Key!, ...(entry.VersionId ? { VersionId: entry.VersionId } : {}) }));
        if (targets.length === 0) break;
        const result = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: targets, Quiet: true } }));
        if (result.Errors && result.Errors.length > 0) throw new Error(`raw log erasure: ${result.Errors.length} object versions not deleted (${result.Errors[0]!.Code})`);
        deleted += targets.length;
      }
    }
    return deleted;
  }
}
