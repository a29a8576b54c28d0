/** The extraction benchmark's corpora, in report order. */
import { casualCorpus } from './casual.js';
import { friendsCorpus } from './friends.js';
import { supportCorpus } from './support.js';
import type { ExtractionCorpus } from './types.js';
import { workAssistantCorpus } from './work-assistant.js';

/** The four corpora; a seed other than the default draws other paraphrases (and timings) for the same events. */
export function extractionCorpora(seed?: number): ExtractionCorpus[] {
  return seed === undefined ? [workAssistantCorpus(), friendsCorpus(), supportCorpus(), casualCorpus()] : [workAssistantCorpus(seed), friendsCorpus(seed), supportCorpus(seed), casualCorpus(seed)];
}

export type { ExtractionCorpus } from './types.js';
