/**
 * The embedding port the configuration names, loaded only by the functions
 * that embed (consolidation, the ladders, the sweep, feedback, the reader).
 * The local sentence encoder is imported only when it is the one configured:
 * it brings TF.js and reads its model files from the bundle's directory.
 */
import type { ServiceConfig } from '../config.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';
import { createEmbeddings } from '../../adapters/embeddings/index.js';
import type { AwsRuntime } from './aws.js';

export async function createEmbeddingPort(config: Pick<ServiceConfig, 'embeddings' | 'region'>): Promise<EmbeddingPort> {
  if (config.embeddings.provider !== 'local') return createEmbeddings(config);
  const { LocalEmbeddings } = await import('../../adapters/embeddings/local.js');
  const local = new LocalEmbeddings();
  // The model starts loading at cold start, not on the first text.
  local.warmUp();
  return local;
}

let shared: Promise<EmbeddingPort> | undefined;

/** The process-wide embedding port of an entry file. */
export function embeddingPort({ config }: AwsRuntime): Promise<EmbeddingPort> {
  shared ??= createEmbeddingPort(config);
  return shared;
}
