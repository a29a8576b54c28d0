/**
 * Dot products of one query with many rows of int8 components: the dense pass
 * of the retrieval index (retrieval.ts), which at 10,000 records reads some
 * 20,000 stored vectors of 512 components per question (a record's and its
 * sentences'). In plain JavaScript that pass took 14 ms of a 45 ms read.
 *
 * The query is quantised to int16 (`quantiseQuery`), so each product is an
 * exact integer however it is computed: in WebAssembly SIMD (int8-dots.wat,
 * sixteen components a step) for rows allocated in a kernel's own memory
 * (`int8Rows`), else in plain JavaScript. Both give the same number, so a
 * ranking never depends on which path ran. The kernel's bytes are compiled
 * into the module (int8-dots-wasm.ts): nothing is read from a file at run time.
 */
import { INT8_DOTS_WASM } from './int8-dots-wasm.js';

/** A query's components as int16, and what one unit of them is worth. */
export interface QuantisedQuery {
  readonly values: Int16Array;
  readonly step: number;
}

/** At most this much per component: 16,383 × 128 × dimensions stays within int32 up to 1,024 dimensions. */
const QUERY_MAX = 16_383;

export function quantiseQuery(query: Float32Array): QuantisedQuery {
  let max = 0;
  for (const x of query) max = Math.max(max, Math.abs(x));
  // Beyond 1,024 dimensions, a smaller range keeps the sum of products within int32.
  const top = Math.min(QUERY_MAX, Math.floor(0x7fffffff / (128 * Math.max(1, query.length))));
  const step = max === 0 ? 1 : max / top;
  const values = new Int16Array(query.length);
  for (let d = 0; d < query.length; d += 1) values[d] = Math.round(query[d]! / step);
  return { values, step };
}

/** Rows of fewer bytes stay in a plain array: a kernel's memory (64 KiB pages) is not worth it for them. */
const KERNEL_MIN_BYTES = 64 * 1024;

/** The parts of the WebAssembly API used here (the project's TypeScript libraries declare none of it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: Wasm }).WebAssembly;

interface Kernel {
  readonly dots: (rows: number, count: number, dims: number, query: number, out: number) => void;
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly count: number;
  readonly dims: number;
  readonly queryAt: number;
  readonly outAt: number;
}

/** Each kernel by the buffer of the rows it holds. */
const kernels = new WeakMap<ArrayBufferLike, Kernel>();

/**
 * Kernels alive at most. Each memory reserves about 10 GB of address space (V8's guard regions; some 13,000 fit in a
 * 64-bit process, and a failed reservation stalls on full collections before it gives up), and dead ones are freed
 * only when collected: beyond this many, rows go to plain arrays.
 */
const MAX_KERNELS = 1_024;
let liveKernels = 0;
const collected = new FinalizationRegistry<null>(() => {
  liveKernels -= 1;
});

let compiled: object | null | undefined;

/** The compiled kernel, or null where this runtime has no WebAssembly SIMD (the plain path then serves). */
function kernelModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(Buffer.from(INT8_DOTS_WASM, 'base64')) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const aligned = (n: number) => Math.ceil(n / 16) * 16;

/**
 * Zeroed room for `count` rows of `dims` int8 components: in a kernel's own
 * memory when the rows are large enough and the runtime can, else a plain
 * array. Either way an ordinary Int8Array; the memory is freed with it.
 */
export function int8Rows(count: number, dims: number, kernel = true): Int8Array {
  const bytes = count * dims;
  const module = kernel && bytes >= KERNEL_MIN_BYTES && dims % 16 === 0 ? kernelModule() : null;
  if (!module || !wasm || liveKernels >= MAX_KERNELS) return new Int8Array(bytes);
  const queryAt = aligned(bytes);
  const outAt = aligned(queryAt + dims * 2);
  try {
    const memory = new wasm.Memory({ initial: Math.ceil((outAt + count * 4) / 65_536) });
    const instance = new wasm.Instance(module, { env: { memory } });
    kernels.set(memory.buffer, { dots: instance.exports.dots as Kernel['dots'], memory, count, dims, queryAt, outAt });
    liveKernels += 1;
    collected.register(memory, null);
    return new Int8Array(memory.buffer, 0, bytes);
  } catch {
    // No memory to be had for one more kernel: the plain path serves.
    return new Int8Array(bytes);
  }
}

/** Kernels alive now, for tests. */
export function kernelsAlive(): number {
  return liveKernels;
}

/** Whether rows were given a kernel's memory (`int8Rows`), for tests. */
export function inKernel(rows: Int8Array): boolean {
  return kernels.has(rows.buffer);
}

function plainDot(query: Int16Array, rows: Int8Array, base: number, dims: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let e = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    a += query[d]! * rows[base + d]!;
    b += query[d + 1]! * rows[base + d + 1]!;
    c += query[d + 2]! * rows[base + d + 2]!;
    e += query[d + 3]! * rows[base + d + 3]!;
  }
  for (; d < dims; d += 1) a += query[d]! * rows[base + d]!;
  return a + b + c + e;
}

/**
 * `out[i]`: the dot product of the query with row `i` of `rows` (`count` rows
 * of `dims` components from the start), in the query's own terms.
 */
export function rowDots(query: QuantisedQuery, rows: Int8Array, count: number, dims: number, out: Float32Array): void {
  if (query.values.length !== dims) throw new Error(`int8 dots: a query of ${query.values.length} components for rows of ${dims}`);
  if (count * dims > rows.length) throw new Error(`int8 dots: ${count} rows of ${dims} asked of ${rows.length} components`);
  const kernel = kernels.get(rows.buffer);
  if (kernel && rows.byteOffset === 0 && kernel.dims === dims && count <= kernel.count) {
    new Int16Array(kernel.memory.buffer, kernel.queryAt, dims).set(query.values);
    kernel.dots(0, count, dims, kernel.queryAt, kernel.outAt);
    const sums = new Int32Array(kernel.memory.buffer, kernel.outAt, count);
    for (let i = 0; i < count; i += 1) out[i] = sums[i]! * query.step;
    return;
  }
  for (let i = 0; i < count; i += 1) out[i] = plainDot(query.values, rows, i * dims, dims) * query.step;
}
