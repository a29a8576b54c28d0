/**
 * Text helpers for the local model adapter, over well-kept NLP libraries:
 * compromise (person names, verb lemmas), chrono-node (relative dates,
 * resolved against each message's own timestamp) and an English word list
 * (a capitalised common word at a sentence's start is not a name).
 */
import nlp from 'compromise';
import englishWords from 'an-array-of-english-words' with { type: 'json' };
import { countTokens } from '../../../commons/tokens.js';
import { escapeRegExp } from '../../../commons/regexp.js';

export { countTokens };

/** Abbreviations whose period ends neither a sentence nor a value ("Dr. Weiss", "Brightwell Inc. signed"). */
const ABBREVIATIONS = /\b(Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|Mt|Inc|Ltd|Co|Corp|Bros|Messrs|Rev|Gen|Capt|Lt|Sgt|No|vs|etc|approx|dept|est|e\.g|i\.e)\.(?=\s|$)/g;
/** "policy no. is HX-20931", "ref. 5521", "acct. #8812": a number's label, whose period ends no sentence. */
const NUMBER_LABELS = /\b(no|ref|acct|nr)\.(?=\s*(?:is\b|was\b|[:#]|[A-Z]{0,6}-?\d))/gi;
const WEB_ADDRESS = /\b(?:https?:\/\/|www\.)[\w-]+(?:\.[\w-]+)+/g;
/**
 * An e-mail address's dots held, found from each "@" outwards (linear: a pattern that tried every start position
 * for the part before the "@" would read a long run of letters again and again).
 */
function holdEmailDots(text: string): string {
  if (!text.includes('@')) return text;
  const chars = [...text];
  const local = /[\p{L}\p{N}_.+-]/u;
  const domain = /[\p{L}\p{N}_.-]/u;
  for (let at = chars.indexOf('@'); at >= 0; at = chars.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && local.test(chars[start - 1]!)) start -= 1;
    let end = at + 1;
    while (end < chars.length && domain.test(chars[end]!)) end += 1;
    // Only a domain with a dot inside it (not the sentence's full stop after it) makes an address.
    while (end > at + 1 && chars[end - 1] === '.') end -= 1;
    if (start === at || !chars.slice(at + 1, end).includes('.')) continue;
    for (let i = start; i < end; i += 1) if (chars[i] === '.') chars[i] = HELD_DOT;
  }
  return chars.join('');
}
/** U+2024 ONE DOT LEADER stands in for an abbreviation's period while text is split and matched. */
const HELD_DOT = '\u2024';

/** Splits text into sentences, keeping abbreviations whole. Text is NFC-normalised first ("Zoë" typed either way is one string). */
export function sentences(text: string): string[] {
  return heldSentences(text).map(restoreDots);
}

/**
 * Sentences with abbreviations' periods still held (U+2024), for extractors
 * whose value patterns stop at a period; trimPhrase and cleanName put the
 * periods back in what they return.
 */
export function heldSentences(text: string): string[] {
  return text
    .normalize('NFC')
    .replace(ABBREVIATIONS, `$1${HELD_DOT}`)
    .replace(NUMBER_LABELS, `$1${HELD_DOT}`)
    // An e-mail address or a web address ends no sentence and no value at its dots.
    .replace(WEB_ADDRESS, (address) => address.replace(/\./g, HELD_DOT))
    .split(/(?<=[.!?])\s+|\n+/)
    // An address never holds a space, so no split falls inside one.
    .map(holdEmailDots)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0)
    .flatMap(pieces);
}

/**
 * How many sentences (or pieces) of one record are read with compromise
 * (names, places, tense): about 3,000 characters. The rest of a very long
 * record is still read by the rules' own patterns, which are linear; this
 * keeps a 32 KB message well under a second per updater.
 */
export const DEEP_SENTENCES_PER_RECORD = 8;

/** No sentence people write runs this long; a longer one (a pasted log, a run-on) is read in pieces, so reading stays linear in the text. */
export const MAX_SENTENCE_CHARS = 400;

function pieces(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE_CHARS) return [sentence];
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_SENTENCE_CHARS) {
    const space = rest.lastIndexOf(' ', MAX_SENTENCE_CHARS);
    const cut = space > MAX_SENTENCE_CHARS / 2 ? space : MAX_SENTENCE_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out.filter(Boolean);
}

/** Puts back the periods that `sentences` held. */
export function restoreDots(text: string): string {
  return text.replace(/\u2024/g, '.');
}

/** A sentence with its abbreviations' periods held, so value patterns that stop at "." do not stop inside "Dr. Weiss". */
export function holdAbbreviations(sentence: string): string {
  return sentence.replace(ABBREVIATIONS, `$1${HELD_DOT}`).replace(NUMBER_LABELS, `$1${HELD_DOT}`);
}

/**
 * Who wrote a record, and what they wrote without a leading "Name: " that
 * repeats the speaker. The key is the contact id when the record has one, else
 * the speaker's name (or the contact's), else `user` for the user's own
 * messages and `assistant` for the agent's.
 */
