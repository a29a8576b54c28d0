/**
 * Amounts of money said in words get their figure beside them, as relative
 * dates get their date: "six hundred and forty pounds (£640)", "thirteen
 * pounds twenty (£13.20)", "80 quid (£80)", "three grand (£3,000)". People say
 * amounts this way in chat and in dictated or transcribed speech; an agent
 * reading the line can then compare and add them, and a search for "£640"
 * finds it. What is not surely money is left as it was: a weight ("seven
 * pounds nine ounces", "seven pounds and two ounces", "lost two pounds", "a pound of flour") and a bare
 * number with no word of money ("eleven forty an hour").
 */

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1_000, million: 1_000_000 };

/** A word of money after an amount, with its symbol and what one of it is worth in that currency. */
const MONEY_WORD = /(?<![\p{L}])(pounds?|quid|grand|euros?|dollars?|bucks)(?![\p{L}])/giu;
const SYMBOL: Readonly<Record<string, string>> = { pound: '£', pounds: '£', quid: '£', grand: '£', euro: '€', euros: '€', dollar: '$', dollars: '$', bucks: '$' };

/** Said before an amount of pounds, it is a weight: "lost two pounds", "weighs ten pounds". */
const WEIGHT_BEFORE = /\b(?:lost|lose|loses|losing|gained|gain|gains|gaining|put on|puts on|putting on|weigh|weighs|weighed|weighing|heavier|lighter|born at)\s+(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+|another\s+)?$/i;
/** Said after it: "a pound of flour", "seven pounds nine ounces", "ten pounds heavier". */
const WEIGHT_AFTER = /^\s*(?:of\b|in weight\b|heavier\b|lighter\b|(?:and\s+)?[a-z-]+\s+(?:ounces?|oz)\b|(?:and\s+)?\d+\s*(?:ounces?|oz)\b)/i;
/** What may follow "pounds twenty" for twenty to be pence: the end of the clause, or what the amount is per. */
const PENCE_END = /^(?:\s*(?:pence|p)\b)?(?=\s*(?:$|[.,;:!?)\-–—]|\s(?:an?|per|each|a head|an hour|a week|a month|a night|for|on|to|and|but|or|so|which|that|plus|tops|max|please|pls|now|instead)\b))/i;

/** How many words back an amount in words may start. */
const MAX_WORDS = 8;

interface Said {
  readonly value: number;
  /** Where the amount's first word starts. */
  readonly start: number;
}

/** Words of money that are no currency's name: "80 quid", "3 grand" are read with digits too ("80 euros" needs no figure). */
const SLANG = /^(?:quid|grand|bucks)$/;

