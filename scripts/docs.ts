/** `npm run docs`: writes the generated reference pages (docs/api.md, docs/configuration.md); `--check` fails when either is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../functions/commons/config.js';
import { openApiDocument } from '../functions/commons/openapi.js';
import { apiReference, configurationReference } from './reference-docs.js';

const pages = [
  { path: fileURLToPath(new URL('../docs/api.md', import.meta.url)), text: apiReference(openApiDocument()) },
  { path: fileURLToPath(new URL('../docs/configuration.md', import.meta.url)), text: configurationReference(configSchema) },
];
const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
if (process.argv.includes('--check')) {
  const stale = pages.filter((page) => read(page.path) !== page.text);
  for (const page of stale) console.error(`${page.path} is stale: run npm run docs`);
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const page of pages) {
  writeFileSync(page.path, page.text);
  console.log(`wrote ${page.path}`);
}
