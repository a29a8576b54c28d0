/**
 * A batch's model budget: calls, input and output tokens, and wall time,
 * shared by the updaters of one batch. Exceeding it fails the updater that
 * hit it, never the others' completed work.
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
}

export const DEFAULT_BUDGET: BudgetLimits = {
  maxCalls: 12,
  maxInputTokens: 120_000,
  maxOutputTokens: 24_000,
  maxWallMs: 240_000,
};

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

  /** Claims one call; throws when the call or time budget is spent. */
  startCall(): AbortSignal {
    if (this.calls >= this.limits.maxCalls) throw new BudgetExceededError(`model call budget of ${this.limits.maxCalls} calls spent`);
    const remaining = this.deadline - this.clock();
    if (remaining <= 0) throw new BudgetExceededError(`wall-time budget of ${this.limits.maxWallMs} ms spent`);
    this.calls += 1;
    return AbortSignal.timeout(remaining);
  }

  /** Records a call's usage; throws when a token budget is now exceeded. */
  charge(usage: ModelUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    if (this.inputTokens > this.limits.maxInputTokens) throw new BudgetExceededError(`input token budget of ${this.limits.maxInputTokens} exceeded`);
    if (this.outputTokens > this.limits.maxOutputTokens) throw new BudgetExceededError(`output token budget of ${this.limits.maxOutputTokens} exceeded`);
  }
}
