/**
 * The whole pipeline on one machine: emulator, resources provisioned from the
 * synthesised template, the API routes, and the event-source runner. Used by
 * `npm start`, the integration tests and the benchmarks.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { MemoryServiceStackProps } from '../lib/memory-service-stack.js';
import { startApiServer, routesFromTemplate } from './api-server.js';
import { startEmulator, type Emulator } from './emulator.js';
import { sqsMappingsFromTemplate, startEventSourceRunner, type EventSourceRunner as QueueRunner } from './event-source-runner.js';
import type { StreamSourceStats } from './stream-source-runner.js';

import { describeFunctions, loadFunctions, shareFunctionEnvironment, type LocalFunction } from './lambda-functions.js';
import { provisionFromTemplate, type ResourceMap } from './provision.js';
import { synthesizeAssembly, synthesizeTemplate, type CfnTemplate } from './template.js';
import { loadBundledFunctions, type BundledFunction } from './bundled-functions.js';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbApiKeyStore } from '../functions/adapters/dynamodb/api-key-store.js';
import { parseKeySeeds, type KeySeed } from '../functions/domain/auth.js';
import type { ApiKeyStore } from '../functions/ports/api-keys.js';
import { createApiKey } from '../functions/use-cases/api-keys.js';
import { startStreamSourceRunner, streamMappingsFromTemplate } from './stream-source-runner.js';
import { schedulesFromTemplate, startScheduleRunner } from './schedule-runner.js';
import type { LocalFaults } from './fault-injection.js';
import { signalWrites } from './poll-pacing.js';

export interface EventSourceRunner extends QueueRunner {
  readonly streamStats: StreamSourceStats;
}

export interface LocalStackOptions {
  /** An emulator that is already running (LocalStack, a shared moto); otherwise one is started. */
  readonly endpoint?: string | undefined;
  readonly host?: string;
  /** @default 3000; 0 picks a free port */
  readonly port?: number;
  /** Prefix of every resource name, so several stacks can share one emulator. @default 'agent-memory' */
  readonly namePrefix?: string;
  readonly stackProps?: MemoryServiceStackProps;
  readonly pollIntervalMs?: number;
  /** Run scheduled rules at this interval instead of their own rate. */
  readonly scheduleIntervalMs?: number;
  readonly log?: (line: string) => void;
  /**
   * API keys to seed in the keys table before the API serves: `MEMORY_API_KEYS`
   * syntax (`tenant:key:scopes[:agents]`, comma-separated, `+` inside a field)
   * or parsed seeds. @default none (the caller creates keys, as `npm start` does)
   */
  readonly apiKeys?: string | readonly KeySeed[];
  /**
   * Local only, for fault-and-load runs (`npm run chaos`): wraps the clients
   * and model port the functions share, and every invocation. @default none
   */
  readonly faults?: LocalFaults;
  /** Wrappers that only observe (the cost benchmark's meter, local/metering.ts): the same hooks as `faults`. */
  readonly instruments?: LocalFaults;
  /**
   * What runs the functions: `sources` imports the TypeScript handlers into
   * this process; `bundles` synthesises the stack with bundling, as `cdk
   * deploy` does, and runs each function's asset in processes of its own
   * (local/bundled-functions.ts), with its memory size and timeout.
   * @default 'sources'
   */
  readonly functions?: 'sources' | 'bundles';
}

export interface LocalStack {
  readonly url: string;
  readonly endpoint: string;
  readonly template: CfnTemplate;
  readonly resources: ResourceMap;
  readonly functions: ReadonlyMap<string, LocalFunction>;
  /** The functions' bundles, when they run from them (`functions: 'bundles'`). */
  readonly bundles?: ReadonlyMap<string, BundledFunction>;
  readonly eventSources: EventSourceRunner;
  readonly clients: { dynamodb: DynamoDBClient; s3: S3Client; sqs: SQSClient; streams: DynamoDBStreamsClient };
  /** The keys table, through the same adapter the authorizer uses. */
  readonly keys: ApiKeyStore;
  /** The local name of the first resource of a CloudFormation type whose logical id starts with `prefix`. */
  resourceRef(type: string, logicalIdPrefix: string): string;
  stop(): Promise<void>;
}

/** Points this process's AWS SDK at the emulator, as Lambda's environment would point it at AWS. */
export function useEmulatorEnvironment(endpoint: string): void {
  process.env.AWS_ENDPOINT_URL = endpoint;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
}

export function emulatorClients(endpoint: string) {
  const common = { endpoint, region: process.env.AWS_REGION ?? 'us-east-1' };
  return {
    dynamodb: new DynamoDBClient(common),
    s3: new S3Client({ ...common, forcePathStyle: true }),
    sqs: new SQSClient({ ...common, useQueueUrlAsEndpoint: false }),
    streams: new DynamoDBStreamsClient(common),
    secrets: new SecretsManagerClient(common),
  };
}

