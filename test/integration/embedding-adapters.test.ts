/**
 * The Bedrock (Titan Text Embeddings V2 over InvokeModel) and
 * OpenAI-compatible (/v1/embeddings) embedding adapters against local
 * servers that speak their wire formats: request shape, order and unit
 * length of the vectors, retries on throttling, giving up, malformed answers
 * and timeouts. The local model's adapter: order and batching.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type IncomingHttpHeaders } from 'node:http2';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BedrockEmbeddings } from '../../functions/adapters/embeddings/bedrock.js';
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { OpenAiCompatibleEmbeddings } from '../../functions/adapters/embeddings/openai-compatible.js';
import { EmbeddingError, EmbeddingResponseError } from '../../functions/ports/embeddings.js';

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** Hold the answer back this long (to observe concurrency), or forever. */
  readonly delayMs?: number | 'never';
}

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'] | IncomingHttpHeaders;
  readonly body: Record<string, any>;
  readonly receivedAt: number;
}

let server: Server | Http2Server | undefined;
const sessions = new Set<{ destroy(): void }>();
const held = new Set<{ destroy(): void }>();

/**
 * A local server answering each request with `answer(request, n)`, recording
 * every request and the most requests it had in flight at once. HTTP/2
 * (cleartext) for Bedrock, whose SDK client speaks HTTP/2; HTTP/1.1 for
 * OpenAI-compatible servers.
 */
async function fakeServer(
  answer: (request: Recorded, n: number) => Reply,
  protocol: 'http1' | 'http2' = 'http1',
): Promise<{ url: string; requests: Recorded[]; maxInFlight: () => number }> {
  const requests: Recorded[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const create = protocol === 'http2' ? createHttp2Server : createServer;
  server = (create as typeof createServer)(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const recorded: Recorded = { method: request.method!, url: request.url!, headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString() || '{}'), receivedAt: Date.now() };
    requests.push(recorded);
    const reply = answer(recorded, requests.length - 1);
    if (reply.delayMs === 'never') {
      held.add(response as unknown as { destroy(): void });
      return;
    }
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs as number));
    inFlight -= 1;
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body));
  });
  server.on('session', (session) => sessions.add(session));
  server.on('connection', (socket) => sessions.add(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, requests, maxInFlight: () => maxInFlight };
}

afterEach(async () => {
  for (const response of held) response.destroy?.();
  held.clear();
  for (const session of sessions) session.destroy();
  sessions.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
});

/** A vector for `text` that is deliberately not unit length: its first entries encode the text's length and first letter. */
function rawVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  vector[0] = text.length;
  vector[1] = text.charCodeAt(0);
  vector[2] = 1;
  return vector;
}

