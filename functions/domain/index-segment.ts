/**
 * Index segments: an immutable, compressed block of units with their index
 * terms and int8-quantised embeddings, and the manifest that lists an
 * agent's segments. Pure (codec and manifest arithmetic, no I/O).
 *
 * Stored form: gzip of [u32 length of the JSON header][JSON header: model,
 * dimensions, units with their terms, and for sentence vectors the unit each
 * belongs to][f32 scale per unit][i8 × dimensions per unit][f32 scale per
 * sentence][i8 × dimensions per sentence]. A vector v is stored as
 * round(v / s) with s = max|v| / 127, so the cosine with a query q is
 * s · (q · stored), within about 1%. Segments written before sentence
 * vectors existed have none and read as before.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { IndexUnit } from './index-units.js';
import type { RetiredValue } from './supersession.js';
import { int8Rows } from './int8-dots.js';

export interface SegmentUnit extends IndexUnit {
  /** Index terms, space separated (see `indexTerms`). */
  readonly terms: string;
}

export interface IndexSegment {
  readonly modelId: string;
  readonly dimensions: number;
  readonly units: readonly SegmentUnit[];
  /** One scale per unit. */
  readonly scales: Float32Array;
  /** units.length × dimensions quantised components. */
  readonly vectors: Int8Array;
  /** Sentence vectors of long records (`recordSentences`), searched beside the whole text's. */
  readonly sentences?: SegmentSentences;
  /** Length of the stored JSON header, when decoded: what a reader's memory bound counts the units by (`decodedBytes`). */
  readonly headerBytes?: number;
}

/** Vectors of the sentences of some units: `owners[j]` is the index of the unit sentence j belongs to. */
export interface SegmentSentences {
  readonly owners: Uint32Array;
  readonly scales: Float32Array;
  /** owners.length × dimensions quantised components. */
  readonly vectors: Int8Array;
}

/** A sentence vector to store, by the index of its unit in the same segment. */
export interface SentenceVector {
  readonly owner: number;
  readonly vector: Float32Array;
}

/** One segment as the manifest lists it. */
export interface SegmentRef {
  readonly key: string;
  readonly units: number;
  readonly bytes: number;
  /** Size tier: 0 for a batch's segment; merging `MERGE_FAN_IN` segments of tier t makes one of tier t + 1. */
  readonly tier: number;
}

/**
 * An agent's index: immutable segments oldest first (a unit id in a newer
 * segment replaces the same id in an older one), the segment of mutable items
 * (contacts, facts, tasks; replaced whenever they change), and ids dropped
 * since the segments were written (erasure, forgetting).
 */
export interface IndexManifest {
  readonly version: number;
  readonly modelId: string;
  readonly dimensions: number;
  readonly segments: readonly SegmentRef[];
  readonly items?: SegmentRef & { readonly hash: string };
  /** Every record up to this sequence is in a segment. */
  readonly recordsThrough: number;
  readonly dropped: readonly string[];
  /**
   * Segments no longer listed, kept until `at` + `RETIRE_AFTER_MS`: a snapshot
   * assembled just before they were replaced may still name them.
   */
  readonly retired?: readonly { readonly key: string; readonly at: string }[];
  /**
   * The latest changes the indexed records said in so many words (`changesSaid`, read once per batch, at most
   * `MAX_SAID_IN_MANIFEST`, newest kept): the context without a question marks with them the summary lines and
   * items said before, as a recall block does with the records it ranks. Dropped with the records they came from.
   */
  readonly said?: readonly RetiredValue[];
}

/** Changes said kept in the manifest, the newest. */
export const MAX_SAID_IN_MANIFEST = 40;

/** The said changes kept after adding `added`: one per id (a redelivered batch adds nothing), the newest `MAX_SAID_IN_MANIFEST`. */
export function keepSaid(current: readonly RetiredValue[] | undefined, added: readonly RetiredValue[]): RetiredValue[] {
  // One record may say several changes under one id ("Saturday's no good … Sunday instead"): each value is kept, and
  // one value said twice with other words around it ("Yours is now BFS-40388 … please use BFS-40388") once, with the
  // words of both. A change read again replaces itself.
  const byId = new Map<string, RetiredValue>();
  for (const value of current ?? []) byId.set(`${value.itemId}\u0000${value.value}`, value);
  const read = new Map<string, RetiredValue>();
  for (const value of added) {
    const key = `${value.itemId}\u0000${value.value}`;
    const twice = read.get(key);
    read.set(key, twice ? { ...twice, about: [...new Set([...(twice.about ?? []), ...(value.about ?? [])])] } : value);
  }
  for (const [key, value] of read) byId.set(key, value);
  return [...byId.values()].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '')).slice(-MAX_SAID_IN_MANIFEST);
}

