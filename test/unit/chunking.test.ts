/** Fitting model input under a prompt cap: water level, packing, cutting, and the updater's plan. */
import { describe, expect, it } from 'vitest';
import { cutText, packChunks, waterLevel } from '../../functions/domain/chunking.js';
import { countTokens } from '../../functions/commons/tokens.js';
import { planModelInput } from '../../functions/use-cases/plan-model-input.js';
import type { PromptRecord } from '../../functions/ports/model.js';

const words = (n: number, word = 'harbour') => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ');
const record = (id: string, content: string): PromptRecord => ({ id, sequence: Number(id.slice(1)), timestamp: '2026-03-02T10:00:00.000Z', type: 'message', role: 'user', content });

describe('waterLevel', () => {
  it('is unbounded when everything fits', () => {
    expect(waterLevel([10, 20, 30], 60)).toBe(Infinity);
  });

  it('cuts only the long texts, each to the same length', () => {
    // 10 and 20 keep all; the two long ones share what is left: (100 - 30) / 2.
    expect(waterLevel([500, 10, 20, 900], 100)).toBe(35);
  });

  it('never exceeds the total it is given', () => {
    const sizes = [3, 700, 41, 41, 9000, 12, 250];
    for (const total of [1, 50, 333, 1000, 5000]) {
      const level = waterLevel(sizes, total);
      expect(sizes.reduce((sum, size) => sum + Math.min(size, level), 0)).toBeLessThanOrEqual(total);
    }
  });
});

describe('packChunks', () => {
  it('keeps order and stays within the cap, giving an oversized size its own chunk', () => {
    expect(packChunks([4, 4, 4, 9, 1, 1], 8)).toEqual([[0, 1], [2], [3], [4, 5]]);
  });

  it('has no chunk for no sizes', () => {
    expect(packChunks([], 8)).toEqual([]);
  });
});

describe('cutText', () => {
  it('returns a text that fits unchanged', () => {
    expect(cutText('short enough', 10, countTokens)).toBe('short enough');
  });

  it('cuts to the budget and says how much was left out', () => {
    const text = words(3_000);
    const cut = cutText(text, 200, countTokens);
    expect(countTokens(cut)).toBeLessThanOrEqual(200);
    expect(text.startsWith(cut.replace(/ … \[cut: \d+ more characters\]$/, ''))).toBe(true);
    const left = Number(/\[cut: (\d+) more characters\]/.exec(cut)![1]);
    expect(cut.indexOf(' … [cut:') + left).toBe(text.length);
  });

  it('never splits a surrogate pair', () => {
    const cut = cutText('🙂'.repeat(2_000), 50, countTokens);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('planModelInput', () => {
  const limits = { maxPromptTokens: 6_000, maxCalls: 4, maxInputTokens: 40_000 };

  it('sends a batch that fits in one call, untouched', () => {
    const records = [record('r1', 'I moved to Ghent.'), record('r2', 'My dentist is Dr Osei.')];
    expect(planModelInput(records, 1_000, limits)).toEqual({ chunks: [records], cut: [] });
  });

  it('splits a batch larger than one prompt into chunks, in order, each within the cap', () => {
    const records = Array.from({ length: 12 }, (_, i) => record(`r${i + 1}`, words(800)));
    const plan = planModelInput(records, 1_000, limits);
    expect(plan.chunks.length).toBeGreaterThan(1);
    expect(plan.chunks.flat().map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(plan.cut).toEqual([]);
    for (const chunk of plan.chunks) expect(chunk.reduce((sum, r) => sum + countTokens(`[${r.id}] ${r.timestamp} message user: ${r.content}`), 0)).toBeLessThanOrEqual(5_000);
  });

  it('cuts the longest records when the budget cannot read them all, and never a short one', () => {
    const records = [record('r1', 'Call me Bea from now on.'), ...Array.from({ length: 20 }, (_, i) => record(`r${i + 2}`, words(6_000))), record('r22', 'My sister is called Ines.')];
    const plan = planModelInput(records, 1_000, limits);
    const sent = plan.chunks.flat();
    expect(sent.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(sent[0]!.content).toBe('Call me Bea from now on.');
    expect(sent.at(-1)!.content).toBe('My sister is called Ines.');
    expect(plan.cut.map((c) => c.recordId)).toEqual(records.slice(1, 21).map((r) => r.id));
    // Within the share: at most maxCalls calls, each paying the overhead again.
    expect(plan.chunks.length).toBeLessThanOrEqual(limits.maxCalls);
    const total = sent.reduce((sum, r) => sum + countTokens(r.content), 0);
    expect(total + plan.chunks.length * 1_000).toBeLessThanOrEqual(limits.maxInputTokens);
  });
});
