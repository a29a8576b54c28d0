/**
 * The model port the configuration names. Each adapter is imported only when
 * it is the one configured: the local rules load NLP models and tokenizer
 * tables that a Bedrock deployment never needs at cold start.
 */
import type { ServiceConfig } from '../config.js';
import type { ModelPort } from '../../ports/model.js';
import { runtimeWrappers, type AwsRuntime } from './aws.js';

export async function createModel(config: ServiceConfig): Promise<ModelPort> {
  switch (config.model.provider) {
    case 'bedrock': {
      const { BedrockModel } = await import('../../adapters/models/bedrock-model.js');
      return new BedrockModel({ modelId: config.model.modelId, region: config.region });
    }
    case 'openai': {
      const [{ OpenAiCompatibleModel }, { secretValue }] = await Promise.all([import('../../adapters/models/openai-compatible-model.js'), import('../../adapters/secrets/secret-value.js')]);
      const { apiKeySecretId, apiKey, ...rest } = config.model;
      const key = apiKeySecretId ? secretValue(apiKeySecretId) : apiKey;
      return new OpenAiCompatibleModel({ ...rest, ...(key ? { apiKey: key } : {}) });
    }
    case 'local': {
      const { LocalModel } = await import('../../adapters/models/local/local-model.js');
      return new LocalModel();
    }
  }
}

let shared: Promise<ModelPort> | undefined;

/** The process-wide model port (wrapped when the local runtime injects faults). */
export function modelPort({ config }: AwsRuntime): Promise<ModelPort> {
  shared ??= createModel(config).then((model) => runtimeWrappers().model?.(model) ?? model);
  return shared;
}
