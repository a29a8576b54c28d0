/**
 * Amazon Bedrock adapter: the Converse API with structured output through a
 * forced tool call. Throttling and transient errors are retried by the SDK
 * with exponential backoff (adaptive mode).
 */
import { BedrockRuntimeClient, ConverseCommand, type ToolInputSchema } from '@aws-sdk/client-bedrock-runtime';
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from '../../ports/model.js';
import { SUBMIT_TOOL, toolDescription, toolSchema } from './tool-schema.js';

export interface BedrockModelOptions {
  readonly modelId: string;
  readonly region: string;
  /** Attempts per call, throttling included. @default 6 */
  readonly maxAttempts?: number;
  /** Endpoint override (tests point it at a local server speaking the Converse wire format). */
  readonly endpoint?: string;
  /** A cache point after the static part of each prompt (tool schema and system prompt). @default on for models that support prompt caching */
  readonly promptCache?: boolean;
}

/**
 * Models whose Converse API takes a cache point (Claude 3.7 Sonnet and Claude
 * 4 and later, Claude 3.5 Haiku, Amazon Nova). A prefix shorter than the
 * model's minimum (1,024 to 4,096 tokens) is simply not cached, and costs
 * nothing extra.
 */
const PROMPT_CACHE_MODELS = /anthropic\.claude-(?:3-7-sonnet|3-5-haiku|(?:sonnet|opus|haiku)-4)|amazon\.nova-/;

export function supportsPromptCache(modelId: string): boolean {
  return PROMPT_CACHE_MODELS.test(modelId);
}

export class BedrockModel implements ModelPort {
  readonly modelId: string;
  private readonly client: BedrockRuntimeClient;
  private readonly promptCache: boolean;

  constructor(options: BedrockModelOptions, client?: BedrockRuntimeClient) {
    this.modelId = options.modelId;
    this.promptCache = options.promptCache ?? supportsPromptCache(options.modelId);
    this.client =
      client ??
      new BedrockRuntimeClient({
        region: options.region,
        maxAttempts: options.maxAttempts ?? 6,
        retryMode: 'adaptive',
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      });
  }

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    const output = await this.client.send(
      new ConverseCommand({
        modelId: this.modelId,
        // Tools, then the system prompt, are the same on every call of an updater: the cache point after them lets
        // calls within the cache's lifetime read that prefix at the cache price (the batch, after it, is new each time).
        system: [{ text: request.prompt.system }, ...(this.promptCache ? [{ cachePoint: { type: 'default' as const } }] : [])],
        messages: [{ role: 'user', content: [{ text: request.prompt.user }] }],
        toolConfig: {
          tools: [{ toolSpec: { name: SUBMIT_TOOL, description: toolDescription(request), inputSchema: { json: toolSchema(request) } as ToolInputSchema } }],
          toolChoice: { tool: { name: SUBMIT_TOOL } },
        },
        inferenceConfig: { maxTokens: request.maxOutputTokens, temperature: 0 },
      }),
      request.signal ? { abortSignal: request.signal } : {},
    );
    const toolUse = output.output?.message?.content?.find((block) => block.toolUse?.name === SUBMIT_TOOL)?.toolUse;
    if (!toolUse) throw new ModelCallError(`Bedrock ${this.modelId} answered without calling ${SUBMIT_TOOL} (stop reason ${output.stopReason})`);
    return {
      output: toolUse.input,
      modelId: this.modelId,
      usage: {
        // Every input token, cached or not, so budgets and metrics count what the prompt was (Converse reports the cached part apart).
        inputTokens: (output.usage?.inputTokens ?? 0) + (output.usage?.cacheReadInputTokens ?? 0) + (output.usage?.cacheWriteInputTokens ?? 0),
        outputTokens: output.usage?.outputTokens ?? 0,
        ...(output.usage?.cacheReadInputTokens ? { cacheReadInputTokens: output.usage.cacheReadInputTokens } : {}),
        ...(output.usage?.cacheWriteInputTokens ? { cacheWriteInputTokens: output.usage.cacheWriteInputTokens } : {}),
      },
    };
  }
}
