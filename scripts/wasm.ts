/**
 * `npm run wasm`: compiles functions/domain/int8-dots.wat (WebAssembly text,
 * with SIMD) into functions/domain/int8-dots-wasm.ts, the bytes the
 * functions load with no file read at run time (`--check` fails when the
 * written module is stale). A unit test compiles it the same way and compares.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const SOURCE = fileURLToPath(new URL('../functions/domain/int8-dots.wat', import.meta.url));
export const WASM_MODULE_PATH = fileURLToPath(new URL('../functions/domain/int8-dots-wasm.ts', import.meta.url));

/** The TypeScript module holding the compiled kernel, as written to int8-dots-wasm.ts. */
export async function compiledKernelModule(): Promise<string> {
  const wabt = await wabtInit();
  const parsed = wabt.parseWat('int8-dots.wat', readFileSync(SOURCE, 'utf8'), { simd: true });
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    return [
      '// Written by `npm run wasm` from int8-dots.wat: do not edit.',
      '/** The int8 dot-product kernel (int8-dots.wat), compiled, in base64. */',
      `export const INT8_DOTS_WASM = '${Buffer.from(buffer).toString('base64')}';`,
      '',
    ].join('\n');
  } finally {
    parsed.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await compiledKernelModule();
  if (process.argv.includes('--check')) {
    const current = (() => { try { return readFileSync(WASM_MODULE_PATH, 'utf8'); } catch { return ''; } })();
    if (current !== text) {
      console.error('functions/domain/int8-dots-wasm.ts is stale: run npm run wasm');
      process.exit(1);
    }
  } else {
    writeFileSync(WASM_MODULE_PATH, text);
    console.log(`wrote ${WASM_MODULE_PATH}`);
  }
}