export function authorOf(record: { role: string; content: string; speaker?: string; contact?: { id?: string; name?: string } }): { key: string; name?: string; content: string } {
  const content = record.content.normalize('NFC');
  const speaker = record.speaker?.normalize('NFC').trim();
  const name = speaker ?? record.contact?.name?.normalize('NFC').trim();
  // Only a prefix that repeats the known speaker is dropped: "Note to self: ..." is content, not a name.
  const prefix = /^([\p{L}][\p{L}\p{M}'’ .-]{0,60}):\s+/u.exec(content);
  const stripped = prefix && name && prefix[1]!.trim() === name ? content.slice(prefix[0].length) : content;
  // "@Omar Haddad is out from Mon": a chat's mention is the name itself (an address's "@" is left alone).
  const said = stripped.replace(MENTION_AT, '');
  if (record.role === 'assistant' || record.role === 'tool' || record.role === 'system') return { key: 'assistant', content: said };
  const key = record.contact?.id ?? name ?? 'user';
  return { key, ...(name ? { name } : {}), content: said };
}

const MENTION_AT = /(?<![\p{L}\p{N}._%+-])@(?=\p{Lu})/gu;

/** A conditional that is only politeness: "If it matters,", "In case it helps:", "If you need to know,". */
const COURTESY_CONDITION = /^(?:(?:just )?(?:if|in case) (?:it|that|this) (?:matters|helps|is (?:useful|relevant|helpful)|'s (?:useful|relevant|helpful))|if you (?:need|want|must|have) to know|if you need it|for what it'?s worth)[,:;]?\s+/i;

/**
 * Questions, conditionals and wishes state nothing: "If I moved to Lisbon…",
 * "Should I call Tom?", "What if we lived in Madrid?", "I wonder whether…".
 */
export function isHypothetical(sentence: string): boolean {
  // "If it matters, my dentist is Dr. Moreau" is a courtesy, and states what follows it.
  const text = sentence.trim().replace(COURTESY_CONDITION, '');
  // "so I guess I'm pescatarian now?": said of oneself, the question mark only hedges.
  if (/\?["')\]]*$/.test(text) && !/\b(?:i guess|guess|i think|i suppose) (?:i'm|i’m|im|i am)\b/i.test(text)) return true;
  return /^(?:if|what if|suppose|supposing|imagine|should|would|could|might|maybe|perhaps|do you think|i wonder|wondering)\b/i.test(text) || /\b(?:i (?:sometimes )?wonder (?:whether|if)|if i (?:were|was|had|moved|lived|left|got)|i might|i may|would (?:it|i) be|thinking (?:about|of) (?:moving|leaving))\b/i.test(text);
}

const SMALL_TALK = [
  /^(hi|hey|hello|good (morning|afternoon|evening)|thanks|thank you|cheers|ok(ay)?|cool|great|nice|lol|haha|bye|see you|talk (soon|later)|sure|yes|no|yeah|nope)\b[\s!.,]*$/i,
  /\bhow are you\b|\bhow('s| is) it going\b|\bwhat'?s up\b/i,
  /\b(the )?weather\b|\b(it'?s|so) (sunny|rainy|cold|hot|warm)\b/i,
  /\bhave a (good|great|nice) (day|weekend|evening|one)\b/i,
];

/** Greetings, thanks, weather and other remarks with nothing to keep. */
export function isSmallTalk(sentence: string): boolean {
  const words = sentence.split(/\s+/).filter(Boolean);
  return words.length < 3 || saysSmallTalk(sentence);
}

/** Small talk by what it says ("thanks!", "haha"), whatever its length: "called eastside." is short, and no small talk. */
export function saysSmallTalk(sentence: string): boolean {
  return SMALL_TALK.some((pattern) => pattern.test(sentence));
}

/** "Actually, ...", "Sorry, I meant ...", "Correction: ..." */
export function isCorrection(sentence: string): boolean {
  const text = sentence.trim();
  return (
    /^(?:wait,?\s+)?(?:actually|correction|sorry|apologies|oops|my (?:mistake|bad)|no wait|wait,? no|i was wrong|i misspoke|to correct myself|scratch that|i got (?:that|it) wrong)\b/i.test(text) ||
    /\b(?:i got (?:that|it) wrong|my (?:mistake|bad)|i was wrong|i misread|i meant|correction)\b/i.test(text) ||
    /\bnot (?:on |in |at )?[^,.;!?]{1,40}? but\b/i.test(text) ||
    /,\s*not (?:on |in |at )?(?:the )?[\p{L}\p{N}][^,.;!?]{0,40}[.!]?$/iu.test(text)
  );
}

/**
 * A correction rewritten to state only the right value: "X is not A but B" →
 * "X is B"; "X is B, not A" → "X is B"; a leading apology is dropped.
 */
export function statedValue(sentence: string): string {
  return sentence
    .replace(/^(?:(?:wait,?\s+(?=actually\b)|actually|correction|sorry(?: about the confusion)?|apologies|oops|my (?:mistake|bad)(?: earlier)?|no wait|wait,? no|scratch that|i got (?:that|it) wrong)[,:;!.\s-]*)+/i, '')
    .replace(/^(?:sorry,?\s*)?i got (?:that|it) wrong[,:;\s-]*/i, '')
    .replace(/\bnot (?:on |in |at )?[^,.;!?]{1,40}? but (?:actually )?/i, '')
    .replace(/:\s*not (?:on |in |at )?[^,.;!?]{1,30},\s*/i, ': ')
    .replace(/,?\s+not (?:on |in |at )?(?:the )?[\p{L}\p{N}][^,.;!?]{0,40}(?=[,.;!?]|$)/iu, '')
    .replace(/\bactually /i, '')
    .trim();
}

export { anchorAllDates, anchorRelativeDates, resolveDate } from '../../../domain/dates.js';

const NOT_NAMES = new Set(
  [
    'i', 'me', 'you', 'we', 'they', 'he', 'she', 'it', 'the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'monday', 'tuesday',
    'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
    'september', 'october', 'november', 'december', 'today', 'tomorrow', 'yesterday', 'hi', 'hey', 'hello', 'thanks', 'ok', 'okay',
    'actually', 'also', 'and', 'but', 'so', 'please', 'can', 'could', 'would', 'remind', 'ai', 'assistant', 'user', 'mom', 'dad',
    'christmas', 'easter', 'halloween', 'hogmanay', 'diwali', 'eid', 'hanukkah', 'thanksgiving', 'ramadan', 'passover', 'year', 'god', 'sorry', 'yes', 'no', 'great', 'cool', 'nice', 'good', 'well', 'just', 'maybe', 'sure', 'let',
    'new', 'contact', 'done', 'all', 'heads', 'fyi', 'big', 'news', 'note', 'quick', 'update', 'correction', 'lunch', 'coffee', 'meet',
    // Month and weekday abbreviations ("Monday Nov 9"), languages ("Swedish phrases") and nationalities that name cuisines
    // ("the Thai place"); not "Jan", a name.
    'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri',
    'swedish', 'polish', 'german', 'dutch', 'portuguese', 'russian', 'arabic', 'hindi', 'danish', 'norwegian', 'finnish', 'welsh', 'scottish', 'irish', 'english', 'british',
    'thai', 'chinese', 'italian', 'indian', 'mexican', 'japanese', 'korean', 'french', 'greek', 'vietnamese', 'spanish', 'turkish', 'lebanese',
    'guess', 'oops', 'work', "i've", "i'm", "i'll", "i'd", 'finally', 'congratulations', 'welcome', 'dear', 'team', 'everyone', 'here', 'there', 'what', 'who', 'how', 'why',
  ].map((word) => word.toLowerCase()),
);

const RELATIONS = 'sister-in-law|brother-in-law|mother-in-law|father-in-law|sister|brother|wife|husband|partner|boss|manager|colleague|coworker|friend|mother|father|son|daughter|cousin|neighbou?r|assistant|client|doctor|dentist|lawyer|accountant|mentor|landlord|aunt|uncle|niece|nephew|girlfriend|boyfriend|fianc[ée]e?|roommate|flatmate|housemate|teammate|sis|bro|mum|mom|dad|hubby|grandma|grandpa|gran|granny|stepmom|stepmum|stepdad|bestie|bff|bf|gf';
/** How chat says a relation, in the words a profile uses ("my big sis" is a sister). */
const RELATION_WORDS: Readonly<Record<string, string>> = { sis: 'sister', bro: 'brother', mum: 'mother', mom: 'mother', dad: 'father', hubby: 'husband', gran: 'grandmother', granny: 'grandmother', grandma: 'grandmother', grandpa: 'grandfather', stepmom: 'stepmother', stepmum: 'stepmother', stepdad: 'stepfather', bestie: 'best friend', bff: 'best friend', bf: 'boyfriend', gf: 'girlfriend', fiance: 'fiancé', fiancee: 'fiancée', neighbor: 'neighbour' };
export function relationType(word: string): string {
  const lower = word.toLowerCase();
  return RELATION_WORDS[lower] ?? lower;
}
/** Words that describe a relation without changing it: "my big sis", "my little brother", "my best friend". */
const RELATION_ADJECTIVES = '(?:(?:new|old|best|former|big|little|older|younger|baby|twin|kid|step) )?';
/** Someone the sentence speaks of by relation and without a name ("his partner, she got a job …"). */
export const UNNAMED_RELATION = new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir) ${RELATION_ADJECTIVES}(?:${RELATIONS})\\b(?!,? \\p{Lu})`, 'u');
export const RELATION_PATTERN = new RegExp(`\\b(?:[Mm]y|[Oo]ur) ${RELATION_ADJECTIVES}(${RELATIONS})(?:,|(?:['’]s| is)(?: (?:gonna|going to|now|actually|still|officially)){0,2}(?: be)?)? ((?:(?:Dr|Mr|Mrs|Ms|Miss|Mx|Prof)\\.? )?[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?)`, 'gu');
/**
 * A relation to someone other than the author: "her son Omar", "his daughter Mia", "Dana's brother Theo" (group 1:
 * the named owner, when there is one; 2: the relation; 3: the person).
 */
export const OTHERS_RELATION_PATTERN = new RegExp(`\\b(?:[Hh]is|[Hh]er|[Tt]heir|(\\p{L}[\\p{L}-]+)['’]s) ${RELATION_ADJECTIVES}(${RELATIONS}),? ((?:(?:Dr|Mr|Mrs|Ms|Miss|Mx|Prof)\\.? )?\\p{Lu}[\\p{L}'-]+(?: \\p{Lu}[\\p{L}'-]+)?)`, 'gu');
/** "Dana is my sister", and in apposition: "Aiyana, my daughter, ...", "Kofi — my neighbour — ...", "Kojo (my manager)" (not "my wife's brother"). */
export const RELATION_REVERSE_PATTERN = new RegExp(`\\b([A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?)(?:(?:(?:,? (?:is|was)|,| [–—-]) )my | \\((?:my )?)${RELATION_ADJECTIVES}(${RELATIONS})\\b(?!['’]s)`, 'gu');

/**
 * A verb of going (and its object or adverb) just before "to", "from" or "into": what follows is a place. Not "get
 * back to Dana" or "returned it to Sam", which are said of people.
 */
const MOTION_BEFORE = /\b(?:mov(?:e|es|ed|ing)|driv(?:e|es|ing|en)|drove|go|goes|going|went|gone|head(?:s|ed|ing)?|fl(?:y|ies|ew|own|ying)|flight|travel(?:s|led|ling|ed|ing)?|walk(?:s|ed|ing)?|cycl(?:e|ed|ing)|r(?:ide|ode|iding)|commut(?:e|es|ed|ing)|relocat(?:e|es|ed|ing)|arriv(?:e|es|ed|ing)|trip|train|bus|coach|ferry|drive|way|made it|make it)(?: (?:me|us|him|her|them|it|all the way|back|over|down|up|out|home|straight))*\s*$/i;
/** Words after which "for" or "to" opens what is showing, not whom it is for ("tickets for Wicked", "the premiere of … to"). */
const SHOW_BEFORE = /\b(?:tickets?|seats?|passes|screening|showing|premiere|matinee|sequel|trailer)\s*$/i;

/** A capitalised English word that compromise's lexicon does not know as a first name ("Sinners", "Wicked"; not "Grace"). */
export function englishWordNotName(name: string): boolean {
  const first = name.split(' ')[0]!.toLowerCase();
  const firstName = (lexiconTags(first) ?? []).some((tag) => tag === 'FirstName' || tag === 'MaleName' || tag === 'FemaleName');
  return !firstName && inWordList(first);
}

/** Last words that make a name a business or an institution, not a person. */
const BUSINESS_WORD = /^(?:awards|trophies|hire|supplies|printers|printing|prints|signs|engraving|events|traders|wholesale|merchants|vets?|ltd|limited|inc|plc|llc|gmbh|co|cafe|café|bakery|clinic|surgery|dental|dentists?|pharmacy|hospital|school|academy|college|university|bank|hotel|studios?|gym|salon|garage|motors|bar|pub|restaurant|kitchen|deli|market|library|church|centre|center|group|labs?|partners|associates|solutions|systems|technologies|energy|buses|railways?|airlines?|insurance|council|physio|physiotherapy|osteopathy|chiropractic|logistics|couriers|removals|movers|services|health|healthcare|fitness|pavilion|stadium|arena|hall|station|pizzeria|trattoria|bistro|brasserie|diner|tavern|inn|bakehouse|patisserie|creamery|roastery|brewery|distillery|winery|florists?|caterers?|catering|fiber|fibre|broadband|telecoms?|wireless|networks?|communications|internet|accounting|accountants|architects|consulting|consultants|realty|properties|rentals|cabins|resort|motel|hostel|spa|storage|plumbing|electrical|construction|builders|roofing|landscaping|cleaners|cleaning|media|agency|travel|tours|foods|veterinary|kennels|grooming)$/i;

/** A number written as a word, as a name would open a sentence ("Twenty-two", "Three"). */
const NUMBER_WORD = /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:-\p{L}+)?$/iu;

const NAME = `\\p{Lu}[\\p{L}'-]+(?: \\p{Lu}[\\p{L}'-]+)?`;
/** The author naming themself: "I go by Sam, not Samantha", "call me Bea", "my name is Jo". */
const SELF_NAMED = new RegExp(`(?:\\b[Ii] go by|^[Cc]all me|\\b(?:[Pp]eople|[Ee]veryone|[Ff]riends) calls? me|\\b[Mm]y name(?: is|['’]s)|\\b[Ii]['’]m called) (${NAME})(?:,? (?:not|rather than) (${NAME}))?`, 'gu');
const MENTION_PATTERN = new RegExp(`\\b(?:with|w/?|to|from|into|saw|visited|met|meet|meeting|call|called|email|emailed|text|texted|told|asked|invite|invited|and|for|about|thank|thanked) (${NAME})`, 'gu');

/** A capitalised word or two as the subject of a verb of what people are or do: at a clause's start or after a word that is not a preposition ("than Northgate was" names no one). */
const SUBJECT_NAME = new RegExp(
  `(?:^|(?<=[,;:.!?] )|(?<=\\b(?!(?:than|then|at|in|into|to|from|for|with|of|on|by|about|like|as|over|under|near|after|before|since|until|via|per|the|a|an)\\b)\\p{Ll}{2,} ))(\\p{Lu}\\p{Ll}[\\p{Ll}'-]+(?: \\p{Lu}\\p{Ll}[\\p{Ll}'-]+)?) (?:is|was|has|had|works|worked|lives|lived|moved|relocated|grew up|speaks|teaches|runs|plays|studies|fixes|does|can't|cant|isn't|isnt|has been|\\p{Ll}{3,}(?<![su])s(?= \\p{Ll}))\\b`,
  'gu',
);
/**
 * The people a sentence names with an e-mail address or a number in brackets ("Lucy Marsh at Marsh Carter Architects
 * (lucy@…)"): a first name the lexicon knows and a surname that is no business word. Such a name is a person even when
 * compromise reads it as a place ("Marsh").
 */
export function namedWithReach(sentence: string): { name: string; inBrackets: string }[] {
  const out: { name: string; inBrackets: string }[] = [];
  for (const match of sentence.matchAll(NAME_WITH_REACH)) {
    const [first, last] = [match[1]!, match[2]!];
    if (!(lexiconTags(first.toLowerCase()) ?? []).some((tag) => tag === 'FirstName' || tag === 'MaleName' || tag === 'FemaleName') || BUSINESS_WORD.test(last)) continue;
    const name = cleanName(`${first} ${last}`);
    const open = match.index! + match[0].lastIndexOf('(');
    const close = sentence.indexOf(')', open);
    if (name && !out.some((o) => o.name === name)) out.push({ name, inBrackets: sentence.slice(open + 1, close < 0 ? open + 120 : close) });
  }
  return out;
}

/** A first name and a surname, perhaps with where they work, then an e-mail address or a number in brackets. */
const NAME_WITH_REACH = /(?<![\p{L}])(\p{Lu}\p{Ll}+) (\p{Lu}[\p{Ll}'’-]+)(?:(?:,| (?:at|from|of)) (?:(?:\p{Lu}[\p{L}&'’.-]*|&|and)\s?){1,5})?,?\s*\(\s*(?:[\w.+-]+@|\+?\d[\d ]{6,})/gu;
/** A word that may be a name: one compromise's lexicon does not know, or knows as a name. A contraction ("can't", "you've") never is. */
function nameLike(word: string): boolean {
  if (NOT_NAMES.has(word) || DEPARTMENTS.has(word) || CONTRACTION.test(word)) return false;
  const tags = lexiconTags(word);
  if (tags === undefined) return true;
  return tags.some((tag) => tag === 'FirstName' || tag === 'MaleName' || tag === 'FemaleName' || tag === 'LastName');
}

const CONTRACTION = /['’](?:t|ve|ll|re|d|m)$/iu;

let dictionary: ReadonlySet<string> | undefined;
/** Whether a lower-case word is in the English word list (loaded on first use). */
function inWordList(lower: string): boolean {
  dictionary ??= new Set(englishWords as string[]);
  return dictionary.has(lower);
}

/**
 * A word of the English word list that compromise's lexicon does not know ("weight", "hounds", "retries";
 * the lexicon's own tags decide for the words it knows, so "grace" and "jess" stay first names), or a
 * contraction: where only its capital says a word is a name (a sentence's first word, a word after "and"),
 * such a word is taken as the word it is.
 */
export function commonWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (CONTRACTION.test(lower)) return true;
  if (LEXICON[lower] !== undefined) return false;
  return inWordList(lower);
}

/** An English word in capitals is said loudly ("The CELLO?"), not spelled as a name ("KPMG"). */
function shouted(word: string): boolean {
  return /^\p{Lu}+$/u.test(word) && inWordList(word.toLowerCase());
}

/** Parts of an organisation named like a person after "to", "from", "with" ("sent it to Legal", "a call with Procurement"). */
const DEPARTMENTS = new Set(
  [
    'legal', 'finance', 'procurement', 'hr', 'payroll', 'accounts', 'accounting', 'compliance', 'marketing', 'sales', 'support',
    'engineering', 'operations', 'ops', 'facilities', 'security', 'admin', 'administration', 'reception', 'recruitment', 'recruiting',
    'billing', 'helpdesk', 'it', 'infra', 'infrastructure', 'logistics', 'purchasing', 'treasury', 'audit', 'research', 'management',
    // Teams and functions chat names like people ("QA signed off", "Payments wants it").
    'qa', 'pm', 'ux', 'ui', 'pr', 'cs', 'devops', 'product', 'design', 'data', 'platform', 'core', 'payments', 'mobile', 'frontend', 'backend', 'growth', 'leadership',
  ],
);

/** What a relation word is often followed by that is no name: "my dentist appointment", "my sister wedding", "my boss call". */
const RELATION_THINGS = new Set(
  [
    'appointment', 'appointments', 'appt', 'appts', 'wedding', 'party', 'birthday', 'funeral', 'graduation', 'visit', 'call', 'meeting',
    'checkup', 'check-up', 'surgery', 'operation', 'bill', 'bills', 'account', 'phone', 'email', 'number', 'address', 'house', 'flat',
    'apartment', 'place', 'car', 'office', 'job', 'work', 'school', 'class', 'recital', 'game', 'match', 'show', 'concert', 'trip',
    'flight', 'dinner', 'lunch', 'plans', 'stuff', 'things', 'kids', 'dog', 'cat', 'team', 'group', 'chat', 'text', 'review', 'results',
  ],
);

/** "HMRC", "DVLA", "IKEA": three or more capitals and nothing else name an organisation, not a person ("JJ" may be a nickname). */
const ACRONYM = /^\p{Lu}{3,}$/u;
/** "PoE", "VoIP", "IPoE": three or four letters with capitals after a small one, as technical terms are written (not "McKay", not "JoJo"). */
const TECH_TERM = /^(?:\p{Lu}\p{Ll}\p{Lu}{1,2}|\p{Lu}{2}\p{Ll}\p{Lu})$/u;

export function cleanName(raw: string): string | undefined {
  const name = restoreDots(raw.normalize('NFC'))
    // "sam (bf)": an aside after a name is not part of it; nor is what follows a symbol ("Dolores > Greg").
    .replace(/\s*\(.*$/u, '')
    .replace(/\s*[<>=+*|\\/#@~^].*$/u, '')
    .replace(/['’]s[.,;:!?]*$/u, '')
    // A dash or a lower-case word after the name is the sentence going on ("Tomasz —", "Grandpa Wei re: ...").
    .replace(/(?:\s+(?:[-–—]+|\p{Ll}[\p{L}'’]*))+[.,;:!?]*$/u, '')
    .replace(/[.,;:!?)"'’]+$/u, '')
    .replace(/^(?:my |the )/i, '')
    .replace(new RegExp(`^(?:${RELATIONS}) `, 'iu'), '')
    // A title before a full name is not part of it ("Dr. Amara Osei"); before a bare surname it is ("Dr. Weiss").
    .replace(/^(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.? (?=\p{Lu}[\p{L}'-]+ \p{Lu})/u, '')
    .trim();
  if (!name || !/^\p{Lu}/u.test(name)) return undefined;
  let words = name.split(' ');
  // "FYI Anne-Marie Dubois", "Heads up Priya": leading words that are not names are dropped.
  while (words.length > 1 && NOT_NAMES.has(words[0]!.toLowerCase())) words = words.slice(1);
  if (words.length === 0 || !/^\p{Lu}/u.test(words[0]!)) return undefined;
  if (words.some((word) => NOT_NAMES.has(word.toLowerCase()))) return undefined;
  if (words.length === 1 && (ACRONYM.test(words[0]!) || TECH_TERM.test(words[0]!) || DEPARTMENTS.has(words[0]!.toLowerCase()))) return undefined;
  // A word cut at a hyphen is part of a code or an id ("LT-4471"), not a name.
  if (words.some((word) => word.endsWith('-'))) return undefined;
  // "Drop-off", "Check-in", "Follow-up": English words joined, not "Anne-Marie".
  if (words.length === 1 && /^\p{Lu}\p{Ll}+(?:-\p{Ll}+)+$/u.test(words[0]!) && words[0]!.toLowerCase().split('-').every((part) => inWordList(part) && !(lexiconTags(part) ?? []).some((tag) => NAME_TAGS.has(tag)))) return undefined;
  // "Clifton Vets", "Harbour Dental": a name that ends in what a business is, is the business.
  if (words.length > 1 && BUSINESS_WORD.test(words.at(-1)!)) return undefined;
  // "Tuesdays and Fridays": days of the week, however many.
  if (/^(?:mon|tues|wednes|thurs|fri|satur|sun)days$/i.test(words[0]!)) return undefined;
  // "Twenty-two mugs is a lot", "Thirty-three feels grown up": a number opening a sentence.
  if (NUMBER_WORD.test(words[0]!)) return undefined;
  if (words.length > 3) return undefined;
  return words.join(' ');
}

/** Every time the sentence says `name`, it is a saint's: "St James's", "St. Mary's", "Saint Luke's". */
function onlyAfterSaint(sentence: string, name: string): boolean {
  const said = [...sentence.matchAll(new RegExp(`(?<![\\p{L}'’])${escapeRegExp(name)}(?![\\p{L}])`, 'gu'))];
  return said.length > 0 && said.every((match) => /\b(?:St\.?|Saint) $/u.test(sentence.slice(0, match.index)));
}

/**
 * Person names in a sentence: compromise's people, names after a relation
 * ("my sister Elena") and names after verbs and prepositions that take a
 * person ("met Priya"), minus organisations found in the same sentence.
 */
export function personNames(sentence: string, organisations: readonly string[] = [], spelledAsNames: ReadonlySet<string> = new Set()): string[] {
  const found = new Set<string>();
  const doc = nlp(sentence);
  for (const raw of doc.people().out('array') as string[]) {
    const name = cleanName(raw);
    if (name) found.add(name);
  }
  let places: ReadonlySet<string> | undefined;
  for (const pattern of [RELATION_PATTERN, MENTION_PATTERN]) {
    for (const match of sentence.matchAll(pattern)) {
      // "the Fox and Hounds": after "and", a capitalised common word is part of a name, not a person.
      if (match[0].startsWith('and ') && !match[1]!.includes(' ') && commonWord(match[1]!)) continue;
      // "tickets for Sinners", "two seats for Wicked": an English word after them names the show, unless the lexicon knows it as a first name ("seats for Priya" stays).
      if (pattern === MENTION_PATTERN && /^(?:to|for) /.test(match[0]) && SHOW_BEFORE.test(sentence.slice(0, match.index ?? 0)) && englishWordNotName(match[1]!)) continue;
      if (pattern === MENTION_PATTERN && /^(?:to|from|into) /.test(match[0]) && !/^['’]s\b/u.test(sentence.slice((match.index ?? 0) + match[0].length))) {
        // Where one goes or comes from is a place ("moving to Worcester", "drove all the way to Aberystwyth"), and so is
        // a place compromise knows ("the train to Leeds"); "Sam's" after it is still someone's.
        if (MOTION_BEFORE.test(sentence.slice(0, match.index ?? 0))) continue;
        places ??= new Set((doc.places().out('array') as string[]).map((place) => place.replace(/[.,;:!?]+$/u, '')));
        if (places.has(match[1]!) || places.has(match[1]!.split(' ')[0]!)) continue;
      }
      const name = cleanName(match[pattern === RELATION_PATTERN ? 2 : 1]!);
      if (name) found.add(name);
    }
  }
  for (const match of sentence.matchAll(RELATION_REVERSE_PATTERN)) {
    const name = cleanName(match[1]!);
    if (name) found.add(name);
  }
  // A name compromise does not know, as the subject of what people are or do ("Mateus is a strict vegetarian").
  for (const match of sentence.matchAll(SUBJECT_NAME)) {
    const words = match[1]!.split(' ');
    // "Weight was 90.8": a common word opening a sentence is that word, unless the batch writes it as a name elsewhere ("and Dev is").
    if (!words.every((word) => nameLike(word.toLowerCase()) && (!commonWord(word) || spelledAsNames.has(word.toLowerCase())))) continue;
    const name = cleanName(match[1]!);
    if (name) found.add(name);
  }
  // "our architect, Lucy Marsh at Marsh Carter Architects (lucy@…, 01943 …)": a first name and a surname given with
  // an e-mail address or a number in brackets, as a signature or a forwarded mail gives them, name a person
  // whatever compromise makes of the words around them.
  for (const { name } of namedWithReach(sentence)) found.add(name);
  // "I go by Sam, not Samantha": the author's own names are not contacts.
  for (const match of sentence.matchAll(SELF_NAMED)) {
    for (const own of [match[1], match[2]]) if (own) found.delete(cleanName(own) ?? own);
  }
  const orgs = organisations.map((org) => org.toLowerCase());
  // Drop a bare first name when the full name is also present; and a saint's name, which names a place ("a paramedic at St James's").
  const names = [...found].filter((name) => !orgs.some((org) => holdsWords(org, name.toLowerCase())) && !onlyAfterSaint(sentence, name));
  // "Dr Hannah" beside "Hannah Reid" (from "Dr Hannah Reid") is the same person.
  const untitled = (name: string) => name.replace(/^(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.? /u, '');
  return names.filter((name) => !names.some((other) => other !== name && other.startsWith(`${untitled(name)} `)));
}

/** Whether `phrase` holds `words` as whole words: "royal gwent" holds "gwent", not "gwen". */
export function holdsWords(phrase: string, words: string): boolean {
  const at = phrase.indexOf(words);
  if (at < 0) return false;
  if (phrase === words) return true;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(words)}(?![\\p{L}\\p{N}])`, 'u').test(phrase);
}

/** The infinitive form of the verbs in a phrase ("sent the contract" → "send the contract"). */
export function toInfinitive(phrase: string): string {
  const doc = nlp(phrase);
  doc.verbs().toInfinitive();
  return doc.text();
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function trimPhrase(text: string): string {
  return restoreDots(text)
    .replace(/^[\s,:;-]+|[\s,.;:!?-]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What compromise's lexicon knows a lower-case word as, when it knows it. */
const LEXICON = (nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }).model().one.lexicon;
/** The lexicon's tags for a lower-case word, undefined when it does not know the word. */
function lexiconTags(word: string): readonly string[] | undefined {
  const tags = LEXICON[word];
  return tags === undefined ? undefined : Array.isArray(tags) ? tags : [tags];
}

/** The pronoun a first name usually takes, when compromise's lexicon tags it as a man's or a woman's name ("Marco", "Ana"). */
export function usualPronoun(name: string): 'he' | 'she' | undefined {
  const tags = lexiconTags(name.split(/\s+/)[0]!.toLowerCase()) ?? [];
  return tags.includes('MaleName') ? 'he' : tags.includes('FemaleName') ? 'she' : undefined;
}

/** Lexicon tags a name may carry ("tom" is a MaleName, "denver" a City); a word known as anything else ("will", "may", "thai") is left alone. */
const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'LastName', 'Person', 'City', 'Country', 'Place', 'Region', 'Organization', 'Noun']);
/** A capitalised word inside a sentence (after a lower-case word), or an acronym anywhere: how the batch spells a name. */
const CASED_WORD = /(?<=\p{Ll}[,']?\s)(\p{Lu}\p{Ll}{2,}|\p{Lu}{2,5})\b|\b(\p{Lu}{3,5})\b/gu;

/**
 * Casual chat writes names in lower case ("met jess from acme"); the rules
 * read names by their capitals. Given a capital wherever they appear in lower
 * case: words the batch itself (or a known contact) spells with a capital
 * inside a sentence ("Jess", "Acme", "KPMG", usually in the assistant's
 * replies); first names and cities the lexicon knows only as such, where the
 * sentence uses them as a person or a place ("my brother theo", "live in
 * leeds"); and unknown words where only an employer or a person can go ("an
 * analyst at spotify"). A word the lexicon knows as something other than a
 * name, or that the sentence uses as a verb or a modifier, is left alone, and
 * nothing inside an address or a link changes. Only the case of these words
 * changes; the model's statements quote the re-cased text.
 */
export function recaseKnownNames<T extends { readonly content: string }>(records: readonly T[], known: readonly string[] = []): T[] {
  const spelling = new Map<string, string>();
  const add = (word: string) => {
    const lower = word.toLowerCase();
    if (lower.length < 3 || NOT_NAMES.has(lower) || spelling.has(lower)) return;
    const tags = lexiconTags(lower);
    if (tags !== undefined && !tags.some((tag) => NAME_TAGS.has(tag))) return;
    spelling.set(lower, word);
  };
  for (const name of known) for (const word of name.split(/\s+/)) if (/^\p{Lu}[\p{L}'-]+$/u.test(word)) add(word);
  for (const record of records) {
    for (const match of record.content.matchAll(CASED_WORD)) {
      const word = match[1] ?? match[2]!;
      if (!shouted(word)) add(word);
    }
  }
  // A first name the lexicon knows only as a name ("nadia", "theo"), used as a person where it stands ("my brother theo").
  for (const record of records) {
    if (!/\b\p{Ll}/u.test(record.content)) continue;
    for (const term of nlp(record.content.slice(0, RECASE_READ_CHARS)).terms().json() as { terms: { text: string; normal: string; tags: string[] }[] }[]) {
      for (const t of term.terms) {
        const known = lexiconTags(t.normal) ?? [];
        const given = known.some((tag) => tag === 'MaleName' || tag === 'FemaleName') && t.tags.includes('Person');
        // A city or a country the lexicon knows, read as a place where it stands ("we live in leeds").
        const place = known.some((tag) => tag === 'City' || tag === 'Country') && t.tags.includes('Place');
        // "my onboarding buddy", "a real sweetheart": after a determiner (and one word not a relation) it is a noun, not a name.
        if (given && commonNounAt(record.content, t.normal)) continue;
        if ((given || place) && t.text === t.normal && !t.tags.some((tag) => NOT_NAME_USES.has(tag))) add(capitalise(t.normal));
      }
    }
  }
  // A word after "my cousin", "my mum": a name ("my uncle giorgos"), when the lexicon knows it as nothing else.
  for (const record of records) {
    for (const match of record.content.matchAll(RELATION_THEN_WORD)) {
      const word = match[1]!;
      // "my dentist appointment", "my sister wedding": the thing of the relation, not a name ("my sister ivy" is one).
      if (!nameLike(word) || NOT_ORGANISATIONS.has(word) || RELATION_THINGS.has(word)) continue;
      // "our client retries", "my brother can't come": what they do is not their name.
      const at = match.index ?? 0;
      const phrase = record.content.slice(at, at + match[0].length + 24);
      const terms = (nlp(phrase).json() as { terms: { normal: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
      if (terms.find((t) => t.normal === word)?.tags.some((tag) => NOT_NAME_USES.has(tag))) continue;
      add(capitalise(word));
    }
  }
  // An unknown word where only an employer or a person can go ("a data analyst at spotify", "coffee w priti (head of sales ...)").
  for (const record of records) {
    for (const match of record.content.matchAll(PLACE_OF_NAME)) {
      const word = match[1]!;
      if (LEXICON[word] === undefined && !NOT_NAMES.has(word) && !NOT_ORGANISATIONS.has(word)) add(capitalise(word));
    }
  }
  // A word only a name can be, where only an employer ("an auditor at deloitte", "joined deloitte"), a person
  // ("met up w priya", "called ifeoma") or a home ("we moved to fairhaven") can stand.
  for (const record of records) {
    for (const pattern of [ROLE_AT_PLACE, MET_THEN_WORD]) {
      for (const match of record.content.matchAll(pattern)) if (unknownWord(match[1]!)) add(capitalise(match[1]!));
    }
    // A home: an unknown word, or one the lexicon knows only as a place ("fairhaven").
    for (const match of record.content.matchAll(HOME_THEN_WORD)) {
      const tags = lexiconTags(match[1]!);
      if (unknownWord(match[1]!) || (tags !== undefined && tags.every((tag) => PLACE_TAGS.has(tag)))) add(capitalise(match[1]!));
    }
  }
  // A name after a title said in lower case ("dr amy cho", "booked with dr cho"): one or two words that may be names.
  for (const record of records) {
    for (const match of record.content.matchAll(TITLE_THEN_WORDS)) {
      if (!nameLike(match[1]!)) continue;
      add(capitalise(match[1]!));
      if (match[2] && nameLike(match[2]) && !inWordList(match[2])) add(capitalise(match[2]));
    }
  }
  // A first name before a word the lexicon knows only as a surname ("sat next to dev patel", "ask sam nguyen"): both.
  for (const record of records) {
    for (const match of record.content.matchAll(NAME_THEN_SURNAME)) {
      const first = match[1]!;
      const tags = lexiconTags(match[2]!) ?? [];
      // Only a surname that is no English word: "walker", "baker", "porter" are said of jobs ("the dog walker").
      if (tags.length === 0 || !tags.every((tag) => tag === 'LastName') || inWordList(match[2]!)) continue;
      const firstTags = lexiconTags(first);
      if (NOT_NAMES.has(first) || CHAT_WORDS.has(first) || (firstTags !== undefined && !firstTags.some((tag) => GIVEN_TAGS.has(tag)))) continue;
      add(capitalise(first));
      add(capitalise(match[2]!));
    }
  }
  if (spelling.size === 0) return records.map(titled);
  // Never inside an address, a handle or a link ("farid@example.com", "/jess").
  const pattern = new RegExp(`(?<![\\p{L}\\d@/._-])(${[...spelling.keys()].map(escapeRegExp).join('|')})(?![\\p{L}\\d@/_-]|\\.\\p{L})`, 'gu');
  return records.map((record) => {
    if (!record.content.match(pattern)) return record;
    // Where the sentence uses the word as a verb or a modifier ("mark it done"), it stays as written.
    const asWord = new Set<string>();
    for (const term of nlp(record.content.slice(0, RECASE_READ_CHARS)).terms().json() as { terms: { normal: string; tags: string[] }[] }[]) {
      // Only for words the lexicon knows: an unknown word's tag is compromise's guess ("at spotify" reads as a verb).
      for (const t of term.terms) if (spelling.has(t.normal) && LEXICON[t.normal] !== undefined && t.tags.some((tag) => NOT_NAME_USES.has(tag))) asWord.add(t.normal);
    }
    return titled({ ...record, content: record.content.replace(pattern, (word) => (asWord.has(word) ? word : (spelling.get(word) ?? word))) });
  });
}

/** Two lower-case words, the second of which may be a surname (read by lookahead, so each word is tried as a first). */
const NAME_THEN_SURNAME = /(?<![\p{L}\d@/._-])(\p{Ll}{2,12})(?= (\p{Ll}{3,20})(?![\p{L}\d@/_-]))/gu;
const GIVEN_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);

/** A title said in lower case before a name ("dr Amy Cho") takes its capital, so the title and the name read as one. */
function titled<T extends { readonly content: string }>(record: T): T {
  const content = record.content.replace(TITLE_BEFORE_NAME, (title: string) => capitalise(title));
  return content === record.content ? record : { ...record, content };
}
const TITLE_BEFORE_NAME = /(?<![\p{L}\d@/.])(?:dr|prof|mrs|mr|ms)(?=\.? \p{Lu})/gu;

const TITLE_THEN_WORDS = /(?<![\p{L}\d@/.])(?:dr|prof|mrs|mr|ms)\.? (\p{Ll}[\p{Ll}'-]{1,})(?: (\p{Ll}[\p{Ll}'-]{1,}))?/gu;
const RELATION_THEN_WORD = new RegExp(`\\b(?:my|our) ${RELATION_ADJECTIVES}(?:${RELATIONS}) (\\p{Ll}[\\p{Ll}'-]{2,})\\b`, 'gu');
const PLACE_OF_NAME = /(?<![\p{L}\d@/.])(?:(?:works?|working|worked|job|joined|intern(?:ing)?|engineer|designer|developer|analyst|manager|lead|director|officer|nurse|teacher|pharmacist|consultant|founder|head of [\p{Ll}]+) (?:at|for)|(?:w\/?|with) (?=\p{Ll}[\p{Ll}\d&'-]{2,} \())\s?(\p{Ll}[\p{Ll}\d&'-]{2,})(?=$|[.,;!?()]|\s(?:\(|as|now|and|but|btw|lol|today|tonight|tmrw|tomorrow|yesterday|next|last|since|these|this)\b)/gu;
const ROLE_AT_PLACE = /(?<![\p{L}\d@/.])(?:\ban? (?:[\p{Ll}-]{3,} ){0,2}[\p{Ll}-]{3,} (?:at|for)|\b(?:joined|joining|started at|hired by|got hired at|got a job at|interning at)) (\p{Ll}[\p{Ll}\d&'-]{2,})(?=$|[.,;!?()]|\s(?:as|now|and|but|btw|lol|tho|since|last|this|these|in|on|back)\b)/gu;
const RELATION_ONLY = new RegExp(`^(?:${RELATIONS})$`);
/**
 * Whether `word` stands in `text` as a common noun: right after a possessive or an article, or after one and a word
 * that names no one ("my buddy", "my onboarding buddy"; not "my brother theo", "my teammate priya").
 */
function commonNounAt(text: string, word: string): boolean {
  const pattern = new RegExp(`\\b(?:my|your|his|her|our|their|a|an)\\s+(?:([\\p{Ll}-]+)\\s+)?${escapeRegExp(word)}\\b`, 'giu');
  for (const match of text.matchAll(pattern)) {
    const between = match[1]?.toLowerCase();
    if (!between) return true;
    if (RELATION_ONLY.test(between)) continue;
    // "onboarding", "running", "old": a modifier; "teammate", "neighbour": a person, and the word after it their name.
    const tagged = nlp(between);
    if (!tagged.has('#Noun') || tagged.has('#Gerund')) return true;
  }
  return false;
}
const PLACE_TAGS = new Set(['Place', 'City', 'Country', 'Region', 'ProperNoun']);
/** Where only a place can stand: "we moved to fairhaven", "living in oakridge now", "relocating to pune". */
const HOME_THEN_WORD = /(?<![\p{L}\d@/.])(?:(?:moved|moving|moves|relocated|relocating|live|lives|living|lived|based) (?:to|in|out to|over to|back to)) (\p{Ll}[\p{Ll}'-]{2,})(?=$|[.,;!?()]|\s(?:in|on|over|during|last|this|since|now|recently|yesterday|earlier|back|after|before|when|because|bc|and|but|btw|lol|tho|a|for|with)\b)/gu;
const MET_THEN_WORD = /(?<![\p{L}\d@/.])(?:(?:met|meet|meeting|saw|seeing|texted|called|calling|asked|told|hung out|caught up|met up|lunch|dinner|drinks|coffee) (?:up )?(?:w\/?|with) |(?:met|texted|called|asked|told) )(\p{Ll}[\p{Ll}'-]{2,})\b(?![@/])/gu;
/** Chat's own words of three letters or more, in no word list: never a name ("w ppl"); NOT_ORGANISATIONS holds more. */
const CHAT_WORDS = new Set(['ppl', 'yday', 'yest', 'tonite', 'tmw', 'wknd', 'msg', 'txt', 'pic', 'pics', 'vid', 'bby', 'hun', 'babe', 'luv', 'lol', 'lmao', 'omg', 'btw', 'fyi', 'tho', 'thx', 'pls', 'plz', 'gonna', 'wanna', 'gotta', 'kinda', 'sorta', 'dunno', 'cuz', 'coz', 'yall', 'bestie', 'bff', 'fam', 'bro', 'sis', 'hubby', 'wifey', 'bae', 'mates', 'peeps', 'yknow', 'irl', 'dms', 'convo', 'smth', 'sth', 'abt', 'yeah', 'yep', 'nope', 'haha', 'hehe']);
/** A word only a name can be: compromise's lexicon does not know it, no English word list has it, and chat does not use it as a word. */
function unknownWord(word: string): boolean {
  return LEXICON[word] === undefined && !inWordList(word) && !NOT_NAMES.has(word) && !NOT_ORGANISATIONS.has(word) && !CHAT_WORDS.has(word) && !CONTRACTION.test(word);
}
/** Words chat puts after "at" that name no one ("at uni", "at wfh"). */
const NOT_ORGANISATIONS = new Set(['uni', 'wfh', 'gym', 'home', 'work', 'school', 'tmrw', 'tmr', 'bday', 'lunch', 'brunch', 'hq', 'office', 'asap', 'idk', 'tbh', 'ngl', 'rn', 'atm']);

/** Words a batch writes with a capital inside a sentence (lower case): where the batch itself spells them as names. */
export function casedInside(texts: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(CASED_WORD)) if (match[1] && !shouted(match[1])) words.add(match[1].toLowerCase());
  return words;
}

/** What is tagged of a record to re-case its names: a long record's head (compromise's cost grows with the text). */
const RECASE_READ_CHARS = 2_000;

const NOT_NAME_USES = new Set(['Verb', 'Modal', 'Adjective', 'Adverb', 'Determiner', 'Preposition', 'Conjunction', 'Pronoun']);
