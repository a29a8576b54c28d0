/**
 * The per-text memo behind index terms and token counts: a warm reader
 * renders the same records for every question, so each is read once; the
 * cache is bounded by the text it holds.
 */
import { describe, expect, it } from 'vitest';
import { Lru, memoizeText } from '../../functions/commons/lru.js';
import { countTokens } from '../../functions/commons/tokens.js';
import { countTokens as uncachedCount } from 'gpt-tokenizer';
import { indexTerms } from '../../functions/domain/terms.js';

describe('memoizeText', () => {
  it('reads a text once while it stays within the bound, and gives the same result', () => {
    const seen: string[] = [];
    const length = memoizeText((text) => {
      seen.push(text);
      return text.length;
    }, 1_000);
    expect([length('alpha'), length('beta'), length('alpha'), length('beta')]).toEqual([5, 4, 5, 4]);
    expect(seen).toEqual(['alpha', 'beta']);
  });

  it('forgets the least recently used texts beyond its character bound', () => {
    const seen: string[] = [];
    const upper = memoizeText((text) => {
      seen.push(text);
      return text.toUpperCase();
    }, 80);
    const a = 'a'.repeat(10);
    const b = 'b'.repeat(10);
    upper(a);
    upper(b);
    upper(a); // a is now the more recent of the two
    for (let i = 0; i < 7; i += 1) upper(String(i).repeat(10)); // 90 characters held: b, the oldest, goes
    expect(upper(a)).toBe(a.toUpperCase());
    upper(b);
    expect(seen.filter((t) => t === b)).toHaveLength(2);
  });

  it('does not keep a text longer than an eighth of its bound', () => {
    let calls = 0;
    const f = memoizeText(() => (calls += 1), 80);
    const long = 'x'.repeat(11);
    f(long);
    f(long);
    expect(calls).toBe(2);
  });

  it('leaves token counts and index terms as they were', () => {
    const text = 'Priya started at Deloitte last spring; she went to Lisbon twice.';
    expect(countTokens(text)).toBe(uncachedCount(text));
    expect(countTokens(text)).toBe(uncachedCount(text));
    const first = indexTerms(text);
    expect(indexTerms(text)).toBe(first);
    expect(first).toContain('go');
  });
});

describe('Lru', () => {
  it('evicts the least recently read entry beyond its size', () => {
    const lru = new Lru<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([1, undefined, 3, 2]);
  });
});
