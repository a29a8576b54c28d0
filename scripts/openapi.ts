/** `npm run openapi`: writes docs/openapi.json from the code (`--check` fails when the file is stale). */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../functions/commons/openapi.js';

export const OPENAPI_PATH = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const current = (() => { try { return readFileSync(OPENAPI_PATH, 'utf8'); } catch { return ''; } })();
  if (current !== text) {
    console.error('docs/openapi.json is stale: run npm run openapi');
    process.exit(1);
  }
} else {
  writeFileSync(OPENAPI_PATH, text);
  console.log(`wrote ${OPENAPI_PATH}`);
}
