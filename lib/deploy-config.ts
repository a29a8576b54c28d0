/**
 * Deploy-time settings: every production choice of the stack, given as CDK
 * context (`cdk deploy -c modelProvider=bedrock -c alarmEmail=...`, the
 * `context` of cdk.json, or a JSON file named by `-c configFile=deploy.json`,
 * whose keys the command line overrides). Validated at synth: a wrong value
 * stops the synth with every problem named, before anything is bundled.
 * The defaults deploy cleanly on a new account (no reserved concurrency, the
 * local model and embeddings, API keys). See docs/deploy.md.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { z } from 'zod';
import type { MemoryServiceStackProps } from './memory-service-stack.js';

/** Command-line context is text; cdk.json and files may give real booleans and numbers. */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);
const int = (min: number, max: number) => z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` });
const redaction = z.enum(['keep', 'mask', 'drop'], { error: 'must be keep, mask or drop' });
const provider = z.enum(['local', 'bedrock', 'openai'], { error: 'must be local, bedrock or openai' });
const list = z.union([z.array(z.string().min(1)), z.string().transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))]);

export const deploySettingsSchema = z.strictObject({
  /** CloudFormation stack name. */
  stackName: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, { error: 'must start with a letter and hold only letters, digits and hyphens (at most 128)' }).optional(),
  /** Deploy the web inspector behind CloudFront. */
  inspector: flag.optional(),
  modelProvider: provider.optional(),
  /** Bedrock model or inference profile id, or the OpenAI-compatible server's model name. */
  modelId: z.string().min(1).max(256).optional(),
  openAiBaseUrl: z.url({ error: 'must be a URL such as https://llm.example.com/v1' }).optional(),
  /** Secrets Manager secret holding the OpenAI-compatible server's key. */
  openAiApiKeySecretName: z.string().min(1).max(512).optional(),
  embeddingProvider: provider.optional(),
  embeddingModelId: z.string().min(1).max(256).optional(),
  embeddingDimensions: int(1, 8192).optional(),
  /** JWT authorizer instead of API keys: the issuer and the accepted audiences (comma-separated). */
  jwtIssuer: z.url({ error: 'must be the issuer URL, e.g. https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc' }).optional(),
  jwtAudience: list.optional(),
  jwtTenantClaim: z.string().min(1).optional(),
  jwtScopesClaim: z.string().min(1).optional(),
  jwtAgentsClaim: z.string().min(1).optional(),
  /** Subscribed to the alarm topic (confirm the e-mail AWS sends). */
  alarmEmail: z.email({ error: 'must be an e-mail address' }).optional(),
  consolidatorConcurrency: int(2, 1000).optional(),
  sweepConcurrency: int(2, 1000).optional(),
  /** Reserved concurrency: only on accounts whose quota leaves 100 unreserved. */
  consolidatorReservedConcurrency: int(1, 10_000).optional(),
  ladderReservedConcurrency: int(1, 10_000).optional(),
  consolidatorTimeoutSeconds: int(60, 900).optional(),
  batchSize: int(1, 1000).optional(),
  idleFlushMinutes: int(1, 1440).optional(),
  sweepEveryMinutes: int(5, 1440).optional(),
  summaryTimeZone: z.string().refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Berlin' }).optional(),
  rawRecordsDays: int(1, 36_500).optional(),
  noncurrentVersionsDays: int(1, 36_500).optional(),
  archivedItemsDays: int(0, 36_500).optional(),
  pointInTimeRecoveryDays: int(1, 35).optional(),
  redactEmail: redaction.optional(),
  redactPhone: redaction.optional(),
  redactAddress: redaction.optional(),
  redactRawLog: flag.optional(),
  apiRateLimit: int(1, 100_000).optional(),
  apiBurstLimit: int(1, 100_000).optional(),
  authorizerCacheSeconds: int(0, 3600).optional(),
});

export type DeploySettings = z.infer<typeof deploySettingsSchema>;
export const DEPLOY_SETTING_KEYS = Object.keys(deploySettingsSchema.shape) as (keyof DeploySettings)[];

export class DeployConfigError extends Error {
  override readonly name = 'DeployConfigError';
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The settings from a context lookup (`app.node.tryGetContext`): the file
 * named by `configFile` first, the keys given directly over it.
 */
export function readDeploySettings(context: (key: string) => unknown, cwd = process.cwd()): DeploySettings {
  const raw: Record<string, unknown> = {};
  const file = context('configFile');
  if (file !== undefined) {
    if (typeof file !== 'string') throw new DeployConfigError('invalid deployment configuration: configFile must be a path');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
    } catch (error) {
      throw new DeployConfigError(`invalid deployment configuration: configFile ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new DeployConfigError(`invalid deployment configuration: configFile ${file} must hold a JSON object`);
    Object.assign(raw, parsed);
  }
  for (const key of DEPLOY_SETTING_KEYS) {
    const value = context(key);
    if (value !== undefined) raw[key] = value;
  }
  const result = deploySettingsSchema.safeParse(raw);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.code === 'unrecognized_keys' ? `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` : issue.message}`);
  if (result.success) problems.push(...combinationProblems(result.data));
  if (problems.length > 0) throw new DeployConfigError(`invalid deployment configuration:\n  - ${problems.join('\n  - ')}\nSee docs/deploy.md for every setting.`);
  return result.data!;
}

/** Settings that are each valid but do not go together. */
function combinationProblems(s: DeploySettings): string[] {
  const problems: string[] = [];
  if (s.modelProvider === 'openai' && (!s.openAiBaseUrl || !s.modelId)) problems.push('modelProvider: openai needs openAiBaseUrl and modelId');
  if (s.embeddingProvider === 'openai' && (!s.openAiBaseUrl || !s.embeddingModelId || !s.embeddingDimensions)) problems.push('embeddingProvider: openai needs openAiBaseUrl, embeddingModelId and embeddingDimensions');
  if (s.embeddingProvider === 'bedrock' && s.embeddingDimensions !== undefined && ![256, 512, 1024].includes(s.embeddingDimensions)) problems.push('embeddingDimensions: must be 256, 512 or 1024 for Bedrock (Titan Text Embeddings V2)');
  if (s.modelId && (s.modelProvider ?? 'local') === 'local') problems.push('modelId: set modelProvider too (bedrock or openai); the local model has no id');
  if (s.jwtIssuer && (!s.jwtAudience || s.jwtAudience.length === 0)) problems.push('jwtAudience: required with jwtIssuer (comma-separated client ids or audiences)');
  if (!s.jwtIssuer && (s.jwtAudience || s.jwtTenantClaim || s.jwtScopesClaim || s.jwtAgentsClaim)) problems.push('jwtIssuer: required when any jwt* setting is given');
  if (s.apiBurstLimit !== undefined && s.apiRateLimit === undefined) problems.push('apiRateLimit: required with apiBurstLimit');
  if (s.noncurrentVersionsDays !== undefined && s.rawRecordsDays !== undefined && s.noncurrentVersionsDays > s.rawRecordsDays) problems.push('noncurrentVersionsDays: must not exceed rawRecordsDays');
  return problems;
}

/** The stack's props for validated settings. */
export function stackPropsFrom(s: DeploySettings): MemoryServiceStackProps {
  const retention = {
    ...(s.rawRecordsDays !== undefined ? { rawRecordsDays: s.rawRecordsDays } : {}),
    ...(s.noncurrentVersionsDays !== undefined ? { noncurrentVersionsDays: s.noncurrentVersionsDays } : {}),
    ...(s.archivedItemsDays !== undefined ? { archivedItemsDays: s.archivedItemsDays } : {}),
  };
  const redaction = {
    ...(s.redactEmail ? { email: s.redactEmail } : {}),
    ...(s.redactPhone ? { phone: s.redactPhone } : {}),
    ...(s.redactAddress ? { address: s.redactAddress } : {}),
    ...(s.redactRawLog !== undefined ? { rawLog: s.redactRawLog } : {}),
  };
  const reserved = {
    ...(s.consolidatorReservedConcurrency !== undefined ? { consolidator: s.consolidatorReservedConcurrency } : {}),
    ...(s.ladderReservedConcurrency !== undefined ? { ladder: s.ladderReservedConcurrency } : {}),
  };
  return {
    ...(s.inspector !== undefined ? { inspector: s.inspector } : {}),
    ...(s.modelProvider ? { modelProvider: s.modelProvider } : {}),
    ...(s.modelId ? { modelId: s.modelId } : {}),
    ...(s.openAiBaseUrl ? { openAiBaseUrl: s.openAiBaseUrl } : {}),
    ...(s.openAiApiKeySecretName ? { openAiApiKeySecretName: s.openAiApiKeySecretName } : {}),
    ...(s.embeddingProvider ? { embeddingProvider: s.embeddingProvider } : {}),
    ...(s.embeddingModelId ? { embeddingModelId: s.embeddingModelId } : {}),
    ...(s.embeddingDimensions !== undefined ? { embeddingDimensions: s.embeddingDimensions } : {}),
    ...(s.jwtIssuer
      ? {
          jwt: {
            issuer: s.jwtIssuer,
            audience: s.jwtAudience ?? [],
            ...(s.jwtTenantClaim ? { tenantClaim: s.jwtTenantClaim } : {}),
            ...(s.jwtScopesClaim ? { scopesClaim: s.jwtScopesClaim } : {}),
            ...(s.jwtAgentsClaim ? { agentsClaim: s.jwtAgentsClaim } : {}),
          },
        }
      : {}),
    ...(s.alarmEmail ? { alarmEmail: s.alarmEmail } : {}),
    ...(s.consolidatorConcurrency !== undefined ? { consolidatorConcurrency: s.consolidatorConcurrency } : {}),
    ...(s.sweepConcurrency !== undefined ? { sweepConcurrency: s.sweepConcurrency } : {}),
    ...(Object.keys(reserved).length > 0 ? { reservedConcurrency: reserved } : {}),
    ...(s.consolidatorTimeoutSeconds !== undefined ? { consolidatorTimeout: Duration.seconds(s.consolidatorTimeoutSeconds) } : {}),
    ...(s.batchSize !== undefined ? { batchSize: s.batchSize } : {}),
    ...(s.idleFlushMinutes !== undefined ? { idleFlushAfter: Duration.minutes(s.idleFlushMinutes) } : {}),
    ...(s.sweepEveryMinutes !== undefined ? { sweepEvery: Duration.minutes(s.sweepEveryMinutes) } : {}),
    ...(s.summaryTimeZone ? { summaryTimeZone: s.summaryTimeZone } : {}),
    ...(Object.keys(retention).length > 0 ? { retention } : {}),
    ...(s.pointInTimeRecoveryDays !== undefined ? { pointInTimeRecoveryDays: s.pointInTimeRecoveryDays } : {}),
    ...(Object.keys(redaction).length > 0 ? { redaction } : {}),
    ...(s.apiRateLimit !== undefined ? { apiThrottle: { rateLimit: s.apiRateLimit, burstLimit: s.apiBurstLimit ?? s.apiRateLimit } } : {}),
    ...(s.authorizerCacheSeconds !== undefined ? { authorizerCacheTtl: Duration.seconds(s.authorizerCacheSeconds) } : {}),
  };
}
