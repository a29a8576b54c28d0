/**
 * A least-recently-used map: `get` refreshes an entry, `set` evicts the oldest
 * while the entries weigh more than `max` (each weighs 1 unless `weigh` says).
 */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  private total = 0;
  constructor(
    private readonly max: number,
    private readonly weigh: (key: string, value: V) => number = () => 1,
  ) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.delete(key);
    this.map.set(key, value);
    this.total += this.weigh(key, value);
    while (this.total > this.max) this.delete(this.map.keys().next().value!);
  }
  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, value] of this.map) if (predicate(value)) this.delete(key);
  }
  get size(): number {
    return this.map.size;
  }
  private delete(key: string): void {
    const value = this.map.get(key);
    if (value === undefined) return;
    this.map.delete(key);
    this.total -= this.weigh(key, value);
  }
}

/**
 * `fn` remembered for the texts it saw last, up to `maxChars` characters of
 * text in all (the keys are what the cache holds), for a pure function of a
 * string whose result the callers never change. A warm reader renders the
 * same records for every question, and reading each again (tokens, terms)
 * was most of a context request's time.
 */
export function memoizeText<R>(fn: (text: string) => R, maxChars: number): (text: string) => R {
  const cache = new Lru<R>(maxChars, (text) => text.length);
  return (text: string): R => {
    const known = cache.get(text);
    if (known !== undefined) return known;
    const result = fn(text);
    if (text.length <= maxChars / 8) cache.set(text, result);
    return result;
  };
}
