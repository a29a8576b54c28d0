/**
 * Local task extraction: commitments ("remind me to ...", "I need to ...",
 * "can you make sure I ...", "I'll ...", "Marco will ..."), their owner (the
 * record's author: its contact id or speaker, `user`, or `assistant`) and due
 * date (resolved forward from the record's own timestamp); and progress on
 * open tasks, matched by meaning rather than wording: a sentence closes the
 * open task it shares most verb and object lemmas with when it reports the
 * work in the past tense ("I sent Priya the contract this morning" closes
 * "send the contract to Priya"), or cancels it when it drops it ("no need to
 * ...", "forget about ...", "won't ... after all").
 */
import nlp from 'compromise';
import type { TaskOp } from '../../../domain/memory.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import { escapeRegExp } from '../../../commons/regexp.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { DEEP_SENTENCES_PER_RECORD, authorOf, capitalise, cleanName, heldSentences, isSmallTalk, personNames, saysSmallTalk, usualPronoun, resolveDate, restoreDots, toInfinitive, trimPhrase } from './text.js';

/**
 * What an assistant does as it says it ("I'll save Kate's address as …", "I'll note that", "I'll add it to your
 * calendar"): a record kept, no work left to do. Only an assistant's: "I'll save the receipts for Priya" is a user's task.
 */
const DONE_AT_ONCE = /^(?:(?:just|also)\s+)?(?:(?:save|note|jot|log|store)\b(?!\s+(?:in|into|on|up)\b)|make a note\b|record (?:that|it|this)\b|(?:record|note|log|list|mark|keep)\s[^.!?;]{0,60}?\sas\s|(?:take|cross|tick|strike)\s[^.!?;]{0,60}?\soff (?:the|your|my|our) (?:list|notes|kit list|to-?do list)\b|add (?:that|it|this|them|these|those)(?: \w+)? to (?:your|the|my|our) (?:running )?(?:record|notes|log)\b|write (?:that|it|this) down\b|add (?:that|it|this|them) to (?:your|the|my) (?:list|calendar|diary|notes)\b|update (?:your|the|my) (?:calendar|diary|notes|records?|list|contacts?|address book)\b)/i;
/** Hedges before the verb ("I'll probably ring ..."): skipped, and read through when the verb is one of NOT_WORK's. */
const HEDGE = '(?:(?:probably|definitely|def|prob|just|still|also|totally|actually|really|maybe|likely|surely|simply|only)\\s+)?';
/**
 * Verbs that say nothing about work to be done ("I'll keep that in mind", "let me know"), what someone will be or
 * feel ("I'll probably be sore"), refusals ("I will not ..."), and sayings ("I'll cross that bridge when …", "I'll
 * sleep on it").
 */
const NOT_WORK = `(?!${HEDGE}(?:not\\b|never\\b|do so\\b|trouble you\\b|no longer\\b|keep\\b|be\\b|have\\b|see\\b|think\\b|try\\b|update you\\b|let you know\\b|get back\\b|look into\\b|check\\b|need\\b|want\\b|remember\\b|do my best\\b|wait\\b|help\\b|take a look\\b|know\\b|admit\\b|say\\b|confess\\b|agree\\b|laugh\\b|wonder\\b|pretend\\b|feel\\b|love\\b|like\\b|miss\\b|hate\\b|get used to\\b|tell you\\b|decline\\b|pass on\\b|pass\\b|forget\\b|ignore\\b|skip\\b|stick (?:with|to)\\b|pray\\b|tell (?:someone|somebody|anyone|anybody|everyone|everybody)\\b|stop the\\b.*\\breminders?\\b|cancel the\\b.*\\breminders?\\b|cross (?:that|the|this) bridge\\b|hold (?:you|u|him|her|them) to (?:that|it)\\b|believe it when\\b|sleep on it\\b|eat my (?:words|hat)\\b))${HEDGE}`;
/**
 * Good wishes passed on are no errand: "send her my love", "give Tom our congratulations", "say hi to your mum",
 * "give the dog a scratch from me".
 */
const COURTESY = /^(?:(?:send|give|pass on|pass along|pass)(?: (?:him|her|them|everyone|\p{Lu}[\p{L}'’-]+|(?:your|the) [\p{L}'’-]+))? (?:my|our|all (?:my|our)|a big|big) (?:(?:best |warmest |heartfelt )?(?:love|best|congrat\p{L}*|regards|thanks|wishes|condolences|sympath\p{L}*|hellos?|hugs?))\b|say (?:hi|hello|hey|hiya|thanks)\b|give (?:\S+ ){1,2}a (?:big |good )?(?:hug|scratch|cuddle|pat|kiss|squeeze|belly rub)\b)/iu;
/** The dot of an amount with pence ("£18.50"), and the character that holds it (text.ts `heldSentences`; `restoreDots` puts it back). */
const AMOUNT_DOT = /([£$€]\s?\d[\d,]*)\.(?=\d)/g;
const HELD_DOT = '\u2024';

/** A value said to change ("go up to £5", "go to Rs 210", "drop to 12 a head"): what something will cost or count, no work. */
const VALUE_MOVES = /^(?:go|goes|rise|rises|drop|drops|fall|falls|increase|decrease|come|comes|jump)\s+(?:up\s+|down\s+|back\s+)?(?:to|by)\s+(?:[£$€₹]\s?\d|rs\.?\s*\d|inr\s*\d|\d[\d,.]*\s*(?:%|percent|p\b|quid|pounds?|dollars?|euros?|rupees?|bucks|a (?:head|month|week|year|night|session|hour|loaf|kg)|an hour|per\b))/iu;
/** A title cut off before what it is about ("Tell someone about"): no one could do it from the title. */
const ENDS_UNSAID = /\b(?:about|to|with|for|of|from|into|at)$/i;
/** Verbs of errands done in the world, not by the assistant in its reply: a sentence that opens with one is a note to self. */
const ERRANDS = 'call|ring|phone|book|buy|order|cancel|renew|pay|chase|pick up|collect|email|post|return|register|sign up|submit|bring|pack|print|sort out|follow up|schedule|reschedule|drop off|top up|fill in|send';
/**
 * Whether the words after a sentence's first say something happened or is so: "Order arrived damaged", "Book club was
 * fun", "Pay slip looks wrong" open with a noun, not an errand.
 */
function statesSomething(sentence: string): boolean {
  const rest = nlp(sentence).terms().slice(1);
  return rest.has('(#PastTense|#Copula|#Modal)') || /\b(?:looks|seems|feels|sounds|appears|keeps)\b/i.test(rest.text());
}

/** What an assistant will not do is never a task: "I won't be able to book flights", "I can't change the invoice address". */
const REFUSAL = /\bi(?:'m| am)? (?:will not|won't|wont|cannot|can't|cant|can not|unable to|not able to|am unable to|am not able to|don't|do not|refuse to)\b/i;
/** A report of work done, even beside a "will" ("the credit has been applied and will show on your next bill"). */
const REPORTED = /\b(?:has|have) been (?:\p{L}+ed|sent|done|paid|made|put|set up|taken care of)\b|\bwent through\b/iu;
/** An assistant saying it cannot do what was just asked ("I can't place orders", "I'm not able to make bookings"). */
const REFUSED = /\bi(?:'m| am)? (?:cannot|can't|cant|can not|unable to|not able to|am unable to|am not able to|won't be able to|will not be able to|don't have (?:access|the ability)|do not have (?:access|the ability))\b/i;
/** An acknowledgement or a promise, not a report: "Noted, I'll remind you ...", "Got it", "I will make sure ...". */
const ACKNOWLEDGEMENT = /\b(?:will|'ll|shall|going to|remind(?:er)?|make sure|noted|got it|on it|will do|sure thing|added (?:it |that |this )?to (?:the|your) (?:[\p{L}-]+ ){0,2}?(?:list|to-?dos?|tasks|reminders))\b/iu;
/** An assistant restating what it will remind the user of: the task is the user's, and it is the one the user asked for. */
const REMINDER_FRAME = /^(?:remind you (?:(?=[^.!?;]{0,40}?\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|tomorrow|tonight|today|morning|evening|afternoon|noon|\d))[^.!?;]{1,40}? )??(?:to |about )|make sure you |nudge you (?:to |about )|ping you (?:to |about )|set a reminder (?:for you )?(?:to |for )|remember to remind you to )/i;

/**
 * How a task is said. `casual` marks a commitment said in passing ("I'll get
 * them then", "Rob will sort it"): kept only when its title names what it is
 * about. An explicit request ("remind me to call her back") is kept as said.
 */
