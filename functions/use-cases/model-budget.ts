/**
 * A batch's model budget: calls, input and output tokens, and wall time,
 * shared by the updaters of one batch. A call is refused once the budget is
 * spent; a call already made is always charged and kept, never thrown away
 * for going over. An updater whose first call is refused fails, never the
 * others' completed work; one whose later chunks are refused keeps what it
 * read and notes the rest in its audit entry (consolidate-batch.ts).
 */
import { MemoryServiceError } from '../domain/errors.js';
import type { ModelUsage } from '../ports/model.js';

export class BudgetExceededError extends MemoryServiceError {
  override readonly name = 'BudgetExceededError';
}

export interface BudgetLimits {
  readonly maxCalls: number;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly maxWallMs: number;
  /** The cap on one call's prompt; larger input is split into chunks (plan-model-input.ts). */
  readonly maxPromptTokens?: number;
}

/** Used when a budget does not set `maxPromptTokens`. */
export const DEFAULT_MAX_PROMPT_TOKENS = 16_000;

export const DEFAULT_BUDGET: BudgetLimits = {
  maxCalls: 12,
  maxInputTokens: 120_000,
  maxOutputTokens: 24_000,
  maxWallMs: 240_000,
  maxPromptTokens: DEFAULT_MAX_PROMPT_TOKENS,
};

/** One of `parts` equal shares of a budget's calls and tokens (at least one call); wall time is shared whole. */
export function shareOf(limits: BudgetLimits, parts: number): BudgetLimits {
  const n = Math.max(1, parts);
  return {
    ...limits,
    maxCalls: Math.max(1, Math.floor(limits.maxCalls / n)),
    maxInputTokens: Math.floor(limits.maxInputTokens / n),
    maxOutputTokens: Math.floor(limits.maxOutputTokens / n),
  };
}

export class BatchBudget {
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;
  private readonly deadline: number;

  constructor(
    readonly limits: BudgetLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.deadline = clock() + limits.maxWallMs;
  }

  /** Claims one call; throws when the call, token or time budget is spent. */
  startCall(): AbortSignal {
    if (this.calls >= this.limits.maxCalls) throw new BudgetExceededError(`model call budget of ${this.limits.maxCalls} calls spent`);
    if (this.inputTokens >= this.limits.maxInputTokens) throw new BudgetExceededError(`input token budget of ${this.limits.maxInputTokens} spent`);
    if (this.outputTokens >= this.limits.maxOutputTokens) throw new BudgetExceededError(`output token budget of ${this.limits.maxOutputTokens} spent`);
    const remaining = this.deadline - this.clock();
    if (remaining <= 0) throw new BudgetExceededError(`wall-time budget of ${this.limits.maxWallMs} ms spent`);
    this.calls += 1;
    // AbortSignal.timeout takes whole milliseconds only.
    return AbortSignal.timeout(Math.ceil(remaining));
  }

  /**
   * Records a call's usage. Never throws: the call is paid for, so its answer
   * is kept; going over only refuses the next call.
   */
  charge(usage: ModelUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
  }
}