/** How long a replaced segment outlives the manifest that stopped listing it. */
export const RETIRE_AFTER_MS = 15 * 60_000;

/** Segments of one tier merged into one of the next. */
export const MERGE_FAN_IN = 4;

export function quantise(vector: Float32Array): { scale: number; values: Int8Array } {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max === 0 ? 1 : max / 127;
  const values = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i += 1) values[i] = Math.round(vector[i]! / scale);
  return { scale, values };
}

/** Quantises unit-length vectors of `dimensions` into one scale each and packed int8 components. */
function pack(dimensions: number, vectors: readonly Float32Array[], what: string): { scales: Float32Array; packed: Int8Array } {
  const scales = new Float32Array(vectors.length);
  // Built to be stored, or merged and stored: read from a kernel's memory only once decoded (`decodeSegment`).
  const packed = int8Rows(vectors.length, dimensions, false);
  vectors.forEach((vector, i) => {
    if (vector.length !== dimensions) throw new Error(`segment: ${what} ${i} has ${vector.length} dimensions, not ${dimensions}`);
    const { scale, values } = quantise(vector);
    scales[i] = scale;
    packed.set(values, i * dimensions);
  });
  return { scales, packed };
}

/** Builds a segment from units, their terms and their unit-length vectors (same order), and any sentence vectors. */
export function buildSegment(modelId: string, dimensions: number, units: readonly SegmentUnit[], vectors: readonly Float32Array[], sentences: readonly SentenceVector[] = []): IndexSegment {
  if (vectors.length !== units.length) throw new Error(`segment: ${units.length} units but ${vectors.length} vectors`);
  const { scales, packed } = pack(dimensions, vectors, 'vector');
  if (sentences.length === 0) return { modelId, dimensions, units, scales, vectors: packed };
  for (const { owner } of sentences) if (!(owner >= 0 && owner < units.length)) throw new Error(`segment: a sentence of unit ${owner}, beyond its ${units.length} units`);
  const ofSentences = pack(dimensions, sentences.map((s) => s.vector), 'sentence vector');
  return { modelId, dimensions, units, scales, vectors: packed, sentences: { owners: Uint32Array.from(sentences.map((s) => s.owner)), scales: ofSentences.scales, vectors: ofSentences.packed } };
}

/** The stored vector of unit `i`, dequantised (for merging and re-use). */
export function unitVector(segment: IndexSegment, i: number): Float32Array {
  return dequantise(segment.dimensions, segment.scales[i]!, segment.vectors, i);
}

/** The stored sentence vectors of a segment, dequantised, by the index of their unit (most units have none). */
export function sentenceVectors(segment: IndexSegment): Map<number, Float32Array[]> {
  const byUnit = new Map<number, Float32Array[]>();
  const sentences = segment.sentences;
  sentences?.owners.forEach((owner, j) => {
    const list = byUnit.get(owner) ?? [];
    list.push(dequantise(segment.dimensions, sentences.scales[j]!, sentences.vectors, j));
    byUnit.set(owner, list);
  });
  return byUnit;
}

function dequantise(dimensions: number, scale: number, vectors: Int8Array, i: number): Float32Array {
  const out = new Float32Array(dimensions);
  const offset = i * dimensions;
  for (let d = 0; d < dimensions; d += 1) out[d] = vectors[offset + d]! * scale;
  return out;
}

