/**
 * Fault injection for the in-memory fakes: the next `times` calls of one
 * method fail with the given error (before touching the fake, so nothing is
 * written), then calls go through again. The unit-test counterpart of
 * test/support/fault-injection.ts, which does the same to real AWS clients.
 */
export function failNextCalls<T extends object, K extends keyof T>(target: T, method: K, error: Error | (() => Error), times = 1): { readonly failed: () => number } {
  const original = target[method];
  if (typeof original !== 'function') throw new TypeError(`${String(method)} is not a method`);
  let failed = 0;
  target[method] = (async (...args: unknown[]) => {
    if (failed < times) {
      failed += 1;
      throw typeof error === 'function' ? error() : error;
    }
    return (original as (...a: unknown[]) => unknown).apply(target, args);
  }) as T[K];
  return { failed: () => failed };
}
