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

const fanIns = z
  .string()
  .regex(/^\d+(,\d+)*$/, { error: 'must be comma-separated integers, e.g. 7,4,3,4' })
  .transform((value) => value.split(',').map(Number))
  .refine((values) => values.every((v) => v >= 2 && v <= 100), { error: 'each fan-in must be from 2 to 100' });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const configSchema = z.object({
  TENANT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).default('default'),
  AGENTS_TABLE_NAME: z.string().min(1),
  RAW_BUCKET_NAME: z.string().min(1),
  BATCH_QUEUE_URL: z.url(),
  BATCH_DEAD_LETTER_QUEUE_URL: z.url(),
  /** Messages per consolidation batch. */
  BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(50),
  RAW_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  MEMORY_TABLE_NAME: z.string().min(1),
  IDLE_CHECK_QUEUE_URL: z.url(),
  SUMMARIES_TABLE_NAME: z.string().min(1),
  /** PII in derived text: keep as written, mask with a typed placeholder, or drop. Secrets are always redacted. */
  REDACT_PII_EMAIL: z.enum(['keep', 'mask', 'drop']).default('keep'),
  REDACT_PII_PHONE: z.enum(['keep', 'mask', 'drop']).default('keep'),
  REDACT_PII_ADDRESS: z.enum(['keep', 'mask', 'drop']).default('keep'),
  /** Redact at ingest as well, so the raw log holds no secret either (default: the raw log keeps the evidence). */
  REDACT_RAW_LOG: flag.default(false),
  /** The sweep workers' queue (due agents, summary rebuilds); only the sweep function uses it. */
  SWEEP_QUEUE_URL: z.url().optional(),
  /** How long an agent handed to the sweep workers is not handed out again (the schedule's interval). */
  SWEEP_LEASE_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Erasure jobs (DELETE /v1/agents/{agentId}); only the erase function uses it. */
  ERASURE_QUEUE_URL: z.url().optional(),
  /** API keys by SHA-256 digest; only the authorizer reads it. */
  KEYS_TABLE_NAME: z.string().min(1).optional(),
  /** IANA time zone in which days are cut for the time ladder. */
  SUMMARY_TIME_ZONE: z.string().refine((zone) => isTimeZone(zone), { error: 'must be an IANA time zone such as UTC or Europe/Berlin' }).default('UTC'),
  /** Records without an interactionId further apart than this start a new interaction. */
  INTERACTION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** Fan-ins of the levels above the base, comma-separated. */
  TIME_LADDER_FAN_INS: fanIns.default([7, 4, 3, 4]),
  COUNT_LADDER_FAN_INS: fanIns.default([10, 4, 3, 4]),
  /** How long a warm read function serves a snapshot without looking it up again. */
  SNAPSHOT_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Quiet period after which an agent's open batch is consolidated. */
  IDLE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Which model adapter consolidates: the local rules (default), Amazon Bedrock, or an OpenAI-compatible server. */
  /** Age after which a committed sequence number without a raw record is consolidated as a hole (above the ingest timeout). */
  HOLE_GRACE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  /** How long one consolidation run waits for a young hole to come due, instead of failing and waiting for redelivery. */
  HOLE_MAX_WAIT_SECONDS: z.coerce.number().int().min(0).max(900).default(60),
  /** Flushes within this many seconds of a flush whose batch is still consolidating coalesce (0: never). */
  FLUSH_COALESCE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /** Summary model calls one placement or sweep run may make (base summaries). */
  SUMMARY_MAX_CALLS_PER_RUN: z.coerce.number().int().min(1).max(10_000).default(400),
  MODEL_PROVIDER: z.enum(['local', 'bedrock', 'openai']).default('local'),
  MODEL_ID: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** A Secrets Manager secret (name or ARN) holding the key: read once per cold start, never kept in the environment. */
  OPENAI_API_KEY_SECRET_ID: z.string().min(1).max(2048).optional(),
  /** Secrets Manager secret whose string keys the page tokens' HMAC (the stack generates one). */
  PAGE_TOKEN_KEY_SECRET_ID: z.string().min(1).max(2048).optional(),
  /** The page tokens' key itself, instead of a secret (at least 32 characters). */
  PAGE_TOKEN_KEY: z.string().min(32).max(1024).optional(),
  /** Which embedding adapter indexes units and queries: local (default, no network), Amazon Bedrock, or an OpenAI-compatible server. */
  EMBEDDING_PROVIDER: z.enum(['local', 'bedrock', 'openai']).default('local'),
  EMBEDDING_MODEL_ID: z.string().min(1).optional(),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
  /** Up to and including `/v1`; defaults to OPENAI_BASE_URL. */
  OPENAI_EMBEDDINGS_BASE_URL: z.url().optional(),
  /** Defaults to OPENAI_API_KEY. */
  OPENAI_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  /** Defaults to OPENAI_API_KEY_SECRET_ID. */
  OPENAI_EMBEDDINGS_API_KEY_SECRET_ID: z.string().min(1).max(2048).optional(),
  MODEL_MAX_CALLS_PER_BATCH: z.coerce.number().int().min(1).max(1000).default(12),
  MODEL_MAX_INPUT_TOKENS_PER_BATCH: z.coerce.number().int().min(1).default(120_000),
  MODEL_MAX_OUTPUT_TOKENS_PER_BATCH: z.coerce.number().int().min(1).default(24_000),
  MODEL_MAX_WALL_MS_PER_BATCH: z.coerce.number().int().min(1).default(240_000),
  /** The cap on one model call's prompt; larger input (a batch, a day's summary) is read in chunks. */
  MODEL_MAX_PROMPT_TOKENS: z.coerce.number().int().min(4_000).max(1_000_000).default(16_000),
  /** Days without a hit or reinforcement after which a low-confidence item is forgotten (archived). */
  FORGET_AFTER_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  /** The same for open tasks, rules and security constraints. */
  FORGET_PROTECTED_AFTER_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  /** Only items at or below this confidence are forgotten (verified items never are). */
  FORGET_MAX_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.75),
  /** Days an archived item is kept before the sweep deletes it; 0 keeps archived items for good. */
  ARCHIVED_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(365),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Set by Lambda: the function's memory size, which in-memory caches are sized from. */
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: z.coerce.number().int().min(128).max(10_240).default(1024),
  AWS_ENDPOINT_URL: z.url().optional(),
  AWS_ENDPOINT_URL_S3: z.url().optional(),
  /** Path-style S3 addressing; on by default whenever an endpoint override is set (emulators). */
  S3_FORCE_PATH_STYLE: flag.optional(),
});