function unit(values: number[]): number[] {
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

function length(vector: Float32Array): number {
  return Math.hypot(...vector);
}

const titanReply = (text: string, dimensions: number): Reply => ({
  status: 200,
  body: { embedding: rawVector(text, dimensions), inputTextTokenCount: text.split(' ').length, embeddingsByType: { float: rawVector(text, dimensions) } },
});
const throttled: Reply = {
  status: 429,
  body: { message: 'Too many requests, please wait before trying again.' },
  headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
};

describe('Bedrock embeddings (Titan Text Embeddings V2 over InvokeModel)', () => {
  const modelId = 'amazon.titan-embed-text-v2:0';

  it('sends one signed InvokeModel per text with inputText, dimensions and normalize', async () => {
    const fake = await fakeServer((request) => titanReply(request.body.inputText, 512), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 512, region: 'us-east-1', endpoint: fake.url });

    await embeddings.embed(['Mia moved to Lisbon in June.', 'She adopted a cat.']);

    expect(fake.requests).toHaveLength(2);
    const [sent] = fake.requests;
    expect(sent!.method).toBe('POST');
    expect(decodeURIComponent(sent!.url)).toBe('/model/amazon.titan-embed-text-v2:0/invoke');
    expect(sent!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(fake.requests.map((request) => request.body).sort((a, b) => a.inputText.localeCompare(b.inputText))).toEqual([
      { inputText: 'Mia moved to Lisbon in June.', dimensions: 512, normalize: true },
      { inputText: 'She adopted a cat.', dimensions: 512, normalize: true },
    ]);
  });

  it('returns one unit-length vector per text, in the order of the texts', async () => {
    const fake = await fakeServer((request) => ({ ...titanReply(request.body.inputText, 256), delayMs: request.body.inputText === 'first' ? 30 : 0 }), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url });

    const vectors = await embeddings.embed(['first', 'second text', 'third one here']);

    expect(vectors).toHaveLength(3);
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256, 256]);
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 5);
    const texts = ['first', 'second text', 'third one here'];
    vectors.forEach((vector, i) => expect(Array.from(vector.slice(0, 3))).toEqual(unit(rawVector(texts[i]!, 256).slice(0, 3)).map((v) => Math.fround(v))));
  });

  it('keeps at most its concurrency of calls in flight', async () => {
    const fake = await fakeServer((request) => ({ ...titanReply(request.body.inputText, 256), delayMs: 40 }), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url, concurrency: 2 });

    await embeddings.embed(['a1', 'b2', 'c3', 'd4', 'e5', 'f6']);

    expect(fake.requests).toHaveLength(6);
    expect(fake.maxInFlight()).toBe(2);
  });

  it('retries with backoff when Bedrock throttles', async () => {
    const fake = await fakeServer((request, n) => (n < 2 ? throttled : titanReply(request.body.inputText, 256)), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url });

    const [vector] = await embeddings.embed(['throttled at first']);

    expect(fake.requests).toHaveLength(3);
    expect(length(vector!)).toBeCloseTo(1, 5);
  });

  it('gives up after its maximum attempts with an EmbeddingError carrying the cause', async () => {
    const fake = await fakeServer(() => throttled, 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url, maxAttempts: 2 });

    const failure = await embeddings.embed(['never answered']).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EmbeddingError);
    expect((failure as EmbeddingError).message).toMatch(/ThrottlingException.*Too many requests/);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a vector of the wrong length as a malformed response, without retrying', async () => {
    const fake = await fakeServer((request) => titanReply(request.body.inputText, 1024), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 512, region: 'us-east-1', endpoint: fake.url });

    await expect(embeddings.embed(['wrong size'])).rejects.toBeInstanceOf(EmbeddingResponseError);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses an answer without an embedding as a malformed response', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: { inputTextTokenCount: 3 } }), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url });

    await expect(embeddings.embed(['no vector'])).rejects.toThrow(/embedding/);
    await expect(embeddings.embed(['no vector'])).rejects.toBeInstanceOf(EmbeddingResponseError);
  });

  it('times out an attempt that gets no answer, retries it, then fails with an EmbeddingError', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: {}, delayMs: 'never' }), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url, timeoutMs: 200, maxAttempts: 2 });

    const failure = await embeddings.embed(['silence']).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EmbeddingError);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses an empty text before calling Bedrock', async () => {
    const fake = await fakeServer((request) => titanReply(request.body.inputText, 256), 'http2');
    const embeddings = new BedrockEmbeddings({ modelId, dimensions: 256, region: 'us-east-1', endpoint: fake.url });

    await expect(embeddings.embed(['fine', '  '])).rejects.toThrow(/empty text \(text 1\)/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('local embeddings (Universal Sentence Encoder lite)', () => {
  it('returns each text its own vector, in the order of the texts, however the texts are batched', async () => {
    const embeddings = new LocalEmbeddings();
    const long = 'We decided to postpone the Lisbon offsite until the spring, and Dana will review the pricing page. '.repeat(6);
    // Lengths interleaved, so batching by length reorders them; more than one batch.
    const texts = Array.from({ length: 11 }, (_, i) => (i % 3 === 0 ? `${long} (${i})` : `short note ${i}`));

    const together = await embeddings.embed(texts);
    const alone = await Promise.all(texts.map(async (text) => (await embeddings.embed([text]))[0]!));

    expect(together).toHaveLength(texts.length);
    together.forEach((vector, i) => {
      const cosine = vector.reduce((sum, x, k) => sum + x * alone[i]![k]!, 0);
      expect(cosine).toBeGreaterThan(0.999);
    });
  });
});

/** An OpenAI-style embeddings answer for the request's inputs, optionally shuffled. */
function embeddingsReply(request: Recorded, dimensions: number, order: 'in-order' | 'reversed' = 'in-order'): Reply {
  const data = (request.body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: rawVector(text, dimensions) }));
  return {
    status: 200,
    body: { object: 'list', model: request.body.model, data: order === 'reversed' ? data.reverse() : data, usage: { prompt_tokens: 9, total_tokens: 9 } },
  };
}

