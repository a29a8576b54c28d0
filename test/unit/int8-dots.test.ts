/**
 * The dense pass's dot products: the WebAssembly kernel and the plain path
 * give the same exact numbers, the kernel is the one compiled from its
 * source, and a decoded segment's vectors sit in a kernel's memory.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inKernel, int8Rows, kernelsAlive, quantiseQuery, rowDots } from '../../functions/domain/int8-dots.js';
import { buildSegment, decodeSegment, encodeSegment, type SegmentUnit } from '../../functions/domain/index-segment.js';
import { compiledKernelModule, WASM_MODULE_PATH } from '../../scripts/wasm.js';

/** A deterministic stream of numbers in [0, 1). */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomRows(count: number, dims: number, kernel: boolean, next: () => number): Int8Array {
  const rows = int8Rows(count, dims, kernel);
  for (let i = 0; i < rows.length; i += 1) rows[i] = Math.floor(next() * 256) - 128;
  return rows;
}

function randomQuery(dims: number, next: () => number): Float32Array {
  const query = new Float32Array(dims);
  for (let d = 0; d < dims; d += 1) query[d] = next() * 2 - 1;
  return query;
}

describe('int8 dot products', () => {
  it('are the same exact numbers in the kernel and on the plain path, extremes included', () => {
    const next = numbers(7);
    for (const dims of [512, 1_024]) {
      const count = 300;
      const inMemory = randomRows(count, dims, true, next);
      const plain = int8Rows(count, dims, false);
      plain.set(inMemory);
      // The extremes, where a sum could leave int32: a row of -128 against a query at its largest.
      inMemory.fill(-128, 0, dims);
      plain.fill(-128, 0, dims);
      expect(inKernel(inMemory)).toBe(true);
      expect(inKernel(plain)).toBe(false);
      const vector = randomQuery(dims, next);
      vector.fill(-1, 0, dims);
      const query = quantiseQuery(vector);
      const [a, b] = [new Float32Array(count), new Float32Array(count)];
      rowDots(query, inMemory, count, dims, a);
      rowDots(query, plain, count, dims, b);
      expect([...a]).toEqual([...b]);
      // Each is the integer sum of products, in the query's terms.
      for (const i of [0, 1, 150, count - 1]) {
        let sum = 0;
        for (let d = 0; d < dims; d += 1) sum += query.values[d]! * plain[i * dims + d]!;
        expect(a[i]).toBe(Math.fround(sum * query.step));
      }
      expect(a[0]).toBeGreaterThan(0);
    }
  });

  it('stay within half a step per component of the float dot product of the query as given', () => {
    const next = numbers(11);
    const dims = 512;
    const rows = randomRows(200, dims, true, next);
    const vector = randomQuery(dims, next);
    const out = new Float32Array(200);
    const query = quantiseQuery(vector);
    rowDots(query, rows, 200, dims, out);
    // The largest component is 16,383 steps.
    expect(query.step).toBeCloseTo(Math.max(...vector.map(Math.abs)) / 16_383, 9);
    for (let i = 0; i < 200; i += 1) {
      let exact = 0;
      let bound = 0;
      for (let d = 0; d < dims; d += 1) {
        exact += vector[d]! * rows[i * dims + d]!;
        bound += (query.step / 2) * Math.abs(rows[i * dims + d]!);
      }
      expect(Math.abs(out[i]! - exact)).toBeLessThanOrEqual(bound + Math.abs(exact) * 1e-6);
    }
  });

  it('read the first rows only when asked for fewer, and refuse a query of other dimensions', () => {
    const next = numbers(3);
    const rows = randomRows(256, 512, true, next);
    const query = quantiseQuery(randomQuery(512, next));
    const all = new Float32Array(256);
    const some = new Float32Array(256);
    rowDots(query, rows, 256, 512, all);
    rowDots(query, rows, 10, 512, some);
    expect([...some.slice(0, 10)]).toEqual([...all.slice(0, 10)]);
    expect([...some.slice(10)].every((x) => x === 0)).toBe(true);
    expect(() => rowDots(quantiseQuery(new Float32Array(384)), rows, 256, 512, all)).toThrow(/384 components for rows of 512/);
    expect(() => rowDots(query, rows.subarray(0, 512 * 100), 101, 512, all)).toThrow(/101 rows of 512 asked of 51200/);
  });

  it('keep small rows, and rows the kernel cannot step through, in a plain array', () => {
    expect(inKernel(int8Rows(50, 512))).toBe(false);
    expect(inKernel(int8Rows(1_000, 100))).toBe(false);
    const before = kernelsAlive();
    expect(inKernel(int8Rows(1_000, 512))).toBe(true);
    // Counted while alive (and counted down as collected, which a test cannot time).
    expect(kernelsAlive()).toBe(before + 1);
  });

  it('read a decoded segment’s vectors from a kernel’s memory, scoring as the built segment does', () => {
    const next = numbers(5);
    const units: SegmentUnit[] = Array.from({ length: 200 }, (_, i) => ({ id: `r${i}`, kind: 'record', text: `record ${i}`, evidence: [], terms: `record ${i}` }));
    const unitVectors = units.map(() => {
      const v = randomQuery(512, next);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
    const sentences = unitVectors.slice(0, 150).map((vector, owner) => ({ owner, vector }));
    const built = buildSegment('m', 512, units, unitVectors, sentences);
    const decoded = decodeSegment(encodeSegment(built));
    expect(inKernel(decoded.vectors)).toBe(true);
    expect(inKernel(decoded.sentences!.vectors)).toBe(true);
    const query = quantiseQuery(randomQuery(512, next));
    const [a, b] = [new Float32Array(200), new Float32Array(200)];
    rowDots(query, built.vectors, 200, 512, a);
    rowDots(query, decoded.vectors, 200, 512, b);
    expect([...b]).toEqual([...a]);
  });

  it('come from the kernel compiled from its WebAssembly text (`npm run wasm`)', async () => {
    expect(readFileSync(WASM_MODULE_PATH, 'utf8')).toBe(await compiledKernelModule());
  });
});