/**
 * Used when MODEL_PROVIDER=bedrock and MODEL_ID is not set: Claude Haiku 4.5
 * through its global cross-Region inference profile, which every commercial
 * Region offers (current Anthropic models are not invoked by bare model id
 * on demand). A deployment with data-residency needs names a geographic
 * profile (us., eu., apac., jp. ...) instead; see docs/deploy.md.
 */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

/** Used when EMBEDDING_PROVIDER=bedrock and EMBEDDING_MODEL_ID is not set. */
export const DEFAULT_BEDROCK_EMBEDDING_MODEL_ID = 'amazon.titan-embed-text-v2:0';
/** Titan V2 vector sizes; 512 keeps nearly all of 1024's retrieval quality at half the index size. */
const BEDROCK_EMBEDDING_DIMENSIONS = [256, 512, 1024] as const;

/** The embedding adapter and its settings (the local adapter's model and size are fixed by its package). */
export type EmbeddingConfig =
  | { readonly provider: 'local' }
  | { readonly provider: 'bedrock'; readonly modelId: string; readonly dimensions: 256 | 512 | 1024 }
  | { readonly provider: 'openai'; readonly modelId: string; readonly dimensions: number; readonly baseUrl: string; readonly apiKey?: string; readonly apiKeySecretId?: string };