describe('OpenAI-compatible embeddings (/v1/embeddings)', () => {
  it('posts the model and the texts as input, with the bearer key', async () => {
    const fake = await fakeServer((request) => embeddingsReply(request, 8));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'nomic-embed-text', dimensions: 8, apiKey: 'sk-local' });

    await embeddings.embed(['Mia moved to Lisbon.', 'She adopted a cat.']);

    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/v1/embeddings');
    expect(sent!.headers.authorization).toBe('Bearer sk-local');
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.body).toEqual({ model: 'nomic-embed-text', input: ['Mia moved to Lisbon.', 'She adopted a cat.'] });
  });

  it('sends no authorization header when no key is configured', async () => {
    const fake = await fakeServer((request) => embeddingsReply(request, 8));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8 });

    await embeddings.embed(['hello']);

    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('splits the texts into batches of its batch size and returns the vectors in the order of the texts', async () => {
    const fake = await fakeServer((request) => embeddingsReply(request, 8));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, batchSize: 3 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g'];

    const vectors = await embeddings.embed(texts);

    expect(fake.requests.map((request) => request.body.input).sort((a, b) => a[0].localeCompare(b[0]))).toEqual([['a', 'bb', 'ccc'], ['dddd', 'eeeee', 'ffffff'], ['g']]);
    expect(vectors.map((vector) => Math.round((vector[0]! / vector[2]!) * 1000) / 1000)).toEqual(texts.map((text) => text.length));
  });

  it('puts vectors back in input order when the server answers them out of order, each of unit length', async () => {
    const fake = await fakeServer((request) => embeddingsReply(request, 8, 'reversed'));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8 });

    const vectors = await embeddings.embed(['one', 'three', 'fifteen']);

    expect(vectors.map((vector) => Math.round(vector[0]! / vector[2]!))).toEqual([3, 5, 7]);
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 5);
  });

  it('retries 429 and 5xx answers, then succeeds', async () => {
    const fake = await fakeServer((request, n) =>
      n === 0
        ? { status: 429, body: { error: { message: 'rate limited' } }, headers: { 'retry-after': '0' } }
        : n === 1
          ? { status: 503, body: { error: { message: 'loading model' } } }
          : embeddingsReply(request, 8),
    );
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, backoffMs: 10 });

    const vectors = await embeddings.embed(['eventually']);

    expect(vectors).toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After asks before trying again', async () => {
    const fake = await fakeServer((request, n) => (n === 0 ? { status: 429, body: {}, headers: { 'retry-after': '1' } } : embeddingsReply(request, 8)));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, backoffMs: 5 });

    await embeddings.embed(['patience']);

    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its maximum attempts with an EmbeddingError', async () => {
    const fake = await fakeServer(() => ({ status: 503, body: { error: { message: 'overloaded' } } }));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, backoffMs: 5, maxAttempts: 3 });

    const failure = await embeddings.embed(['doomed']).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EmbeddingError);
    expect((failure as Error).message).toMatch(/after 3 attempt\(s\): answered 503/);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a client error, and reports it', async () => {
    const fake = await fakeServer(() => ({ status: 400, body: { error: { message: 'unknown model' } } }));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, backoffMs: 5 });

    await expect(embeddings.embed(['x'])).rejects.toThrow(/after 1 attempt\(s\): answered 400.*unknown model/);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses vectors of the wrong length as a malformed response, without retrying', async () => {
    const fake = await fakeServer((request) => embeddingsReply(request, 16));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8 });

    await expect(embeddings.embed(['x'])).rejects.toBeInstanceOf(EmbeddingResponseError);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses an answer missing a vector for one of the inputs', async () => {
    const fake = await fakeServer((request) => {
      const reply = embeddingsReply(request, 8);
      const body = reply.body as { data: unknown[] };
      return { ...reply, body: { ...body, data: body.data.slice(1) } };
    });
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8 });

    await expect(embeddings.embed(['x', 'y'])).rejects.toThrow(EmbeddingResponseError);
  });

  it('refuses an answer that is not in the embeddings shape', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: { embeddings: [[1, 2, 3]] } }));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 3 });

    await expect(embeddings.embed(['x'])).rejects.toThrow(/data/);
  });

  it('times out an attempt that gets no answer, retries it, then fails with an EmbeddingError', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: {}, delayMs: 'never' }));
    const embeddings = new OpenAiCompatibleEmbeddings({ baseUrl: `${fake.url}/v1`, modelId: 'm', dimensions: 8, timeoutMs: 200, backoffMs: 5, maxAttempts: 2 });

    const failure = await embeddings.embed(['silence']).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EmbeddingError);
    expect((failure as Error).message).toMatch(/no answer within 200 ms/);
    expect(fake.requests).toHaveLength(2);
  });
});