export function encodeSegment(segment: IndexSegment): Uint8Array {
  const sentences = segment.sentences;
  const header = Buffer.from(JSON.stringify({ v: 1, modelId: segment.modelId, dimensions: segment.dimensions, units: segment.units, ...(sentences ? { sentenceOwners: [...sentences.owners] } : {}) }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const bytes = (array: Float32Array | Int8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return gzipSync(Buffer.concat([length, header, bytes(segment.scales), bytes(segment.vectors), ...(sentences ? [bytes(sentences.scales), bytes(sentences.vectors)] : [])]));
}

export function decodeSegment(bytes: Uint8Array): IndexSegment {
  const raw = gunzipSync(bytes);
  const length = raw.readUInt32LE(0);
  const header = JSON.parse(raw.subarray(4, 4 + length).toString('utf8')) as { v: number; modelId: string; dimensions: number; units: SegmentUnit[]; sentenceOwners?: number[] };
  // Copies, so the typed arrays are aligned whatever the header's length, and the vectors sit where the dense pass reads them fastest (`int8Rows`).
  const read = (start: number, n: number) => {
    const scales = new Float32Array(n);
    for (let i = 0; i < n; i += 1) scales[i] = raw.readFloatLE(start + i * 4);
    const vectorStart = start + n * 4;
    const end = vectorStart + n * header.dimensions;
    const vectors = int8Rows(n, header.dimensions);
    vectors.set(new Int8Array(raw.buffer, raw.byteOffset + vectorStart, end - vectorStart));
    return { scales, vectors, end };
  };
  const units = read(4 + length, header.units.length);
  const base = { modelId: header.modelId, dimensions: header.dimensions, units: header.units, scales: units.scales, vectors: units.vectors, headerBytes: length };
  const owners = header.sentenceOwners ?? [];
  if (owners.length === 0) return base;
  if (owners.some((owner) => !(Number.isInteger(owner) && owner >= 0 && owner < header.units.length))) throw new Error(`segment: a sentence vector of a unit beyond its ${header.units.length} units`);
  const sentences = read(units.end, owners.length);
  return { ...base, sentences: { owners: Uint32Array.from(owners), scales: sentences.scales, vectors: sentences.vectors } };
}

/**
 * Decoded units, terms and postings against the JSON header they were read
 * from: 2.4 for a segment of 20,000 records like the read benchmark's, with
 * or without sentence vectors (heap and array buffers after a full GC, less
 * the vectors), rounded up.
 */
export const DECODED_PER_HEADER_BYTE = 2.5;

/**
 * What a decoded segment takes in memory, estimated: its vectors and scales
 * as stored, and its units by their header's length. Undefined for a segment
 * not read from its stored form.
 */
export function decodedBytes(segment: IndexSegment): number | undefined {
  if (segment.headerBytes === undefined) return undefined;
  const sentences = segment.sentences;
  // Vectors by the buffer they hold on to: a kernel's memory is whole 64 KiB pages, with room for a query and its sums.
  const arrays = segment.vectors.buffer.byteLength + segment.scales.byteLength + (sentences ? sentences.vectors.buffer.byteLength + sentences.scales.byteLength + sentences.owners.byteLength : 0);
  return arrays + DECODED_PER_HEADER_BYTE * segment.headerBytes;
}

/**
 * Which segments to merge after one was added: the first tier holding
 * `MERGE_FAN_IN` or more segments, oldest first. Repeated after each merge,
 * an agent with n batches keeps O(log n) segments.
 */
export function mergePlan(segments: readonly SegmentRef[]): { tier: number; keys: string[] } | undefined {
  const tiers = [...new Set(segments.map((s) => s.tier))].sort((a, b) => a - b);
  for (const tier of tiers) {
    const inTier = segments.filter((s) => s.tier === tier);
    if (inTier.length >= MERGE_FAN_IN) return { tier, keys: inTier.slice(0, MERGE_FAN_IN).map((s) => s.key) };
  }
  return undefined;
}

/** Units of several segments (oldest first) as one: the newest copy of each id wins; dropped ids are left out. */
export function mergeSegments(segments: readonly IndexSegment[], dropped: ReadonlySet<string>): { units: SegmentUnit[]; vectors: Float32Array[]; sentences: SentenceVector[] } {
  const latest = new Map<string, { segment: IndexSegment; index: number }>();
  for (const segment of segments) segment.units.forEach((unit, index) => latest.set(unit.id, { segment, index }));
  const ofSegment = new Map(segments.map((segment) => [segment, sentenceVectors(segment)]));
  const units: SegmentUnit[] = [];
  const vectors: Float32Array[] = [];
  const sentences: SentenceVector[] = [];
  for (const [id, { segment, index }] of latest) {
    if (dropped.has(id)) continue;
    for (const vector of ofSegment.get(segment)!.get(index) ?? []) sentences.push({ owner: units.length, vector });
    units.push(segment.units[index]!);
    vectors.push(unitVector(segment, index));
  }
  return { units, vectors, sentences };
}
