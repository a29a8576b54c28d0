/**
 * Amazon Bedrock adapter: Titan Text Embeddings V2 through `InvokeModel`.
 * Titan V2 embeds one text per call, so a batch becomes one call per text
 * with a bounded number in flight. Throttling and transient errors are
 * retried by the SDK with exponential backoff (adaptive mode, which also
 * slows the client down when Bedrock throttles: embedding quotas are counted
 * in requests per minute); each attempt has its own timeout.
 *
 * Request and response: https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html
 */
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { z } from 'zod';
import { mapWithConcurrency } from '../../commons/concurrency.js';
import { EmbeddingError, EmbeddingResponseError, type EmbeddingPort } from '../../ports/embeddings.js';
import { toUnitVector } from './unit-vector.js';

/** The output sizes Titan Text Embeddings V2 accepts (1024 is its own default). */
export const TITAN_V2_DIMENSIONS = [256, 512, 1024] as const;
export type TitanV2Dimensions = (typeof TITAN_V2_DIMENSIONS)[number];

/** Titan V2 takes at most 50,000 characters (or 8,192 tokens) per input; longer units are cut rather than refused. */
export const TITAN_V2_MAX_CHARACTERS = 50_000;

export interface BedrockEmbeddingsOptions {
  readonly modelId: string;
  readonly dimensions: TitanV2Dimensions;
  readonly region: string;
  /** Calls in flight at once within one `embed`. @default 8 */
  readonly concurrency?: number;
  /** Attempts per text, throttling included. @default 6 */
  readonly maxAttempts?: number;
  /** Per-attempt timeout; a timed-out attempt is retried like a throttled one. @default 10000 */
  readonly timeoutMs?: number;
  /** Endpoint override (tests point it at a local server speaking the InvokeModel wire format). */
  readonly endpoint?: string;
}

const titanResponseSchema = (dimensions: number) =>
  z.object({
    embedding: z.array(z.number()).length(dimensions),
    inputTextTokenCount: z.number().int().nonnegative(),
  });

export class BedrockEmbeddings implements EmbeddingPort {
  readonly modelId: string;
  readonly dimensions: TitanV2Dimensions;
  private readonly client: BedrockRuntimeClient;
  private readonly concurrency: number;
  private readonly responseSchema: ReturnType<typeof titanResponseSchema>;

  constructor(options: BedrockEmbeddingsOptions, client?: BedrockRuntimeClient) {
    this.modelId = options.modelId;
    this.dimensions = options.dimensions;
    this.concurrency = options.concurrency ?? 8;
    this.responseSchema = titanResponseSchema(options.dimensions);
    this.client =
      client ??
      new BedrockRuntimeClient({
        region: options.region,
        maxAttempts: options.maxAttempts ?? 6,
        retryMode: 'adaptive',
        // Handler options, not an instance: the SDK builds its HTTP/2 handler from them.
        requestHandler: { requestTimeout: options.timeoutMs ?? 10_000 },
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      });
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    // Titan refuses an empty inputText; refusing before any call keeps a batch all-or-nothing.
    const empty = texts.findIndex((text) => text.trim() === '');
    if (empty >= 0) throw new EmbeddingError(`Bedrock ${this.modelId} cannot embed an empty text (text ${empty})`);
    return mapWithConcurrency(texts, this.concurrency, (text) => this.embedOne(text));
  }

  private async embedOne(text: string): Promise<Float32Array> {
    let body: Uint8Array;
    try {
      const output = await this.client.send(
        new InvokeModelCommand({
          modelId: this.modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: JSON.stringify({ inputText: text.slice(0, TITAN_V2_MAX_CHARACTERS), dimensions: this.dimensions, normalize: true }),
        }),
      );
      body = output.body;
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : String(error);
      throw new EmbeddingError(`Bedrock ${this.modelId} failed: ${name}: ${message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(body));
    } catch (error) {
      throw new EmbeddingResponseError(`Bedrock ${this.modelId} answered with a body that is not JSON`, { cause: error });
    }
    const parsed = this.responseSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
      throw new EmbeddingResponseError(`Bedrock ${this.modelId} answered outside the Titan V2 response shape (${this.dimensions} dimensions): ${problems}`);
    }
    return toUnitVector(parsed.data.embedding, `Bedrock ${this.modelId}`);
  }
}
