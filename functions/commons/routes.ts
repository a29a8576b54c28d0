/**
 * The HTTP API, declared once. The CDK stack builds API Gateway routes from
 * this table, each HTTP handler dispatches on it (405 with `Allow` for a
 * method the path does not take), the local API server serves what the stack
 * synthesises from it, and the scope each route requires is read from it.
 */
import type { Scope as KeyScope } from '../domain/auth.js';

/** A key's scopes, or `public`: served without a key (only the API's own description). */
export type Scope = KeyScope | 'public';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** The stack's HTTP functions, by construct id (`functions/handlers/<kebab-case id>.ts`). */
export type HttpFunctionId = 'Ingest' | 'Status' | 'Flush' | 'MemoryReader' | 'Sweep' | 'Reader' | 'Erase' | 'Feedback' | 'Export';

export interface RouteSpec {
  /** Names the operation; a handler maps each of its operations to code. */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Path with `{param}` placeholders, as API Gateway writes it. */
  readonly path: string;
  readonly functionId: HttpFunctionId;
  readonly scope: Scope;
  readonly summary: string;
}

const agent = '/v1/agents/{agentId}';

export const ROUTES = [
  { operation: 'ingestEvents', method: 'POST', path: `${agent}/events`, functionId: 'Ingest', scope: 'write', summary: 'Append events to the raw log (no model call); every 50th message queues a batch' },
  { operation: 'readStatus', method: 'GET', path: `${agent}/status`, functionId: 'Status', scope: 'read', summary: "The agent's counters and consolidation progress" },
  { operation: 'flushAgent', method: 'POST', path: `${agent}/flush`, functionId: 'Flush', scope: 'write', summary: 'Consolidate the open partial batch now' },
  { operation: 'listContacts', method: 'GET', path: `${agent}/contacts`, functionId: 'MemoryReader', scope: 'read', summary: 'Contacts, page by page' },
  { operation: 'listFacts', method: 'GET', path: `${agent}/facts`, functionId: 'MemoryReader', scope: 'read', summary: 'Facts, page by page' },
  { operation: 'listTasks', method: 'GET', path: `${agent}/tasks`, functionId: 'MemoryReader', scope: 'read', summary: 'Tasks, page by page' },
  { operation: 'readAudit', method: 'GET', path: `${agent}/audit`, functionId: 'MemoryReader', scope: 'admin', summary: "The patches applied for one batch, with before and after" },
  { operation: 'listSummaries', method: 'GET', path: `${agent}/summaries`, functionId: 'MemoryReader', scope: 'read', summary: "A ladder's summaries, page by page" },
  { operation: 'readInjection', method: 'GET', path: `${agent}/injections/{requestId}`, functionId: 'MemoryReader', scope: 'read', summary: 'What one context response injected' },
  { operation: 'sweepAgent', method: 'POST', path: `${agent}/sweep`, functionId: 'Sweep', scope: 'admin', summary: "Close the agent's ended days and idle interactions now" },
  { operation: 'rebuildSummaries', method: 'POST', path: `${agent}/summaries/rebuild`, functionId: 'Sweep', scope: 'admin', summary: 'Regenerate a range of base summaries and their ancestors' },
  { operation: 'readSnapshot', method: 'GET', path: `${agent}/snapshot`, functionId: 'Reader', scope: 'read', summary: 'The ready-made snapshot (one lookup)' },
  { operation: 'eraseAgent', method: 'DELETE', path: agent, functionId: 'Erase', scope: 'admin', summary: 'Erase everything of the agent (queued; 202): raw records and their versions, every item in every table' },
  { operation: 'giveFeedback', method: 'POST', path: `${agent}/feedback`, functionId: 'Feedback', scope: 'write', summary: 'Say whether an item was helpful, wrong or outdated (an audited change)' },
  { operation: 'exportAgent', method: 'GET', path: `${agent}/export`, functionId: 'Export', scope: 'admin', summary: 'Everything of the agent (raw records, items with history, summaries, audit) as NDJSON, in parts of at most 4.5 MB' },
  { operation: 'revertBatch', method: 'POST', path: `${agent}/audit/{batch}/revert`, functionId: 'Feedback', scope: 'admin', summary: "Apply the inverse of a batch's patches as a new audited change" },
  { operation: 'readItemHistory', method: 'GET', path: `${agent}/items/{itemId}/history`, functionId: 'MemoryReader', scope: 'read', summary: 'Every version of an item with the batch and patch that made it' },
  { operation: 'readContext', method: 'GET', path: `${agent}/context`, functionId: 'Reader', scope: 'read', summary: 'Budgeted, cited context for a prompt' },
  { operation: 'readRecord', method: 'GET', path: `${agent}/records/{recordId}`, functionId: 'Reader', scope: 'read', summary: 'One record by its event id (redacted), with the batch that holds it: what a cited id stands for' },
  { operation: 'readOpenApi', method: 'GET', path: '/openapi.json', functionId: 'Status', scope: 'public', summary: 'This API described as OpenAPI 3.1 (no key needed)' },
] as const satisfies readonly RouteSpec[];

export type Route = (typeof ROUTES)[number];
export type OperationOf<F extends HttpFunctionId> = Extract<Route, { functionId: F }>['operation'];

/** The routes one function serves. */
export function routesOf(functionId: HttpFunctionId): readonly RouteSpec[] {
  return ROUTES.filter((route) => route.functionId === functionId);
}

/** Distinct paths with the function serving each; a path belongs to one function only. */
export function pathsOf(routes: readonly RouteSpec[] = ROUTES): ReadonlyMap<string, HttpFunctionId> {
  const paths = new Map<string, HttpFunctionId>();
  for (const route of routes) {
    const owner = paths.get(route.path);
    if (owner !== undefined && owner !== route.functionId) throw new Error(`route table: ${route.path} is served by both ${owner} and ${route.functionId}`);
    paths.set(route.path, route.functionId);
  }
  return paths;
}

/** Whether a concrete path (`/v1/agents/a1/contacts`) matches a template (`/v1/agents/{agentId}/contacts`). */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  })}$`);
  const match = pattern.exec(path);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, match[index + 1]!]));
}
