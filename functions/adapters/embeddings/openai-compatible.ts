/**
 * OpenAI-compatible adapter (OpenAI, Ollama, llama.cpp server, vLLM, ...):
 * `POST {baseUrl}/embeddings` with the texts in batches. 429 and 5xx
 * answers, network failures and timeouts are retried with exponential
 * backoff, honouring Retry-After; a 4xx other than 429 is final. Embedding is
 * idempotent, so a retried batch can never double-write anything.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { mapWithConcurrency } from '../../commons/concurrency.js';
import { EmbeddingError, EmbeddingResponseError, type EmbeddingPort } from '../../ports/embeddings.js';
import { toUnitVector } from './unit-vector.js';
import { resolveKey, type SecretSource } from '../secrets/secret-value.js';

export interface OpenAiCompatibleEmbeddingsOptions {
  /** Base URL up to and including `/v1`, e.g. `http://localhost:11434/v1` (the same convention as the model adapter). */
  readonly baseUrl: string;
  readonly modelId: string;
  /** Length of the model's vectors; every answer is checked against it. */
  readonly dimensions: number;
  /** A key, or where to read it (Secrets Manager, once per cold start). */
  readonly apiKey?: string | SecretSource;
  /** Texts per request. @default 64 */
  readonly batchSize?: number;
  /** Requests in flight at once within one `embed`. @default 2 */
  readonly concurrency?: number;
  /** Attempts per request. @default 5 */
  readonly maxAttempts?: number;
  /** First backoff delay; doubles per attempt. @default 500 */
  readonly backoffMs?: number;
  /** Longest Retry-After honoured; a server asking for more waits this long. @default 20000 */
  readonly maxRetryAfterMs?: number;
  /** Per-attempt timeout. @default 30000 */
  readonly timeoutMs?: number;
}

const responseSchema = (dimensions: number) =>
  z.object({
    data: z.array(z.object({ embedding: z.array(z.number()).length(dimensions), index: z.number().int().nonnegative() })),
    usage: z.object({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() }).optional(),
  });

/** Why an attempt failed, and whether another attempt could succeed. */
interface FailedAttempt {
  readonly retryable: boolean;
  readonly detail: string;
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

export class OpenAiCompatibleEmbeddings implements EmbeddingPort {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly url: string;
  private readonly schema: ReturnType<typeof responseSchema>;

  constructor(private readonly options: OpenAiCompatibleEmbeddingsOptions) {
    this.modelId = options.modelId;
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/$/, '')}/embeddings`;
    this.schema = responseSchema(options.dimensions);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const empty = texts.findIndex((text) => text.trim() === '');
    if (empty >= 0) throw new EmbeddingError(`${this.modelId} cannot embed an empty text (text ${empty})`);
    const size = this.options.batchSize ?? 64;
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += size) batches.push(texts.slice(start, start + size));
    const vectors = await mapWithConcurrency(batches, this.options.concurrency ?? 2, (batch) => this.embedBatch(batch));
    return vectors.flat();
  }

  private async embedBatch(input: readonly string[]): Promise<Float32Array[]> {
    const json = await this.post(JSON.stringify({ model: this.modelId, input }));
    const parsed = this.schema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
      throw new EmbeddingResponseError(`${this.modelId} answered outside the embeddings response shape (${this.dimensions} dimensions): ${problems}`);
    }
    // Servers may answer out of order; `index` says which input each vector belongs to.
    const ordered = new Array<Float32Array | undefined>(input.length);
    for (const item of parsed.data.data) {
      if (item.index >= input.length || ordered[item.index]) {
        throw new EmbeddingResponseError(`${this.modelId} answered index ${item.index} out of range or twice for ${input.length} input(s)`);
      }
      ordered[item.index] = toUnitVector(item.embedding, this.modelId);
    }
    const missing = ordered.findIndex((vector) => vector === undefined);
    if (missing >= 0) throw new EmbeddingResponseError(`${this.modelId} answered no vector for input ${missing} of ${input.length}`);
    return ordered as Float32Array[];
  }

  private async post(body: string): Promise<unknown> {
    const attempts = this.options.maxAttempts ?? 5;
    const apiKey = await resolveKey(this.options.apiKey);
    for (let attempt = 1; ; attempt += 1) {
      const failure = await this.attempt(body, apiKey);
      if (!('retryable' in failure)) return failure.json;
      if (!failure.retryable || attempt >= attempts) {
        throw new EmbeddingError(`${this.modelId} embeddings failed after ${attempt} attempt(s): ${failure.detail}`, { cause: failure.cause });
      }
      const backoff = (this.options.backoffMs ?? 500) * 2 ** (attempt - 1);
      await sleep(Math.min(failure.retryAfterMs ?? backoff, this.options.maxRetryAfterMs ?? 20_000));
    }
  }

  private async attempt(body: string, apiKey: string | undefined): Promise<{ json: unknown } | FailedAttempt> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      // A timeout or a refused connection: the server may be loading the model or restarting.
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs ?? 30_000} ms` : String(error);
      return { retryable: true, detail: reason, cause: error };
    }
    if (!response.ok) {
      const detail = `answered ${response.status}: ${(await response.text().catch(() => '')).slice(0, 300)}`;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return { retryable: response.status === 429 || response.status >= 500, detail, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    try {
      return { json: await response.json() };
    } catch (error) {
      // Reading the body can also time out; that is worth another attempt, a body that is not JSON is not.
      if (error instanceof Error && error.name === 'TimeoutError') return { retryable: true, detail: 'body not received in time', cause: error };
      throw new EmbeddingResponseError(`${this.modelId} answered with a body that is not JSON`, { cause: error });
    }
  }
}

/** Retry-After in delta-seconds or as an HTTP date, in milliseconds from now. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
