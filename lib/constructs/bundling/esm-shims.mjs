// Injected into every ESM bundle (esbuild `inject`): CommonJS code that reads
// `__dirname` or `__filename` finds the bundle's own directory, so files shipped
// beside index.mjs (model weights, WebAssembly) are found where Lambda unzips them.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundleFile = fileURLToPath(import.meta.url);
const bundleDirectory = dirname(bundleFile);

export { bundleFile as __filename, bundleDirectory as __dirname };
