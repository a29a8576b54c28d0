/**
 * Index terms for lexical ranking: wink-nlp's tokenizer, its stop-word list
 * and Porter2 stems; irregular forms also index their lemma ("went" → "go"),
 * so a question in the present tense finds a record in the past. Pure and
 * deterministic: the same text always gives the same terms, at indexing time
 * and at query time.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { memoizeText } from '../commons/lru.js';

/**
 * One pipeline per process, even if this module is evaluated more than once
 * in it (a test runner that re-imports project modules between files): the
 * model's loader re-encodes its own data on every `winkNLP(model)` call, so
 * a dozen calls in one process exhaust the string length limit.
 */
const PIPELINE = Symbol.for('memory-service.terms.wink-nlp');
const processWide = globalThis as { [PIPELINE]?: ReturnType<typeof winkNLP> };
const nlp = (processWide[PIPELINE] ??= winkNLP(model));
const its = nlp.its;

/** Terms that are words in English but carry nothing for recall in chat ("lol", "yeah"). */
const EXTRA_STOP = new Set(['lol', 'haha', 'yeah', 'hey', 'hi', 'oh', 'wow', 'ok', 'okay', 'gonna', 'wanna', "'s", "n't", 'really', 'also', 'just']);

/**
 * Stemmed, lower-case index terms of `text`, stop words and punctuation
 * removed, in order. Remembered per text (a reader renders the same records
 * for every question): the array is shared, never to be changed.
 */
export const indexTerms: (text: string) => readonly string[] = memoizeText(readTerms, 4_000_000);

function readTerms(text: string): string[] {
  const terms: string[] = [];
  nlp
    .readDoc(text)
    .tokens()
    .each((token: { out: (what: unknown) => unknown }) => {
      const type = token.out(its.type);
      if (type !== 'word' && type !== 'number') return;
      if (token.out(its.stopWordFlag)) return;
      const stem = String(token.out(its.stem)).toLowerCase();
      if (stem.length < 2 && type === 'word') return;
      if (EXTRA_STOP.has(stem) || /\d{3}.-/.test(stem)) return;
      terms.push(stem);
      const normal = String(token.out(its.normal));
      const lemma = String(token.out(its.lemma)).toLowerCase();
      // Irregular forms: "went" stems to "went"; its lemma "go" is what a question asks.
      if (lemma && lemma !== normal && !normal.startsWith(lemma.slice(0, 3)) && !EXTRA_STOP.has(lemma)) terms.push(lemma);
    });
  return terms;
}
