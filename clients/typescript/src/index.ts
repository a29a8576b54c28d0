/**
 * The typed client of the agent memory API. Types come from docs/openapi.json
 * (`npm run client:types` regenerates src/schema.d.ts); requests go through
 * openapi-fetch with a bearer key, bounded retries on 503/429 honouring
 * Retry-After, deterministic event ids, and async iterators over pages.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import { withEventIds } from './event-ids.js';

export type { components, paths } from './schema.js';
export { deterministicEventId, withEventIds } from './event-ids.js';
export { retryAfterMs, type RetryOptions } from './retry.js';

type Schemas = components['schemas'];
export type Contact = Schemas['Contact'];
export type Fact = Schemas['Fact'];
export type Task = Schemas['Task'];
export type Summary = Schemas['Summary'];
export type AgentStatus = Schemas['AgentStatus'];
export type Context = Schemas['Context'];
export type Snapshot = Schemas['Snapshot'];
export type Injection = Schemas['Injection'];
export type Audit = Schemas['Audit'];
export type IngestResult = Schemas['IngestResult'];
export type FlushResult = Schemas['FlushResult'];
export type FeedbackRequest = Schemas['FeedbackRequest'];
export type FeedbackResult = Schemas['FeedbackResult'];
export type ApiErrorBody = Schemas['Error'];
/** An event as the API takes it. */
export type MemoryEvent = Schemas['IngestRequest']['events'][number];
/** An event as the client takes it: id and timestamp optional (derived / now). */
export type EventInput = Omit<MemoryEvent, 'id' | 'timestamp'> & { id?: string; timestamp?: string };

/** The API refused or failed a request: status, error class, and the offending fields when it named them. */
export class MemoryApiError extends Error {
  override readonly name = 'MemoryApiError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly issues: readonly { field: string; rule: string }[] = [],
  ) {
    super(message);
  }
}

export interface MemoryClientOptions {
  /** e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`. */
  readonly apiKey?: string | undefined;
  readonly retry?: RetryOptions;
  readonly fetch?: (request: Request) => Promise<Response>;
}

export const MAX_EVENTS_PER_REQUEST = 100;

export interface IngestProgress {
  readonly sent: number;
  readonly total: number;
  readonly accepted: number;
  readonly duplicates: number;
}

export interface ContextQuery {
  readonly query?: string;
  readonly maxTokens?: number;
  readonly contact?: string;
  /** A project, as events name it in `metadata.project`: its memory first, no other project's. */
  readonly project?: string;
  readonly views?: readonly ('contacts' | 'facts' | 'tasks' | 'time' | 'count')[];
}

type Store = 'contacts' | 'facts' | 'tasks';
type StoreItem<S extends Store> = S extends 'contacts' ? Contact : S extends 'facts' ? Fact : Task;

async function toError(response: Response, body: unknown): Promise<MemoryApiError> {
  const parsed = (body ?? {}) as Partial<ApiErrorBody> & { message?: string };
  return new MemoryApiError(
    response.status,
    parsed.error ?? `HTTP${response.status}`,
    parsed.message ?? `${response.status} ${response.statusText}`,
    parsed.issues ?? [],
  );
}

/** Unwraps an openapi-fetch result: the data, or a MemoryApiError. */
async function unwrap<T>(result: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await result;
  if (!response.ok) throw await toError(response, error);
  return data as T;
}

export class MemoryClient {
  /** The typed openapi-fetch client, for routes without a helper. */
  readonly api: Client<paths>;
  private readonly fetcher: (request: Request) => Promise<Response>;
  private readonly headers: Record<string, string>;

