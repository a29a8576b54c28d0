/** A least-recently-used map: `get` refreshes an entry, `set` evicts the oldest beyond `max` entries. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, value] of this.map) if (predicate(value)) this.map.delete(key);
  }
  get size(): number {
    return this.map.size;
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
  const cache = new Map<string, R>();
  let chars = 0;
  return (text: string): R => {
    const known = cache.get(text);
    if (known !== undefined) {
      cache.delete(text);
      cache.set(text, known);
      return known;
    }
    const result = fn(text);
    if (text.length > maxChars / 8) return result;
    cache.set(text, result);
    chars += text.length;
    while (chars > maxChars) {
      const oldest = cache.keys().next().value!;
      cache.delete(oldest);
      chars -= oldest.length;
    }
    return result;
  };
}
