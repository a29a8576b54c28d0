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

/**
 * Every setting, with what it means (`.describe`): docs/configuration.md is
 * generated from this schema (`npm run docs`), and a test fails when it is stale.
 */
export const configSchema = z.object({
  TENANT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).default('default').describe("The stack's tenant for tools that act outside a request (keys, redrive); requests never use it: their tenant is the API key's (or the JWT's)."),
  AGENTS_TABLE_NAME: z.string().min(1).describe('The agents table (counters, event claims, batch markers). Set by the stack.'),
  RAW_BUCKET_NAME: z.string().min(1).describe('The raw-log bucket (raw records, export parts, index segments). Set by the stack.'),
  BATCH_QUEUE_URL: z.url().describe('The consolidation queue (FIFO, one message group per agent). Set by the stack.'),
  BATCH_DEAD_LETTER_QUEUE_URL: z.url().describe("The consolidation queue's dead-letter queue. Set by the stack."),
  BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(50).describe('Messages per consolidation batch.'),
  RAW_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16).describe('Raw records one ingest request writes to S3 at once.'),
  MEMORY_TABLE_NAME: z.string().min(1).describe('The memory table (items, views, snapshot, audit, injection log). Set by the stack.'),
  IDLE_CHECK_QUEUE_URL: z.url().describe('The delayed idle-check queue behind the idle flush. Set by the stack.'),
  SUMMARIES_TABLE_NAME: z.string().min(1).describe('The summaries table (both ladders; its stream drives the levels above the base). Set by the stack.'),
  REDACT_PII_EMAIL: z.enum(['keep', 'mask', 'drop']).default('keep').describe('E-mail addresses in derived text (items, summaries, index, export): keep as written, mask with a typed placeholder, or drop. Secrets are always redacted.'),
  REDACT_PII_PHONE: z.enum(['keep', 'mask', 'drop']).default('keep').describe('Phone numbers in derived text, as REDACT_PII_EMAIL.'),
  REDACT_PII_ADDRESS: z.enum(['keep', 'mask', 'drop']).default('keep').describe('Street addresses in derived text, as REDACT_PII_EMAIL.'),
  REDACT_RAW_LOG: flag.default(false).describe('Redact at ingest as well, so the raw log holds no secret either (by default the raw log keeps the evidence as sent).'),
  SWEEP_QUEUE_URL: z.url().optional().describe("The sweep workers' queue (due agents, summary rebuilds); only the sweep function uses it. Set by the stack."),
  SWEEP_LEASE_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900).describe('How long an agent handed to the sweep workers is not handed out again (the schedule interval).'),
  ERASURE_QUEUE_URL: z.url().optional().describe('Erasure jobs (DELETE /v1/agents/{agentId}); only the erase function uses it. Set by the stack.'),
  KEYS_TABLE_NAME: z.string().min(1).optional().describe('API keys by SHA-256 digest; only the authorizer reads it. Set by the stack.'),
  SUMMARY_TIME_ZONE: z.string().refine((zone) => isTimeZone(zone), { error: 'must be an IANA time zone such as UTC or Europe/Berlin' }).default('UTC').describe('IANA time zone in which the time ladder cuts days.'),
  INTERACTION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30).describe('Records without an interactionId further apart than this start a new interaction.'),
  LADDER_CHECK_AFTER_MINUTES: z.coerce.number().int().min(0).max(1440).default(30).describe('How long after periods close the sweep checks that the ladders above them hold every parent they complete, and writes any the stream lost.'),
  TIME_LADDER_FAN_INS: fanIns.default([7, 4, 3, 4]).describe('Children per parent for the time ladder levels above the day (week, 4, 12, 52 weeks), comma-separated.'),
  COUNT_LADDER_FAN_INS: fanIns.default([10, 4, 3, 4]).describe('Children per parent for the count ladder levels above one interaction (10, 40, 120, 480), comma-separated.'),
  SNAPSHOT_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000).describe('How long a warm read function serves a snapshot without looking it up again.'),
  IDLE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900).describe("Quiet period after which an agent's open batch is consolidated."),
  HOLE_GRACE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120).describe('Age after which a committed sequence number without a raw record is consolidated as a hole (above the ingest timeout).'),
  HOLE_MAX_WAIT_SECONDS: z.coerce.number().int().min(0).max(900).default(60).describe('How long one consolidation run waits for a young hole to come due, instead of failing and waiting for redelivery.'),
  FLUSH_COALESCE_SECONDS: z.coerce.number().int().min(0).max(300).default(5).describe('Flushes within this many seconds of a flush whose batch is still consolidating coalesce (0: never).'),
  SUMMARY_MAX_CALLS_PER_RUN: z.coerce.number().int().min(1).max(10_000).default(400).describe('Summary model calls one placement or sweep run may make (base summaries).'),
  MODEL_PROVIDER: z.enum(['local', 'bedrock', 'openai']).default('local').describe('Which model consolidates: the local rules (deterministic, no network), Amazon Bedrock, or an OpenAI-compatible server.'),
  MODEL_ID: z.string().min(1).optional().describe(`Model or inference profile for Bedrock (default ${'`'}global.anthropic.claude-haiku-4-5-20251001-v1:0${'`'}), or the OpenAI-compatible server's model (required there).`),
  OPENAI_BASE_URL: z.url().optional().describe('OpenAI-compatible server, up to and including /v1 (http://localhost:11434/v1 for Ollama).'),
  OPENAI_API_KEY: z.string().min(1).optional().describe("The OpenAI-compatible server's key, when it needs one."),
  OPENAI_API_KEY_SECRET_ID: z.string().min(1).max(2048).optional().describe('A Secrets Manager secret (name or ARN; the key, or JSON {"apiKey": ...}) read once per cold start instead of OPENAI_API_KEY, never kept in the environment; the deployed stack sets it from openAiApiKeySecretName.'),
  PAGE_TOKEN_KEY_SECRET_ID: z.string().min(1).max(2048).optional().describe("Secrets Manager secret whose string keys the page and export tokens' HMAC (the stack generates one); an altered, forged or borrowed token is a 400."),
  PAGE_TOKEN_KEY: z.string().min(32).max(1024).optional().describe("The page tokens' key itself, instead of a secret (at least 32 characters). With neither set, the process makes its own key (tokens then last as long as the process)."),
  EMBEDDING_PROVIDER: z.enum(['local', 'bedrock', 'openai']).default('local').describe('Which embedding adapter indexes units and queries: local (bundled model, no network), Amazon Bedrock, or an OpenAI-compatible server.'),
  EMBEDDING_MODEL_ID: z.string().min(1).optional().describe('Embedding model (Bedrock default amazon.titan-embed-text-v2:0; required for openai).'),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional().describe('Vector size (Bedrock Titan V2: 256, 512 (default) or 1024; required for openai).'),
  OPENAI_EMBEDDINGS_BASE_URL: z.url().optional().describe('Embeddings server, up to and including /v1; defaults to OPENAI_BASE_URL.'),
  OPENAI_EMBEDDINGS_API_KEY: z.string().min(1).optional().describe('Defaults to OPENAI_API_KEY.'),
  OPENAI_EMBEDDINGS_API_KEY_SECRET_ID: z.string().min(1).max(2048).optional().describe('Defaults to OPENAI_API_KEY_SECRET_ID.'),
  MODEL_MAX_CALLS_PER_BATCH: z.coerce.number().int().min(1).max(1000).default(12).describe('Per-batch budget: model calls.'),
  MODEL_MAX_INPUT_TOKENS_PER_BATCH: z.coerce.number().int().min(1).default(120_000).describe('Per-batch budget: input tokens.'),
  MODEL_MAX_OUTPUT_TOKENS_PER_BATCH: z.coerce.number().int().min(1).default(24_000).describe('Per-batch budget: output tokens.'),
  MODEL_MAX_WALL_MS_PER_BATCH: z.coerce.number().int().min(1).default(240_000).describe('Per-batch budget: wall time (model calls are aborted past it).'),
  MODEL_MAX_PROMPT_TOKENS: z.coerce.number().int().min(4_000).max(1_000_000).default(16_000).describe("The cap on one model call's prompt; larger input (a batch, a day's summary) is read in chunks, and records too long for it are cut (noted in the audit entry)."),
  FORGET_AFTER_DAYS: z.coerce.number().int().min(1).max(3650).default(60).describe('Days without a hit or reinforcement after which an unverified, low-confidence item is forgotten (archived).'),
  FORGET_PROTECTED_AFTER_DAYS: z.coerce.number().int().min(1).max(36500).default(365).describe('The same for open tasks, rules, policies and security or safety facts.'),
  FORGET_MAX_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.75).describe('Only items at or below this confidence are forgotten (verified items never are).'),
  ARCHIVED_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(365).describe('Days an archived item is kept before the sweep deletes it; 0 keeps archived items for good (stack: retention.archivedItemsDays).'),
  AWS_REGION: z.string().min(1).default('us-east-1').describe('The Region of every AWS client (set by Lambda).'),
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: z.coerce.number().int().min(128).max(10_240).default(1024).describe("The function's memory size in MB, which in-memory caches are sized from (set by Lambda)."),
  AWS_ENDPOINT_URL: z.url().optional().describe("The AWS SDK's standard endpoint override: an emulator (moto, LocalStack)."),
  AWS_ENDPOINT_URL_S3: z.url().optional().describe("The same for S3 alone (the SDK's AWS_ENDPOINT_URL_<SERVICE> variables all apply)."),
  S3_FORCE_PATH_STYLE: flag.optional().describe('Path-style S3 addressing; on by default whenever an endpoint override is set (emulators).'),
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
  readonly ladderCheckAfterMs: number;
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
    ladderCheckAfterMs: c.LADDER_CHECK_AFTER_MINUTES * 60_000,
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
