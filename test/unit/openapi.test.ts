/** The OpenAPI document is generated from the route table and the zod schemas, and docs/openapi.json is that document. */
import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/commons/openapi.js';
import { ROUTES } from '../../functions/commons/routes.js';
import { rebuildRequestSchema, ingestRequestSchema } from '../../functions/commons/api-schemas.js';

type Operation = { operationId: string; security: unknown[]; parameters?: { name: string; in: string }[]; responses: Record<string, unknown>; requestBody?: unknown };
const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown>; schemas: Record<string, any> } };
const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes every route of the table, and nothing else', () => {
    const inDoc = operations.map(({ path, method, operation }) => `${method} ${path} ${operation.operationId}`).sort();
    const inTable = ROUTES.map((route) => `${route.method} ${route.path} ${route.operation}`).sort();
    expect(inDoc).toEqual(inTable);
  });

  it('asks for a key on every route but its own', () => {
    for (const { path, operation } of operations) {
      if (path === '/openapi.json') expect(operation.security).toEqual([]);
      else {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses).toHaveProperty('401');
        expect(operation.responses).toHaveProperty('403');
      }
    }
  });

  it('declares every path placeholder as a path parameter', () => {
    for (const { path, operation } of operations) {
      const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name).sort();
      expect(declared).toEqual(placeholders);
    }
  });

  it('gives error responses the one error shape, with field issues', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['error', 'message']);
    expect(error.properties.issues.items.required).toEqual(['field', 'rule']);
    const ingest = doc.paths['/v1/agents/{agentId}/events']!.post!;
    for (const status of ['400', '409', '413', '503']) expect(JSON.stringify(ingest.responses[status])).toContain('#/components/schemas/Error');
  });

  it('documents the bodies the handlers validate with', () => {
    expect(doc.components.schemas.IngestRequest.required).toEqual(['events']);
    expect(doc.components.schemas.IngestRequest.properties.events.maxItems).toBe(100);
    expect(ingestRequestSchema.safeParse({ events: [] }).success).toBe(false);
    expect(rebuildRequestSchema.safeParse({ ladder: 'count', from: 1, to: 3 }).success).toBe(true);
    expect(JSON.stringify(doc.paths['/v1/agents/{agentId}/summaries/rebuild']!.post!.requestBody)).toContain('RebuildRequest');
  });

  it('is what docs/openapi.json holds (run npm run openapi after changing the API)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('is what the typed client was generated from (run npm run client:types after npm run openapi)', async () => {
    const generated = astToString(await openapiTS(new URL('../../docs/openapi.json', import.meta.url)));
    const committed = readFileSync(new URL('../../clients/typescript/src/schema.d.ts', import.meta.url), 'utf8');
    expect(committed.endsWith(generated)).toBe(true);
    expect(committed.length - generated.length).toBeLessThan(200);
  });
});
