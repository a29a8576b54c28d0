/** The reference pages are generated from the code: docs/api.md from the OpenAPI document, docs/configuration.md from the config schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../functions/commons/config.js';
import { openApiDocument } from '../../functions/commons/openapi.js';
import { ROUTES } from '../../functions/commons/routes.js';
import { apiReference, configurationReference } from '../../scripts/reference-docs.js';

const committed = (page: string) => readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8');

describe('generated reference pages', () => {
  it('docs/api.md is what the OpenAPI document generates (run npm run docs after changing the API)', () => {
    expect(committed('api.md')).toBe(apiReference(openApiDocument()));
  });

  it('docs/configuration.md is what the config schema generates (run npm run docs after changing a setting)', () => {
    expect(committed('configuration.md')).toBe(configurationReference(configSchema));
  });

  it('name every route and every setting, each setting with what it means', () => {
    const api = apiReference(openApiDocument());
    for (const route of ROUTES) expect(api).toContain(`### \`${route.method} ${route.path}\``);
    for (const [name, field] of Object.entries(configSchema.shape)) {
      expect(configurationReference(configSchema)).toContain(`| \`${name}\` |`);
      expect((field as { description?: string }).description, name).toMatch(/\w{3}/);
    }
  });
});
