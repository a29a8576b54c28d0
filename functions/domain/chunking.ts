/**
 * Fitting a model's input under a prompt cap: many texts are split into
 * chunks, and texts too long for what the budget allows are cut, each to the
 * same length, so every text is read at least in part and short ones are
 * never touched. Pure: the token counter is passed in.
 */

export type CountTokens = (text: string) => number;

/**
 * The largest per-text length `L` for which `sum(min(size, L))` stays within
 * `total`: `Infinity` when everything already fits. Short texts keep all of
 * their length; only the long ones are cut ("water filling").
 */
export function waterLevel(sizes: readonly number[], total: number): number {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum <= total) return Infinity;
  const sorted = [...sizes].sort((a, b) => a - b);
  let used = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    const remaining = sorted.length - i;
    // Every text from i on is at least sorted[i] long: can they all keep that much?
    if (used + sorted[i]! * remaining > total) return Math.max(0, Math.floor((total - used) / remaining));
    used += sorted[i]!;
  }
  return Infinity;
}

/**
 * Groups consecutive sizes, in order, into chunks whose sum stays within
 * `cap`; a size larger than the cap gets a chunk of its own. Returns the
 * indices of each chunk.
 */
export function packChunks(sizes: readonly number[], cap: number): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let used = 0;
  sizes.forEach((size, index) => {
    if (current.length > 0 && used + size > cap) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(index);
    used += size;
  });
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * `text` cut to at most `maxTokens` tokens, ending in a marker that says how
 * much was left out; the text itself when it fits.
 */
export function cutText(text: string, maxTokens: number, countTokens: CountTokens): string {
  if (countTokens(text) <= maxTokens) return text;
  const marker = (left: number) => ` … [cut: ${left} more characters]`;
  const room = Math.max(0, maxTokens - countTokens(marker(text.length)));
  // The longest prefix that fits (binary search on characters; tokens grow with length).
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countTokens(text.slice(0, mid)) <= room) low = mid;
    else high = mid - 1;
  }
  // Never split a surrogate pair.
  const end = low > 0 && /[\uD800-\uDBFF]/.test(text[low - 1]!) ? low - 1 : low;
  return `${text.slice(0, end)}${marker(text.length - end)}`;
}

/** How `cutAndPack` reads and rewrites the text of one item (a record's content, a source's text). */
export interface TextOf<T> {
  get(item: T): string;
  set(item: T, text: string): T;
}

export interface CutAndPacked<T> {
  readonly chunks: T[][];
  /** Items cut, by index: their size before and after. */
  readonly cut: readonly { readonly index: number; readonly tokens: number; readonly keptTokens: number }[];
}

/**
 * Items whose size (`sizes`, text plus whatever else the prompt spends on the
 * item) is over `level` get their text cut so the whole fits `level`; then the
 * items are packed, in order, into chunks of at most `perCall`.
 */
export function cutAndPack<T>(items: readonly T[], sizes: readonly number[], level: number, perCall: number, text: TextOf<T>, countTokens: CountTokens): CutAndPacked<T> {
  const cut: { index: number; tokens: number; keptTokens: number }[] = [];
  const fittedSizes: number[] = [];
  const fitted = items.map((item, index) => {
    const size = sizes[index]!;
    if (size <= level) {
      fittedSizes.push(size);
      return item;
    }
    const header = size - countTokens(text.get(item));
    const kept = cutText(text.get(item), Math.max(1, level - header), countTokens);
    const keptTokens = header + countTokens(kept);
    cut.push({ index, tokens: size, keptTokens });
    fittedSizes.push(keptTokens);
    return text.set(item, kept);
  });
  return { chunks: packChunks(fittedSizes, perCall).map((indices) => indices.map((i) => fitted[i]!)), cut };
}