function keysTableOf(resources: ResourceMap): string {
  const table = [...resources.values()].find((r) => r.type === 'AWS::DynamoDB::Table' && r.logicalId.startsWith('ApiKeys'));
  if (!table) throw new Error('the template declares no API keys table');
  return table.ref;
}

/** Stores the seeds' digests; a malformed `MEMORY_API_KEYS` stops the start with every problem named. */
async function seedApiKeys(keys: ApiKeyStore, apiKeys: LocalStackOptions['apiKeys']): Promise<void> {
  if (apiKeys === undefined) return;
  let seeds: readonly KeySeed[];
  if (typeof apiKeys === 'string') {
    const parsed = parseKeySeeds(apiKeys);
    if (parsed.issues.length > 0) throw new Error(`invalid MEMORY_API_KEYS: ${parsed.issues.map((issue) => `${issue.field}: ${issue.rule}`).join('; ')}`);
    seeds = parsed.seeds;
  } else {
    seeds = apiKeys;
  }
  for (const seed of seeds) await createApiKey(keys, { tenantId: seed.tenantId, key: seed.key, scopes: seed.scopes, agents: seed.agents, description: 'seeded at start' });
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const log = options.log ?? (() => {});
  const emulator: Emulator = await startEmulator({ endpoint: options.endpoint, log });
  try {
    useEmulatorEnvironment(emulator.endpoint);
    if (options.functions === 'bundles' && (options.faults ?? options.instruments)) throw new Error('fault injection and metering wrap in-process clients; they need functions: sources');
    const assembly = options.functions === 'bundles' ? await synthesizeAssembly(options.stackProps) : undefined;
    const template = assembly?.template ?? (await synthesizeTemplate(options.stackProps));
    const clients = emulatorClients(emulator.endpoint);
    // A write made through these (by a test, a script, the runners themselves) wakes the pollers.
    signalWrites(clients.sqs);
    signalWrites(clients.dynamodb);
    const resources = await provisionFromTemplate(template, clients, options.namePrefix ?? 'agent-memory');
    const keys = new DynamoDbApiKeyStore(DynamoDBDocumentClient.from(clients.dynamodb), keysTableOf(resources));
    await seedApiKeys(keys, options.apiKeys);
    let bundles: Map<string, BundledFunction> | undefined;
    let functions: ReadonlyMap<string, LocalFunction>;
    if (assembly) {
      shareFunctionEnvironment(describeFunctions(template, resources));
      bundles = loadBundledFunctions(assembly, resources);
      functions = bundles;
    } else {
      const wrappers = options.faults ?? options.instruments;
      functions = await loadFunctions(template, resources, wrappers ? { faults: wrappers } : {});
    }
    let ready = false;
    const api = await startApiServer(routesFromTemplate(template, functions), {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 3000,
      log,
      isReady: () => ready,
    });
    const poll = { ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}), log };
    const queues = startEventSourceRunner(clients.sqs, sqsMappingsFromTemplate(template, resources, functions), poll);
    const streams = startStreamSourceRunner(clients.streams, clients.sqs, streamMappingsFromTemplate(template, resources, functions), poll);
    const schedules = startScheduleRunner(schedulesFromTemplate(template, functions), {
      ...(options.scheduleIntervalMs !== undefined ? { intervalMs: options.scheduleIntervalMs } : {}),
      log,
    });
    const eventSources: EventSourceRunner = {
      stats: queues.stats,
      streamStats: streams.stats,
      // Queues feed streams (consolidation writes summaries) and streams feed nothing back, so
      // waiting for queues, then streams, then queues again settles the whole pipeline.
      async waitForIdle(timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        for (let round = 0; round < 2; round += 1) {
          await queues.waitForIdle(Math.max(1, deadline - Date.now()));
          await streams.waitForIdle(Math.max(1, deadline - Date.now()));
        }
      },
      async stop() {
        schedules.stop();
        await Promise.all([queues.stop(), streams.stop()]);
      },
    };
    ready = true;
    return {
      url: api.url,
      endpoint: emulator.endpoint,
      template,
      resources,
      functions,
      ...(bundles ? { bundles } : {}),
      eventSources,
      clients,
      keys,
      resourceRef(type, logicalIdPrefix) {
        const found = [...resources.values()].find((r) => r.type === type && r.logicalId.startsWith(logicalIdPrefix));
        if (!found) throw new Error(`no ${type} whose logical id starts with ${logicalIdPrefix}`);
        return found.ref;
      },
      async stop() {
        await eventSources.stop();
        await api.close();
        await Promise.all([...(bundles?.values() ?? [])].map((fn) => fn.stop()));
        await emulator.stop();
      },
    };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}
