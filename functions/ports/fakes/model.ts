/**
 * A scripted model: answers each task (contacts, facts, tasks, summary) with
 * the outputs it was given, in order, and records every request it received.
 * A scripted Error is thrown instead of answered; a function computes the
 * answer from the request (and is used for every call of that task). A call
 * with nothing left to answer fails with ModelCallError, so a test notices a
 * call it did not expect. The caller validates outputs, as with a real model.
 */
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse, type ModelUsage } from '../model.js';

export type ModelTask = ModelRequest['task'];

/** One scripted answer: an output, an Error to throw, or a function of the request. */
export type ScriptedAnswer = unknown;

export type ModelScript = Partial<Record<ModelTask, readonly ScriptedAnswer[] | ((request: ModelRequest) => unknown)>>;

export interface ScriptedModelOptions {
  readonly modelId?: string;
  /** Usage reported per call. @default { inputTokens: 100, outputTokens: 20 } */
  readonly usage?: ModelUsage;
}

export class ScriptedModel implements ModelPort {
  readonly modelId: string;
  /** Every request, in the order received. */
  readonly requests: ModelRequest[] = [];
  private readonly queues = new Map<ModelTask, unknown[]>();
  private readonly usage: ModelUsage;

  constructor(
    private readonly script: ModelScript = {},
    options: ScriptedModelOptions = {},
  ) {
    this.modelId = options.modelId ?? 'scripted';
    this.usage = options.usage ?? { inputTokens: 100, outputTokens: 20 };
    for (const [task, answers] of Object.entries(script)) {
      if (Array.isArray(answers)) this.queues.set(task as ModelTask, [...answers]);
    }
  }

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const answer = this.next(request);
    if (answer instanceof Error) throw answer;
    return { output: answer, modelId: this.modelId, usage: this.usage };
  }

  /** The requests of one task, in order. */
  requestsFor(task: ModelTask): ModelRequest[] {
    return this.requests.filter((request) => request.task === task);
  }

  private next(request: ModelRequest): unknown {
    const scripted = this.script[request.task];
    if (typeof scripted === 'function') return scripted(request);
    const queue = this.queues.get(request.task);
    if (!queue || queue.length === 0) return new ModelCallError(`scripted model has no answer left for ${request.task} (call ${this.requestsFor(request.task).length})`);
    return queue.shift();
  }
}
