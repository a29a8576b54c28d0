/**
 * The one configuration schema. It is validated at cold start, so a function
 * with a missing or malformed setting fails fast; nothing else reads
 * `process.env`. AWS SDK clients also honour the standard `AWS_ENDPOINT_URL*`
 * and `AWS_REGION` variables themselves, which is how an emulator is selected.
 */
import { z } from 'zod';
import { issuesFromZod } from '../domain/events.js';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const configSchema = z.object({
  TENANT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).default('default'),
  AGENTS_TABLE_NAME: z.string().min(1),
  RAW_BUCKET_NAME: z.string().min(1),
  BATCH_QUEUE_URL: z.url(),
  /** Messages per consolidation batch. */
  BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(50),
  RAW_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  AWS_ENDPOINT_URL: z.url().optional(),
  AWS_ENDPOINT_URL_S3: z.url().optional(),
  /** Path-style S3 addressing; on by default whenever an endpoint override is set (emulators). */
  S3_FORCE_PATH_STYLE: flag.optional(),
});

export interface ServiceConfig {
  readonly tenantId: string;
  readonly agentsTableName: string;
  readonly rawBucketName: string;
  readonly batchQueueUrl: string;
  readonly batchSize: number;
  readonly rawWriteConcurrency: number;
  readonly region: string;
  readonly endpointOverridden: boolean;
  readonly s3ForcePathStyle: boolean;
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** Reads and validates the configuration from an environment (default: `process.env`). */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = issuesFromZod(result.error, 'env').map((issue) => `${issue.field}: ${issue.rule}`);
    throw new ConfigurationError(`invalid configuration: ${problems.join('; ')}`);
  }
  const c = result.data;
  const endpointOverridden = c.AWS_ENDPOINT_URL !== undefined || c.AWS_ENDPOINT_URL_S3 !== undefined;
  return {
    tenantId: c.TENANT_ID,
    agentsTableName: c.AGENTS_TABLE_NAME,
    rawBucketName: c.RAW_BUCKET_NAME,
    batchQueueUrl: c.BATCH_QUEUE_URL,
    batchSize: c.BATCH_SIZE,
    rawWriteConcurrency: c.RAW_WRITE_CONCURRENCY,
    region: c.AWS_REGION,
    endpointOverridden,
    s3ForcePathStyle: c.S3_FORCE_PATH_STYLE ?? endpointOverridden,
  };
}
