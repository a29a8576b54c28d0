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
}

export class BedrockModel implements ModelPort {
  readonly modelId: string;
  private readonly client: BedrockRuntimeClient;

  constructor(options: BedrockModelOptions, client?: BedrockRuntimeClient) {
    this.modelId = options.modelId;
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
        system: [{ text: request.prompt.system }],
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
      usage: { inputTokens: output.usage?.inputTokens ?? 0, outputTokens: output.usage?.outputTokens ?? 0 },
    };
  }
}
