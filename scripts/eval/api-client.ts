/**
 * The evaluation's only way into the service: its public HTTP API, with
 * throttling and server errors retried and a client error reported at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** An item or summary as the list endpoints return it (the fields the evaluation reads). */
export interface Listed {
  readonly id: string;
  readonly status?: string;
  readonly evidence?: readonly { recordId: string }[];
  readonly children?: readonly string[];
  readonly sources?: readonly string[];
  readonly text?: string;
  readonly empty?: boolean;
  readonly statement?: string;
  readonly biography?: string;
  readonly summary?: string;
  readonly title?: string;
}

export interface ContextResponse {
  readonly markdown: string;
  readonly tokens: number;
  readonly items: readonly { id: string; kind: string }[];
  /** The injection id (also the `x-request-id` header): what feedback names as `injectionId`. */
  readonly requestId?: string;
}

export class ApiClient {
  constructor(
    private readonly url: string,
    /** The eval's own API key (sent as a bearer token). */
    private readonly key: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(`${this.url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (error) {
        // A pooled connection the server closed while the harness was busy (embedding, scoring) resets on
        // reuse. Every call the harness makes can be repeated: events are deduplicated by id, flush and
        // sweep are idempotent, the rest are reads.
        if (attempt >= 5) throw error;
        await sleep(200 * attempt);
        continue;
      }
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : {}) as T;
      // Throttling and server errors are retried; a 4xx is the harness's or the corpus's fault.
      if ((response.status !== 429 && response.status < 500) || attempt >= 5) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
      await sleep(200 * attempt);
    }
  }

  async listAll(path: string): Promise<Listed[]> {
    const items: Listed[] = [];
    let token: string | undefined;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page = await this.call<{ items: Listed[]; nextToken?: string }>('GET', `${path}${separator}limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
      items.push(...page.items);
      token = page.nextToken;
    } while (token);
    return items;
  }

  /** `GET /context` for one question at one budget (and, for an ablation, a set of views). */
  async context(agentId: string, query: string, maxTokens: number, views?: string): Promise<ContextResponse> {
    const params = new URLSearchParams({ maxTokens: String(maxTokens), query: query.slice(0, 1_000), ...(views ? { views } : {}) });
    return this.call<ContextResponse>('GET', `/v1/agents/${agentId}/context?${params}`);
  }
}