/** The amount said in words (or, with `digits`, in digits) that ends right before `end` in `text`, if any. */
function amountBefore(text: string, end: number, digitsToo: boolean): Said | undefined {
  const before = text.slice(Math.max(0, end - 120), end);
  const offset = end - before.length;
  // "80 quid", "3 grand", "2.5 grand".
  const digits = digitsToo ? /(?<![\p{L}\p{N}£$€.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?$/u.exec(before) : null;
  if (digits) return { value: Number(digits[1]!.replace(/,/g, '')), start: offset + digits.index };
  const words = [...before.matchAll(/[\p{L}]+(?:-[\p{L}]+)?|[^\p{L}\s]+/gu)];
  let total = 0;
  let current = 0;
  // Read back from the money word: the words that form the amount, until one that is not part of it.
  const run: { word: string; index: number }[] = [];
  for (let i = words.length - 1; i >= 0 && run.length < MAX_WORDS; i -= 1) {
    const word = words[i]![0].toLowerCase();
    const parts = word.split('-');
    const isNumber = parts.every((part) => part in UNITS || part in TENS || part in SCALES);
    if (isNumber || ((word === 'and' || word === 'a') && run.length > 0)) run.unshift({ word, index: offset + words[i]!.index! });
    else break;
  }
  // "a" only before a scale ("a hundred and twenty"); "and" only between number words.
  while (run.length > 0 && (run[0]!.word === 'and' || (run[0]!.word === 'a' && !(run[1] && run[1].word in SCALES)))) run.shift();
  if (!run.some(({ word }) => word !== 'and' && word !== 'a')) return undefined;
  for (const { word } of run) {
    if (word === 'and') continue;
    if (word === 'a') {
      current += 1;
      continue;
    }
    for (const part of word.split('-')) {
      if (part in UNITS) current += UNITS[part]!;
      else if (part in TENS) current += TENS[part]!;
      else if (part === 'hundred') current = (current || 1) * 100;
      else {
        total += (current || 1) * SCALES[part]!;
        current = 0;
      }
    }
  }
  return { value: total + current, start: run[0]!.index };
}

/** Pence said after "pounds": "thirteen pounds twenty", "four pounds fifty pence". */
function penceAfter(text: string, from: number): { pence: number; end: number } | undefined {
  const match = /^\s+(?:and\s+)?((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|five|\d{2})(?![\p{L}\p{N}])/iu.exec(text.slice(from, from + 40));
  if (!match) return undefined;
  const rest = text.slice(from + match[0].length);
  if (!PENCE_END.test(rest)) return undefined;
  const said = match[1]!.toLowerCase();
  const pence = /^\d/.test(said) ? Number(said) : said.split(/[- ]/).reduce((sum, part) => sum + (UNITS[part] ?? TENS[part] ?? 0), 0);
  const spelled = /^\s*(?:pence|p)\b/i.exec(rest)?.[0].length ?? 0;
  return pence > 0 && pence < 100 ? { pence, end: from + match[0].length + spelled } : undefined;
}

function figure(symbol: string, value: number, pence = 0): string {
  const whole = Math.floor(value).toLocaleString('en-GB');
  const cents = pence > 0 ? pence : Math.round((value - Math.floor(value)) * 100);
  return `${symbol}${whole}${cents > 0 ? `.${String(cents).padStart(2, '0')}` : ''}`;
}

/** `sentence` with each amount of money said in words or with a word of money followed by its figure in brackets. */
export function withFigures(sentence: string): string {
  if (!MONEY_WORD.test(sentence)) return sentence;
  MONEY_WORD.lastIndex = 0;
  let out = '';
  let last = 0;
  for (const match of sentence.matchAll(MONEY_WORD)) {
    const at = match.index!;
    if (at < last) continue;
    const word = match[1]!.toLowerCase();
    const amount = amountBefore(sentence, at, SLANG.test(word));
    if (!amount || amount.value <= 0) continue;
    let end = at + match[0].length;
    // A figure already said beside it ("£80 (80 quid)", "80 quid (£80)") is not said again.
    if (/^\s*\(?[£$€]\s?\d/.test(sentence.slice(end, end + 4)) || /[£$€]\s?\d[\d,.]*\s*\(?\s*$/.test(sentence.slice(Math.max(0, amount.start - 12), amount.start))) continue;
    if (/^pounds?$/.test(word) && (WEIGHT_BEFORE.test(sentence.slice(Math.max(0, amount.start - 40), amount.start)) || WEIGHT_AFTER.test(sentence.slice(end, end + 30)))) continue;
    let value = amount.value * (word === 'grand' ? 1_000 : 1);
    let pence = 0;
    if (/^(?:pounds?|euros?|dollars?)$/.test(word) && Number.isInteger(value)) {
      const after = penceAfter(sentence, end);
      if (after) {
        pence = after.pence;
        end = after.end;
      }
    }
    if (!Number.isFinite(value) || value > 1e9) continue;
    value = Math.round(value * 100) / 100;
    out += `${sentence.slice(last, end)} (${figure(SYMBOL[word]!, value, pence)})`;
    last = end;
  }
  return out + sentence.slice(last);
}