export interface ServiceConfig {
  readonly tenantId: string;
  readonly agentsTableName: string;
  readonly rawBucketName: string;
  readonly batchQueueUrl: string;
  /** Where malformed consolidation jobs are parked at once, with their cause. */
  readonly batchDeadLetterQueueUrl: string;
  readonly batchSize: number;
  readonly rawWriteConcurrency: number;
  readonly memoryTableName: string;
  readonly idleCheckQueueUrl: string;
  readonly idleFlushSeconds: number;
  readonly summariesTableName: string;
  readonly keysTableName?: string;
  readonly erasureQueueUrl?: string;
  readonly sweepQueueUrl?: string;
  readonly sweepLeaseMs: number;
  /** What is redacted from text before anything is derived from it. */
  readonly redaction: { readonly email: 'keep' | 'mask' | 'drop'; readonly phone: 'keep' | 'mask' | 'drop'; readonly address: 'keep' | 'mask' | 'drop'; readonly rawLog: boolean };
  readonly timeZone: string;
  readonly interactionIdleMs: number;
  readonly fanIns: { readonly time: readonly number[]; readonly count: readonly number[] };
  readonly snapshotCacheMs: number;
  readonly model:
    | { readonly provider: 'local' }
    | { readonly provider: 'bedrock'; readonly modelId: string }
    | { readonly provider: 'openai'; readonly modelId: string; readonly baseUrl: string; readonly apiKey?: string; readonly apiKeySecretId?: string };
  readonly embeddings: EmbeddingConfig;
  readonly flushCoalesceSeconds: number;
  /** How page tokens are signed: a secret to read, a literal key, or (neither set) a key of this process only. */
  readonly pageTokenKey: { readonly secretId: string } | { readonly key: string } | undefined;
  readonly summaryBudget: { readonly maxCalls: number; readonly maxInputTokens: number; readonly maxOutputTokens: number; readonly maxWallMs: number; readonly maxPromptTokens: number };
  readonly holes: { readonly graceMs: number; readonly maxWaitMs: number };
  readonly budget: { readonly maxCalls: number; readonly maxInputTokens: number; readonly maxOutputTokens: number; readonly maxWallMs: number; readonly maxPromptTokens: number };
  /** The sweep's forgetting pass (see domain/lifecycle.ts). */
  readonly forgetting: { readonly afterDays: number; readonly protectedAfterDays: number; readonly maxConfidence: number; readonly purgeArchivedAfterDays?: number };
  readonly region: string;
  /** The function's memory size in MB (Lambda's AWS_LAMBDA_FUNCTION_MEMORY_SIZE). */
  readonly functionMemoryMb: number;
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
  if (c.OPENAI_API_KEY && c.OPENAI_API_KEY_SECRET_ID) {
    throw new ConfigurationError('invalid configuration: set OPENAI_API_KEY or OPENAI_API_KEY_SECRET_ID, not both');
  }
  if (c.MODEL_PROVIDER === 'openai' && (!c.OPENAI_BASE_URL || !c.MODEL_ID)) {
    throw new ConfigurationError('invalid configuration: MODEL_PROVIDER=openai needs OPENAI_BASE_URL and MODEL_ID');
  }
  const model: ServiceConfig['model'] =
    c.MODEL_PROVIDER === 'bedrock'
      ? { provider: 'bedrock', modelId: c.MODEL_ID ?? DEFAULT_BEDROCK_MODEL_ID }
      : c.MODEL_PROVIDER === 'openai'
        ? {
            provider: 'openai',
            modelId: c.MODEL_ID!,
            baseUrl: c.OPENAI_BASE_URL!,
            ...(c.OPENAI_API_KEY ? { apiKey: c.OPENAI_API_KEY } : {}),
            ...(c.OPENAI_API_KEY_SECRET_ID ? { apiKeySecretId: c.OPENAI_API_KEY_SECRET_ID } : {}),
          }
        : { provider: 'local' };
  const endpointOverridden = c.AWS_ENDPOINT_URL !== undefined || c.AWS_ENDPOINT_URL_S3 !== undefined;
  return {
    tenantId: c.TENANT_ID,
    agentsTableName: c.AGENTS_TABLE_NAME,
    rawBucketName: c.RAW_BUCKET_NAME,
    batchQueueUrl: c.BATCH_QUEUE_URL,
    batchDeadLetterQueueUrl: c.BATCH_DEAD_LETTER_QUEUE_URL,
    batchSize: c.BATCH_SIZE,
    rawWriteConcurrency: c.RAW_WRITE_CONCURRENCY,
    memoryTableName: c.MEMORY_TABLE_NAME,
    idleCheckQueueUrl: c.IDLE_CHECK_QUEUE_URL,
    idleFlushSeconds: c.IDLE_FLUSH_SECONDS,
    summariesTableName: c.SUMMARIES_TABLE_NAME,
    ...(c.KEYS_TABLE_NAME ? { keysTableName: c.KEYS_TABLE_NAME } : {}),
    ...(c.ERASURE_QUEUE_URL ? { erasureQueueUrl: c.ERASURE_QUEUE_URL } : {}),
    ...(c.SWEEP_QUEUE_URL ? { sweepQueueUrl: c.SWEEP_QUEUE_URL } : {}),
    sweepLeaseMs: c.SWEEP_LEASE_SECONDS * 1000,
    redaction: { email: c.REDACT_PII_EMAIL, phone: c.REDACT_PII_PHONE, address: c.REDACT_PII_ADDRESS, rawLog: c.REDACT_RAW_LOG },
    timeZone: c.SUMMARY_TIME_ZONE,
    interactionIdleMs: c.INTERACTION_IDLE_MINUTES * 60_000,
    fanIns: { time: c.TIME_LADDER_FAN_INS, count: c.COUNT_LADDER_FAN_INS },
    snapshotCacheMs: c.SNAPSHOT_CACHE_MS,
    model,
    embeddings: embeddingConfig(c),
    flushCoalesceSeconds: c.FLUSH_COALESCE_SECONDS,
    pageTokenKey: c.PAGE_TOKEN_KEY_SECRET_ID ? { secretId: c.PAGE_TOKEN_KEY_SECRET_ID } : c.PAGE_TOKEN_KEY ? { key: c.PAGE_TOKEN_KEY } : undefined,
    // Token and time limits scale with the call limit; the wall time stays inside a 5-minute function.
    summaryBudget: { maxCalls: c.SUMMARY_MAX_CALLS_PER_RUN, maxInputTokens: c.SUMMARY_MAX_CALLS_PER_RUN * 8_000, maxOutputTokens: c.SUMMARY_MAX_CALLS_PER_RUN * 1_000, maxWallMs: 240_000, maxPromptTokens: c.MODEL_MAX_PROMPT_TOKENS },
    holes: { graceMs: c.HOLE_GRACE_SECONDS * 1000, maxWaitMs: c.HOLE_MAX_WAIT_SECONDS * 1000 },
    budget: {
      maxCalls: c.MODEL_MAX_CALLS_PER_BATCH,
      maxInputTokens: c.MODEL_MAX_INPUT_TOKENS_PER_BATCH,
      maxOutputTokens: c.MODEL_MAX_OUTPUT_TOKENS_PER_BATCH,
      maxWallMs: c.MODEL_MAX_WALL_MS_PER_BATCH,
      maxPromptTokens: c.MODEL_MAX_PROMPT_TOKENS,
    },
    forgetting: {
      afterDays: c.FORGET_AFTER_DAYS,
      protectedAfterDays: c.FORGET_PROTECTED_AFTER_DAYS,
      maxConfidence: c.FORGET_MAX_CONFIDENCE,
      ...(c.ARCHIVED_RETENTION_DAYS > 0 ? { purgeArchivedAfterDays: c.ARCHIVED_RETENTION_DAYS } : {}),
    },
    region: c.AWS_REGION,
    functionMemoryMb: c.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    endpointOverridden,
    s3ForcePathStyle: c.S3_FORCE_PATH_STYLE ?? endpointOverridden,
  };
}

