/**
 * A deterministic stand-in for an embedding model: each word is hashed to a
 * signed coordinate and the sum scaled to unit length, so texts sharing
 * words are close and the same text always gets the same vector. No model,
 * no network; it records every batch it was asked to embed.
 */
import { EmbeddingError, type EmbeddingPort } from '../embeddings.js';

export class HashingEmbeddings implements EmbeddingPort {
  readonly modelId: string;
  /** Every `embed` call's texts, in order. */
  readonly calls: (readonly string[])[] = [];

  constructor(readonly dimensions = 64, modelId = `hashing-${dimensions}`) {
    this.modelId = modelId;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    return texts.map((text, i) => {
      const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) throw new EmbeddingError(`${this.modelId} cannot embed an empty text (text ${i})`);
      const vector = new Float32Array(this.dimensions);
      for (const word of words) {
        const hash = fnv1a(word);
        vector[hash % this.dimensions]! += hash & 0x8000_0000 ? -1 : 1;
      }
      const norm = Math.hypot(...vector) || 1;
      return vector.map((value) => value / norm);
    });
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
