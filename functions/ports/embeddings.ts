import { MemoryServiceError } from '../domain/errors.js';

/**
 * Port of the sentence-embedding models. Units are embedded offline, at
 * consolidation time, in batches; the read path embeds only the query.
 * Adapters: local (Universal Sentence Encoder lite shipped in an npm
 * package, no network), Amazon Bedrock (Titan Text Embeddings V2) and any
 * OpenAI-compatible `/v1/embeddings` endpoint.
 */
export interface EmbeddingPort {
  /** Identifies the model, so vectors of different models are never compared. */
  readonly modelId: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * An embedding call failed for good: the provider refused it, kept
 * throttling past the adapter's attempts, or timed out. A dependency failure
 * (503), so a read answers "retry later" and a consolidation job is retried.
 */
export class EmbeddingError extends MemoryServiceError {
  override readonly status: number = 503;
  override readonly name: string = 'EmbeddingError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The provider answered, but not with what the protocol promises (wrong
 * shape, wrong vector length, missing or repeated indexes, a zero vector).
 * Never retried: the same request would get the same answer.
 */
export class EmbeddingResponseError extends EmbeddingError {
  override readonly name: string = 'EmbeddingResponseError';
}
