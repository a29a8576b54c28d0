/**
 * Scaling provider vectors to unit length. The port promises unit vectors so
 * the index can rank by a dot product; providers that normalise themselves
 * (Titan V2 with `normalize: true`) still come back with float rounding, and
 * OpenAI-compatible servers differ, so every adapter normalises on receipt.
 */
import { EmbeddingResponseError } from '../../ports/embeddings.js';

/** `values` scaled to length 1; a zero (or non-finite) vector cannot be, and is a malformed answer. */
export function toUnitVector(values: readonly number[], source: string): Float32Array {
  let squares = 0;
  for (const value of values) squares += value * value;
  const norm = Math.sqrt(squares);
  if (!Number.isFinite(norm) || norm === 0) throw new EmbeddingResponseError(`${source} returned a vector that cannot be normalised (length ${norm})`);
  const unit = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 1) unit[i] = values[i]! / norm;
  return unit;
}
