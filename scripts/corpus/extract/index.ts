/** The extraction benchmark's corpora, in report order. */
import { friendsCorpus } from './friends.js';
import { supportCorpus } from './support.js';
import type { ExtractionCorpus } from './types.js';
import { workAssistantCorpus } from './work-assistant.js';

export function extractionCorpora(): ExtractionCorpus[] {
  return [workAssistantCorpus(), friendsCorpus(), supportCorpus()];
}

export type { ExtractionCorpus } from './types.js';
