/**
 * Token counting with the o200k tokenizer (offline), for every budget the
 * service keeps; remembered per text, since a reader counts the same lines
 * for every question it packs.
 */
import { countTokens as count } from 'gpt-tokenizer';
import { memoizeText } from './lru.js';

export const countTokens: (text: string) => number = memoizeText((text) => count(text), 4_000_000);
