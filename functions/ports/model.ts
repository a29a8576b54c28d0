/**
 * The model port: one structured-output call per updater and batch. Adapters:
 * Amazon Bedrock (Converse with tool use), an OpenAI-compatible endpoint
 * (Ollama, llama.cpp, vLLM) and a local deterministic adapter that needs no
 * network. Every output is validated against the request's schema by the
 * caller; adapters never decide what is valid.
 */
import type { z } from 'zod';
import type { FactTable, UpdaterName } from '../domain/memory.js';

/** A raw record as a model sees it. */
export interface PromptRecord {
  readonly id: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly type: 'message' | 'action';
  readonly role: string;
  readonly content: string;
  readonly interactionId?: string;
  readonly contact?: { readonly id?: string; readonly name?: string };
  /** Who wrote the record, when the role cannot tell (the event's `speaker`, else `metadata.speaker`): first person is theirs. */
  readonly speaker?: string;
  /** Actions: the tool it used (`metadata.tool`), how it ended (`metadata.outcome`, or failure when `metadata.error` is set) and the error text. */
  readonly tool?: string;
  readonly outcome?: 'success' | 'failure';
  readonly error?: string;
}

/** What one updater hands the model: the batch's records and its current items, aliased. */
export interface UpdaterInput {
  readonly updater: UpdaterName;
  readonly records: readonly PromptRecord[];
  /** Existing items, each with its alias (C1, F2, T3) in place of its id. */
  readonly existing: readonly (Record<string, unknown> & { readonly alias: string })[];
  readonly tables: readonly FactTable[];
}

/** What a summary call hands the model: its sources (records or child summaries), and its length limit. */
export interface SummaryInput {
  readonly ladder: 'time' | 'count';
  readonly level: number;
  readonly from: string;
  readonly to: string;
  readonly maxTokens: number;
  readonly sources: readonly { readonly id: string; readonly at: string; readonly text: string; readonly role?: string }[];
}

export interface RenderedPrompt {
  readonly id: string;
  readonly version: string;
  readonly system: string;
  readonly user: string;
}

export type ModelRequest = UpdaterRequest | SummaryRequest;

interface RequestBase {
  readonly prompt: RenderedPrompt;
  /** The output contract; LLM adapters send its JSON Schema as a tool definition. */
  readonly outputSchema: z.ZodType;
  readonly maxOutputTokens: number;
  readonly signal?: AbortSignal;
}

export interface UpdaterRequest extends RequestBase {
  readonly task: UpdaterName;
  readonly input: UpdaterInput;
}

export interface SummaryRequest extends RequestBase {
  readonly task: 'summary';
  readonly input: SummaryInput;
}

export interface ModelUsage {
  /** Every input token of the call, those read from or written to a prompt cache included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The part of `inputTokens` read from, or written to, the provider's prompt cache (Bedrock), when it says. */
  readonly cacheReadInputTokens?: number;
  readonly cacheWriteInputTokens?: number;
}

export interface ModelResponse {
  readonly output: unknown;
  readonly usage: ModelUsage;
  readonly modelId: string;
}

export interface ModelPort {
  readonly modelId: string;
  invoke(request: ModelRequest): Promise<ModelResponse>;
}

/** The model call failed for good (after the adapter's own retries). */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
}
