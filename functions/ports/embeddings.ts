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
