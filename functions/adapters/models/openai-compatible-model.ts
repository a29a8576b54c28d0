/**
 * OpenAI-compatible adapter (Ollama, llama.cpp server, vLLM, ...): chat
 * completions with a forced function call carrying the output schema. 429 and
 * 5xx answers are retried with exponential backoff, honouring Retry-After.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from '../../ports/model.js';
import { SUBMIT_TOOL, toolDescription, toolSchema } from './tool-schema.js';
import { resolveKey, type SecretSource } from '../secrets/secret-value.js';

export interface OpenAiCompatibleOptions {
  /** Base URL up to and including `/v1`, e.g. `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly modelId: string;
  /** A key, or where to read it (Secrets Manager, once per cold start). */
  readonly apiKey?: string | SecretSource;
  /** @default 5 */
  readonly maxAttempts?: number;
  /** First backoff delay; doubles per attempt. @default 500 */
  readonly backoffMs?: number;
  /** Per-attempt timeout. @default 120000 */
  readonly timeoutMs?: number;
}

interface ChatCompletion {
  choices?: { message?: { content?: string | null; tool_calls?: { function?: { name?: string; arguments?: string } }[] } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export class OpenAiCompatibleModel implements ModelPort {
  readonly modelId: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.modelId = options.modelId;
  }

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    const body = JSON.stringify({
      model: this.options.modelId,
      temperature: 0,
      max_tokens: request.maxOutputTokens,
      messages: [
        { role: 'system', content: request.prompt.system },
        { role: 'user', content: request.prompt.user },
      ],
      tools: [{ type: 'function', function: { name: SUBMIT_TOOL, description: toolDescription(request), parameters: toolSchema(request) } }],
      tool_choice: { type: 'function', function: { name: SUBMIT_TOOL } },
    });
    const completion = await this.post(body, request.signal);
    const message = completion.choices?.[0]?.message;
    const call = message?.tool_calls?.find((candidate) => candidate.function?.name === SUBMIT_TOOL);
    const raw = call?.function?.arguments ?? message?.content;
    if (!raw) throw new ModelCallError(`${this.modelId} answered without calling ${SUBMIT_TOOL}`);
    let output: unknown;
    try {
      output = JSON.parse(raw);
    } catch {
      throw new ModelCallError(`${this.modelId} returned arguments that are not JSON`);
    }
    return {
      output,
      modelId: this.modelId,
      usage: { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
    };
  }

  private async post(body: string, signal: AbortSignal | undefined): Promise<ChatCompletion> {
    const attempts = this.options.maxAttempts ?? 5;
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/chat/completions`;
    const apiKey = await resolveKey(this.options.apiKey);
    for (let attempt = 1; ; attempt += 1) {
      const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 120_000);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (response.ok) return (await response.json()) as ChatCompletion;
      const retryable = response.status === 429 || response.status >= 500;
      const detail = (await response.text()).slice(0, 300);
      if (!retryable || attempt >= attempts) throw new ModelCallError(`${this.modelId} answered ${response.status} after ${attempt} attempt(s): ${detail}`);
      const retryAfter = Number(response.headers.get('retry-after'));
      const backoff = (this.options.backoffMs ?? 500) * 2 ** (attempt - 1);
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff, undefined, signal ? { signal } : {});
    }
  }
}