  constructor(readonly options: MemoryClientOptions) {
    this.fetcher = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry);
    this.headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    this.api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), headers: this.headers, fetch: this.fetcher });
  }

  /**
   * Posts events in requests of at most 100, in order. Events without an id
   * get a deterministic one (content + timestamp), events without a
   * timestamp get the current time; posting the same events again is safe.
   */
  async remember(agentId: string, events: readonly EventInput[], onProgress?: (progress: IngestProgress) => void): Promise<IngestProgress & { sequence: number }> {
    const now = new Date().toISOString();
    const complete = withEventIds(events.map((event) => ({ ...event, timestamp: event.timestamp ?? now }))) as MemoryEvent[];
    let accepted = 0;
    let duplicates = 0;
    let sequence = 0;
    for (let start = 0; start < complete.length; start += MAX_EVENTS_PER_REQUEST) {
      const chunk = complete.slice(start, start + MAX_EVENTS_PER_REQUEST);
      const result = await unwrap(this.api.POST('/v1/agents/{agentId}/events', { params: { path: { agentId } }, body: { events: chunk } }));
      accepted += result.accepted;
      duplicates += result.duplicates;
      sequence = result.sequence;
      onProgress?.({ sent: start + chunk.length, total: complete.length, accepted, duplicates });
    }
    return { sent: complete.length, total: complete.length, accepted, duplicates, sequence };
  }

  status(agentId: string): Promise<AgentStatus> {
    return unwrap(this.api.GET('/v1/agents/{agentId}/status', { params: { path: { agentId } } }));
  }

  flush(agentId: string): Promise<FlushResult> {
    return unwrap(this.api.POST('/v1/agents/{agentId}/flush', { params: { path: { agentId } } }));
  }

  /**
   * Says whether an item the agent used was `helpful`, `wrong` or `outdated`
   * (pass the context response's `requestId` as `injectionId` when it came
   * from one). Feedback is an audited change: helpful verifies, wrong
   * refutes, outdated archives.
   */
  feedback(agentId: string, body: FeedbackRequest): Promise<FeedbackResult> {
    return unwrap(this.api.POST('/v1/agents/{agentId}/feedback', { params: { path: { agentId } }, body }));
  }

  sweep(agentId: string) {
    return unwrap(this.api.POST('/v1/agents/{agentId}/sweep', { params: { path: { agentId } } }));
  }

  /** Budgeted context for a prompt, with the ids of what it includes (`items`) and the injection log key (`requestId`). */
  context(agentId: string, query: ContextQuery = {}): Promise<Context> {
    return unwrap(
      this.api.GET('/v1/agents/{agentId}/context', {
        params: {
          path: { agentId },
          query: {
            ...(query.query !== undefined ? { query: query.query } : {}),
            ...(query.maxTokens !== undefined ? { maxTokens: query.maxTokens } : {}),
            ...(query.contact !== undefined ? { contact: query.contact } : {}),
            ...(query.project !== undefined ? { project: query.project } : {}),
            ...(query.views ? { views: query.views.join(',') } : {}),
          },
        },
      }),
    );
  }

  snapshot(agentId: string): Promise<Snapshot> {
    return unwrap(this.api.GET('/v1/agents/{agentId}/snapshot', { params: { path: { agentId } } }));
  }

  injection(agentId: string, requestId: string): Promise<Injection> {
    return unwrap(this.api.GET('/v1/agents/{agentId}/injections/{requestId}', { params: { path: { agentId, requestId } } }));
  }

  audit(agentId: string, batch: number): Promise<Audit> {
    return unwrap(this.api.GET('/v1/agents/{agentId}/audit', { params: { path: { agentId }, query: { batch } } }));
  }

  /** One page of a store. */
  page<S extends Store>(agentId: string, store: S, page: { limit?: number; nextToken?: string } = {}): Promise<{ items: StoreItem<S>[]; nextToken?: string }> {
    const init = { params: { path: { agentId }, query: page } };
    const request =
      store === 'contacts' ? this.api.GET('/v1/agents/{agentId}/contacts', init) : store === 'facts' ? this.api.GET('/v1/agents/{agentId}/facts', init) : this.api.GET('/v1/agents/{agentId}/tasks', init);
    return unwrap(request as Promise<{ data?: { items: StoreItem<S>[]; nextToken?: string }; error?: unknown; response: Response }>);
  }

  /** Every item of a store, page after page. */
  async *items<S extends Store>(agentId: string, store: S, options: { pageSize?: number } = {}): AsyncGenerator<StoreItem<S>> {
    let nextToken: string | undefined;
    do {
      const result = await this.page(agentId, store, { ...(options.pageSize ? { limit: options.pageSize } : {}), ...(nextToken ? { nextToken } : {}) });
      yield* result.items;
      nextToken = result.nextToken;
    } while (nextToken);
  }

  contacts(agentId: string, options?: { pageSize?: number }) {
    return this.items(agentId, 'contacts', options);
  }

  facts(agentId: string, options?: { pageSize?: number }) {
    return this.items(agentId, 'facts', options);
  }

  tasks(agentId: string, options?: { pageSize?: number }) {
    return this.items(agentId, 'tasks', options);
  }

  /** Every summary of a ladder (one level, or all), page after page. */
  async *summaries(agentId: string, ladder: 'time' | 'count', options: { level?: number; pageSize?: number } = {}): AsyncGenerator<Summary> {
    let nextToken: string | undefined;
    do {
      const query = { ladder, ...(options.level !== undefined ? { level: options.level } : {}), ...(options.pageSize ? { limit: options.pageSize } : {}), ...(nextToken ? { nextToken } : {}) };
      const result = await unwrap(this.api.GET('/v1/agents/{agentId}/summaries', { params: { path: { agentId }, query } }));
      yield* result.items;
      nextToken = result.nextToken;
    } while (nextToken);
  }

  /** Collects an async iterator (a helper for small stores). */
  static async all<T>(iterator: AsyncIterable<T>): Promise<T[]> {
    const items: T[] = [];
    for await (const item of iterator) items.push(item);
    return items;
  }

  /**
   * Erases everything stored for an agent (`DELETE /v1/agents/{agentId}`).
   * Not in the document yet: a server without the route answers 404 or 405,
   * surfaced as a MemoryApiError with that status.
   */
  async erase(agentId: string): Promise<unknown> {
    const request = new Request(`${this.options.baseUrl.replace(/\/+$/, '')}/v1/agents/${encodeURIComponent(agentId)}`, { method: 'DELETE', headers: this.headers });
    const response = await this.fetcher(request);
    const text = await response.text();
    const body = text ? safeJson(text) : undefined;
    if (!response.ok) throw await toError(response, body);
    return body;
  }

  /** The API's OpenAPI document (no key needed). */
  openapi(): Promise<Record<string, unknown>> {
    return unwrap(this.api.GET('/openapi.json')) as Promise<Record<string, unknown>>;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}

export function createMemoryClient(options: MemoryClientOptions): MemoryClient {
  return new MemoryClient(options);
}