function embeddingConfig(c: z.infer<typeof configSchema>): EmbeddingConfig {
  switch (c.EMBEDDING_PROVIDER) {
    case 'local':
      return { provider: 'local' };
    case 'bedrock': {
      const dimensions = c.EMBEDDING_DIMENSIONS ?? 512;
      if (!BEDROCK_EMBEDDING_DIMENSIONS.includes(dimensions as 256 | 512 | 1024)) {
        throw new ConfigurationError(`invalid configuration: EMBEDDING_DIMENSIONS must be 256, 512 or 1024 for EMBEDDING_PROVIDER=bedrock (Titan V2), got ${dimensions}`);
      }
      return { provider: 'bedrock', modelId: c.EMBEDDING_MODEL_ID ?? DEFAULT_BEDROCK_EMBEDDING_MODEL_ID, dimensions: dimensions as 256 | 512 | 1024 };
    }
    case 'openai': {
      const baseUrl = c.OPENAI_EMBEDDINGS_BASE_URL ?? c.OPENAI_BASE_URL;
      const missing = [
        ...(baseUrl ? [] : ['OPENAI_EMBEDDINGS_BASE_URL (or OPENAI_BASE_URL)']),
        ...(c.EMBEDDING_MODEL_ID ? [] : ['EMBEDDING_MODEL_ID']),
        ...(c.EMBEDDING_DIMENSIONS ? [] : ['EMBEDDING_DIMENSIONS']),
      ];
      if (missing.length > 0) throw new ConfigurationError(`invalid configuration: EMBEDDING_PROVIDER=openai needs ${missing.join(', ')}`);
      // An explicit embeddings key or secret wins; otherwise the model's.
      const apiKey = c.OPENAI_EMBEDDINGS_API_KEY ?? (c.OPENAI_EMBEDDINGS_API_KEY_SECRET_ID ? undefined : c.OPENAI_API_KEY);
      const apiKeySecretId = apiKey ? undefined : (c.OPENAI_EMBEDDINGS_API_KEY_SECRET_ID ?? c.OPENAI_API_KEY_SECRET_ID);
      return { provider: 'openai', modelId: c.EMBEDDING_MODEL_ID!, dimensions: c.EMBEDDING_DIMENSIONS!, baseUrl: baseUrl!, ...(apiKey ? { apiKey } : {}), ...(apiKeySecretId ? { apiKeySecretId } : {}) };
    }
  }
}
