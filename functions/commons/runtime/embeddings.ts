/**
 * The embedding port the configuration names, loaded only by the functions
 * that embed (consolidation, the ladders, the sweep, feedback, the reader).
 * The local sentence encoder is imported only when it is the one configured:
 * it brings TF.js and reads its model files from the bundle's directory.
 */
import type { ServiceConfig } from '../config.js';
import type { EmbeddingPort } from '../../ports/embeddings.js';
import { createEmbeddings } from '../../adapters/embeddings/index.js';
import { runtimeWrappers, type AwsRuntime } from './aws.js';

/**
 * With `warm`, the local model starts loading at once (the reader: a
 * question should not wait for it); otherwise on the first text, so an
 * offline function whose invocation embeds nothing does not pay for it.
 */
export async function createEmbeddingPort(config: Pick<ServiceConfig, 'embeddings' | 'region'>, options: { readonly warm?: boolean } = {}): Promise<EmbeddingPort> {
  if (config.embeddings.provider !== 'local') return createEmbeddings(config);
  const { LocalEmbeddings } = await import('../../adapters/embeddings/local.js');
  const local = new LocalEmbeddings();
  if (options.warm) local.warmUp();
  return local;
}

let shared: Promise<EmbeddingPort> | undefined;

/** The process-wide embedding port of an entry file. */
export function embeddingPort({ config }: AwsRuntime, options: { readonly warm?: boolean } = {}): Promise<EmbeddingPort> {
  shared ??= createEmbeddingPort(config, options).then((port) => runtimeWrappers().embeddings?.(port) ?? port);
  return shared;
}
