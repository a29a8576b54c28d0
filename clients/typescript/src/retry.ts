/** A fetch that retries 503 and 429 (honouring Retry-After) and refused connections, a bounded number of times. */

export interface RetryOptions {
  /** Attempts after the first. @default 4 */
  readonly retries?: number;
  /** The longest single wait, whatever Retry-After says. @default 10000 */
  readonly maxDelayMs?: number;
  /** Wait when the server gives no Retry-After (doubles each attempt). @default 250 */
  readonly baseDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function retryingFetch(inner: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const retries = options.retries ?? 4;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const base = options.baseDelayMs ?? 250;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt += 1) {
      // The body can be read once: every attempt but the last sends a copy.
      const sent = attempt < retries ? request.clone() : request;
      const backoff = Math.min(maxDelay, base * 2 ** attempt);
      let response: Response;
      try {
        response = await inner(sent);
      } catch (error) {
        // Only a connection that never got an answer is retried; the server did nothing with it.
        if (attempt >= retries || !isConnectionError(error)) throw error;
        await sleep(backoff);
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Math.min(maxDelay, asked ?? backoff));
    }
  };
}

function isConnectionError(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return error instanceof TypeError && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(cause?.code ?? '');
}
