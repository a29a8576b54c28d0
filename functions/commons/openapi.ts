/**
 * The OpenAPI 3.1 document, generated from the route table and the zod
 * schemas in api-schemas.ts: every route of the table, nothing else.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { OPERATION_SCHEMAS, agentIdParameter, errorSchema } from './api-schemas.js';
import { ROUTES } from './routes.js';

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Bad input: `issues` names each field and rule; nothing was written',
  401: 'Missing or unknown API key',
  403: 'The key lacks the scope this route requires',
  404: 'Not found',
  405: 'Method not allowed (see the Allow header)',
  409: 'An event id was reused for different content; nothing was written',
  413: 'Request body too large',
  500: 'Internal error; the request may be retried safely',
  503: 'A dependency failed or a race was lost; retry after Retry-After seconds',
};
const COMMON_ERRORS = [400, 401, 403, 404, 405, 500, 503];

let cached: Record<string, unknown> | undefined;

/** The API description; built once per process. */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `Authorization: Bearer <key>`. Each key carries scopes (read, write, admin).',
  });
  for (const route of ROUTES) {
    const shapes = OPERATION_SCHEMAS[route.operation];
    const isPublic = route.scope === 'public';
    const params = route.path.includes('{agentId}') ? z.object({ agentId: agentIdParameter, ...(shapes.extraParams?.shape ?? {}) }) : shapes.extraParams;
    const errors = isPublic ? [500] : [...COMMON_ERRORS, ...(shapes.errors ?? [])].sort((a, b) => a - b);
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {};
    for (const [status, response] of Object.entries(shapes.responses)) {
      responses[status] = { description: response.description, ...(response.schema ? { content: { 'application/json': { schema: response.schema } } } : {}) };
    }
    for (const status of errors) responses[String(status)] = { description: ERROR_DESCRIPTIONS[status]!, content: { 'application/json': { schema: errorSchema } } };
    registry.registerPath({
      method: route.method.toLowerCase() as 'get' | 'post' | 'delete',
      path: route.path,
      operationId: route.operation,
      summary: route.summary,
      description: `${shapes.about ? `${shapes.about}\n\n` : ''}${isPublic ? 'No key needed.' : `Requires a key with the \`${route.scope}\` scope.`}`,
      tags: [route.functionId],
      security: isPublic ? [] : [{ [bearer.name]: [] }],
      request: {
        ...(params ? { params } : {}),
        ...(shapes.query ? { query: shapes.query } : {}),
        ...(shapes.body ? { body: { required: true, content: { 'application/json': { schema: shapes.body } } } } : {}),
      },
      responses,
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  cached = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Agent memory consolidation API',
      version: '0.1.0',
      description: 'Append an agent\'s events; read back consolidated contacts, facts, tasks, summary ladders and budgeted context.',
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'npm start' }],
    security: [{ bearerAuth: [] }],
  }) as unknown as Record<string, unknown>;
  return cached;
}