const CREATE_PATTERNS: {
  pattern: RegExp;
  owner: 'author' | 'assistant' | 'named' | 'addressee';
  /** Kept only with a due date said in it: a promise or an instruction without one is courtesy or advice. */
  needsDate?: boolean;
  /** Read only in an assistant's message. */
  fromAssistant?: boolean;
  errand?: boolean;
  casual?: boolean;
  recurring?: boolean;
  find?: boolean;
  plan?: boolean;
  /** The thing to be reminded of, not work ("remind me about my physio appointment"): named without a leading "my" or "our". */
  about?: boolean;
}[] = [
  // A reminder that repeats ("remind me every weekday at 9:20 for standup", "remind me each sunday to water the plants"):
  // the repetition is kept in the title, and no single day is its due date.
  {
    pattern: /\bremind me (every|each) ((?:other )?(?:day|weekday|week|morning|evening|night|month|(?:mon|tues|wednes|thurs|fri|satur|sun)day)(?: (?:morning|evening|night|afternoon))?)(?: at (\d{1,2}(?:[:.]\d{2})?(?: ?[ap]m)?))? (?:to|for|about|abt) ([^.!?;]+)/giu,
    owner: 'author',
    recurring: true,
  },
  // "can u set a recurring reminder tue + thu 6am for strength/mobility 20 min": the same, asked of the assistant.
  {
    pattern: /\b(?:set|add|make|create|schedule)(?: up)? (?:a |an )?(?:recurring|repeating|weekly|daily) reminder (?:for |on )?()((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*(?:\s*(?:\+|&|and|,|\/)\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)*|weekdays|every day|every morning|every night)(?: at)? ?(\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)?)? (?:for|to|about|abt) ([^.!?;]+)/giu,
    owner: 'author',
    recurring: true,
  },
  // "Add a task for me: book the vet", "add to my tasks: renew the lease", "add to the list: fix the gate", "new task: ...".
  { pattern: /\b(?:add (?:a |an |this )?(?:task|to-?do|reminder)(?: for me)?|add to my (?:to-?do |todo )?(?:tasks|list|to-?dos?)|add to (?:the|our) (?:to-?do |todo )?(?:tasks|list|to-?dos?)(?=\s*[:-])|new (?:task|to-?do))\s*[:,-]?\s+(?:to\s+)?([^.!?;]+)/giu, owner: 'author' },
  {
    pattern: /\b(?:remind me(?: (?:on |by |this |next )?(?:today|tonight|tomorrow|tmrw|tmr|mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|week|weekend|morning|evening|afternoon|in the (?:morning|evening|afternoon))(?: (?:night|morning|evening|afternoon|am|pm))?(?: at \d{1,2}(?:[:.]\d{2})?(?: ?[ap]m)?)?)? to|i (?:still |shall |will |'ll )?need to|i have to|i must(?: to)?|i've got to|don't forget to|do not forget to|don't let me forget to|do not let me forget to|(?:can you |could you |please )?make sure i|note to self:?|todo(?! list):?|to-do(?! list):?|add to my (?:to-do |todo )?list:?|next steps?:|action(?: required)?:)\s+(?!admit\b|say\b|confess\b|agree\b|tell (?:you|someone|somebody|anyone|anybody|everyone|everybody)\b|trouble you\b|ask (?:you|whether|if)\b|apologi[sz]e\b|thank\b|warn you\b|mention\b|point out\b|stress\b|insist\b|do so\b)([^.!?;]+)/giu,
    owner: 'author',
  },
  // "remind me about my physio appointment on Tuesday at 10:30": the thing to be reminded of, with its day. Only with a
  // day (`needsDate`): "remind me about the refund policy" asks to be told now, and "remind me of summer camp" is a
  // memory; nor when the reminder is refused ("please do not remind me about the gym") or the line asks a question.
  { pattern: /(?<!\b(?:not|never|stop|n't|no need to|don't|dont)\s+)\bremind me(?: (?:on |by |this |next )?(?:today|tonight|tomorrow|tmrw|tmr|week|mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?))? (?:about|abt) (?!(?:it|that|this|them|those|these|him|her|what|how|why|when|where|which|who)\b)([^.!?;]+)(?![^.!;]*\?)/giu, owner: 'author', about: true, needsDate: true },
  // Needing a new someone who serves you is finding one: "i need a new dentist", "we need a babysitter for the 14th".
  { pattern: /\b(?:i|we|ill|i'll|we'll) (?:still |really |urgently |will |'ll )?need (?:to find )?((?:a|an) (?:new |good |decent |reliable |local )?(?:dentist|doctor|gp|plumber|electrician|babysitter|nanny|childminder|cleaner|accountant|lawyer|solicitor|hairdresser|barber|vet|physio|therapist|mechanic|builder|tutor|dog ?walker|optician)\b[^.!?;,]*)/giu, owner: 'author', find: true },
  // A plan for a day, said as what one is doing ("picking her up from harbor paws sat", "we're dropping the car off
  // tmrw"): an errand with the day it is for.
  {
    pattern: /(?:^|[,;]\s+|\b(?:and|also|so|then|ok|btw|we're|we are|i'm|i am|im)\s+)((?:picking|dropping|collecting|returning|booking|paying|posting|renewing|signing|handing)\b[^.!?;]{0,120}?\b(?:today|tonight|tomorrow|tmrw|tmr|(?:this |next )?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?|on the [0-3]?\d(?:st|nd|rd|th)))(?=[\s,.!?;]|$)/giu,
    owner: 'author',
    plan: true,
  },
  // Written without "to" ("I need buy the uniform"): only before a verb of an errand, so "I need help" is not read.
  { pattern: new RegExp(`\\bi (?:need|must) (?!to\\b)((?:${ERRANDS})\\b[^.!?;]+)`, 'giu'), owner: 'author' },
  // A note to self that opens with an errand ("Call the landlord re: the boiler", "+ order lanterns", "ring them tmrw").
  { pattern: new RegExp(`^(?:[-+*•]\\s*|(?:and|also|then|plus)\\s+)?((?:${ERRANDS})\\b(?! me\\b| you\\b| us\\b)[^.!?;]+)`, 'giu'), owner: 'author', errand: true },
  // Chat drops the subject: "Need to renew the lease", "gotta book the dentist", "Reminder: pay the plumber".
  { pattern: new RegExp(`^(?:(?:really |still |also )?(?:need|have) to|gotta|got to|reminder:|reminder to)\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author' },
  // The same after a comma or "and": "i still have the old laptop, need to return it by friday".
  { pattern: new RegExp(`(?:[,;]\\s+|\\band\\s+)(?:(?:really |still |also |def |definitely )?(?:need|have) to|gotta|got to)\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author' },
  { pattern: new RegExp(`\\bi(?:'ll| will| am going to|'m going to| shall)\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author', casual: true },
  // Chat's "ill" for "I'll", only before a verb of work ("ugh fine ill order it tonight"; "I'm ill" is not read).
  { pattern: new RegExp(`(?:^|(?:^|[,;]\\s*|\\b(?:ok|okay|k|kk|alright|fine|ugh|meh|nah|nope|no|yeah|yea|ya|sure|then|so|and)\\s+))ill\\s+${HEDGE}((?:${ERRANDS}|grab|get|ask|pick|do|check|sort|handle|take|drop)\\b[^.!?;]*)`, 'giu'), owner: 'author', casual: true },
  { pattern: new RegExp(`^let me\\s+${NOT_WORK}([^.!?;]+)`, 'giu'), owner: 'author', casual: true },
  {
    // A request answered in the reply itself (translate, summarise, explain) or a courtesy ("please note that ...", "please be advised") is not a task.
    pattern: /\b(?:can you|could you|would you|can u|could u|would u|please)\s+(?!(?:(?:kindly|just|please)\s+)*(?:want\b|like\b|mind\b|rather\b|pray\b|tell|explain|believe|imagine|remind|help|let me know|let us know|see|hear|recommend|suggest|summari[sz]e|check if|cancel(?= (?:that|it|this|them|those|these|the reminder|my reminder|the task)\b|\s*$)|make sure|translate|rewrite|rephrase|proofread|define|calculate|convert|note\b|be advised|find attached|see attached|when\b|if\b|keep (?:this|that|it|in mind)|bear in mind|remember|pass (?:on|along) (?:my|our) (?:thanks|gratitude|regards)|(?:set|add|make|create|schedule)(?: up)? (?:a |an )?(?:\w+ )?reminder|(?:stop|cancel|turn off|pause|delete|remove|end) (?:the|my|that|this)\b[^.!?;]*\breminders?\b))(?:(?:kindly|just|please)\s+)*([^.!?;]+)/giu,
    owner: 'assistant',
  },
  // A support agent's promise with a day: "I'll update you here by tomorrow afternoon", "I'll call you back by Friday".
  {
    pattern: /\bi(?:'ll| will| shall)\s+((?:update you|get back to you|let you know|follow up|call you|ring you|email you|e-mail you|text you|check in|confirm)\b[^.!?;]*)/giu,
    owner: 'author',
    needsDate: true,
    fromAssistant: true,
  },
  // An agent's instruction with a deadline is the user's to do: "Please return the Hub 3 in the prepaid box by Nov 26",
  // "just a reminder to send the receipt by the 20th", "you'll need to sign the form before Friday".
  {
    pattern: new RegExp(
      `(?:^|[,;:]\\s*|\\b(?:and|so|then)\\s+)(?:(?:please|pls|kindly|just)\\s+|(?:just )?(?:a |one )?(?:quick |friendly )?reminder to\\s+|remember to\\s+|don't forget to\\s+|make sure (?:you |to )|be sure to\\s+|you(?:'ll| will)? need to\\s+|you must\\s+)+((?:${ERRANDS}|return|send|bring|fill out|sign|upload|confirm|reply|complete|provide|drop|mail|ship)\\b(?! me\\b| us\\b)[^.!?;]*)`,
      'giu',
    ),
    owner: 'addressee',
    needsDate: true,
    fromAssistant: true,
  },
  // "Please keep the receipts, and submit them by May 20": the deadline is the second errand's.
  {
    pattern: new RegExp(`^(?:please|pls|kindly)\\b[^.!?;]*?,?\\s+and\\s+((?:${ERRANDS}|return|send|bring|fill out|sign|upload|confirm|reply|complete|provide|drop|mail|ship)\\b(?! me\\b| us\\b)[^.!?;]*)`, 'giu'),
    owner: 'addressee',
    needsDate: true,
    fromAssistant: true,
  },
  // "Marco will book the table"; not what someone will be or feel ("Priya will be impressed", "Cheese is going to be the hard part").
  { pattern: new RegExp(`\\b(\\p{Lu}[\\p{L}'-]+) (?:will|is going to|promised to|agreed to|needs to|has to)\\s+${NOT_WORK}([^.!?;]+)`, 'gu'), owner: 'named', casual: true },
];

/** The errand of a plan said with -ing. */
const PLAN_VERBS: Readonly<Record<string, string>> = { picking: 'pick', dropping: 'drop', collecting: 'collect', returning: 'return', booking: 'book', paying: 'pay', posting: 'post', renewing: 'renew', signing: 'sign', handing: 'hand' };
/** What an assistant does in its reply when asked: writing, listing, explaining, planning on the page. */
const ANSWERED_IN_REPLY = /^(?:(?:first|just|quickly|also|now)\s+)?(?:write|draft|redraft|give|list|compose|recap|outline|brainstorm|help|plan|come up with|put together|make (?:me|us) (?:a|an|some)|show|walk (?:me|us) through|quiz|compare|go through|look over|read|check|fix|improve|polish|shorten|expand|work out|figure out|estimate|suggest|find (?:me |us )?(?:a|an|some)|tell|teach|describe|break down|sum up|turn (?:this|it|that) into)\b/i;

/**
 * "nvm the tofurky", "scrap greg too": the words right after a dismissal
 * name what the task is about (a word of its title other than its verb).
 */
function namedAfterSignal(sentence: string, task: OpenTask): boolean {
  // Only a word of dismissal: "cancel the gym membership" is work of its own, not the end of "book a gym session".
  const signal = /\b(?:never ?mind|nvm|scrap|forget(?: about)?|drop)\b/i.exec(sentence);
  if (!signal) return false;
  const after = sentence.slice(signal.index + signal[0].length).split(/[,;.!?]/)[0]!.split(/\s+/).filter(Boolean).slice(0, 4).join(' ');
  return [...lemmas(after)].some((word) => word !== task.verb && task.words.has(word));
}

/** "the dishoom thing", "that passport stuff", "the party idea": something called off by a word for it. */
const THING_ALONE = /\b(?:thing|stuff|one|idea|plan|bit|business)\b/i;
const CANCEL_SIGNAL = /\b(?:never ?mind|nvm|no need (?:to|for)|(?:don't|do not|no longer) need|cancel|scrap|(?<!(?:n't|not|never) )forget (?:about )?(?!to\b)|call off|drop (?:it|the)|not going to|won't|will not|let's not|skip)\b/i;
/** A thing's part done by handing it on ("kettle dropped off", "forms handed in"): a deed, not a word of being finished. */
const HANDED_OVER = /\b(?:dropped (?:[\p{L}'’]+ ){0,4}off|handed (?:[\p{L}'’]+ ){0,4}(?:in|back|over))\b/iu;
/** A thing said finished in so many words ("polytunnel's done!", "the quote is all sorted"): the thing. */
const THING_DONE = /(?:^|[\s,;])(?<!\p{L}['’]s\s+)(?!(?:it|that|this|which|what|all|everything|nothing|something|one)\b)(\p{L}[\p{L}-]{3,})(?:['’]s|\s+(?:is|was|has been|are|have been))\s+(?:all\s+|finally\s+|now\s+)?(?:done|finished|completed|sorted)\b(?!\s+(?:for|with)\b)/iu;
/** Work done on a thing, which the thing said done reports ("Repair the polytunnel cover"; not "Buy kitchen paint"). */
const WORK_ON = new Set(['repair', 'fix', 'mend', 'patch', 'paint', 'decorate', 'clean', 'clear', 'tidy', 'build', 'install', 'fit', 'finish', 'renovate', 'replace', 'service', 'sand', 'varnish', 'plaster', 'tile', 'weed', 'prune', 'assemble']);
/** A task put off to another day or time, said in the past tense: no deed done. */
const MOVED_ON = /\b(?:(?:moved|rescheduled|rebooked|shifted)\s+(?:[\p{L}'’]+\s+){0,3}?(?:to|till|until|for)\b|postponed|pushed (?:it |that |this )?(?:back|forward)|put (?:it |that |this )?back|brought (?:it |that |this )?forward)/iu;
const NEGATED = /\b(?:not|n't|never|yet|still have to|still need)\b/i;
const COMPLETION_WORDS = /(?:^|\bi |\bwe |\bjust )called\b|\b(?:rang|phoned|done|finished|completed|sorted|shipped|processed|resolved|fixed|sent|went out|in your inbox|taken care of|all set|at last|finally)\b/i;
/** Words that say the work is finished whatever its verb ("the report is done"). */
const GENERIC_DONE = /\b(?:done|finished|completed|sorted|taken care of|all set|went out|in your inbox|is back with|dropped (?:[\p{L}'’]+ ){0,4}off|handed (?:[\p{L}'’]+ ){0,4}(?:in|back|over))\b/iu;
/** Words a report of the deed adds that name no other work ("Done, Clara is added"). */
const DONE_WORDS = new Set(['do', 'be', 'been', 'is', 'was', 'has', 'have', 'done', 'finish', 'finished', 'complete', 'completed', 'sorted', 'now', 'all', 'set', 'just', 'already', 'ok', 'okay', 'great']);
/** Verbs that do the same work: closing "email X" by "sent X". */
const SAME_WORK: Readonly<Record<string, string>> = {
  email: 'send', mail: 'send', ship: 'send', post: 'send', forward: 'send', arrange: 'send', return: 'send', returned: 'send',
  ring: 'call', rang: 'call', rung: 'call', phone: 'call', phoned: 'call',
  reserve: 'book', reimburse: 'refund', added: 'add',
  grab: 'pick', grabbed: 'pick', collect: 'pick', collected: 'pick',
  // Getting something is buying it when it is done ("get peanut-free snacks", "snacks bought").
  get: 'buy', got: 'buy', bought: 'buy', purchase: 'buy', purchased: 'buy',
};

const MAX_TASKS_PER_RECORD = 10;

interface KnownTask {
  alias: string;
  title: string;
  state: string;
  due?: string;
}

interface OpenTask {
  target: string;
  title: string;
  words: Set<string>;
  /** The work itself: the title's first verb, folded ("email" → "send"). */
  verb: string | undefined;
  /** What the work is on: lemmas that are neither the verb nor a name ("contract", "passport"). */
  objects: Set<string>;
  /** Names in the title after its first word ("Eastside", "Priya"). */
  names: Set<string>;
  due?: string;
}

export function extractTasks(input: UpdaterInput): { ops: TaskOp[] } {
  const ops: TaskOp[] = [];
  const open: OpenTask[] = (input.existing as unknown as KnownTask[]).filter((task) => task.state === 'open').map((task) => ({ ...openTask(task.alias, task.title), ...(task.due ? { due: task.due } : {}) }));
  let refs = 0;

  // Whom "you" means in an assistant's message: the user it answers (the latest user record's author).
  let addressee: { key: string; name?: string } = { key: 'user' };
  // Whom "you" means in a named person's message: the other person who spoke last, when that was someone named
  // ("I'll send you the recipe", Margaret to Callum); after an assistant's message it stays "you".
  let lastOther: { key: string; name?: string } | undefined;
  let lastAuthor: { key: string; name?: string } | undefined;
  // A request to the assistant made by the message before ("can you order the crate?"), and one it refused.
  let request: { ref: string; position: number; verb: string; rest: string } | undefined;
  let refused: { position: number; verb: string; rest: string } | undefined;
  // The task asked for or confirmed last, for "make it thursday not wed" a message or two later.
  let lastTouched: { target: string; position: number } | undefined;
  // A reminder the assistant offered in its last message, waiting for the user's yes.
  let offer: { phrase: string; day?: string; position: number } | undefined;
  // Work the assistant offered to do in its last message ("I can ship a replacement. Shall I go ahead?").
  let actionOffer: { phrase: string; position: number; id: string; users?: boolean } | undefined;
  /** A new task, opened for the rest of the batch and asked for last; its due date only when not before the record. */
  const addTask = (title: string, owner: string, due: { iso: string } | undefined, record: { id: string; timestamp: string }, position: number): string => {
    const ref = `t${++refs}`;
    const dueIso = notPast(due, record.timestamp);
    ops.push({ op: 'add', ref, task: { title, owner, ...(dueIso ? { due: dueIso } : {}) }, evidence: [record.id] });
    open.push({ ...openTask(`new:${ref}`, title), ...(dueIso ? { due: dueIso } : {}) });
    lastTouched = { target: `new:${ref}`, position };
    return ref;
  };
  for (const [position, record] of input.records.entries()) {
    const author = authorOf(record);
    const fromAssistant = record.role === 'assistant';
    // "I can't place orders for you": a request refused in the very next message was never a task.
    if (fromAssistant && request?.position === position - 1 && REFUSED.test(author.content.replace(/[’‘]/g, "'"))) {
      const target = `new:${request.ref}`;
      for (let i = ops.length - 1; i >= 0; i -= 1) {
        const op = ops[i]!;
        if ((op.op === 'add' && op.ref === request.ref) || (op.op === 'update' && op.target === target)) ops.splice(i, 1);
      }
      const gone = open.findIndex((task) => task.target === target);
      if (gone >= 0) open.splice(gone, 1);
      refused = { position, verb: request.verb, rest: request.rest };
    }
    if (!fromAssistant) request = undefined;
    if (lastAuthor && lastAuthor.key !== author.key) lastOther = lastAuthor;
    const spokenTo = !fromAssistant && author.name && lastOther?.name && lastOther.key !== author.key ? lastOther : undefined;
    lastAuthor = { key: author.key, ...(author.name ? { name: author.name } : {}) };
    if (record.role === 'user') addressee = { key: author.key, ...(author.name ? { name: author.name } : {}) };
    // "Want me to remind you to call the clinic?" / "yea remind me wed morning": the offer, accepted, is the user's task.
    if (fromAssistant) actionOffer = offeredAction(author.content, position, record.id);
    else if (record.role === 'user' && actionOffer && actionOffer.position === position - 1) {
      // "Yes please": the assistant's offered work is its task, for the user who said yes.
      const accepted = acceptsOffer(author.content);
      if (accepted) {
        const due = resolveDate(actionOffer.phrase, record.timestamp, true);
        const work = due ? withoutDue(actionOffer.phrase, due.text) : actionOffer.phrase;
        const title = cleanTitle(work, undefined, author.name ?? 'the user');
        if (title.split(' ').length >= 2 && !sameTask(title, open, author.name)) {
          const ref = addTask(title, actionOffer.users ? author.key : 'assistant', due, record, position);
          const added = ops.find((op) => op.op === 'add' && op.ref === ref);
          if (added) added.evidence.unshift(actionOffer.id);
        }
      }
      actionOffer = undefined;
      if (accepted === 'only') continue;
    }
    // The first sentence answered an offer with the user's own task: it is read no further.
    let declinedOffer = false;
    if (fromAssistant) offer = offeredReminder(author.content, position);
    else if (record.role === 'user' && offer && offer.position === position - 1) {
      const accepted = acceptsOffer(author.content);
      if (accepted) {
        // The day said in the yes wins; then the day the offer put before its task; then one inside it ("… on the 19th?").
        const inPhrase = resolveDate(offer.phrase, record.timestamp, true);
        // "ya pls, 8pm" names a time, not a day: the day the offer said stays.
        const inYes = resolveDate(heldSentences(author.content)[0] ?? '', record.timestamp, true);
        const yesDay = inYes && NAMES_A_DAY.test(inYes.text) ? inYes : undefined;
        const due = yesDay ?? (offer.day ? resolveDate(offer.day, record.timestamp, true) : undefined) ?? inPhrase ?? inYes;
        const title = cleanTitle(inPhrase && due === inPhrase ? withoutDue(offer.phrase, inPhrase.text) : offer.phrase, author.name, author.name ?? 'the user');
        const known = sameTask(title, open);
        if (known) {
          const dueIso = notPast(due, record.timestamp);
          ops.push({ op: 'update', target: known.target, changes: dueIso ? { due: dueIso } : {}, evidence: [record.id] });
          lastTouched = { target: known.target, position };
        } else if (title.split(' ').length >= 2) addTask(title, author.key, due, record, position);
        offer = undefined;
        if (accepted === 'only') continue;
      }
      // "Want a reminder to ask them for the records?" / "nah ill ask at pickup": no reminder, but the user's own task,
      // the offer's work with what the user adds to it.
      const declined = offer;
      const verb = declined ? /^(\p{L}+)/u.exec(declined.phrase)?.[1] : undefined;
      const own = !accepted && verb ? new RegExp(`^(?:(?:nah|no|nope|it's ok|its ok|all good|no need|no thanks|no thx)[,!.]*\\s+)(?:i'll|ill|i will|i can|ill just|i'll just)\\s+(?:just\\s+)?${escapeRegExp(verb)}\\b([^.!?;]*)`, 'iu').exec(author.content.trim()) : null;
      if (own) {
        const extra = own[1]!.replace(/^\s*(?:it|them|that)\b/i, '').trim();
        const due = resolveDate(extra, record.timestamp, true);
        const said = `${declined!.phrase}${extra ? ` ${due ? withoutDue(extra, due.text).trim() : extra}` : ''}`;
        addTask(cleanTitle(said, author.name, author.name ?? 'the user'), author.key, due, record, position);
        declinedOffer = true;
      }
      offer = undefined;
    }
    let created = 0;
    // Typographic apostrophes read as plain ones ("I’ll" is "I'll"); titles keep the writer's.
    const typographic = /’/.test(author.content);
    // An amount's pence end no phrase ("pay Kenji £18.50 by Friday" is not "Pay Kenji £18"): its dot is held too.
    const heldInRecord = heldSentences(author.content.replace(/[’‘]/g, "'")).map((held) => held.replace(AMOUNT_DOT, `$1${HELD_DOT}`));
    for (const [index, held] of heldInRecord.entries()) {
      if (index === 0 && declinedOffer) continue;
      // Two words may still report a deed ("called eastside.", "paid the fee"); they are read for progress only.
      const small = isSmallTalk(held);
      if (saysSmallTalk(held) || looksLikeInstruction(held)) continue;
      const sentence = restoreDots(held);
      // Done or called off is read from a report of the deed, never from an assistant's acknowledgement or
      // promise ("Noted, I'll remind you to send it by Monday" closes nothing; "I sent the manual" does).
      // One report may close several ("spare room cleared, snacks bought"): each clause is matched on its own.
      let reported = false;
      // A question reports nothing ("since she won't be vaccinated until after Nov 10?").
      if (index < DEEP_SENTENCES_PER_RECORD && !(fromAssistant && ACKNOWLEDGEMENT.test(sentence) && !REPORTED.test(sentence)) && !/\?\s*$/.test(sentence)) {
        // A repeating task moved on stays open, and is moved on once per sentence.
        const advanced: OpenTask[] = [];
        for (const clause of reportClauses(sentence)) {
          const progress = matchProgress(clause, open.filter((task) => !advanced.includes(task)));
          if (!progress) continue;
          reported = true;
          // A repeating reminder done this time goes on: its next day is due ("gave her the heartworm pill").
          // Only the user's (or a tool's) report moves it on: the assistant saying so again is the same occurrence.
          const next = progress.state === 'done' ? (fromAssistant && /\((?:every|each) /i.test(progress.task.title) ? '' : nextOccurrence(progress.task)) : undefined;
          if (next !== undefined) {
            ops.push({ op: 'update', target: progress.task.target, changes: next ? { due: next } : {}, evidence: [record.id] });
            if (next) progress.task.due = next;
            advanced.push(progress.task);
            continue;
          }
          ops.push({ op: 'update', target: progress.task.target, changes: { state: progress.state }, evidence: [record.id] });
          open.splice(open.indexOf(progress.task), 1);
        }
      }
      if (reported) continue;
      // "dolce forno is closed all of may… went with Huckleberry Bakehouse": the business an open task names is out,
      // and the writer chose another: that task is called off.
      const passedOver = record.role !== 'assistant' ? unavailableNamed(sentence, author.content, open) : undefined;
      if (passedOver) {
        ops.push({ op: 'update', target: passedOver.target, changes: { state: 'cancelled' }, evidence: [record.id] });
        open.splice(open.indexOf(passedOver), 1);
        continue;
      }
      // "can u stop the tue/thu strength reminder after thurs, keep the foam roll one": the reminder named is called off.
      const stop = record.role === 'user' ? STOP_REMINDER.exec(sentence) : null;
      if (stop) {
        const named = contentWords(stop[1]!.replace(/\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b/gi, ''));
        const target = open.find((task) => /\((?:every|each) /i.test(task.title) && [...named].some((word) => task.words.has(SAME_WORK[word] ?? word)));
        if (target) {
          ops.push({ op: 'update', target: target.target, changes: { state: 'cancelled' }, evidence: [record.id] });
          open.splice(open.indexOf(target), 1);
          continue;
        }
      }
      // "can u shift that reminder to 9:50", "push the dentist reminder to friday": a reminder moved in passing.
      const lastOpen = lastTouched && position - lastTouched.position <= 3 ? open.find((task) => task.target === lastTouched!.target) : undefined;
      const moved = record.role === 'user' ? (movedReminder(sentence, open, record.timestamp) ?? movedIt(sentence, lastOpen, record.timestamp)) : undefined;
      if (moved) {
        ops.push({ op: 'update', target: moved.task.target, changes: moved.changes, evidence: [record.id] });
        Object.assign(moved.task, { ...(moved.changes.title ? openTask(moved.task.target, moved.changes.title) : {}), ...(moved.changes.due ? { due: moved.changes.due } : {}) });
        lastTouched = { target: moved.task.target, position };
        continue;
      }
      if (small || record.type !== 'message' || record.role === 'tool' || created >= MAX_TASKS_PER_RECORD) continue;
      if (/^(?:if|what if|should|would|do you think|i wonder)\b/i.test(sentence.trim())) continue;
      if (fromAssistant && REFUSAL.test(sentence)) continue;
      // "k ill enter tonight then" after "can u enter me into the 10k" was refused: the user's "I'll" with the request's
      // own verb takes it over, whatever the verb.
      if (!fromAssistant && refused && position - refused.position <= 2 && refused.verb) {
        const own = new RegExp(`(?:^|\\b(?:i'll|ill|i will|i'm gonna|im gonna|gonna)\\s+)(?:just\\s+|prob\\s+|probably\\s+)?${escapeRegExp(refused.verb)}\\b([^.!?;]*)`, 'iu').exec(sentence);
        if (own && !/^(?:can|could|would|will)\b/i.test(sentence.trim())) {
          const due = resolveDate(own[1]!, record.timestamp, true);
          addTask(`${capitalise(refused.verb)} ${refused.rest}`, author.key, due, record, position);
          refused = undefined;
          created += 1;
          continue;
        }
      }
      // The commitment that comes first in the sentence: "Let me arrange X, I'll get it sent out" is about X.
      const matches = CREATE_PATTERNS.filter((rule) => !rule.fromAssistant || fromAssistant)
        .flatMap(({ pattern, owner, errand, casual, recurring, find, plan, about, needsDate }) => [...held.matchAll(pattern)].slice(0, 1).map((match) => ({ match, owner, errand, casual, recurring, find, plan, about, needsDate })))
        .sort((a, b) => (a.match.index ?? 0) - (b.match.index ?? 0));
      for (const { match, owner, errand, casual, recurring, find, plan, about, needsDate } of matches) {
        if (errand && (record.role !== 'user' || statesSomething(restoreDots(match[1]!)))) continue;
        // "Mrs. Petrakis will cover midday": the assistant relaying what someone else said they would do.
        if (owner === 'named' && fromAssistant) continue;
        let who = owner === 'assistant' ? (record.role === 'assistant' ? author.key : (spokenTo?.key ?? 'assistant')) : owner === 'named' ? cleanName(match[1]!) : owner === 'addressee' ? addressee.key : author.key;
        // Between two people an errand said bare ("Post the photos tonight.") is asked of the other, not a note to self.
        if (errand && spokenTo) who = spokenTo.key;
        // An assistant's own "could you please confirm …" is a suggestion or a line of a draft it wrote, not its work.
        if (owner === 'assistant' && fromAssistant) continue;
        // Between two people "can you drive again?" asks; a request is for the one asking ("can you send me the photos").
        if (owner === 'assistant' && spokenTo && !/\b(?:me|us|my|our|please|pls|plz)\b/i.test(match[0])) continue;
        let phrase = restoreDots(match[match.length - 1]!);
        // An assistant's record kept as it says so ("I'll save Kate's address as …", "I'll note that"): no work left.
        if (fromAssistant && DONE_AT_ONCE.test(phrase)) continue;
        if (find) phrase = `find ${phrase}`;
        if (about) phrase = phrase.replace(/^(?:my|our)\s+/i, '');
        // "picking her up" → "pick her up": the plan said as the errand.
        if (plan) {
          // What was done, or what someone is like, is no plan ("booking flights was a nightmare on monday"); the day
          // said last is left out of that reading ("sat" is also a past tense).
          if (statesSomething(phrase.replace(/\s+\S+$/, ''))) continue;
          phrase = phrase.replace(/^\p{L}+/u, (verb) => PLAN_VERBS[verb.toLowerCase()] ?? verb);
        }
        // "I'll remind you to send the deck": the user's own task, restated.
        // The day said inside the frame ("remind you Wednesday morning (Oct 14) to call …") is the task's.
        let frameDay: string | undefined;
        if (fromAssistant && REMINDER_FRAME.test(phrase)) {
          frameDay = REMINDER_FRAME.exec(phrase)![0];
          // "… to pick up his meds and about the appointment": a second reminder joined on is not part of this one's title.
          phrase = phrase.replace(REMINDER_FRAME, '').replace(/,?\s+and (?:also )?(?:remind you )?about\b.*$/i, '');
          who = addressee.key;
        }
        // "Reminder: dentist tomorrow, …" from the assistant: the user's appointment it reminds them of, not its own work.
        // "Reminder: Kestrel's final visit is tomorrow": the day taken out below leaves the verb that pointed at it.
        if (fromAssistant && owner === 'author' && /^\W*reminder\b/i.test(match[0])) {
          who = addressee.key;
          phrase = phrase.replace(/\s+(?:is|are)(?=\s+(?:today|tonight|tomorrow|tmrw|on|at|this|next|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)/i, '');
        }
        if (!who || !/^\p{L}/u.test(phrase)) continue;
        if (COURTESY.test(phrase.trim())) continue;
        // "Sourdough will go to Rs 210 from next week": a price or a number that changes, no work.
        if (VALUE_MOVES.test(phrase.trim())) continue;
        // "Noted, I'll remind you." with nothing after, or only when ("I'll remind you on Thursday"), acknowledges the
        // request before it; a title never opens with "I".
        if ((fromAssistant && /^remind (?:you|them|the user)(?:(?!\s(?:to|about|abt|that|of|re)\b)[^.!?;])*$/i.test(phrase)) || /^(?:self\b|i\b|i'm\b|im\b|we\b)/i.test(phrase.trim())) continue;
        // "I'll add the snacks to your Friday reminder": the assistant filing the user's request, which made the task already.
        if (fromAssistant && /^(?:add|put|include|move|shift)\b.*\b(?:to|on|in|into) (?:your|the) (?:[\p{L}\d-]+ ){0,3}(?:reminders?|list|calendar|to-?dos?|agenda|notes)\b/iu.test(phrase)) continue;
        // "Please do not.", "do NOT use the fan oven": what not to do is no task.
        if (/^(?:do not|don't|dont|not|never)\b/i.test(phrase.trim())) continue;
        // "remind me thursday to ring them": the day may come before the task.
        const lead = match[0].slice(0, Math.max(0, match[0].length - match[match.length - 1]!.length));
        // The day to be reminded on, said before the task, is its due date; a date inside the task ("book the Nov 10
        // booster") then stays part of its title.
        const leadDay = /^remind me /i.test(lead.trim()) ? lead : frameDay;
        const dueInLead = recurring || !leadDay ? undefined : resolveDate(leadDay, record.timestamp, true);
        // A deadline said twice ("within 14 days of delivery, so by Nov 26"): the day after "by" is the one meant.
        const byAt = needsDate ? phrase.search(/\b(?:by|before|no later than)\s/i) : -1;
        const dueInPhrase = recurring || dueInLead ? undefined : ((byAt > 0 ? resolveDate(phrase.slice(byAt), record.timestamp, true) : undefined) ?? resolveDate(phrase, record.timestamp, true));
        // Finding someone is due only by a day said as a deadline ("a babysitter for the 14th"), not days of the week
        // they are needed on ("a walker on my office days (mon wed fri)").
        const deadline = find && dueInPhrase ? new RegExp(`\\b(?:by|before|for|on|until)\\s+(?:the\\s+)?${escapeRegExp(dueInPhrase.text)}`, 'i').test(phrase) : true;
        const due = recurring || !deadline ? undefined : (dueInLead ?? dueInPhrase);
        if (needsDate && !due) continue;
        // "Could you write me a short message in French?": answered in the reply, unless it is for later.
        if (owner === 'assistant' && !spokenTo && !due && ANSWERED_IN_REPLY.test(phrase.trim())) continue;
        const dated = dueInPhrase ? withoutDue(phrase, dueInPhrase.text) : phrase;
        // "… within 14 days of delivery, so": the rest of a deadline said twice leaves the title.
        const work = (needsDate ? dated.replace(/\s+within \d+ (?:business |working )?days?(?: of [\p{L} ]+?)?(?=[,;]|\s*$)/iu, '').replace(/\s*,?\s+(?:as|because|since|so that)\s.*$/i, '').replace(/[,;]?\s*(?:so|i\.e\.|that is|which is)?\s*$/i, '') : dated).replace(/\s+at the (?:very )?latest\b/i, '');
        const clauseBefore = held.slice(0, match.index ?? 0);
        const plainTitle = resolvePronouns(
          cleanTitle(work, author.name, fromAssistant ? (addressee.name ?? 'the user') : spokenTo?.name),
          [...heldInRecord.slice(0, index), clauseBefore].join(' '),
          clauseBefore,
        );
        // "ugh fine ill order it tonight" after a refusal: the user takes the refused request over, as their own task.
        // "ill do it tonight" takes over the request's own work ("cancel my gym membership"), not a "do".
        const takeVerb = (said: string) => (/^(?:do|handle|sort|manage)$/i.test(said) && refused?.verb ? capitalise(refused.verb) : said);
        // "k ill sign up tonight" after "can u sign me up for the race" was refused: the same verb takes it over too.
        const sameVerb = refused !== undefined && refused.verb !== '' && plainTitle.split(' ')[0]!.toLowerCase() === refused.verb;
        const takenOver = !fromAssistant && refused !== undefined && position - refused.position <= 2 && (/^\p{L}+ it\b/u.test(plainTitle) || (/^\p{L}+ them\b/u.test(plainTitle) && !/^remind me\b/i.test(lead.trim())) || sameVerb) ? (sameVerb ? `${capitalise(refused.verb)} ${refused.rest}` : `${takeVerb(plainTitle.split(' ')[0]!)} ${refused.rest}`) : undefined;
        const explicit = /^remind me\b/i.test(lead.trim());
        const resolved = takenOver ?? (explicit ? resolveThem(plainTitle, input.records.slice(Math.max(0, position - 3), position).map((r) => r.content).join('\n')) : plainTitle);
        const days = match[2]?.toLowerCase().replace(/\s*(?:\+|&|\/)\s*/g, ' and ') ?? '';
        const every = recurring ? (/^every\b/.test(days) ? days : `${(match[1] || 'every').toLowerCase()} ${days.replace(/\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/, capitalise)}`) : '';
        const named = recurring && resolved ? `${resolved} (${every}${match[3] ? ` at ${match[3]}` : ''})` : resolved;
        const title = typographic ? named.replace(/'/g, '’') : named;
        // A commitment said in passing must name what it is about in its own words: "I'll hold you to that" names
        // no one by being said to Callum.
        const said = casual && spokenTo?.name ? cleanTitle(work, author.name) : title;
        // "remind me to call them": an explicit request is kept as said, even when only a pronoun says whom.
        const pronounObject = explicit && /^\p{L}+ (?:them|him|her|it)\b/iu.test(title);
        if (!title || ENDS_UNSAID.test(title.trim()) || title.split(' ').length < 2 || (lemmas(title).size < 2 && !pronounObject) || ((casual || owner === 'author') && !explicit && !namesSomething(said))) continue;
        // An assistant restating an open task confirms it (its record joins the evidence); it never makes a second one.
        const restated = fromAssistant ? sameTask(title, open, addressee.name) : undefined;
        if (restated) {
          // A restatement that says more ("call Eastside Animal Clinic and book …" for "call and book …") names the task.
          const fuller = [...restated.words].every((word) => lemmas(title).has(word)) && lemmas(title).size > restated.words.size;
          // One that says another day to come ("Reminder: dentist tomorrow, Tuesday 29 April" for the 15th) moves it.
          // A day the task's own title says ("Book the Nov 10 booster") is what it is about, not when it is due.
          const dayNow = dueInPhrase && restated.due && dueInPhrase.iso !== restated.due && dueInPhrase.iso >= record.timestamp.slice(0, 10) && !restated.title.toLowerCase().includes(dueInPhrase.text.trim().toLowerCase()) ? dueInPhrase : undefined;
          const moved = dayNow ? movedTo(restated, dayNow) : undefined;
          const changes = { ...(fuller ? { title } : {}), ...(moved ?? {}) };
          ops.push({ op: 'update', target: restated.target, changes, evidence: [record.id] });
          if (fuller || moved) Object.assign(restated, { ...openTask(restated.target, changes.title ?? restated.title), ...(changes.due ?? restated.due ? { due: changes.due ?? restated.due } : {}) });
          lastTouched = { target: restated.target, position };
          break;
        }
        // "Yep, it's packed. I'll drop it at the post office tomorrow" right after the return was spoken of: "it" is that
        // task's thing, and this is how it will be done, not new work.
        const spokenOf = lastTouched && position > lastTouched.position && position - lastTouched.position <= 2 ? open.find((task) => task.target === lastTouched!.target) : undefined;
        if (!fromAssistant && !takenOver && spokenOf && /^\p{L}+ (?:it|them)\b/iu.test(title)) {
          ops.push({ op: 'update', target: spokenOf.target, changes: {}, evidence: [record.id] });
          lastTouched = { target: spokenOf.target, position };
          break;
        }
        const ref = addTask(title, who, due, record, position);
        created += 1;
        if (owner === 'assistant' && !fromAssistant) {
          // What was asked, without its verb or who it is for: "order the crate for me on chewy" → "the crate on chewy".
          const rest = trimPhrase(work.split(',')[0]!.replace(/^\s*(?:just\s+|quickly\s+)?\p{L}+\s+(?:me\s+|us\s+)?/u, '').replace(/\s+for (?:me|us)\b/i, ''));
          const verb = /^\s*(?:just\s+|quickly\s+)?(\p{L}+)/u.exec(work)?.[1]?.toLowerCase() ?? '';
          request = { ref, position, verb, rest: cleanTitle(rest, author.name).replace(/^(?:The|A|An|Some|This|That|These|Those|Up|Down|In|Out|Off|On|Over|Back|Away|Into|Onto|For|To|With|From|At)\b/, (word) => word.toLowerCase()) };
        }
        if (takenOver) refused = undefined;
        break;
      }
    }
  }
  return { ops };
}

/** A due date kept only when it is not before the day the record was written. */
function notPast(due: { iso: string } | undefined, timestamp: string): string | undefined {
  return due && due.iso >= timestamp.slice(0, 10) ? due.iso : undefined;
}

/**
 * The next day a repeating reminder is due after one is done: a month on for "(every month …)", a week on for
 * "(every Monday …)" or "(every week …)", a day on (skipping the weekend for "weekday") otherwise. Empty when the
 * task has no due day to move on from; undefined when it does not repeat.
 */
function nextOccurrence(task: OpenTask): string | '' | undefined {
  const every = /\((?:every|each) ([^)]*)\)$/i.exec(task.title);
  if (!every) return undefined;
  if (!task.due) return '';
  const date = new Date(`${task.due}T00:00:00Z`);
  const period = every[1]!.toLowerCase();
  if (/\bmonth\b/.test(period)) date.setUTCMonth(date.getUTCMonth() + 1);
  else if (/\bweek\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day/.test(period)) date.setUTCDate(date.getUTCDate() + 7);
  else {
    date.setUTCDate(date.getUTCDate() + 1);
    while (/\bweekday\b/.test(period) && [0, 6].includes(date.getUTCDay())) date.setUTCDate(date.getUTCDate() + 1);
  }
  return date.toISOString().slice(0, 10);
}

/** "Want me to remind you to call and book the checkup?", "Shall I set a reminder on the 13th to clear the room?" */
const OFFER = /\b(?:want me to|would you like me to|do you want me to|shall i|should i|would you like|want) (?:set (?:up )?(?:a |an )?reminder|remind you|add a reminder|a reminder)((?= [^?]{0,40}?\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|tomorrow|tonight|today|morning|evening|afternoon|noon|\d)) [^?]{1,40}?)?? (?:to|about|for) ([^?]{1,200})\?/i;
function offeredReminder(content: string, position: number): { phrase: string; day?: string; position: number } | undefined {
  const match = OFFER.exec(content);
  if (!match) return undefined;
  return { phrase: match[2]!, position, ...(match[1]?.trim() ? { day: match[1].trim() } : {}) };
}

/** "stop the tue/thu strength reminder", "cancel my vitamins reminder": what names the reminder to call off. */
const STOP_REMINDER = /\b(?:stop|cancel|turn off|pause|delete|remove|end|kill|drop)\s+(?:the|my|that|this)\s+([^.!?;]{1,40}?)\s*reminders?\b/i;
/** Words that name a day, not only a time of it. */
const NAMES_A_DAY = /\b(?:mon|tue|wed|thu|fri|sat|sun|today|tonight|tomorrow|tmrw|tmr|next|this|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d{1,2}(?:st|nd|rd|th)|\d{1,2}[/.-]\d{1,2})/i;
/** Work put on the user's list in so many words, quoted: "add "submit the request" to your to-do list" (not a shopping list). */
const LISTED_FOR_USER = /^(?:add|put)\s+["“'‘](.{3,120}?)["”'’]\s+(?:to|on|in|onto)\s+(?:your|the)\s+(?!(?:shopping|grocery|groceries|packing|guest|wish|reading|playlist)\b)(?:[\p{L}-]+\s+){0,2}?(?:list|to-?dos?|tasks|reminders)(?:\s+list)?\b/iu;
/** An offer to do something ("Would you like me to ship a replacement?", "Shall I go ahead?" after "I can ship one"). */
const ACTION_OFFER = /\b(?:want me to|would you like me to|do you want me to|shall i|should i)\s+([^?]{2,160})\?/i;
/** An offer that names no work of its own: the work is what the message said it can do. */
const PROCEED = /^(?:go ahead|proceed|do (?:that|it|this|so)|set (?:that|it|this) up|arrange (?:that|it|this)|book (?:that|it|this)|put (?:that|it|this) through|process (?:that|it|this)|make (?:that|the) change|sort (?:that|it|this) out)\b/i;
/** The work an assistant offers to do later, waiting for the user's yes; never a reminder (above) or a reply's own text. */
function offeredAction(content: string, position: number, id: string): { phrase: string; position: number; id: string; users?: boolean } | undefined {
  const match = ACTION_OFFER.exec(content);
  if (!match || OFFER.test(content)) return undefined;
  let phrase = match[1]!.trim();
  if (PROCEED.test(phrase)) {
    const can = [...content.slice(0, match.index).matchAll(/\bI can ([^.!?;]{3,160})/g)].at(-1);
    if (!can) return undefined;
    phrase = can[1]!.trim();
  }
  phrase = phrase.replace(/\s+for you\b/i, '').replace(/[,;:]\s*$/, '');
  // "Shall I add "submit flexible working request" to your to-do list?": the quoted work is the user's.
  const listed = LISTED_FOR_USER.exec(phrase);
  // The day the offer says after it stays with it ("… to your reminders for Sunday?").
  if (listed) return { phrase: `${listed[1]!.trim()}${phrase.slice(listed[0].length)}`, position, id, users: true };
  if (ANSWERED_IN_REPLY.test(phrase) || /^(?:explain|walk you|talk you|go over|send you (?:a|some) (?:tips|links?|ideas))/i.test(phrase)) return undefined;
  return { phrase, position, id };
}

/**
 * The user's yes to an offer: "yes pls", "yea remind me wed morning", "sure". 'only' when the message says nothing
 * else to read; 'more' when it goes on ("yes pls. also …").
 */
function acceptsOffer(content: string): 'only' | 'more' | undefined {
  const text = content.trim();
  const yes = /^(?:y|ya|yes|yea|yeah|yep|yup|sure|ok|okay|please|pls|plz|perfect|great|do it|go on|that would be great)\b[\s,!.]*(?:(?:pls|please|plz|thanks|thx|ty)\b[\s,!.]*)?(?:remind me\b(?! to\b)[^.!?]*)?/i.exec(text) ?? /^(?:pls |please )?remind me\b(?! to\b)(?! about\b)[^.!?]*/i.exec(text);
  if (!yes) return undefined;
  return text.slice(yes[0].length).trim().replace(/^[.!\s]+/, '') === '' ? 'only' : 'more';
}

/** "wait no make it thursday not wed", "actually move it to the 14th": the day of what was just asked for, moved. */
const MOVE_IT = /^(?:(?:wait|oh|actually|sorry|no|nah|ok|hmm|hm|ugh)[,!]*\s+)*(?:can (?:you|u) )?(?:make it|move it to|change it to|push it to|switch it to|do it on)\s+([^.!?;,]+?)(?:\s+(?:not|instead(?: of)?|rather than)\b[^.!?;,]*)?(?=[.!?;,]|$)/i;

/**
 * "they've moved me to Friday 2 May", "It's now Tuesday 29 April, same time", "got rescheduled for the 14th": the day
 * of what was just spoken of, moved, said as news rather than asked for.
 */
const MOVED_TO = /(?<![\p{L}])(?:(?:moved|rescheduled|rebooked)\s+(?:(?:it|me|us|him|her|them|that|the appointment|the booking)\s+)?(?:back\s+|forward\s+)?(?:to|till|until|for)|(?:pushed|shifted|changed|put)\s+(?:it|me|us|him|her|them|that|the appointment|the booking)\s+(?:back\s+|forward\s+)?(?:to|till|until)|(?:it['’]?s|it is|that['’]?s|that is)\s+now(?:\s+on)?|(?:the\s+)?new\s+(?:one|date|day|slot|appointment|booking)\s+(?:is|['’]s)(?:\s+now)?(?:\s+on)?)\s+([^.!?;,]+?)(?=\s*(?:[.!?;,]|$|\s+(?:instead|now|at|same)\b))/iu;

function movedIt(sentence: string, task: OpenTask | undefined, timestamp: string): { task: OpenTask; changes: { title?: string; due?: string } } | undefined {
  if (!task) return undefined;
  // Said as news, it must be a day and no more ("it's now 3pm and no one's here", "it's now wednesday and he still
  // hasn't replied" move nothing).
  const said = MOVE_IT.exec(sentence.trim())?.[1] ?? [MOVED_TO.exec(sentence)?.[1]].find((text) => text !== undefined && NAMES_A_DAY.test(text) && text.split(/\s+/).length <= 5);
  const due = said ? resolveDate(said, timestamp, true) : undefined;
  // "new one is Thursday 12 Sept at 17:20": the time said with the new day replaces the title's.
  const clock = said ? NEW_CLOCK.exec(sentence.slice(sentence.indexOf(said) + said.length))?.[1] : undefined;
  return due && due.iso >= timestamp.slice(0, 10) && due.iso !== task.due ? { task, changes: movedTo(task, due, clock) } : undefined;
}

/** The time said just after a new day ("…, at 17:20", " at 4pm"). */
const NEW_CLOCK = /^\s*,?\s*at\s+(\d{1,2}(?:[:.]\d{2})?(?:\s?[ap]m)?)(?![\d\p{L}])/iu;
/** A time a title says ("… at 8:40 on Wilmslow Road"). */
const TITLE_CLOCK = /(?<=\bat\s)\d{1,2}(?:[:.]\d{2})?(?:\s?[ap]m)?(?![\d\p{L}])/iu;

/**
 * A task moved to another day: its due date, and its title's own day where the title says the day it had ("Dentist,
 * Tuesday 15 April, at 4:10pm" moved to the 29th says "Tuesday 29 April"), so that no line shows the old day bare.
 */
function movedTo(task: OpenTask, day: { iso: string; text: string }, clock?: string): { title?: string; due: string } {
  const inTitle = task.due ? resolveDate(task.title, task.due) : undefined;
  if (!inTitle || inTitle.iso !== task.due) return { due: day.iso };
  // The day alone: the parser's text may take in the comma before it and the time after it, which stays, unless a
  // new time was said with the new day.
  const core = inTitle.text.replace(/^[\s,]+/, '').replace(/,?\s*(?:at\s+)?(?:\d{1,2}[:.]\d{2}(?:\s?(?:am|pm))?|\d{1,2}\s?(?:am|pm))\s*$/i, '').replace(/[\s,]+$/, '');
  if (!core) return { due: day.iso };
  const title = task.title.replace(core, spelledDay(day.iso));
  return { due: day.iso, title: clock ? title.replace(TITLE_CLOCK, clock) : title };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "Tuesday 29 April": a day as a title says it, whatever words moved it there ("tomorrow", "the 29th"). */
function spelledDay(iso: string): string {
  const date = new Date(`${iso}T12:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** A day said first ("Friday", "next Monday", "the 14th", "tomorrow"). */
const DAY_FIRST = /^\s*(?:(?:next|this|the|on)\s+)?(?:mon|tue|wed|thu|fri|sat|sun|today|tonight|tomorrow|tmrw|week|weekend|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}[/.-]\d{1,2})/i;
/** "move the dentist call to Friday", "can you push my passport renewal back to next week": a thing named, moved to a day. */
const MOVE_NAMED = /\b(?:shift|move|push|bump|reschedule|rebook)\s+(?:that|the|my|this|our)\s+((?:[\p{L}-]+\s+){1,3}?)(?:back\s+|forward\s+)?(?:to|till|until)\s+([^.!?;,]+)/iu;

/** An open task the words before "to" name (one only), moved to the day after it: its due date, and the day its title says. */
function movedNamed(sentence: string, open: readonly OpenTask[], timestamp: string): { task: OpenTask; changes: { title?: string; due?: string } } | undefined {
  const match = MOVE_NAMED.exec(sentence);
  // The day is what it is moved to ("to Friday", "to next Monday"), not a word further on ("to the new care home in June").
  if (!match || !DAY_FIRST.test(match[2]!)) return undefined;
  const named = lemmas(match[1]!);
  // Two words of the task, or every word of what it is done to ("the dentist call" for "Call the dentist"; not "my
  // dentist appointment" for "Pay the dentist bill").
  const shared = (task: OpenTask) => [...named].filter((word) => task.words.has(word));
  const candidates = open.filter((task) => shared(task).length >= 2 || (task.objects.size > 0 && [...task.objects].every((word) => named.has(word))));
  if (candidates.length !== 1) return undefined;
  const due = resolveDate(match[2]!, timestamp, true);
  return due && due.iso >= timestamp.slice(0, 10) && due.iso !== candidates[0]!.due ? { task: candidates[0]!, changes: movedTo(candidates[0]!, due) } : undefined;
}

const MOVE_REMINDER = /\b(?:shift|move|change|push|put|bump|make)\s+(?:that|the|my|this|our)\s+((?:[\p{L}-]+\s+){0,2}?)reminders?(?:\s+(?:back|forward|up))?\s+to\s+([^.!?;,]+)/iu;
const CLOCK = /^(\d{1,2}(?:[:.]\d{2})?(?:\s?[ap]m)?)(?![\p{L}\d])/iu;
/** The time a repeating reminder's title ends on: "Standup (every weekday at 9:20)". */
const REPEAT_AT = / at \d{1,2}(?:[:.]\d{2})?(?:\s?[ap]m)?\)$/i;

/**
 * A reminder moved in passing: the open task the words before "reminder" name
 * ("the standup reminder"), or with none, the one task still open that was
 * asked for last. A time moves a repeating reminder's time ("(every weekday at
 * 9:20)" → "at 9:50"); a day moves its due date.
 */
function movedReminder(sentence: string, open: readonly OpenTask[], timestamp: string): { task: OpenTask; changes: { title?: string; due?: string } } | undefined {
  const match = MOVE_REMINDER.exec(sentence);
  if (!match) return movedNamed(sentence, open, timestamp);
  if (open.length === 0) return undefined;
  const named = lemmas(match[1] ?? '');
  const clock = CLOCK.exec(match[2]!.trim());
  // A time of day moves a repeating reminder; a day, any reminder.
  const movable = clock ? open.filter((task) => REPEAT_AT.test(task.title)) : open;
  const candidates = named.size > 0 ? movable.filter((task) => [...named].some((word) => task.words.has(word))) : movable.slice(-1);
  if (candidates.length !== 1) return undefined;
  const task = candidates[0]!;
  if (clock) return { task, changes: { title: task.title.replace(REPEAT_AT, ` at ${clock[1]!})`) } };
  const due = resolveDate(match[2]!, timestamp, true);
  return due && due.iso >= timestamp.slice(0, 10) ? { task, changes: { due: due.iso } } : undefined;
}

/** Words the tagger may read as a noun or number that stand for something said elsewhere ("get one", "sort mine"). */
const STAND_INS = new Set(['one', 'ones', 'mine', 'yours', 'ours', 'theirs', 'hers', 'his', 'there', 'here', 'thing', 'things', 'stuff']);

/**
 * A title names what it is about: a noun, name or number after its first word
 * ("Send a pic", "Email Bob", "Pay the £64"). A commitment said in passing
 * with only pronouns and adverbs there ("I'll get them then", "I'll believe
 * it when I see it") is chat, not something anyone could do from the title.
 */
function namesSomething(title: string): boolean {
  const terms = nlp(title).terms().json() as { terms: { normal: string; tags: string[] }[] }[];
  return terms.slice(1).some(({ terms: [term] }) => term !== undefined && !STAND_INS.has(term.normal) && !term.tags.includes('Pronoun') && (term.tags.includes('Noun') || term.tags.includes('Value')));
}

/** A business or person said to be out ("is closed all of may", "is fully booked", "fell through"). */
const UNAVAILABLE = /\b(?:is|are|'s|was|were)\s+(?:(?:now|still|totally|completely|fully|permanently)\s+)?(?:closed|shut|booked up|booked out|(?<=fully\s+)booked|out of business|not taking (?:orders|bookings|new \w+))\b|\bfell through\b|\b(?:has|have)\s+closed\b/i;
/** Another chosen in its place: "went with Huckleberry Bakehouse", "switched to Rosewood", "booked Marlowe's instead". */
// Case-sensitive on purpose: under the i flag \p{Lu} matches any letter, and "going with the flow" chose no one.
const CHOSE_ANOTHER = /\b(?:[Ww]ent|[Gg]oing|[Gg]one|[Gg]o)\s+with\s+\p{Lu}|\b(?:[Ss]witched|[Ss]wapped|[Cc]hanged|[Mm]oved)\s+to\s+\p{Lu}|\b(?:[Bb]ooked|[Oo]rdered from|[Oo]rdering from|[Uu]sing)\s+\p{Lu}[^.!?;]*\binstead\b/u;

/** The open task whose named business this sentence says is out, when the record also says another was chosen. */
function unavailableNamed(sentence: string, record: string, open: readonly OpenTask[]): OpenTask | undefined {
  const out = UNAVAILABLE.exec(sentence);
  if (!out || !CHOSE_ANOTHER.test(record)) return undefined;
  const before = lemmas(sentence.slice(0, out.index));
  return open.find((task) => task.names.size > 0 && [...task.names].every((name) => before.has(name)));
}

function openTask(target: string, title: string): OpenTask {
  const first = contentWords(toInfinitive(phrasal(title)).split(' ')[0] ?? '');
  const verb = [...first][0];
  const folded = verb ? (SAME_WORK[verb] ?? verb) : undefined;
  const names = lemmas(title.split(' ').slice(1).filter((word) => /^\p{Lu}/u.test(word)).join(' '));
  const objects = new Set([...lemmas(title)].filter((word) => word !== folded && !names.has(word) && !MANNER.has(word)));
  return { target, title, words: lemmas(title), verb: folded, objects, names };
}

/** Words of how a thing is done, no thing done to: "Stop QuickDrop completely" is about QuickDrop alone. */
const MANNER = new Set(['completely', 'fully', 'entirely', 'totally', 'properly', 'finally', 'quickly', 'permanently', 'urgently', 'asap', 'altogether', 'again', 'soon']);

const STOP_WORDS = new Set(['the', 'a', 'an', 'to', 'for', 'of', 'on', 'in', 'and', 'my', 'me', 'by', 'with', 'at', 'this', 'that', 'it', 'i', 'you', 'your', 'our', 'about', 'from', 'up', 'out', 'over', 'is', 'are', 'was', 'be', 'been', 'has', 'have', 'just', 'all', 'them', 'their', 'his', 'her']);

/** Words of a phrase without stop words, lightly stemmed (plurals, -ing, -ed of long words; "ring" stays "ring"). */
function contentWords(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => (word.length > 1 || /\d/.test(word)) && !STOP_WORDS.has(word))
      .map((word) => (word.length > 5 ? word.replace(/(?:ing|ed)$/, '') : word))
      .map((word) => (word.length > 3 ? word.replace(/(?<!s)s$/, '') : word)),
  );
}

/** A phrasal verb said as its one-word work: "take the kettle back" is returning it, "take the nail clip off" removing it. */
function phrasal(text: string): string {
  return text
    .replace(/\b(?:take|took|taken|taking|bring|brought|bringing)\b(?=(?:\s+[\p{L}'’-]+){1,4}\s+back\b)/giu, 'return')
    .replace(/\b(?:take|took|taken|taking)\b(?=(?:\s+[\p{L}'’-]+){1,4}\s+off\b)/giu, 'remove');
}

/** Content-word lemmas of a phrase, with verbs of the same work folded together. */
function lemmas(text: string): Set<string> {
  const words = contentWords(toInfinitive(phrasal(text.replace(/\bthe user's\b/gi, ''))));
  return new Set([...words].map((word) => SAME_WORK[word] ?? word));
}

/** The phrase without its due date, and without the word that led to it ("follow up by Friday if unresolved" → "follow up if unresolved"). */
function withoutDue(phrase: string, dueText: string): string {
  const at = phrase.indexOf(dueText);
  if (at < 0) return phrase;
  const before = phrase.slice(0, at).replace(/\s+(?:by|before|on|until|no later than)(?: the)?\s*$/i, ' ');
  // "by friday the 20th": the day of the month said after the weekday is the same date.
  const after = phrase.slice(at + dueText.length).replace(/^,?\s*the\s+\d{1,2}(?:st|nd|rd|th)\b/i, '');
  // "on the 1st of every month": the first one is the due date, and the title keeps that it repeats.
  const every = /^\s*of (?:every|each) month\b/i.exec(after);
  if (every) return `${before.trimEnd()} (every month on ${dueText.replace(/^(?:on\s+)/i, '')})${after.slice(every[0].length)}`.replace(/\s{2,}/g, ' ');
  return `${before}${after}`.replace(/\s{2,}/g, ' ');
}

/** The open task a restatement names: most of its lemmas, the same work and object. */
/**
 * The open task a title restates, by the words they share. `whom`: the person an assistant's tasks are for, whose
 * name every one of them may carry ("Confirm with Farid …", "Email Farid …"): it is no evidence of the same work.
 */
function sameTask(title: string, open: readonly OpenTask[], whom?: string): OpenTask | undefined {
  const name = whom ? contentWords(whom) : new Set<string>();
  const words = new Set([...lemmas(title)].filter((word) => !name.has(word)));
  let best: OpenTask | undefined;
  let bestScore = 0;
  for (const task of open.filter((t) => !t.target.startsWith('done:'))) {
    const taskWords = [...task.words].filter((word) => !name.has(word));
    let shared = 0;
    for (const word of taskWords) if (words.has(word)) shared += 1;
    const score = shared / Math.max(1, Math.min(taskWords.length, words.size));
    if (shared >= 2 && score >= 0.6 && (task.verb === undefined || words.has(task.verb)) && score > bestScore) {
      best = task;
      bestScore = score;
    }
  }
  return best;
}

/**
 * "Email her the pricing sheet" after "Met Jess from Acme today": a pronoun in a
 * title names the one person the message named before it. With nobody, or
 * with two or more people named, the title is left as it is.
 */
const PERSON_NOUN = /\b(?:mom|mum|mother|dad|father|wife|husband|partner|sister|brother|son|daughter|kids?|children|boss|friend|aunt|uncle|cousin|grandma|grandpa|neighbou?r|colleague|teacher|doctor|landlord)s?\b/i;

function resolvePronouns(title: string, before: string, sentenceBefore: string): string {
  title = resolveThing(title, sentenceBefore, before);
  title = resolveObject(title, sentenceBefore);
  const pronouns = title.match(/\b(?:her|him|his)\b/gi) ?? [];
  // One pronoun only, and no other person in the title it could stand for ("ask his wife for her recipe", "thank my mom").
  if (pronouns.length !== 1 || PERSON_NOUN.test(title)) return title;
  const people = personNames(restoreDots(before));
  if (people.length !== 1) return title;
  const name = people[0]!;
  // "shes 3.1 kg … Dr Lindqvist said …, remind me to give her the pill": a pronoun used before the name was said
  // stands for someone else (here a pet), so the title keeps it.
  const named = before.indexOf(name.split(' ').at(-1)!);
  if (named > 0 && /\b(?:she|shes|she's|her|he|hes|he's|him|his)\b/i.test(before.slice(0, named))) return title;
  // "her" is never a name that is usually a man's, nor "him"/"his" a woman's.
  const usual = name.split(' ').map(usualPronoun).find(Boolean);
  if (usual && usual !== (/^her$/i.test(pronouns[0]!) ? 'she' : 'he')) return title;
  return title
    .replace(/\bhim\b/g, name)
    .replace(/\bhis\b/g, `${name}'s`)
    .replace(/\bher\b(?=$|[.,;!?]|\s+(?:the|a|an|this|that|these|those|some|my|our|back|again|about|on|at|in|to|for|with|by|up|out|as|over|off|from|know|into|onto|too|now|first|tomorrow|today|tonight)\b)/g, name)
    .replace(/\bher\b/g, `${name}'s`);
}

/** Verbs of getting in touch: "call them" is a business or a place as often as people. */
const CONTACT_THEM = /^(call|ring|phone|email|e-mail|text|message|contact|write to|chase) them\b/i;
const CALENDAR_WORD = /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$|^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/i;
/**
 * "remind me tmrw to call them", after "can you book a table at Verde?" and "Verde takes bookings by phone": "them"
 * is the one business or place the last few messages name (a capitalised name that is no person's). Left as said
 * when they name none, or more than one.
 */
function resolveThem(title: string, recent: string): string {
  const verb = CONTACT_THEM.exec(title);
  if (!verb) return title;
  const doc = nlp(recent);
  // People the lexicon knows as people ("Verde takes bookings" reads as someone doing something, so not personNames).
  const people = new Set((doc.people().out('array') as string[]).map((name) => trimPhrase(name).replace(/['’]s$/u, '')));
  const names = new Set(
    (doc.match('#ProperNoun+').out('array') as string[])
      .map((name) => trimPhrase(name).replace(/['’]s$/u, ''))
      .filter((name) => /^\p{Lu}/u.test(name) && !people.has(name) && !CALENDAR_WORD.test(name) && !/^(?:I|I'm|OK|Ok)$/.test(name)),
  );
  if (names.size !== 1) return title;
  return title.replace(CONTACT_THEM, `$1 ${[...names][0]!}`);
}

/** An errand said without what it is done to ("gotta pay before pickup", "need to renew by friday"). */
const OBJECTLESS = /^(pay|order|book|return|send|renew|buy|sign|submit|post|print|file|cancel)(?=$| (?:before|by|on|at|tonight|tomorrow|today|asap|now|soon|later|first|then|this|next)\b)/i;
/**
 * "also adoption fee is $275, gotta pay before pickup": the errand is done to the thing the clause before it names
 * last ("the adoption fee"). Left as said when the clause names nothing.
 */
function resolveObject(title: string, sentenceBefore: string): string {
  const verb = OBJECTLESS.exec(title);
  if (!verb) return title;
  const phrases = (nlp(sentenceBefore).match('#Adjective{0,2} #Noun{1,3}').not('(#Pronoun|#Date|#Value|#Money|#Person)').out('array') as string[]).map((phrase) => trimPhrase(phrase).replace(/^(?:the|my|our|a|an|this|that)\s+/i, '')).filter((phrase) => /^\p{L}/u.test(phrase) && !/#|@|\d/.test(phrase));
  const thing = phrases.at(-1);
  return thing ? `${verb[1]!} the ${thing}${title.slice(verb[1]!.length)}` : title;
}

/** Work done to a thing, with "it" as the thing ("return it", "get it serviced"), not an idiom ("make it", "call it a day"). */
const THING_VERBS = 'return|send|post|sell|fix|repair|renew|book|pay|bring|collect|print|sign|submit|wash|clean|iron|pack|ship|file|forward|replace|order|move|service|insure|register|tax|back up|update|upgrade|charge|drop off|pick up|hand in|give back|take back|fill in|fill out|scan|complete';
/** "return it", "sign and return it": work done to a thing "it" stands for. */
const THING_VERB_IT = new RegExp(`^(?:${THING_VERBS})(?: and (?:${THING_VERBS}))? it\\b`, 'i');
/**
 * "it" as the object of a title, after a clause that names one thing ("i still have my old laptop, need to return
 * it"): the thing, as "the …", looked for first in the sentence the task is said in, then in the message before it.
 * Left as said when the nearest text that names a thing names two, or a person or place might be meant.
 */
function resolveThing(title: string, sentenceBefore: string, before: string): string {
  if (!THING_VERB_IT.test(title)) return title;
  const named = (text: string, determiners: string) => (nlp(text).match(`(${determiners}) #Adjective{0,2} #Noun{1,3}`).out('array') as string[]).filter((phrase) => !/#|@|\d/.test(phrase));
  // A thing named with "the" or "my" first; one just introduced with "a" only where none is ("I've attached a
  // collection authorisation form").
  const thingsIn = (text: string) => {
    const definite = named(text, 'my|our|the|his|her|their');
    return definite.length > 0 ? definite : named(text, 'a|an');
  };
  // The sentence the task is said in, then the one just before it ("I've attached a collection authorisation form.
  // Please sign and return it by …"), then the message before.
  const lastBefore = before.split(/(?<=[.!?])\s+/).filter(Boolean).at(-1) ?? '';
  const candidates = [thingsIn(sentenceBefore), lastBefore === before ? [] : thingsIn(lastBefore), thingsIn(before)];
  const things = candidates.find((list) => list.length > 0) ?? [];
  if (things.length !== 1) return title;
  const thing = trimPhrase(things[0]!).replace(/^\S+\s+/, '');
  return title.replace(/^((?:\p{L}+ ){0,2}\p{L}+) it\b/u, `$1 the ${thing}`);
}

function cleanTitle(phrase: string, authorName: string | undefined, addressee?: string): string {
  const title = trimPhrase(phrase)
    .replace(/^to /i, '')
    // Chat ends a sentence with an emoji ("I'll call you that evening ❤️ oh also, big news").
    .replace(/\s*\p{Extended_Pictographic}.*$/u, '')
    // Asides after the commitment ("..., promise", "..., I keep forgetting", "please keep track of it").
    .replace(/,\s*(?:i|it|please|promise|so|and|but|they|we|he|she|bc|cos|because)\b.*$/i, '')
    .replace(/,\s*or rather$/i, '')
    // When it starts, said after the task (", starting Sunday, Nov 1", ", from next week"): a date, not the work.
    .replace(/,\s*(?:starting|beginning|from|as of)\b.*$/i, '')
    // What happens if not ("… by friday or they charge me", "or else I lose the deposit").
    .replace(/\s+or (?:else )?(?:they|i|we|it|you|he|she|i'll|we'll)\b.*$/i, '')
    // A reason run on after a comma ("..., sous chef at Pelican Row means I basically live there"): its own sentence.
    .replace(/,\s+[^,]{0,60}?\b(?:means|meaning)\b.*$/iu, '')
    // An aside that says something of its own ("..., her bday is on the 8th"), not a list ("Maya, her partner and the kids").
    .replace(/,\s*(?:his|her|their|its|the)\s+[\p{L}'-]+(?:\s+[\p{L}'-]+)?\s+(?:is|was|are|were|'s)\b.*$/iu, '')
    // A request to the assistant run on in chat ("renew my passport can u just fill out the form").
    .replace(/\s+(?:can|could|would|will) (?:u|you|ya)\b.*$/i, '')
    .replace(/\s+(?:pls|plz|please|too|as well)$/i, '')
    // An offer's courtesy ("… if you want", "… if that's ok", "… if you like"): the work is what comes before it.
    .replace(/,?\s+if (?:(?:you|u) (?:want|like|wish|prefer|fancy|need)(?: (?:me )?to| it| one)?|(?:that|this|it)(?:['’]s| is| would be|'d be)? (?:ok|okay|alright|all right|fine|easier|helpful|useful|any help))$/i, '')
    // A deadline said by someone's arrival ("before then", "before they get here", "before she lands"): the task is
    // what precedes it. A condition ("when you get home", "once it restarts") is part of the work and stays.
    .replace(/\s+before (?:then\b|(?:they|he|she|we|everyone|they're|she's|he's|we're) (?:get|gets|arrive|arrives|come|comes|land|lands|are here|is here|visit|visits|show up|shows up|back)\b).*$/i, '')
    // Chat runs the next sentence on without a stop ("clear out the spare room its a disaster").
    .replace(/(?<!\b(?:if|whether|that|what|when|why|how|because)) (?:its|it's|thats|that's|theres|there's) (?:a|an|so|such|too|really|very|literally|like|been|gonna|getting)\b.*$/i, '')
    .replace(/\s+(?:please keep track of it|promise)$/i, '')
    .replace(/(?:\s+(?:by|before|on|until|for|at|in|this|next|from|today|tonight))+$/i, '');
  const owner = authorName ? `${authorName}'s` : "the user's";
  // "dentist tomorrow, Tuesday 15 April" with its day taken out leaves a comma standing alone.
  let resolved = trimPhrase(title).replace(/\s+,/g, ',').replace(/\bme\b/g, authorName ?? 'the user').replace(/\bmy\b/g, owner);
  // In an assistant's message "you" is the user it answers.
  // "you two", "you both", "both of you" are more than the one addressed, and "you're" would not read: left as said.
  if (addressee !== undefined && !/\byou (?:two|both|all|guys|lot|three)\b|\b(?:both|all|each) of you\b|\byou['’](?:re|ve|ll|d)\b/i.test(resolved)) resolved = resolved.replace(/\byour\b/gi, `${addressee}'s`).replace(/\byou\b/gi, addressee);
  return capitalise(resolved);
}

/**
 * The sentence, then each of its clauses when it has several: chat reports
 * several deeds in one line ("called verde, we're booked sat 7pm also laptop's
 * done"), each read against the tasks still open.
 */
function reportClauses(sentence: string): string[] {
  const clauses = sentence.split(/\s*[,;]\s+|\s+(?:and also|also|plus)\s+/i).filter((clause) => clause.trim().length > 0);
  if (clauses.length < 2) return [sentence];
  // A deed and its object may sit in two clauses running on ("laptop's done, dropped it at brightwell").
  const pairs = clauses.slice(1).map((clause, i) => `${clauses[i]!}, ${clause}`);
  return [sentence, ...clauses, ...pairs];
}

/**
 * The open task a sentence closes or cancels, by meaning: at least two shared
 * lemmas (the work and its object or counterpart; to call it off, its object
 * alone), and a signal of the new state: a cancellation phrase, or the work
 * reported in the past tense.
 */
/** "rang him.", "just called her": a call or message made to someone a pronoun stands for, and nothing more. */
const CONTACTED_THEM = /^(?:(?:ok|okay|so|just|i|we|i've|we've|i just|we just)\s+)*(rang|called|phoned|texted|emailed|messaged)\s+(?:him|her|them)(?:\s+(?:back|already|now|earlier|today|this morning)){0,2}\s*[.!]?$/i;
const CONTACT_VERB: Record<string, string> = { rang: 'ring', called: 'call', phoned: 'phone', texted: 'text', emailed: 'send', messaged: 'message' };

function matchProgress(sentence: string, open: readonly OpenTask[]): { task: OpenTask; state: 'done' | 'cancelled' } | undefined {
  if (open.length === 0) return undefined;
  // "rang him." after "ring him 07700 …" (opened as "Ring Gary …"): done, when exactly one open task is that work to a named person.
  const contacted = CONTACTED_THEM.exec(sentence.trim());
  if (contacted) {
    const verb = CONTACT_VERB[contacted[1]!.toLowerCase()]!;
    const verbs = new Set([verb, SAME_WORK[verb] ?? verb, ...(verb === 'ring' || verb === 'phone' ? ['ring', 'phone', 'call'] : verb === 'call' ? ['ring', 'phone', 'call'] : [])]);
    const work = open.filter((task) => task.verb !== undefined && verbs.has(task.verb) && task.names.size > 0);
    return work.length === 1 ? { task: work[0]!, state: 'done' } : undefined;
  }
  // No word of what any open task is about, read without tagging: nothing to tag the sentence for (every rule
  // below needs a word of the task other than its verb).
  const plain = new Set([...contentWords(sentence)].map((word) => SAME_WORK[word] ?? word));
  if (!open.some((task) => [...task.words].some((word) => word !== task.verb && plain.has(word)))) return undefined;
  const words = lemmas(sentence);
  const said = THING_DONE.exec(sentence);
  const thingDone = said ? [...lemmas(said[1]!)][0] : undefined;
  // "cancelled the gym thing" for "Cancel my gym membership": the work done, not the task called off.
  if (/\bcancell?ed\b/i.test(sentence) && !NEGATED.test(sentence)) {
    const work = open.find((task) => task.verb === 'cancel' && [...task.words].some((word) => word !== 'cancel' && words.has(word)));
    if (work) return { task: work, state: 'done' };
  }
  const cancelled = CANCEL_SIGNAL.test(sentence);
  // "I've moved your physio to Thursday": moved on, not done.
  const done = !cancelled && !NEGATED.test(sentence) && !MOVED_ON.test(sentence) && (COMPLETION_WORDS.test(sentence) || nlp(sentence).has('#PastTense'));
  if (!cancelled && !done) return undefined;
  let best: OpenTask | undefined;
  let bestScore = 0;
  for (const task of open) {
    let shared = 0;
    for (const word of task.words) if (words.has(word)) shared += 1;
    const score = shared / Math.max(1, task.words.size);
    // Done needs the work itself reported ("sent", "shipped" for "send"), or a word that says it is finished.
    // "I have decided to stop QuickDrop": the work still to come ("to stop"), not done.
    const toCome = task.verb !== undefined && new RegExp(`\\bto\\s+${escapeRegExp(task.verb)}\\b`, 'i').test(sentence);
    const reportsWork = cancelled || (task.verb !== undefined && words.has(task.verb) && !toCome) || GENERIC_DONE.test(sentence);
    // ...and the same object: "sent Priya a card" does not close "send the contract to Priya".
    // "called eastside." for "Call Eastside Animal Clinic and book the checkup": the work and a name it is done to,
    // and nothing else ("sent Priya a birthday card" names another thing, and closes nothing).
    const workOnName = !cancelled && task.verb !== undefined && words.has(task.verb) && [...task.names].some((name) => words.has(name)) && [...words].every((word) => task.words.has(word) || DONE_WORDS.has(word));
    // Calling something off may name it by a name alone ("nvm the Tofurky" for "order a Tofurky roast").
    const sameObject = task.objects.size === 0 || [...(cancelled ? task.words : task.objects)].some((word) => word !== task.verb && words.has(word));
    // Calling off may name the thing alone: "scrap the dishoom thing" cancels "ring Dishoom" (but "cancel the gym
    // membership" is work of its own, not the end of "book a gym session").
    const named = cancelled && namedAfterSignal(sentence, task);
    // "kettle dropped off btw": a deed said to be done of the object of one open task alone.
    // "polytunnel's done!": the thing itself said finished, when one open task alone is about it.
    const onlyHolder =
      !cancelled &&
      (HANDED_OVER.test(sentence) ? [...task.objects].some((word) => /^\p{L}{3,}$/u.test(word) && words.has(word) && open.filter((other) => other.objects.has(word)).length === 1) : thingDone !== undefined && task.verb !== undefined && WORK_ON.has(task.verb) && task.objects.has(thingDone) && open.filter((other) => other.objects.has(thingDone)).length === 1);
    const enough = shared >= 2 || onlyHolder || ((named || (cancelled && THING_ALONE.test(sentence))) && [...task.words].some((word) => word !== task.verb && words.has(word)));
    if (reportsWork && (sameObject || workOnName) && enough && (score >= 0.3 || named || workOnName || onlyHolder) && score > bestScore) {
      best = task;
      bestScore = score;
    }
  }
  return best ? { task: best, state: cancelled ? 'cancelled' : 'done' } : undefined;
}
