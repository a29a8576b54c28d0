/** The batch budget: calls are refused once it is spent, and each call is timed by what is left of it. */
import { describe, expect, it } from 'vitest';
import { BatchBudget, BudgetExceededError } from '../../functions/use-cases/model-budget.js';

describe('the batch budget', () => {
  it('times a call by a wall budget that is not a whole number of milliseconds (a deadline cut to a quarter of what is left)', () => {
    const budget = new BatchBudget({ maxCalls: 2, maxInputTokens: 100, maxOutputTokens: 100, maxWallMs: 2_570.25 });

    const signal = budget.startCall();

    expect(signal.aborted).toBe(false);
  });

  it('refuses a call once the wall time is spent', () => {
    let now = 0;
    const budget = new BatchBudget({ maxCalls: 5, maxInputTokens: 100, maxOutputTokens: 100, maxWallMs: 1_000 }, () => now);
    budget.startCall();
    now = 1_001;

    expect(() => budget.startCall()).toThrow(BudgetExceededError);
  });
});
