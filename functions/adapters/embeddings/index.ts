/**
 * The embedding adapter the configuration names. The local adapter is handed
 * in by the caller rather than imported here: it loads a model from an npm
 * package at start-up, which the Bedrock and OpenAI paths (and their
 * bundles) should not pay for, and the runtime that wires adapters is the
 * one place that decides how and when it is built.
 */
import { ConfigurationError, type ServiceConfig } from '../../commons/config.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';
import { BedrockEmbeddings } from './bedrock.js';
import { OpenAiCompatibleEmbeddings } from './openai-compatible.js';
import { secretValue } from '../secrets/secret-value.js';

export interface EmbeddingFactories {
  /** Builds the local (no network) adapter; required when the provider is `local`. */
  readonly local?: () => EmbeddingPort;
}

/** Returns the embedding adapter `config.embeddings` names; `local` comes from `factories.local`. */
export function createEmbeddings(config: Pick<ServiceConfig, 'embeddings' | 'region'>, factories: EmbeddingFactories = {}): EmbeddingPort {
  const embeddings = config.embeddings;
  switch (embeddings.provider) {
    case 'bedrock':
      return new BedrockEmbeddings({ modelId: embeddings.modelId, dimensions: embeddings.dimensions, region: config.region });
    case 'openai':
      return new OpenAiCompatibleEmbeddings({
        baseUrl: embeddings.baseUrl,
        modelId: embeddings.modelId,
        dimensions: embeddings.dimensions,
        ...(embeddings.apiKeySecretId ? { apiKey: secretValue(embeddings.apiKeySecretId) } : embeddings.apiKey ? { apiKey: embeddings.apiKey } : {}),
      });
    case 'local':
      if (!factories.local) {
        throw new ConfigurationError('EMBEDDING_PROVIDER=local, but no local embedding adapter was supplied to createEmbeddings (pass factories.local)');
      }
      return factories.local();
  }
}
