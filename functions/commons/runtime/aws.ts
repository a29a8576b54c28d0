/**
 * Cold-start wiring, part one: the validated configuration and the AWS SDK
 * clients, built once per process. Every function's entry file starts here
 * and adds only the adapters it uses (stores.ts, redaction.ts, model.ts,
 * embeddings.ts, pipelines.ts), so a function's bundle holds, and its cold
 * start loads, nothing it does not call.
 */
import { loadConfig, type ServiceConfig } from '../config.js';
import { createAwsClients, type AwsClients } from '../clients.js';
import type { ModelPort } from '../../ports/model.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';

export interface AwsRuntime {
  readonly config: ServiceConfig;
  readonly clients: AwsClients;
}

/**
 * Local runtime only (`local/lambda-functions.ts`, for `npm run chaos`, the
 * fault tests and the cost benchmark's meter): wrappers applied to the
 * process-wide clients, model and embeddings before any handler is imported.
 * No Lambda entry point sets them.
 */
export interface RuntimeWrappers {
  readonly clients?: (clients: AwsClients) => AwsClients;
  readonly model?: (model: ModelPort) => ModelPort;
  readonly embeddings?: (embeddings: EmbeddingPort) => EmbeddingPort;
}

let wrappers: RuntimeWrappers = {};
let shared: AwsRuntime | undefined;

export function provideRuntimeWrappers(next: RuntimeWrappers): void {
  wrappers = next;
  shared = undefined;
}

export function runtimeWrappers(): RuntimeWrappers {
  return wrappers;
}

/** The process-wide configuration and clients, from `process.env` on first use. */
export function awsRuntime(): AwsRuntime {
  if (!shared) {
    const config = loadConfig();
    const clients = createAwsClients(config);
    shared = { config, clients: wrappers.clients ? wrappers.clients(clients) : clients };
  }
  return shared;
}
