/**
 * Local fact extraction into two tables, `profile` (subject, attribute,
 * value) and `preferences` (subject, preference, polarity). Small talk,
 * questions and instruction-like text are skipped; a remark corrected later
 * in the batch is dropped in favour of the correction; date values are
 * resolved against the message's own timestamp into a `date` column, which is
 * added to `profile` (existing rows migrated) the first time it is needed.
 */
import { extractActionNotes } from './actions.js';
import nlp from 'compromise';
import type { FactOp, FactTable } from '../../../domain/memory.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import { escapeRegExp } from '../../../commons/regexp.js';
import { REPLACING } from '../../../domain/supersession.js';
import { WEEKDAY_INDEX } from '../../../domain/dates.js';
import type { UpdaterInput } from '../../../ports/model.js';
import { DEEP_SENTENCES_PER_RECORD, authorOf, casedInside, heldSentences, personNames, restoreDots, isCorrection, isHypothetical, isSmallTalk, resolveDate, statedValue, trimPhrase, usualPronoun } from './text.js';

const PROFILE: FactTable = { name: 'profile', columns: ['subject', 'attribute', 'value'], key: ['subject', 'attribute'] };
const PREFERENCES: FactTable = { name: 'preferences', columns: ['subject', 'preference', 'polarity'], key: ['subject', 'preference'] };
const DATE_ATTRIBUTES = /birthday|anniversary|date|deadline|wedding|due|appointment|flight|trip|start/i;

interface Candidate {
  table: 'profile' | 'preferences';
  row: Record<string, string | null>;
  statement: string;
  /** The value replaces an earlier one: a correction in words, or a change the phrasing states ("we moved to ..."). */
  correction: boolean;
  /** The record says in words that an earlier value was wrong ("actually ...", "sorry, ..."): surer than a plain statement. */
  explicit?: boolean;
  evidence: string[];
}

/** A value runs to the end of its clause; a point or comma between digits is part of it ("£18,000", "£11.44", "3.12"). */
const VALUE = `((?:[^.,;!?]|(?<=\\d)[.,](?=\\d))+?)`;
const END = `(?=(?<!\\d)[.,]|[.,](?!\\d)|[;!?(]|$| \\(| (?:and|but|so|since|because|now|these days|near|with|for the rest of|from now on|until|till)\\b)`;
/** A person's name; not a first-person or impersonal word that starts a sentence ("We moved to Ghent"). */
const NAME = `((?!I['’])(?!(?:We|You|It|Our|My|The|This|That|There|Here|Everyone|Nobody)\\b)\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)`;
/** Values that name an organisation, not a place ("moved to Bristol Royal Infirmary"). */
const ORG_WORDS = /\b(?:hospital|infirmary|academy|school|university|college|inc|ltd|llc|group|labs?|bank|studio|company|corp|partners|agency|clinic)\b/i;
const PETS = 'cat|dog|puppy|kitten|rabbit|parrot|hamster|horse|tortoise|guinea pig|greyhound|beagle|labrador|retriever|terrier|spaniel|collie|poodle|dachshund|husky|whippet|lurcher';
const JOBS = 'engineer|designer|teacher|doctor|nurse|lawyer|developer|manager|writer|student|founder|consultant|architect|analyst|researcher|chef|artist|accountant|pharmacist|electrician|plumber|paralegal|librarian|scientist|programmer|editor|journalist|photographer|pilot|therapist|mechanic|carpenter|barista|paramedic|midwife|surgeon|translator|copywriter|recruiter|dentist';
/** Capitalised words that are times, not employers ("I start at Christmas"). */
const WHEN_WORDS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter|Noon|Midnight|Eid|Diwali|Hanukkah|Thanksgiving';
/** The opening of a new job told as news; the title follows. */
const NEW_JOB = `\\b(?:(?:i(?:'m| am| will be|'ll be) )?(?:starting|started|taking up|beginning|began)(?: a new (?:job|role|position|gig))?(?: work)? (?:as (?:an? |the )?|the (?:position|role|post) of )|(?:my )?new (?:job|role|position|gig) (?:is )?as (?:an? |the )?|(?:i )?got (?:a|the) job as (?:an? |the )?)`;
/** A job title: up to five words ("junior data analyst", "Head of Logistics"). */
const JOB_TITLE = `((?:[\\p{L}-]+ ){0,4}[\\p{L}-]+)`;
/** A title names a job when one of its words is a job or a rank ("started as a joke at the party" names none). */
const ROLE_WORD = new RegExp(`\\b(?:${JOBS}|head|lead|director|officer|intern|assistant|associate|specialist|coordinator|administrator|technician|executive|vp|president|partner|clerk|cashier|volunteer|apprentice|trainee|supervisor|advisor|adviser|agent|representative|owner|controller|strategist|operator|instructor|tutor|lecturer|professor|coach)s?\\b`, 'i');
const asJob = (title: string, value: string) => (ROLE_WORD.test(title) ? value : '');
/** A new job and where: the title is group 1, the organisation group 2. */
const NEW_JOB_AT = new RegExp(`${NEW_JOB}${JOB_TITLE} (?:at|with|for) ${VALUE}${END}`, 'giu');
/** People one has (a dentist, a wife): their value is a name, cut where the name ends. */
const RELATIONS = 'dentist|doctor|gp|lawyer|accountant|wife|husband|partner|therapist|vet|physio|hairdresser|landlord';
// Family and friends are contacts, with the relationship on the contact ("Mia. The user's daughter."); a fact too would say it twice.
const TITLED = `((?:(?:Dr|Mr|Mrs|Ms|Prof)\u2024? )?\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)`;
const PERSON_VALUE = new RegExp(`^${TITLED}`, 'u');
/** The first person of the record's author; replaced by the author's key. */
const ME = '\u0000me';

type Build = (m: RegExpMatchArray, sentence?: string) => Omit<Candidate, 'correction' | 'evidence' | 'statement'> | undefined;
/** What a reference is called: "order HW-55107", "ticket #TK-88213", "tracking number 9400 1109 8836", "policy no. 88-1203". */
const REFERENCE_LABEL = 'account|order|ticket|case|claim|reference|booking|policy|tracking|confirmation|invoice|membership|member|customer|serial|reservation|incident|return|RMA|PNR|loyalty|flight|bib|locker|badge|employee|student|patient|passport|licen[cs]e';
/** What a reference is of, said before its label ("booking reference", "claim reference"): part of its name. */
const REFERENCE_OF = `(?:(${'replacement|new|original|exchange|deposit|booking|claim|case|order|policy|account|customer|ticket|complaint|report|refund|return|payment|reservation|membership|loyalty|flight'
  .split('|')
  .map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`)
  .join('|')}) )?`;
/**
 * A reference's value: a code with a digit in it, or a number read in groups. A short number is a reference
 * when said as one ("order number 1047", "booking no. 412"); written straight after its label ("order #1047",
 * "Ticket #1047.") it names one order among many, as a shop's log does.
 */
const REFERENCE = new RegExp(
  `\\b${REFERENCE_OF}(${REFERENCE_LABEL.split('|').map((w) => `[${w[0]!.toUpperCase()}${w[0]!.toLowerCase()}]${w.slice(1)}`).join('|')})(?:( [Nn]umber| [Nn]o[.\\u2024]?| I[Dd]| #)|(?: [Cc]ode| [Rr]ef))?(?: is| was|:)? ?#?((?=[A-Z0-9-]*\\d)(?:[A-Z]{1,6}-?\\d[A-Z0-9-]{2,}|\\d{5,}|(?:\\d[A-Z] )?\\d{3,5}(?: \\d{3,5}){1,6}|(?<=(?:[Nn]umber|[Nn]o[.\\u2024]?|I[Dd])(?: is| was|:)? ?#?|(?: is| was|:) ?#)\\d{3,4}))(?![\\p{L}\\p{N}])`,
  'gu',
);
/** Any code said as a thing's ID or number: "Workspace ID is TW-88120", "our site code: LDN-04". */
const NAMED_CODE = /\b(?:(?:[Mm]y|[Oo]ur|[Yy]our|[Tt]he|[Tt]heir|[Hh]is|[Hh]er) )?(?!(?:my|our|your|the|their|his|her|phone|mobile|cell|contact|fax|home|work|house|flat|room|seat)\b)((?:[a-z]+|[A-Z][a-z]+)(?: [a-z]+)?) (ID|[Nn]umber|[Rr]eference|[Cc]ode)(?: is| was|:)? ?#?((?=[A-Z0-9-]*\d)[A-Z]{1,6}-?\d[A-Z0-9-]{2,})\b/gu;
/** How many of a countable thing an account has: seats, licences, users, lines. */
const COUNTED = '(seats|licen[cs]es|users|lines|devices|members|accounts|rooms|tickets|bags|guests|people|attendees|tables|places|covers)';
/** Whom an invoice is for, named beside it: "sent to Vantage", "for Marsh Architecture". */
const BILLED = /\b(?:to|for)\s+(\p{Lu}[\p{L}&'’-]*(?:\s+\p{Lu}[\p{L}&'’-]*)?)/u;
/** A client named just before an invoice ("the Okafor deposit invoice"), not a word that opens the sentence ("The …"). */
const clientBefore = (before: string) => {
  const name = /(\p{Lu}[\p{L}&'’-]+)(?: \p{Ll}+)? $/u.exec(before)?.[1];
  return name && !/^(?:The|A|An|My|Our|Your|Their|His|Her|This|That|New|Old|Final|First|Last|Next)$/.test(name) ? name : undefined;
};
const referenceOf = (m: RegExpMatchArray, sentence?: string) => {
  const label = m[2]!.toLowerCase();
  // "flight AC872" is the flight; "booking reference QX7P2L" the booking reference; "order HW-55107" the order number.
  const name = label === 'flight' ? 'flight' : m[1] && m[1].toLowerCase() !== label ? `${m[1].toLowerCase()} ${label}` : `${label} number`;
  // One sends many invoices: each client's is its own, not a new value of one number.
  const billed = label === 'invoice' && sentence ? (BILLED.exec(sentence)?.[1] ?? clientBefore(sentence.slice(0, m.index))) : undefined;
  return profile(ME, billed ? `${name} for ${billed}` : name, m[4]!);
};

/** An address given for the user's account: "service address 28 Willow Crescent, Apt 4B, Hartwell" (commas and all). */
const ADDRESS = /\b((?:[Ss]ervice|[Bb]illing|[Dd]elivery|[Ss]hipping|[Hh]ome|[Mm]ailing|[Pp]ostal|[Nn]ew) address|[Aa]ddress)(?: on file)?(?: is| was)?(?: now)?:? (\d{1,5}[A-Za-z]?,? \p{Lu}[^.;!?]{2,60}?)(?=[.;!?]|$| (?:and|but|so|if|when|for)\b)/gu;

/** A reference said value first, as the customer's new one: "LB-560477 is now your active case number". */
const REFERENCE_NOW_YOURS = new RegExp(`\\b((?=[A-Z0-9-]*\\d)[A-Z]{1,6}-?\\d[A-Z0-9-]{2,}|\\d{5,}) is (?:now )?your (?:new |active |current )?(${REFERENCE_LABEL}) (number|no\\.?|ID|reference|ref|code)\\b`, 'giu');

/** Where one lives or gets service is one address ("address", "home address", "service address"); billing, delivery and postal ones are their own. */
const addressName = (said: string) => (/^(?:(?:service|home|new) )?address$/i.test(said.trim()) ? 'address' : said.trim().toLowerCase());

/** An address set to a new value: "corrected the service address to 4210 N Vancouver Ave". */
const CHANGED_ADDRESS = /\b(?:corrected|updated|changed|moved) (?:the |your )?((?:service |billing |delivery |shipping |home |mailing |postal )?address)(?: on file)? to (\d{1,5}[A-Za-z]?,? \p{Lu}[^.;!?]{2,60}?)(?=[.;!?]|$|,? (?:and|but|so|if|when|for|as)\b)/gu;

/** A value that may hold an amount or a decimal ("$12.40", "1,250"). */
const AMOUNT_VALUE = `((?:[^.,;!?]|(?<=\\d)[.,](?=\\d))+?)`;
const ACCOUNT_ATTRIBUTE = '(?:(?:service |billing |delivery |shipping |home |mailing |e-?mail |contact |phone |mobile |new )?(?:address|number|phone|mobile|e-?mail)|plan|tier|billing date|renewal date|due date|payment date|delivery date|balance|credit limit|deductible|premium|excess|monthly payment|rate|seat|gate|policy|coverage|flight|booking|room|subscription|package|limit|price|monthly price|annual price|bill|monthly bill|fee|monthly fee|interest rate|credit)';
/** An e-mail address or a phone number, whole (a value pattern would stop at its first dot). */
const REACH_VALUE = `([\\w.\\u2024+-]+@[\\w-]+(?:[.\\u2024][\\w-]+)+|\\+?[\\d(][\\d ().-]{5,}\\d)`;
const REACH_ATTRIBUTE = '((?:new |work |home |personal |contact |mobile |cell )?(?:e-?mail(?: address)?|phone(?: number)?|mobile(?: number)?|cell(?: number)?|number))';
/** One name for each way to reach someone: "e-mail address" is "email", "contact number" and "cell" are "phone". */
const reachAttribute = (said: string) => (/mail/i.test(said) ? 'email' : 'phone');
/** "my new email is ines.moreau@example.com", "my mobile is now 07700 900456". */
const MY_REACH = new RegExp(`\\bmy ${REACH_ATTRIBUTE} (?:is|has changed to|changed to) (?:now )?${REACH_VALUE}`, 'giu');
/** Diets said of someone. */
const DIET = '(vegetarian|vegan|pescatarian|gluten[- ]free|lactose intolerant|coeliac|celiac|diabetic)';
/** A code of digits that opens something: "locker combo", "door code", "gate PIN", "alarm code". */
const SECRET_CODE = '((?:[a-z]+\\s)?(?:bike|garage|building|gate|door|locker|lock|padlock|alarm|keypad|key ?box|lockbox|safe|wifi|entry|access)\\s)(code|combo|combination|pin|PIN|passcode)';
/** A numbered place of one's own: "its locker 87", "my desk is 4B", "our parking space number is 22" (a possessive first). */
const OWN_NUMBERED = /\b(?:[Mm]y|[Oo]ur|[Ii]ts|[Ii]t['’]s|[Ii]t is) (locker|desk|parking (?:space|spot|bay)|pigeonhole|mailbox|storage unit|pod)(?: number| no\.?| #)?(?: is| was|:)? #?(\d{1,5}[A-Z]?)(?![\p{L}\p{N}:.,]\d|[\p{L}\p{N}])(?=\s*$|\s*[.,;:!?)]|\s+(?:now|and|but|on|at|in|next|by|top|bottom|row|floor|near|for|so|though|tho|lol|pls|btw)\b)/gu;
/** Named by what it opens, the last word: "gym locker combo" and "locker combination" are one code, "side door code" the "door code". */
const codeName = (thing: string, kind: string) => `${thing.trim().split(/\s+/).at(-1)!.toLowerCase()} ${/^combo/i.test(kind) ? 'combination' : kind.toLowerCase() === 'pin' ? 'PIN' : kind.toLowerCase()}`;

/** What a note names and the value it gives it: "wake-up time" to "5:45" (attribute, as/to, value). */
const NOTE_ITEM = String.raw`((?!(?:[a-z-]+\s){0,2}(?:reminders?|alarms?|calendars?|orders?|bookings?|accounts?|passwords?|details|notes?|lists?|plans?|tickets?|preferences?|requests?|appointments?|appts?)\s+(?:as|to)\s)[a-z][a-z-]*(?:\s[a-z][a-z-]*){0,2}?)\s+(as|to)\s+(\$?[\p{L}\p{N}][\p{L}\p{N}:.'$£€%/-]*(?:,\d{3})*(?:\s[\p{L}\p{N}$£€%][\p{L}\p{N}:.'$£€%/-]*(?:,\d{3})*){0,4}?)(?=[.;!?](?:\s|$)|,\s|$|\s(?:and|but|so|for|from|starting|effective|on|at|until|instead|now|with|which|since)\b)`;
/** The verbs of a note the assistant keeps for the user. */
const NOTE_VERB = '(?:saved|updated|changed|set|moved|noted|recorded|switched)';
/** "I've updated your wake-up time to 5:45": a note the assistant keeps for the user, its attribute and new value. */
const SAVED_YOUR = new RegExp(String.raw`\b(?:i've|i have|we've|we have|i)\s+(?:now\s+|also\s+)?${NOTE_VERB}\s+your\s+${NOTE_ITEM}`, 'giu');

const SAVED_YOUR_ONCE = new RegExp(SAVED_YOUR.source, 'iu');
/** An assistant's note whose value names no day of a month ("I've moved your rest day to Sunday"): no dated thing. */
const savedNoDay = (sentence: string) => {
  const saved = SAVED_YOUR_ONCE.exec(sentence);
  return saved !== null && !/\d/.test(sentence.slice(saved.index + saved[0].length - saved[3]!.length, saved.index + saved[0].length + 20));
};
/** The same note's next items: "I've saved your race date as April 19, your starting weight as 86 kg and your target weight as 79 kg". */
const SAVED_YOUR_TOO = new RegExp(String.raw`(?<=\b${NOTE_VERB}\s+your\s[^.;!?]{1,120}?)(?:,\s*(?:and\s+)?|\s+and\s+)your\s+${NOTE_ITEM}`, 'giu');

/** A target one keeps to, named with what it counts: "daily protein target", "step goal", "weekly spending limit". */
const TARGET_ATTR = String.raw`((?:(?=[a-z0-9-]*[a-z])[a-z0-9-]+\s){0,3}?(?:target|goal|limit|budget|cap|allowance|quota))`;
/** A target's value: a number with its unit ("140g", "11,000", "2.5 litres", "$400"). */
const TARGET_VALUE = String.raw`([$£€]?\d[\d,]*(?:\.\d+)?(?:\s?(?:g|kg|lbs?|k|km|mi|miles|steps|hours?|hrs?|minutes|mins|calories|kcal|cups|glasses|litres|liters|ml|pages|words|books|%|percent|ms|milliseconds|seconds|secs|days|weeks))?)(?![\p{L}\p{N}]|[.,]\d)`;
/**
 * A target agreed or changed, by either side of a coaching or budgeting chat: "let's set a daily protein target of
 * 140g", "we'll start with a daily step goal of 9000 steps", "let's lower your daily protein target to 120g",
 * "bump my step goal up to 11k". The new value replaces the old.
 */
/** Who agrees a target in a chat about one's own: "let's", "we'll", "I'll", "can we", "ok"; up to four words may come between ("let's be realistic and lower …"). */
const TARGET_CUE = String.raw`(?:^|\b(?:let's|lets|let us|we'll|we will|we can|we should|i'll|i will|i'm going to|im going to|i want to|i'd like to|can we|could we|shall we|i've|i have|we've|we have|i|we|ok|okay)\s+(?:[\w'’]+\s+){0,4}?)`;
const SET_TARGET = new RegExp(String.raw`${TARGET_CUE}(?:set|start with|aim for|go with|stick with|agree on|settle on)\s+(?:a|an|your|my|our)\s+(?:new\s+)?${TARGET_ATTR}\s+(?:of|at)\s+${TARGET_VALUE}`, 'giu');
const MOVE_TARGET = new RegExp(String.raw`${TARGET_CUE}(?:lower|rais|increas|decreas|reduc|drop|bump|cut|chang|mov|adjust|push|set)[a-z]*\s+(?:your|my|our)\s+${TARGET_ATTR}\s+(?:up\s+|down\s+|back\s+)?to\s+${TARGET_VALUE}`, 'giu');
/** An amount of money, with what it is per: "£595 a month", "£520/day", "$1,450". */
const MONEY_VALUE = String.raw`([$£€]\s?\d[\d,]*(?:\.\d+)?(?:\s?[km]\b)?(?:\s?(?:a|an|per|\/)\s?(?:month|week|year|day|hour|night|head|person|pp))?)(?![\p{L}\p{N}]|[.,]\d)`;
/** Words that name no thing of one's own when they come before "is going up to £…". */
const NO_THING = /^(?:it|that|this|which|what|he|she|they|we|i|you|everything|all|price|prices|cost|costs)$/i;
/** A time of day, with the weekday it falls on if said: "9:30", "1.30pm", "7pm", "thu 3pm". */
const TIME_VALUE = String.raw`((?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s)?(?:\d{1,2}:\d{2}(?:\s?[ap]m)?|\d{1,2}\.\d{2}\s?[ap]m|\d{1,2}\s?[ap]m))(?![\p{L}\p{N}:]|\.\d)`;
/** An amount with what it is per, said of any unit ("£15 per box") or period ("£26 a week"). */
const MONEY_PER = String.raw`([$£€]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:(?:a|an|per|\/)\s?(?:month|week|year|day|hour|night|head|person|pp)|per\s[a-z]{3,10}))?)(?![\p{L}\p{N}]|[.,]\d)`;
/** Words after a number that say how long, how often or how much, not what is counted ("3 weeks", "2 times", "5 quid"). */
const NOT_COUNTED = 'days|weeks|months|years|times|hours|hrs|mins|minutes|seconds|secs|percent|pounds|dollars|euros|quid|bucks|ones|others|things|bits|lots|ways|kids|miles|kms|yes|plus|cents|pence|grams|kilos|litres|liters|degrees|points|goals|calls|messages|texts|emails|steps|reps|sets';
/** A count said with what is counted: "27 subscribers", "16 hours a week", "40 people"; not "3 weeks". */
const COUNT_OF = String.raw`(\d[\d,]*\s(?:hours\s(?:a|per)\s(?:week|day|month)|people|(?!(?:${NOT_COUNTED})\b)[a-z]{3,}s(?:\s(?:a|per)\s(?:week|month|year))?))(?![\p{L}\p{N}])`;
/** What a count or an amount is of when nothing else names it: "27 subscribers" → "subscribers", "£12.20 an hour" → "hourly rate", "£16.50 per box" → "price per box". */
function unitName(value: string): string | undefined {
  const text = value.trim().toLowerCase();
  if (/^[$£€]/.test(text)) {
    const per = /(?:a|an|per|\/)\s?([a-z]+)$/.exec(text)?.[1];
    if (!per) return undefined;
    if (per === 'hour') return 'hourly rate';
    return /^(?:month|week|year|day|night)$/.test(per) ? undefined : `price per ${per}`;
  }
  return /^\d[\d,]*\s(.+)$/.exec(text)?.[1];
}
/** A value noted as changed: an amount, a count or a time (groups: amount, count, time). */
const NOTED_VALUE = String.raw`(?:${MONEY_PER}|${COUNT_OF}|${TIME_VALUE})`;
/** What a note names: up to five words, not a pronoun ("the Castle Square pitch fee", "Dev's rate", "allotment rent"). */
const NOTED_THING = String.raw`((?!(?:it|that|this|them|him|her|you|me|everything|all|your|the|to|on|at)\b)[\p{L}][\p{L}'’-]*(?:\s(?!(?:to|is|are|now|on|at)\b)[\p{L}][\p{L}'’-]*){0,4})`;
/**
 * What an assistant that keeps the user's notes says it changed: "Updated the Castle Square pitch fee to £26 a week",
 * "Corrected: allotment rent is £74 a year per plot", "Updated Dev's rate to £12.20 an hour", "Updated: Dev is now on
 * 16 hours a week". Only amounts, counts and times: a note's other values are read by their own rules.
 */
const NOTED_CHANGE = new RegExp(String.raw`(?:^|[.!?]\s+|^(?:thanks|ok|okay|done|right|great|got it),?\s+)(?:updated|corrected|changed|amended)(?::|\s-|,)?\s+(?:(?:the|your)\s+)?${NOTED_THING}\s+(?:to|is now|are now|is|are|now)\s+(?:(?:now|on|at)\s+)*${NOTED_VALUE}`, 'giu');
/** "Updated to 27 subscribers." */
const NOTED_COUNT = new RegExp(String.raw`(?:^|[.!?]\s+|^(?:thanks|ok|okay|done|right|great|got it),?\s+)(?:updated|corrected|changed)(?::|,)?\s+(?:that\s+|it\s+)?to\s+${COUNT_OF}`, 'giu');
/** A note's thing: "Dev's rate" is Dev's rate, "Dev" alone is Dev (what the value is of, its unit). */
function notedChange(thing: string, value: string) {
  const whose = /^(\p{Lu}[\p{L}-]+)['’]s\s+(.+)$/u.exec(thing);
  if (whose) return profile(whose[1]!, whose[2]!, value);
  if (/^\p{Lu}[\p{L}-]+$/u.test(thing) && !/^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/.test(thing)) {
    const unit = unitName(value);
    return unit ? profile(thing, unit, value) : undefined;
  }
  return profile(ME, thing, value);
}
/** A role a person holds: one to three lower-case words, not a thing ("head chef", "treasurer", "letting agent"). */
const ROLE = String.raw`((?!(?:one|thing|things|plan|idea|number|address|phone|email|date|time|place|flat|house|home|car|job|name)\b)(?:[a-z]+\s){0,2}?[a-z]+)`;
/** Where a role said last in a clause ends: "our new bass player, starting in May", "as club secretary in June". */
const ROLE_END = String.raw`(?=\s*(?:[,.;:!?)]|$)|\s(?:starting|from|as|since|for|at|in|on|and|but|so|now|this|next|after|before|until|when|with|by|to)\b)`;
/** A change said of a person's pay: "him" or "her" is the last person named. */
const PERSON_OBJECT = /^(?:him|her)$/i;
const asSubject = (said: string) => (/^him$/i.test(said) ? 'he' : /^her$/i.test(said) ? 'she' : said);

/** What comes before a thing a time is said of, and words that are no thing. */
const THING_LEAD = String.raw`(?:^|[,;:]\s+|\b(?:and|so|also|fyi|btw|oh|reminder|heads up|update|note|from (?:mon|tues|wednes|thurs|fri|satur|sun)day|from next (?:week|time))\s+)(?:the\s|our\s|my\s)?`;
const THING = String.raw`((?!(?:my|our|the|and|so|also|fyi|btw|oh|an?|his|her|their|your|ok|okay|well|hey|right|yeah|yes|no|um|uh|it|that|this|which|what|he|she|they|we|i|you|everything|all|time|now|today|tomorrow|tonight|next|from|until|till|by)\b)(?:[a-z][a-z-]*\s){0,2}?[a-z][a-z-]+)`;
/** A target said as a condition, a denial or a guess is none: "if you apply", "don't set a goal yet", "is possible". */
/** A target's value ends its clause ("our budget is 40 thousand euros" is no target of 40: the general reading takes it). */
const TARGET_END = String.raw`(?=\s*(?:$|[.,;:!?)])|\s(?:per|a|an|for|this|that|each|every|by|and|but|so|now|rn|in|on|at|from|until|which|if|because|since)\b)`;
const NOT_AGREED = /\b(?:if|unless|possible|don't|dont|do not|not yet|never|maybe|might|most people|people usually)\b/i;
const targetName = (said: string) => said.trim().toLowerCase();

/**
 * What an assistant tells the user about the user's own account, read as the user's fact: a support agent reads it
 * from the records ("you're on the Fiber 500 plan", "your billing date is the 15th", "your contact number is now …").
 * Only these forms: an assistant's other words restate, advise or guess, and are no evidence of a value.
 */
const ASSISTANT_PATTERNS: { pattern: RegExp; build: Build; change?: boolean }[] = [
  { pattern: NAMED_CODE, build: (m) => profile(ME, `${m[1]!.toLowerCase()} ${m[2]!.length === 2 ? 'ID' : m[2]!.toLowerCase()}`, m[3]!) },
  // "from April 1 you'll have 25 seats", "I've updated it to 30 seats".
  { pattern: new RegExp(`\\byou(?:'ll| will)? (?:now )?have (\\d+) ${COUNTED}`, 'giu'), build: (m) => profile(ME, m[2]!.toLowerCase(), m[1]!) },
  { pattern: new RegExp(`\\b(?:updated|changed|moved|increased|reduced|set) (?:it|that|this|you|your plan|your subscription) to (\\d+) ${COUNTED}`, 'giu'), build: (m) => profile(ME, m[2]!.toLowerCase(), m[1]!), change: true },
  // "your monthly price drops to $150", "your new monthly price from April 1 will be $180".
  { pattern: new RegExp(`\\byour (?:new )?(${ACCOUNT_ATTRIBUTE})(?: from [^,.;!?]{1,20}?)? (?:drops|goes up|goes down|rises|falls|increases|decreases|changes|is going up|is going down|will go up|will drop|will rise|will fall) to ${AMOUNT_VALUE}(?=[.,;!?(](?!\\d)|$| \\(| (?:and|but|so|from|on|a|per|instead of)\\b)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\byour new (${ACCOUNT_ATTRIBUTE})(?: from [^,.;!?]{1,20}?)? (?:is|will be) ${AMOUNT_VALUE}(?=[.,;!?(](?!\\d)|$| \\(| (?:and|but|so|from|on|a|per|instead of)\\b)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\b(?:updated|changed|set) your ${REACH_ATTRIBUTE} to ${REACH_VALUE}`, 'giu'), build: (m) => profile(ME, reachAttribute(m[1]!), m[2]!), change: true },
  { pattern: new RegExp(`\\byour ${REACH_ATTRIBUTE} (?:is|has been (?:changed|updated) to) (?:now )?${REACH_VALUE}`, 'giu'), build: (m) => profile(ME, reachAttribute(m[1]!), m[2]!) },
  { pattern: REFERENCE, build: referenceOf },
  { pattern: ADDRESS, build: (m) => profile(ME, addressName(m[1]!), m[2]!) },
  // "LB-560477 is now your active case number": the new reference, said value first.
  { pattern: REFERENCE_NOW_YOURS, build: (m) => profile(ME, `${m[2]!.toLowerCase()} ${/^(?:ref|reference)$/i.test(m[3]!) ? 'reference' : 'number'}`, m[1]!), change: true },
  // "I have corrected the service address to 4210 N Vancouver Ave".
  { pattern: CHANGED_ADDRESS, build: (m) => profile(ME, addressName(m[1]!), m[2]!), change: true },
  { pattern: /\byou(?:'re|’re| are) (?:now |still )?on (?:the |our )?([\p{L}\p{N}]+(?: [\p{L}\p{N}]+)?) plan\b/giu, build: (m) => profile(ME, 'plan', m[1]!) },
  // "Updated: you're pescatarian now", "so you're vegan these days".
  { pattern: new RegExp(`\\byou(?:'re|’re| are) (?:now )?${DIET}\\b`, 'giu'), build: (m) => profile(ME, 'diet', m[1]!.toLowerCase()) },
  // "Saved your gym locker combination as 8032", "I have set your gate PIN to 4451".
  { pattern: new RegExp(`\\b(?:saved|updated|changed|set) your ${SECRET_CODE} (?:as|to) (\\d{3,8})\\b`, 'giu'), build: (m) => profile(ME, codeName(m[1]!, m[2]!), m[3]!), change: true },
  // "I've changed your flight to TP1349 on Friday", "we've upgraded your plan to Gold": the new value, replacing the old.
  { pattern: new RegExp(`\\b(?:i've|i have|we've|we have) (?:now )?(?:updated|changed|moved|switched|upgraded|downgraded|increased|reduced|lowered|raised) your (${ACCOUNT_ATTRIBUTE}) to ${AMOUNT_VALUE}(?=[.,;!?(](?!\\d)|$| \\(| (?:and|but|so|on|at|for|from|with|instead of|as)\\b)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\byour (${ACCOUNT_ATTRIBUTE}) (?:is|has been (?:changed|updated) to|will be) (?:now )?${AMOUNT_VALUE}(?=[.,;!?(](?!\\d)|$| \\(| (?:and|but|so|since|because|now|with|instead of|rather than|down from|up from|from)\\b)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  // What an assistant that keeps the user's notes says it wrote down: "I've updated your wake-up time to 5:45", "I've
  // saved your race date as April 19", "I've moved your strength days to FlexHub". The attribute as said, the value short.
  { pattern: SAVED_YOUR, build: (m) => profile(ME, m[1]!.toLowerCase(), m[3]!), change: true },
  { pattern: SAVED_YOUR_TOO, build: (m) => profile(ME, m[1]!.toLowerCase(), m[3]!), change: true },
  { pattern: SET_TARGET, build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), change: true },
  { pattern: MOVE_TARGET, build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), change: true },
  // "your policy excess is actually £60, not the figure I gave you": a value the agent corrects.
  { pattern: new RegExp(`\\byour (?:[a-z]+ )?(${ACCOUNT_ATTRIBUTE}) is actually ${AMOUNT_VALUE}(?=[.,;!?(](?!\\d)|$| \\(| (?:and|but|so|not|rather than|instead of)\\b)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true },
  { pattern: NOTED_CHANGE, build: (m) => notedChange(m[1]!, (m[2] ?? m[3] ?? m[4])!), change: true },
  { pattern: NOTED_COUNT, build: (m) => profile(ME, unitName(m[1]!)!, m[1]!), change: true },
];

/** `change`: the sentence states a new value that replaces the old one (a move, an upgrade), not a rival to it. */
/** `needs`: a cheap test a sentence must pass before the pattern is tried (most sentences name none of its words). */
const PATTERNS: { pattern: RegExp; build: Build; change?: boolean; fallback?: boolean; inTask?: boolean; known?: boolean; needs?: RegExp }[] = [
  { pattern: new RegExp(`\\bmy (?!name\\b)([a-z][a-z ]{1,30}?)['’]s name is ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  { pattern: new RegExp(`\\b${TITLED} as my (${RELATIONS})\\b`, 'gu'), build: (m) => profile(ME, m[2]!, m[1]!) },
  { pattern: new RegExp(`\\b[Mm]y (${RELATIONS}),? ((?:(?:Dr|Mr|Mrs|Ms|Prof)\u2024? )?\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)`, 'gu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  { pattern: new RegExp(`(?:^|[,:;] )${TITLED} is my (?:new )?(${RELATIONS}|boss|manager|favou?rite [a-z]+)\\b`, 'gu'), build: (m) => profile(ME, m[2]!, m[1]!) },
  { pattern: new RegExp(`\\b${NAME} is my favou?rite ([a-z]+)\\b`, 'gu'), build: (m) => profile(ME, `favourite ${m[2]}`, m[1]!) },
  { pattern: new RegExp(`\\bmy name is ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, 'name', m[1]!) },
  // "I go by Sam", "call me Bea", "everyone calls me Jo": the name the author is known by.
  { pattern: /\b(?:[Ii] go by|^[Cc]all me|(?:[Pp]eople|[Ee]veryone|[Ff]riends|[Mm]ost people) calls? me|[Mm]y name['’]s) (\p{Lu}[\p{L}'’-]+)/gu, build: (m) => profile(ME, 'name', m[1]!) },
  { pattern: new RegExp(`\\b(?:i|we) (?:now )?(?:live|am living|'m living|are living|'re living) in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:i'm|i am|we're|we are) (?:now |still )?(?:based|located) in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\bhome(?: for (?:me|us))? is (?:now )?${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  // "My home base these days is Bilbao", "our home town is now Cork": a home, named another way.
  { pattern: new RegExp(`\\b(?:my|our) (?:home ?base|base|home ?town|home city|city)(?: these days| nowadays| now| at the moment| currently)? is (?:now )?${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:i|we)(?:'ve| have)? (?:just |finally |recently )?(?:moved|relocated) to ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\bliving in ${VALUE} now\\b`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  // A move told in passing: "since moving to Sheffield", "our new flat in Leith", "we moved into a house in Ghent".
  { pattern: new RegExp(`\\b(?:since|after|before) (?:i |we )?(?:moving|relocating|we moved|i moved) to ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:my|our|the) new (?:flat|place|house|apartment|home|pad) in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:i|we)(?:'ve| have)? (?:just |finally )?moved into (?:a |an |our |my |the )?(?:new )?(?:flat|place|house|apartment|home) in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:i'm|i am) (?:still )?in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\b${NAME} (?:now )?(?:lives|is living|is based) in ${VALUE}${END}`, 'gu'), build: (m) => place(m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\b([Ss]he|[Hh]e|[Tt]hey) (?:now )?(?:lives?|is living|is based) in ${VALUE}${END}`, 'gu'), build: (m) => place(m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\b${NAME} (?:has )?(?:just )?(?:moved|relocated) to ${VALUE}${END}`, 'gu'), build: (m) => place(m[1]!, m[2]!, true), change: true },
  { pattern: new RegExp(`\\b((?!I['’])\\p{Lu}[\\p{L}'’-]+)(?:, [^,]{1,30},)? is (?:now )?(?:in|based in) ${VALUE}${END}`, 'gu'), build: (m) => place(m[1]!, m[2]!), change: true },
  { pattern: new RegExp(`\\b(?:the|our|my) (?:site|office|studio|shop|business|company|practice|headquarters|hq) is (?:now )?(?:located |based )?in ${VALUE}${END}`, 'giu'), build: (m) => place(ME, m[1]!), change: true },
  { pattern: new RegExp(`\\bi work (?:at|for) ${VALUE}(?= as\\b|[.,;!?]|$| (?:and|but|so|now|doing|on|in|since|for)\\b)`, 'giu'), build: (m) => profile(ME, 'employer', m[1]!) },
  // "got an offer at brightwell dental as a practice coordinator", "taking the Ashgrove offer": the next employer.
  { pattern: new RegExp(`\\b(?:i (?:got|have|accepted|took)|i'm (?:taking|accepting)|got|accepted|took|taking|accepting) (?:an? |the )?(?:new )?(?:job offer (?:at|from|with)|offer (?:at|with)) ${VALUE}(?= as\\b|[.,;!?]|$| (?:and|but|so|now|starting|start|on|for|to)\\b)`, 'giu'), build: (m) => profile(ME, 'employer', m[1]!), change: true },
  // A new employer told as news: "i officially start at Larkspur Analytics on monday", "I've started at Kiln".
  { pattern: new RegExp(`\\b[Ii](?:'ve|’ve| have| am|'m| will|'ll)? (?:officially |finally |just )?(?:start|started|starting|begin|began|beginning) (?:at|with) (?!(?:${WHEN_WORDS})\\b)(\\p{Lu}[\\p{L}&'’-]*(?: (?:of |& )?\\p{Lu}[\\p{L}&'’-]*){0,3})`, 'gu'), build: (m) => profile(ME, 'employer', m[1]!), change: true },
  { pattern: new RegExp(`\\b(?:i(?:'m|’m| am)|im) (?:an? )?((?:[a-z]+ ){0,2}(?:${JOBS}))\\b`, 'giu'), build: (m) => profile(ME, 'occupation', m[1]!) },
  // A new job: "starting as a junior analyst at Brightwater", "taking up the position of Head of Logistics at Varnhagen Freight", "new gig as a barista at Kiln".
  { pattern: NEW_JOB_AT, build: (m) => profile(ME, 'occupation', asJob(m[1]!, m[1]!)), change: true },
  { pattern: NEW_JOB_AT, build: (m) => profile(ME, 'employer', asJob(m[1]!, m[2]!).replace(/ (?:next|this|from|on|starting|tomorrow|today|in (?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))\b.*$/i, '')), change: true },
  { pattern: /\b(?:i(?:'m|’m| am)|im|i went|i've gone|i have gone|i've been|i have been) (?:now |still |also )?(vegetarian|veggie|vegan|pescatarian|gluten[- ]free|lactose intolerant|coeliac|celiac|diabetic)\b/giu, build: (m) => profile(ME, 'diet', m[1]!.toLowerCase() === 'veggie' ? 'vegetarian' : m[1]!) },
  // What the author does not eat: "I don't eat meat", "dairy's off the menu".
  { pattern: /\bi (?:don't|dont|do not|no longer|never|can't|cannot|can no longer) (?:eat|drink) (meat|red meat|pork|beef|dairy|gluten|fish|seafood|shellfish|eggs|nuts|peanuts|sugar|alcohol)\b/giu, build: (m) => preference(ME, m[1]!, 'avoids') },
  { pattern: /\b(meat|red meat|pork|beef|dairy|gluten|seafood|shellfish|sugar|alcohol|caffeine)(?:'s|’s| is) (?:now |officially )?off the menu\b/giu, build: (m) => preference(ME, m[1]!, 'avoids') },
  { pattern: new RegExp(`\\b(?:i(?:'m|’m| am)|im) (?:(?:really|very|seriously|severely|super|deathly|badly) )?allergic to ${VALUE}${END}`, 'giu'), build: (m) => preference(ME, m[1]!, 'allergic') },
  { pattern: /\bi have (?:an? |the )?([a-z]+(?: [a-z]+)?) allergy\b/giu, build: (m) => preference(ME, m[1]!, 'allergic') },
  // "cant do pb, peanut allergy": an allergy named alone, in a clause of its own, is the author's.
  { pattern: /(?:^|[,;:]\s+)(?:(?:severe|bad|serious|mild)\s+)?([a-z]+) allergy(?=\s*(?:[.,;!?]|$|lol|tho|btw))/giu, build: (m) => (/^(?:my|his|her|their|the|an?|no|any)$/i.test(m[1]!) ? undefined : preference(ME, m[1]!, 'allergic')) },
  // Someone else's diet or allergy: "Omar has a peanut allergy", "Linda is coeliac", "she's gluten free".
  { pattern: new RegExp(`\\b(${NAME.slice(1, -1)}|[Ss]he|[Hh]e) (?:has|'s got|has got) (?:an? |the )?(?:(?:severe|bad|serious|mild) )?([a-z]+(?: [a-z]+)?) allergy\\b`, 'gu'), build: (m) => preference(m[1]!, m[2]!, 'allergic'), inTask: true },
  { pattern: new RegExp(`\\b(${NAME.slice(1, -1)}|[Ss]he|[Hh]e)(?: is|'s|’s) (?:(?:really|very|seriously|severely|super|deathly|badly) )?allergic to ${VALUE}${END}`, 'gu'), build: (m) => preference(m[1]!, m[2]!, 'allergic'), inTask: true },
  { pattern: new RegExp(`\\b(${NAME.slice(1, -1)}|[Ss]he|[Hh]e)(?: is|'s|’s) (?:now |also |strictly )?${DIET}\\b`, 'gu'), build: (m) => profile(m[1]!, 'diet', m[2]!), inTask: true },
  { pattern: new RegExp(`\\bi was born on ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, 'birthday', m[1]!) },
  { pattern: new RegExp(`\\bi(?:'ve| have) (?:recently |just )?taken up ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, 'hobby', m[1]!) },
  { pattern: new RegExp(`^${VALUE} is my (?:new )?(?:thing|hobby)\\b`, 'giu'), build: (m) => profile(ME, 'hobby', m[1]!) },
  { pattern: new RegExp(`\\bmy (?:new )?(${PETS}),? (\\p{Lu}[\\p{L}'’-]+)`, 'gu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  { pattern: new RegExp(`\\b(?:i|we) (?:just )?(?:adopted|got) an? (?:new )?(${PETS})[!,.]* (?:her|his|its) name is ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  { pattern: new RegExp(`\\b(?:i|we)(?:'re| are|'m| am)? (?:just |finally )?(?:adopted|adopting|got|getting) an? (?:new |rescue |little )*(${PETS}) (?:called|named) (\\p{L}[\\p{L}'’-]+)`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!) },
  { pattern: new RegExp(`\\b(?:we're|we are|i'm|i am|(?:our|my|the) account is) (?:now )?on the ([\\p{L}\\p{N}]+(?: [\\p{L}\\p{N}]+)?) plan\\b`, 'giu'), build: (m) => profile(ME, 'plan', m[1]!) },
  { pattern: new RegExp(`\\b(?:we|i) (?:pay for|have) the ([\\p{L}\\p{N}]+) plan\\b`, 'giu'), build: (m) => profile(ME, 'plan', m[1]!) },
  { pattern: new RegExp(`\\b(?:we|i)(?:'ve| have)? (?:just )?(?:upgraded|downgraded|switched|moved|changed) to the ([\\p{L}\\p{N}]+) plan\\b`, 'giu'), build: (m) => profile(ME, 'plan', m[1]!), change: true },
  { pattern: /\b(?:problem|issue|trouble|something is wrong) with (?:the|our|my) ((?:[\p{L}\p{N}-]+ ){0,2}(?:router|modem|kit|switch|laptop|phone|printer|device|camera|charger|app))\b/giu, build: (m) => profile(ME, 'device', m[1]!) },
  { pattern: /\b(?:the|our|my) ((?:[\p{L}\p{N}-]+ ){0,2}(?:router|modem|kit|switch|laptop|phone|printer|device|camera|charger)) (?:is acting up|keeps (?:dropping|failing|crashing)|stopped working|is broken)\b/giu, build: (m) => profile(ME, 'device', m[1]!) },
  {
    pattern: new RegExp(`\\b(\\p{Lu}[\\p{L}-]+)'s (birthday|anniversary|phone number|address|email|favou?rite [a-z]+) is (?:on )?${VALUE}${END}`, 'gu'),
    build: (m) => profile(m[1]!, m[2]!, m[3]!),
  },
  {
    pattern: new RegExp(`\\bi (?:really |absolutely )?(?:like|love|prefer|enjoy|adore) ${VALUE}${END}`, 'giu'),
    build: (m) => preference(ME, m[1]!, 'likes'),
  },
  { pattern: new RegExp(`\\bi(?:'m| am) not (?:really |much of |a |really a )?(?:big |huge )?fan of ${VALUE}${END}`, 'giu'), build: (m) => preference(ME, m[1]!, 'dislikes') },
  { pattern: new RegExp(`\\bi(?:'m| am) (?:a |such a )?(?:big |huge |massive )?fan of ${VALUE}${END}`, 'giu'), build: (m) => preference(ME, m[1]!, 'likes') },
  {
    pattern: new RegExp(`\\bi (?:really )?(?:hate|dislike|can't stand|cannot stand|don't like|do not like) ${VALUE}${END}`, 'giu'),
    build: (m) => preference(ME, m[1]!, 'dislikes'),
  },
  { pattern: new RegExp(`\\bmy favou?rite ([a-z]+) is ${VALUE}${END}`, 'giu'), build: (m) => profile(ME, `favourite ${m[1]}`, m[2]!) },
  { pattern: MY_REACH, build: (m) => profile(ME, reachAttribute(m[1]!), m[2]!), change: true },
  { pattern: NAMED_CODE, build: (m) => profile(ME, `${m[1]!.toLowerCase()} ${m[2]!.length === 2 ? 'ID' : m[2]!.toLowerCase()}`, m[3]!), inTask: true },
  // "locker combo is 4417", "owner says door code is 2719": a code of digits that opens something.
  // "the alarm code at the office is 7731": where it opens may come between.
  { pattern: new RegExp(`\\b${SECRET_CODE}(?: (?:at|for|on|to) (?:the|my|our) [a-z]+)?(?: is| was|:)? (\\d{3,8})\\b`, 'gu'), build: (m) => profile(ME, codeName(m[1]!, m[2]!), m[3]!), inTask: true },
  { pattern: SET_TARGET, build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), change: true, inTask: true },
  { pattern: MOVE_TARGET, build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), change: true, inTask: true },
  // "fyi p95 target for the checkout api is 300ms": a target said plainly, with what it is for between.
  { pattern: new RegExp(String.raw`(?:^|[,;:]\s+|\b(?:fyi|btw|so|and|also|the|our|my)\s+)(?!(?:fyi|btw|so|and|also|the|our|my|your|their|his|her|ok|okay|oh)\s)${TARGET_ATTR}(?:\s(?:for|on|of)\s(?:the\s|our\s)?[a-z0-9 -]{1,30}?)?\s(?:is|are|'s|’s)\s(?:now\s|still\s)?${TARGET_VALUE}${TARGET_END}`, 'giu'), build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), inTask: true },
  // "they tightened the checkout p95 target to 250ms": a target already known changed, whoever changed it ("the league
  // raised the salary cap to $140 million" is no target of one's own).
  { pattern: new RegExp(String.raw`\b(?:tightened|loosened|relaxed|lowered|raised|increased|decreased|reduced|cut|dropped|bumped|moved|changed|upped|set)\s(?:the\s|our\s|my\s|their\s|its\s)?${TARGET_ATTR}(?:\s(?:for|on|of)\s(?:the\s|our\s)?[a-z0-9 -]{1,30}?)?\s(?:up\s|down\s|back\s)?to\s${TARGET_VALUE}${TARGET_END}`, 'giu'), build: (m, said) => (NOT_AGREED.test(said ?? '') ? undefined : profile(ME, targetName(m[1]!), m[2]!)), change: true, inTask: true, known: true },
  // "its locker 87", "my desk is 4B", "our parking space number is 22": a numbered place of one’s own; one said later is the one now.
  { pattern: OWN_NUMBERED, build: (m) => profile(ME, `${m[1]!.toLowerCase()} number`, m[2]!), change: true, inTask: true },
  // "move from 40 seats to 25 seats", "make that 30 seats": how many, the new number replacing the old.
  { pattern: new RegExp(`\\b(?:move|go|switch|change|drop|cut|upgrade|downgrade|increase|reduce)(?: \\w+)? from \\d+ ${COUNTED} to (\\d+)(?: ${COUNTED})?`, 'giu'), build: (m) => profile(ME, m[1]!.toLowerCase(), m[2]!), change: true, inTask: true },
  { pattern: new RegExp(`\\bmake (?:that|it) (\\d+) ${COUNTED}`, 'giu'), build: (m) => profile(ME, m[2]!.toLowerCase(), m[1]!), change: true, inTask: true },
  // "we're thinking around 120 guests", "we'll have about 40 people": how many, said as a plan.
  { pattern: new RegExp(`\\b(?:we're|we are|we'll|we will|we've got|we have|i'm|i am|there(?:'ll| will) be)\\s(?:(?:thinking|expecting|having|inviting|planning on|planning for|looking at|catering for)\\s)?(?:around|about|roughly|approximately|approx|maybe|~)?\\s?(\\d{1,5}) ${COUNTED}\\b`, 'giu'), build: (m) => profile(ME, m[2]!.toLowerCase(), m[1]!) },
  // "we've cut it down to 95 guests", "numbers went up to 60 people": how many now.
  { pattern: new RegExp(`\\b(?:cut|brought|got|trimmed|reduced|increased|bumped|upped|dropped|grew|gone|went|come|came)\\s(?:(?:it|that|this|the list|the guest list|the numbers?|numbers?|them)\\s)?(?:down\\s|up\\s|back\\s)?to\\s(\\d{1,5}) ${COUNTED}\\b`, 'giu'), build: (m) => profile(ME, m[2]!.toLowerCase(), m[1]!), change: true, inTask: true },
  // Counts and amounts said with what they are of, the first time and when they change: "I've got 23 subscribers",
  // "I'm now at 27 subscribers", "he does 12 hours a week", "he'll do 16 hours a week from now on", "I pay him £11.50
  // an hour", "bump him to £12.20 an hour", "put the price up to £16.50 per box", "make the petrol £8 a week".
  // (What one has only when said as a running count: "I have 3 meetings today" is no fact to keep.)
  { pattern: new RegExp(String.raw`\b(?:i've got|i have got|i have|we've got|we have got|we have|i've|we've)\s(?:about\s|around\s)?${COUNT_OF}(?=\s(?:at the moment|right now|now|currently|so far|in total|altogether|signed up|on (?:the|my|our) (?:list|books)))`, 'giu'), build: (m) => profile(ME, unitName(m[1]!)!, m[1]!), needs: /\d/ },
  { pattern: new RegExp(String.raw`\b(?:i'm|i am|im|we're|we are)\s(?:now\s)?(?:at|on|up to|down to)\s(?:about\s|around\s)?${COUNT_OF}`, 'giu'), build: (m) => profile(ME, unitName(m[1]!)!, m[1]!), change: true, needs: /\d/ },
  { pattern: new RegExp(String.raw`\b(${NAME.slice(1, -1)}|[Hh]e|[Ss]he)(?:['’]ll|\swill|\sis going to|['’]s going to|\snow)?\s(?:do|does|doing|work|works|working)\s(?:about\s|around\s)?${COUNT_OF}`, 'gu'), build: (m) => profile(m[1]!, unitName(m[2]!)!, m[2]!), needs: /\d/ },
  { pattern: new RegExp(String.raw`\b(?:[Ii]|[Ww]e)\s(?:now\s)?pay\s(him|her|${NAME.slice(1, -1)})\s(?:about\s)?${MONEY_PER}`, 'gu'), build: (m) => profile(asSubject(m[1]!), 'pay', m[2]!), needs: /\bpay\b/i },
  {
    pattern: new RegExp(String.raw`\b(?:put|putting|puts|bump|bumping|bumped|raise|raising|raised|increase|increasing|increased|drop|dropping|dropped|lower|lowering|lowered|cut|cutting|up|upped|upping)\s(him|her|the\s(?:price|rate|fee|rent|cost|charge))\s(?:up\s|down\s)?to\s${MONEY_PER}`, 'giu'),
    build: (m) => (PERSON_OBJECT.test(m[1]!) ? profile(asSubject(m[1]!), 'pay', m[2]!) : profile(ME, unitName(m[2]!) ?? m[1]!.replace(/^the\s/i, ''), m[2]!)),
    change: true,
    inTask: true,
    needs: /\bto\s[$£€]/,
  },
  { pattern: new RegExp(String.raw`\bmake\s(?:the|my|our)\s([a-z]+(?:\s[a-z]+)?)\s${MONEY_PER}`, 'giu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true, inTask: true, needs: /\bmake\b/i },
  // A role that changed hands: "the new head chef is Tomasz", "Ines is our new treasurer", "Bram is taking over from
  // Ines as captain", "Bram replaced Ines as captain". The role holds the new person; lines before it that speak of
  // the role with another name are marked with it on the read path (domain/supersession.ts).
  { pattern: new RegExp(String.raw`\b(?:[Tt]he|[Oo]ur|[Mm]y|[Tt]heir|[Hh]is|[Hh]er)\snew\s${ROLE}\s(?:is|will be|['’]s)\s(?:now\s)?${NAME}`, 'gu'), build: (m) => profile(ME, m[1]!, m[2]!), change: true, inTask: true, needs: /\bnew\b/ },
  { pattern: new RegExp(String.raw`\b${NAME}\s(?:is|['’]s|will be)\s(?:now\s)?(?:the|our|my|their)\snew\s${ROLE}${ROLE_END}`, 'gu'), build: (m) => profile(ME, m[2]!, m[1]!), change: true, inTask: true, needs: /\bnew\b/ },
  { pattern: new RegExp(String.raw`\b${NAME}(?:\sis|['’]s|\shas|\swill be|\swill)?\s(?:taking over|took over|taken over|take over|takes over|stepping in|stepped in|step in|covering)(?:\sfrom\s${NAME})?\sas\s(?:the\s|our\s|my\s|their\s)?${ROLE}${ROLE_END}`, 'gu'), build: (m) => profile(ME, m[3]!, m[1]!), change: true, inTask: true, needs: /\bas\b/ },
  { pattern: new RegExp(String.raw`\b${NAME}\s(?:has\s)?(?:replaced|replaces|is replacing|will replace)\s${NAME}\sas\s(?:the\s|our\s|my\s|their\s)?${ROLE}${ROLE_END}`, 'gu'), build: (m) => profile(ME, m[3]!, m[1]!), change: true, inTask: true, needs: /\bas\b/ },
  // "wifi pw is still lemontree42", "the guest wifi password is kettle9981".
  { pattern: /\b(?:(?:the|our|my|guest)\s)?(wi-?fi)\s(?:pw|password|pass|code)(?:\sis|['’]s|:)\s(?:still\s|now\s)?((?=[\w-]*\d)[A-Za-z0-9][\w-]{5,})\b/giu, build: (m) => profile(ME, 'wifi password', m[2]!), inTask: true, needs: /wi-?fi/i },
  // "i leave at 7:40", "im leaving at 7:25 from tmrw": when the author sets off.
  { pattern: new RegExp(String.raw`\b(?:i|we)(?:'m|’m|m| am|'re|’re| are)?\s(?:now\s)?(?:leave|leaving|set off|setting off|head off|heading off)\s(?:at\s)${TIME_VALUE}`, 'giu'), build: (m) => profile(ME, 'leave time', m[1]!), inTask: true, needs: /\b(?:leav|set|head)/i },
  // "I work from home", "we're working from home these days": where the author works.
  { pattern: /\b(?:i|we)(?:'m|’m| am|'re|’re| are)? (?:mostly |usually |mainly |now |currently |still )?(?:work|working) (?:from|at) home\b/giu, build: () => profile(ME, 'workplace', 'home') },
  // "Account number LN-4471932", "my order number is 5521-884", "the tracking number 9400 1109 8836 2214 5570".
  { pattern: REFERENCE, build: referenceOf, inTask: true },
  { pattern: ADDRESS, build: (m) => profile(ME, addressName(m[1]!), m[2]!), inTask: true },
  // "rent is going up to £595 a month from April", "the day rate went up to £520/day", "my premium dropped to £41": a new amount.
  {
    pattern: new RegExp(String.raw`(?:^|[,;:]\s+|\b(?:my|our|the|and|so|also|fyi|btw)\s+)((?!(?:my|our|the|and|so|also|fyi|btw|oh|an?|his|her|their|your|ok|okay|well|hey|right|yeah|yes|no|um|uh|heads up)\s)(?:[a-z][a-z-]*\s){0,2}?[a-z][a-z-]+)(?:\s(?:is|are|has|have|'s|’s|was|were|will|got|just))?(?:\s(?:going|gone|been|be|being))?\s(?:up|down|go(?:es)?\sup|go(?:es)?\sdown|went\sup|went\sdown|put\sup|bumped(?:\sup)?|raised|rising|rose|increas(?:ed|ing|es)|decreas(?:ed|ing|es)|dropp(?:ed|ing)|drops|reduced|cut|lowered|climb(?:ed|ing|s)|jump(?:ed|ing|s))\sto\s${MONEY_VALUE}`, 'giu'),
    build: (m) => (NO_THING.test(m[1]!.trim()) ? undefined : profile(ME, m[1]!.trim(), m[2]!)),
    change: true,
  },
  // "rent is £560 a month", "day rate's £450/day": an amount said plainly, at the start of a clause.
  {
    pattern: new RegExp(String.raw`(?:^|[,;:]\s+|\b(?:and|so|also|fyi|btw|oh)\s+)(?:my\s|our\s|the\s)?((?!(?:my|our|the|and|so|also|fyi|btw|oh|an?|his|her|their|your|ok|okay|well|hey|right|yeah|yes|no|um|uh|heads up)\s)(?:[a-z][a-z-]*\s){0,2}?[a-z][a-z-]+)(?:\s(?:is|are)|'s|’s)\s(?:now\s|still\s|only\s|just\s)?${MONEY_VALUE}`, 'giu'),
    build: (m) => (NO_THING.test(m[1]!.trim()) ? undefined : profile(ME, m[1]!.trim(), m[2]!)),
  },
  // "standup is 9:30 daily", "retro is thu 3pm", "the ceremony is 1.30pm now": the time a thing is at.
  { pattern: new RegExp(String.raw`${THING_LEAD}${THING}(?:'s|’s|\sis|\sare|\sstarts|\sbegins)(?:\snow|\sstill|\salways|\susually)?(?:\sat)?\s${TIME_VALUE}`, 'giu'), build: (m) => profile(m[1]!, 'time', m[2]!) },
  // "from monday standup moves to 10:15", "the retro has moved to fri 11am": a thing's new time.
  { pattern: new RegExp(String.raw`${THING_LEAD}${THING}(?:'s|’s|\sis|\shas|\swill|\sgot|\sgets)?\s(?:moves|moved|moving|move|shifts|shifted|shifting|changes|changed|changing|pushed|bumped|brought forward)(?:\s(?:permanently|back|forward|up))?\sto\s${TIME_VALUE}`, 'giu'), build: (m) => profile(m[1]!, 'time', m[2]!), change: true },
  // "escalation line is +44 20 7946 0321", "the number for maintenance is now 07700 …": a thing's or a service's line.
  { pattern: new RegExp(String.raw`${THING_LEAD}${THING}\s(line|hotline|helpline|number)(?:\sis|['’]s|:)(?:\s(?:now|still))?\s${REACH_VALUE}`, 'giu'), build: (m) => (/^(?:phone|mobile|cell|contact|new|my|your|his|her|their|work|home)$/i.test(m[1]!.trim()) ? undefined : profile(ME, `${m[1]!.trim()} ${m[2]!.toLowerCase() === 'number' ? 'number' : 'line'}`, m[3]!)), inTask: true },
  { pattern: new RegExp(String.raw`\b(?:the\s)?(?:new\s)?(?:contact\s)?(?:phone\s)?number for (?:the\s)?([a-z][a-z-]+(?:\s[a-z][a-z-]+)?)(?:\sis|,\s(?:it['’]s|it is))(?:\s(?:now|still))?\s${REACH_VALUE}`, 'giu'), build: (m) => profile(ME, `${m[1]!.trim()} number`, m[2]!), inTask: true },
  // The general "my X is Y" last, and only when no specific reading of the sentence matched.
  {
    pattern: new RegExp(`\\b(?:my|our) (?!name\\b)([a-z][a-z ]{1,30}?) (?:is|are) (?:now )?(?:actually )?${VALUE}${END}`, 'giu'),
    // "my mom is coming sun the 25th", "my car is making a noise": what someone or something is doing is no value.
    // "my final fitting is booked for 9 June": a dated thing, read as one below, not a value "booked for 9 June".
    // "my last day is june 5": a day for a thing that is not a date attribute is a dated thing, read as one below.
    build: (m) => (PASSING_STATE.test(m[1]!) || DOING.test(m[2]!) || BOOKED_VALUE.test(m[2]!) || (DAY_ONLY.test(m[2]!) && !DATE_ATTRIBUTES.test(m[1]!)) ? undefined : profile(ME, m[1]!, m[2]!)),
    fallback: true,
  },
];

/** A value that is a day and nothing more: "june 5", "Tuesday 12 May", "the 14th". */
const DAY_ONLY = /^(?:(?:on|now)\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)?(?:\s+of)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+[0-3]?\d(?:st|nd|rd|th)?|the\s+[0-3]?\d(?:st|nd|rd|th))$/i;

/** A value that says when something was arranged for, not what it is. */
const BOOKED_VALUE = /^(?:booked|scheduled|set|planned|moved|pushed|rescheduled|confirmed|arranged) (?:for|to|back to)\b/i;

/** "marcus (my fiance) is gluten free": an aside saying who someone is, between them and what is said of them. */
const WHO_ASIDE = /\s*\((?:my|our|his|her|their) [^()]{1,30}\)(?=\s)/giu;
/** The patterns read in a sentence that also asks for a task, without the global flag (tested, not iterated). */
const TOLD_IN_TASK = PATTERNS.filter(({ inTask }) => inTask).map(({ pattern }) => new RegExp(pattern.source, pattern.flags.replace('g', '')));
/** What someone or something is doing just now ("coming sun the 25th", "making a noise"), unlike "my hobby is painting". */
const DOING = /^(?:coming|going|visiting|staying|arriving|leaving|flying|driving|heading|moving|making|acting|being|getting|doing|taking|having|playing|running|working|bringing|sending|calling|texting|asking|trying|talking|thinking)\s+\S/i;
/** "My brain is full", "my back is killing me", "my heart is broken": how the body or the mood is just now, not a value to keep. */
const PASSING_STATE = /^(?:brain|head|heart|mind|mood|back|neck|feet|foot|legs?|arms?|eyes?|stomach|tummy|body|knees?|shoulders?|hands?|throat|nerves)$/i;

/** "The quarterly review is on the 14th", "We've scheduled the offsite for May 3": a dated thing, resolved against the record's time. */
const DATED_THING = /\b((?:the|your) [a-z][a-z0-9' -]{1,40}?) (?:is|are|was|were|has been|have been|will be|got|'s)(?: now| actually| still)?(?: set for| scheduled for| moved to| planned for| booked for| pushed to| pushed back to| bumped to| brought forward to| changed to| rescheduled for| rescheduled to)? ((?:on |for )?(?:the \d|\d|next |this |in |tomorrow|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|(?:mon(?:day)?|tues?(?:day)?|wed(?:s|nesday)?|thu(?:rs?)?(?:day)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b)[^.;!?]{0,40})/iu;
/**
 * An appointment said in chat, without a verb: "first appt w dr lindqvist tues the 20th 4:30", "booked the booster,
 * nov 10 at 5", "dentist appt moved to dec 4". The thing (and whom it is with) is the subject; its day the date.
 */
const APPOINTMENT = /\b((?:(?:(?:my |his |her |our |their )?(?:dad|mum|mom|mother|father|son|daughter|wife|husband|partner|gran|grandma|grandpa|sister|brother)(?:'?s)?\s+)?(?:dentist|dental|vet|doctor|gp|hair|eye|physio|hospital|[a-z]+ology|[a-z]+ics|[a-z]+ist|follow-?up|blood)\s+)?(?:appt|appointment|check-?up|booster|consultation|interview|scan))\b((?:\s+(?:w|with)\s+(?:dr\.?\s+)?[\p{L}'-]+)?)[,:]?\s+(?:(?:is|was|got|has been)\s+)?(?:now\s+)?(?:moved\s+to\s+|set\s+for\s+|booked\s+for\s+|on\s+|for\s+)?((?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+)?(?:the\s+)?(?:[0-3]?\d(?:st|nd|rd|th)?(?:\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?))?|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+[0-3]?\d(?:st|nd|rd|th)?)\b[^.;!?]{0,20})/iu;
/**
 * Someone's stay said with its days: "my sister Nadia is coming to stay the 12th-15th", "Mum and Dad are visiting
 * from the 3rd to the 6th". The subject is the visit ("nadia's visit"), its date the first day.
 */
const VISIT = /\b(\p{Lu}[\p{L}'-]+)(?: and [^.!?;]{1,30}?)? (?:is|are|'s|'re) (?:coming (?:to stay|to visit|over|down|up)?|visiting|staying(?: with us)?|flying in|arriving)(?: with us)?\s+(?:on |from |for )?((?:the )?[0-3]?\d(?:st|nd|rd|th)(?:\s*(?:-|–|to|till|until)\s*(?:the )?[0-3]?\d(?:st|nd|rd|th)?)?|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.? [0-3]?\d)/u;
/** "we have the tasting next tues", "i've got my interview on the 14th": a dated thing of one's own. */
const HAVE_DATED = /\b(?:we|i)(?:'ve| have|'ve got| have got| got)? (?:got )?(?:have )?(?:the|our|my|a|an) ((?:[a-z]+ )?(?:tasting|interview|appointment|appt|meeting|fitting|viewing|inspection|exam|test|hearing|scan|consultation|rehearsal|recital|match|race|trial|audition|surgery|operation|procedure|session|class|lesson|party|dinner|wedding|shower|reception|ceremony)) ((?:on |this |next )?(?:the \d|\d|tomorrow|tmrw|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b)[^.;!?,]{0,20})/iu;
/** Chat drops the article: "movers are booked for nov 24", "flights booked for the 3rd". */
const BOOKED_BARE = /(?:^|[,;:]\s*|\b(?:and|also|so|btw|ok)\s+)((?!(?:we|i|you|they|it|he|she|everything|all|ugh|oh|ok|okay|so|wait|well|also|and|btw|hey|hmm|lol|omg)\b)[a-z][a-z'’ -]{1,30}?)(?: are| is| were| was| have been| has been|['’]s been|['’]s| got| all)? (?:booked|scheduled|set|confirmed|moved|rescheduled|pushed|brought forward)(?: up| back| forward)? (?:for|to) ((?:the \d|\d|next |this |tomorrow|tmrw|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|(?:mon(?:day)?|tues?(?:day)?|wed(?:s|nesday)?|thu(?:rs?)?(?:day)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b)[^.;!?,]{0,30})/iu;
/**
 * Chat drops the article before "is" too: "first thing: dentist is March 19 at 2:40", "deadline is April 3", "my
 * birthday is may 3". A clause's first one to three words, then a day of the month or a weekday.
 */
const BARE_DATED = /(?:^|[,;:]\s*|\b(?:and|also|so|btw|fyi|ok|oh)\s+)(?:my |our )?((?!(?:we|i|you|they|it|he|she|that|this|which|there|here|today|tomorrow|tonight|yesterday|everything|all|ugh|oh|ok|okay|so|wait|well|also|and|btw|fyi|hey|hmm|lol|omg|what|when|who|where|why|how|mine|yours|his|hers|her|their|your|theirs|one|next|this|last(?! (?:day|shift|exam|lesson|class|session|payment|game|match|show|delivery)\b))\b)[a-z][a-z0-9]*(?:['’]s)?(?: [a-z][a-z0-9]*){0,2}?)(?: is| are|'s) (?:now |still |on |for )?((?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,? )?(?:(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.? [0-3]?\d(?:st|nd|rd|th)?\b|the [0-3]?\d(?:st|nd|rd|th)\b(?: of (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b)?|[0-3]?\d(?:st|nd|rd|th)? (?:of )?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b))/iu;
/** "new hire lena (backend) starts june 1st", "Omar joins on the 3rd": when someone or something starts. */
const STARTS_ON = /\b((?!(?:i|we|you|he|she|it|they|that|this|what|which|who|everyone|nobody|it['’]s|the|a|an|my|our|your|his|her|their|also|and|so|then|when|once|until|before|after)\b)[a-z][a-z'’-]+)(?:\s\([^)]{1,20}\))? (?:starts|is starting|will start|joins|is joining|will join|begins)(?: on| from)? ((?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,? )?(?:(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.? [0-3]?\d(?:st|nd|rd|th)?\b|the [0-3]?\d(?:st|nd|rd|th)\b|[0-3]?\d(?:st|nd|rd|th)? (?:of )?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b))/iu;
const SCHEDULED_THING = /\b(?:we've|we have|i've|i have|they've|they have) (?:scheduled|set|booked|planned|moved|put|arranged|rescheduled|pushed) ((?:the|an?|your|our|my|their) [a-z][a-z' -]{1,40}?) (?:for|to) ([^.;!?]{1,40})/iu;
const WRONG_ABOUT = /\b(?:wrong|mistaken|confused) about (the [a-z][a-z' -]{1,40}?)[:,] ([^.;!?]{1,60})/iu;
const NOT_DATED = /^(?:the )?(?:reminder|reminders|alarm|task|to-?do|note|user|weather|train|bus|traffic|plan|account|office|site|service|status page|mesh kit|router|hike photos|photos|trip|rest)$/i;

const PRONOUN = /^(?:she|he|they)$/i;
/** Whether the sentence being read is within the record's compromise budget (see DEEP_SENTENCES_PER_RECORD). */
let deep = true;
/** Words that say a value replaced an earlier one ("our plan is Business now", "we changed it"). */
const CHANGE_SIGNAL = /\b(?:now|these days|any ?more|no longer|changed|switched|upgraded|downgraded|moved|pushed|rescheduled|bumped|postponed|brought forward)\b/i;
/** Requests and commitments are the tasks updater's; their dates are due dates, not facts. */
const TASK_LIKE = /\b(?:remind me|need to|have to|must|make sure|don't let me forget|note to self|to-do|todo|i'll|i will|let me|going to)\b/i;

function profile(subject: string, attribute: string, value: string) {
  const cleanValue = trimPhrase(value.replace(/^(?:actually|now|still|called|named|on) /i, '').replace(/ (?:now|these days|at the moment)$/i, ''));
  // "my whole life is here": where the speaker is, not a value.
  // An address runs longer than other values ("4210 N Vancouver Ave, Apt 3, Portland OR 97217").
  const maxWords = /\baddress$/i.test(attribute) ? 12 : 8;
  if (!cleanValue || cleanValue.split(' ').length > maxWords || /^(?:(?:over )?(?:here|there)\b|back$)/i.test(cleanValue)) return undefined;
  // "my home base these days is Bilbao": the qualifier says when, it is not part of the attribute.
  const cleanAttribute = trimPhrase(attribute.toLowerCase().replace(/^(?:new|current|old|usual) /, '').replace(/ (?:these days|nowadays|now|at the moment|currently|lately|right now|for now)$/, ''));
  // "my sister maya is visiting ...": a relation and a name are a person (a contact), not an attribute.
  const personal = `${RELATIONS}|sister|brother|mom|mum|dad|friend|boss|trainer|roommate|flatmate|cousin|aunt|uncle|neighbou?r|colleague|coworker|bro|sis`;
  if (new RegExp(`^(?:${personal}) \\S+$`).test(cleanAttribute)) return undefined;
  // "my neighbour is a plumber" says what the neighbour does (their contact's role), not a value of the user's.
  if (new RegExp(`^(?:${personal})$`).test(cleanAttribute) && /^(?:an?|the) /i.test(value.trim())) return undefined;
  if (new RegExp(`^(?:${RELATIONS})$`).test(cleanAttribute)) {
    // "my dentist is Dr. Weiss on Elm St." names Dr. Weiss.
    const person = PERSON_VALUE.exec(value.trim().replace(/^(?:called|named) /i, ''));
    if (person) return { table: 'profile' as const, row: { subject: subject.toLowerCase() === 'i' ? ME : subject, attribute: cleanAttribute, value: trimPhrase(person[1]!) } };
  }
  return { table: 'profile' as const, row: { subject: subject.toLowerCase() === 'i' ? ME : subject, attribute: cleanAttribute, value: cleanValue } };
}

/** A home: the value is a place, not an organisation someone moved to. */
function place(subject: string, value: string, needPlace = false) {
  const text = value.trim();
  if (ORG_WORDS.test(text) || !/^\p{Lu}/u.test(text)) return undefined;
  // "Anne-Marie moved to Ferrotek": after a third person, only a name compromise knows as a place is a home.
  if (needPlace && (!deep || !nlp(text).places().found)) return undefined;
  // A place is its capitalised words: "Lisbon in May" is Lisbon.
  const name = /^\p{Lu}[\p{L}'’\u2024-]*(?: (?:\p{Lu}[\p{L}'’\u2024-]*|(?:de|del|la|le|upon|on the)(?![\p{L}]))){0,3}/u.exec(text);
  return profile(subject, 'home city', name ? name[0] : value);
}

function preference(subject: string, what: string, polarity: string) {
  const item = trimPhrase(what.replace(/^(to |the )/i, ''));
  // "but i love him", "I like them": a pronoun names no preference.
  if (!item || item.split(' ').length > 8 || /^(?:it|that|this|these|those|you|him|her|them|us|me|everyone|everything)(?: (?:both|all|too|so much|a lot|to bits))?$/i.test(item)) return undefined;
  return { table: 'preferences' as const, row: { subject, preference: item.toLowerCase(), polarity } };
}

/** "Actually it's the 5th" corrects the previous fact's value without naming the attribute. */
const BARE_CORRECTION = new RegExp(`^(?:actually|sorry|correction|no wait|wait,? no)[,:]? (?:it'?s|it is|that'?s|that is|i meant) (?:actually )?${VALUE}(?:,? not [^.!?]+)?[.!]?$`, 'iu');

/** A short value that can replace another: a code, an amount, a time, a day, a count with its unit. */
const SHORT_VALUE = String.raw`(?:[A-Z]{1,6}-?\d[A-Z0-9-]{2,}|\d[A-Z0-9]*-[A-Z0-9-]+|[$£€]\s?\d[\d,.]*(?:\s?(?:k|m))?|\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d[\d,.:/]*(?:st|nd|rd|th)?(?:\s?(?:kg|g|mg|ml|km|mins?|minutes|hours?|hrs?|%|pm|am|edition|floor|seats?|people|licen[cs]es))?|(?:mon|tues|wednes|thurs|fri|satur|sun)day)`;
/** Where a short value ends: not inside a word, a number or a code ("448-120" is one value). */
const VALUE_END = String.raw`(?![\p{L}\p{N}-])`;
/**
 * A value said with the one it replaces: "actually its the 14th not the 12th", "they want £7 not £5", "the
 * reference is no longer PG-448120, it's now PG-448172", "not the 15th any more, it's the 17th". Both sides a value
 * of one kind (a day for a day, an amount or a number for an amount, a code for a code).
 */
const INSTEAD_PATTERNS: readonly { pattern: RegExp; now: number; was: number }[] = [
  { pattern: new RegExp(String.raw`\b(?:no longer|not|isn't|isnt|is not|wasn't|wasnt)\s+(?:the\s+)?(${SHORT_VALUE})${VALUE_END}(?:\s+any\s?more)?,?\s+(?:it's|its|it’s|it is|but|now)\s+(?:now\s+)?(?:the\s+)?(${SHORT_VALUE})${VALUE_END}`, 'giu'), now: 2, was: 1 },
  { pattern: new RegExp(String.raw`(?<![\p{L}\p{N}-])(?:the\s+)?(${SHORT_VALUE})${VALUE_END},?\s+(?:not|rather than|instead of)\s+(?:the\s+)?(${SHORT_VALUE})${VALUE_END}`, 'giu'), now: 1, was: 2 },
];
const valueKind = (text: string) => (/[$£€]/.test(text) ? 'number' : /(?:st|nd|rd|th)$|day$/i.test(text) ? 'day' : /\d:\d|[ap]m$/i.test(text) ? 'time' : /[A-Z]/.test(text) ? 'code' : 'number');
/** A number's unit, when it has one ("4 hours" → "hour"); an amount's is its currency. */
const unitOf = (value: string) => /^[$£€]/.exec(value)?.[0] ?? /[\p{L}%]+$/u.exec(value)?.[0]?.toLowerCase().replace(/s$/, '');
/** A bare number ("6", "2020") says too little of what it is to replace another. */
const bareNumber = (value: string) => valueKind(value) === 'number' && !unitOf(value);
const sameValue = (a: string, b: string) => {
  const norm = (v: string) => v.toLowerCase().replace(/^the\s+/, '').replace(/[$£€,\s]/g, '');
  return norm(a) === norm(b);
};
/** Words of a clause that name nothing (what stands before a corrected value). */
const NAMES_NOTHING = /^(?:ok|okay|so|but|and|oh|also|actually|wait|hey|hmm|omg|lol|ugh|my|your|our|their|his|her|him|bad|r|u|ur|w|its|it's|it’s|it|is|are|was|were|be|been|the|a|an|now|there|here|then|just|want|wants|wanted|said|says|say|think|thing|i|we|they|he|she|you|me|us|them|not|bc|because|that|this|well|yeah|yes|no|sorry|right|still|only|really|will|would|can|could|should|get|got|have|has|had|do|does|did|to|of|for|on|in|at|by|with|from|happened|try|aim|go|make|need|needs)$/i;
/** Sentences of one record read for a value said with the one it replaces: enough for a message, bounded for a hostile one. */
const INSTEAD_SENTENCES_PER_RECORD = 8;
/** Earlier values a holder is looked for among: the batch's latest candidates, and the store. */
const HOLDER_CANDIDATES = 60;

/** The words of a clause before a position that name what a value is of ("door price", "load in"). */
function namedBefore(sentence: string, at: number): string {
  const before = sentence.slice(Math.max(0, at - 120), at).split(/[,;:.!?—–()]|\s-\s/).at(-1) ?? '';
  return before.toLowerCase().split(/\s+/).filter((word) => /^[\p{L}-]{2,}$/u.test(word) && !NAMES_NOTHING.test(word)).slice(-2).join(' ');
}

/** A day of a month said alone: "the 12th", "3rd". */
const BARE_DAY = /^(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)$/i;
/** A valid ISO date: the month's day exists ("2026-06-31" does not). */
const realDay = (iso: string) => /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) && new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso);

/**
 * A value said with the one it replaces, read as a correction: of the fact that held the old value when exactly one
 * did and the sentence names what it is of (a word of its subject or attribute), or it is of the last few records
 * of the batch; else as what it was and what it is, named by the words before it in the clause, so the patch keeps
 * the old value as replaced and the history that stated it is marked (domain/supersession.ts); when no word names
 * it, `value replacing <old>`. Nothing when both sides are bare numbers and nothing names them ("we have not 1 but
 * 2 dogs", "2 + 2 is 4 not 5").
 */
function saidInstead(said: string, subject: string, record: UpdaterInput['records'][number], reading: BatchReading, name?: string): Candidate[] {
  // Typographic apostrophes read as plain ones ("it’s now").
  const sentence = said.replace(/[’‘]/g, "'");
  for (const { pattern, now: n, was: w } of INSTEAD_PATTERNS) {
    for (const match of sentence.matchAll(pattern)) {
      const now = trimPhrase(match[n]!);
      const was = trimPhrase(match[w]!);
      const named = name ?? namedBefore(sentence, match.index ?? 0);
      if (!now || !was || sameValue(now, was) || valueKind(now) !== valueKind(was)) continue;
      const statement = trimPhrase(sentence);
      const holder = reading.holderOf(was, sentence, record);
      if (holder) {
        const day = BARE_DAY.exec(now);
        const dated = holder.row.attribute === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(holder.row.value ?? '');
        const value = dated && day ? `${holder.row.value!.slice(0, 8)}${day[1]!.padStart(2, '0')}` : now;
        if (dated && !realDay(value)) continue;
        return [{ table: holder.table, row: withDate({ ...holder.row, value }, record.timestamp), statement, correction: true, explicit: true, evidence: [record.id] }];
      }
      // Named by nothing ("its the 14th not the 12th"), it is named by the value it replaces, and that value is
      // marked only in lines said before it (domain/supersession.ts); two bare numbers say too little for that.
      if (!named && bareNumber(now) && bareNumber(was)) continue;
      const attribute = named || `${REPLACING} ${was}`;
      return [
        { table: 'profile', row: { subject, attribute, value: was }, statement, correction: false, evidence: [record.id] },
        { table: 'profile', row: { subject, attribute, value: now }, statement, correction: true, explicit: true, evidence: [record.id] },
      ];
    }
  }
  return [];
}

/** "make that 5:15", "could we make it £40": a new value alone, at a request's start (not "I don't think we can make it 8pm"). */
const MAKE_THAT = new RegExp(String.raw`(?:^|\b(?:can we|could we|shall we|let's|lets|ok|okay|pls|please|actually|so|then|oh|hmm|no|wait|sorry)[,]?\s+)make (?:that|it) (?:the\s+)?(${SHORT_VALUE})${VALUE_END}`, 'iu');
/** Every short value a text says, in order. */
const SHORT_VALUES = new RegExp(String.raw`(?<![\p{L}\p{N}-])(?:the\s+)?(${SHORT_VALUE})${VALUE_END}`, 'giu');
/** Characters of a record read for the values "make that" may replace. */
const MAKE_THAT_READ_CHARS = 2_000;

/**
 * "make that 5:15 then?", "make that 4 hours a day": the value said last in the batch before it, of the same kind
 * (a time for a time, an amount for an amount, a number with the same unit; a bare number is too loose to say), is
 * the one it replaces. Read as `saidInstead` reads "5:15 not 4:30pm".
 */
function madeThat(sentence: string, subject: string, record: UpdaterInput['records'][number], reading: BatchReading): Candidate[] {
  const made = MAKE_THAT.exec(sentence);
  if (!made || /\b(?:don't|dont|do not|can't|cant|cannot|won't|wont|never|might|may|maybe|if)\b/i.test(sentence.slice(0, made.index))) return [];
  const now = trimPhrase(made[1]!);
  if (bareNumber(now)) return [];
  const kind = valueKind(now);
  const was = reading.valuesBefore(record).find(({ value }) => valueKind(value) === kind && !sameValue(value, now) && (kind !== 'number' || unitOf(value) === unitOf(now)));
  // Named by the words before the old value where it was said ("collect her at 2:15pm" is "collect").
  return was && was.named ? saidInstead(`${now} not ${was.value}`, subject, record, reading, was.named).map((c) => ({ ...c, statement: trimPhrase(sentence) })) : [];
}

/**
 * What the readings of one batch share, built once: the values of earlier records, newest first, and the facts that
 * may hold a value a later sentence replaces.
 */
interface BatchReading {
  /** Short values said in the ten records before this one, the latest first, each with the words naming it. */
  valuesBefore(record: UpdaterInput['records'][number]): { value: string; named: string }[];
  /** The one fact that held `was`: named by the sentence, or said in the last few records of the batch. */
  holderOf(was: string, sentence: string, record: UpdaterInput['records'][number]): Candidate | undefined;
}

function batchReading(input: UpdaterInput, candidates: readonly Candidate[]): BatchReading {
  const values = new Map<string, { value: string; named: string }[]>();
  const valuesOf = (r: UpdaterInput['records'][number]) => {
    let found = values.get(r.id);
    if (!found) {
      const text = r.content.slice(0, MAKE_THAT_READ_CHARS);
      values.set(r.id, (found = [...text.matchAll(SHORT_VALUES)].map((m) => ({ value: trimPhrase(m[1]!), named: namedBefore(text, m.index ?? 0) }))));
    }
    return found;
  };
  const stored: Candidate[] = input.existing.map((item) => ({ table: 'profile', row: (item.row ?? {}) as Record<string, string | null>, statement: '', correction: false, evidence: [] }));
  const position = new Map(input.records.map((r, i) => [r.id, i]));
  return {
    valuesBefore: (record) => {
      const at = position.get(record.id) ?? 0;
      return input.records.slice(Math.max(0, at - 10), at).flatMap(valuesOf).reverse();
    },
    holderOf: (was, sentence, record) => {
      const holds = (c: Candidate) => {
        const value = c.row.value ?? '';
        if (sameValue(value, was)) return true;
        const day = BARE_DAY.exec(was);
        return day !== null && c.row.attribute === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value) && Number(value.slice(8)) === Number(day[1]);
      };
      const words = new Set(sentence.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter((w) => w.length >= 3 && !NAMES_NOTHING.test(w)));
      const named = (c: Candidate) => `${c.row.subject ?? ''} ${c.row.attribute ?? ''}`.toLowerCase().split(/[^\p{L}\p{N}-]+/u).some((w) => words.has(w));
      const at = position.get(record.id) ?? 0;
      const recent = (c: Candidate) => c.evidence.some((id) => at - (position.get(id) ?? -99) <= 5);
      const all = [...candidates.slice(-HOLDER_CANDIDATES), ...stored].filter(holds);
      const byName = all.filter(named);
      if (byName.length > 0) return byName.length === 1 || new Set(byName.map((c) => `${c.row.subject}\u0000${c.row.attribute}`)).size === 1 ? byName.at(-1) : undefined;
      // Unnamed, only a value said in the last few records, never a bare number (Grandad's age is not the van's 85).
      if (bareNumber(was)) return undefined;
      const near = all.filter(recent);
      return near.length === 1 ? near[0] : undefined;
    },
  };
}

export function extractFacts(input: UpdaterInput): { ops: FactOp[] } {
  const candidates: Candidate[] = [];
  const reading = batchReading(input, candidates);
  deep = true;
  /** The last person named in the batch, for "she lives in Oslo". */
  let lastPerson: string | undefined;
  /** Words the batch writes as names inside its sentences ("Dev helps me out … and Dev is"). */
  const spelledAsNames = casedInside(input.records.map((record) => authorOf(record).content));
  /** Whom an assistant's "you" stands for: the batch's user. */
  const userKey = input.records.map((record) => (record.role === 'user' ? authorOf(record).key : undefined)).find(Boolean) ?? 'user';
  for (const record of input.records) {
    if (record.type !== 'message' || record.role === 'tool') continue;
    if (record.role === 'assistant') {
      const told = toldByAssistant(record, userKey, (subject) => previousDate(input, candidates, subject));
      for (const candidate of told) {
        supersedeWithinBatch(candidates, candidate);
        candidates.push(candidate);
      }
      // "it's not the 27th, it's Thursday the 28th": an agent's correction of a value said before (not its advice).
      for (const said of heldSentences(authorOf(record).content).slice(0, INSTEAD_SENTENCES_PER_RECORD)) {
        if (told.some((c) => c.statement === trimPhrase(said)) || isHypothetical(said) || isSmallTalk(said) || looksLikeInstruction(said)) continue;
        candidates.push(...saidInstead(said, userKey, record, reading));
      }
      continue;
    }
    const author = authorOf(record);
    const heldList = heldSentences(author.content);
    for (const [index, held] of heldList.entries()) {
      deep = index < DEEP_SENTENCES_PER_RECORD;
      const people = deep ? personNames(restoreDots(held), [], spelledAsNames) : [];
      // A sentence with a task in it ("need to get peanut-free snacks") is read only for what it tells of someone else.
      const asksTask = TASK_LIKE.test(held);
      // "could we make that 4:30?": a request, and a new value for the last of its kind.
      // (Asked as a question, so not read as hypothetical: madeThat has its own guard against "if", "might", "don't".)
      const made = index < INSTEAD_SENTENCES_PER_RECORD && !isSmallTalk(held) ? madeThat(held, author.key, record, reading) : [];
      candidates.push(...made);
      if (made.length > 0 && asksTask) continue;
      const taskLike = asksTask && !TOLD_IN_TASK.some((pattern) => pattern.test(held.replace(WHO_ASIDE, '')));
      if (isSmallTalk(held) || isHypothetical(held) || looksLikeInstruction(held) || taskLike) {
        if (people.length > 0) lastPerson = people[people.length - 1];
        continue;
      }
      const correction = isCorrection(held);
      // "marcus (my fiance) is gluten free": an aside saying who someone is stands between them and what is said of them.
      const sentence = (correction ? statedValue(held) : held).replace(WHO_ASIDE, '');
      // "my rent is £950 not £900", "its the 14th not the 12th": the value with the one it replaces, before any
      // other reading takes "£950 not £900" for the value.
      const insteadAt = made.length === 0 && index < INSTEAD_SENTENCES_PER_RECORD && /\b(?:not|rather than|instead of|no longer)\b/i.test(held);
      // A correction in words ("wait actually its the 10th to the 12th not the 9th") is read by its own rules first.
      const instead = insteadAt && !correction ? saidInstead(held, author.key, record, reading) : [];
      if (instead.length > 0) {
        candidates.push(...instead);
        if (people.length > 0) lastPerson = people[people.length - 1];
        continue;
      }
      const found: { row: Candidate['row']; table: Candidate['table']; change: boolean; at?: number; known?: boolean }[] = [];
      for (const { pattern, build, change, fallback, inTask, known, needs } of PATTERNS) {
        if (fallback && found.length > 0) continue;
        if (asksTask && !inTask) continue;
        if (needs && !needs.test(sentence)) continue;
        for (const match of sentence.matchAll(pattern)) {
          const built = build(match, sentence);
          if (built) found.push({ ...built, change: (change ?? false) || CHANGE_SIGNAL.test(sentence), at: match.index, ...(known ? { known } : {}) });
        }
      }
      // A bare "X is <day>" only when nothing else read the sentence ("my birthday is June 14" is the birthday).
      // "I've moved your rest day to Sunday" is the rest day's new value, no dated thing ("… to Thursday, May 14" is one).
      const dated = savedNoDay(sentence) ? undefined : datedThing(sentence, record.timestamp, (subject) => previousDate(input, candidates, subject), found.length === 0);
      if (dated) found.push({ table: 'profile', row: { subject: dated.subject, attribute: 'date', value: dated.iso }, change: CHANGE_SIGNAL.test(sentence) });
      let matched = false;
      for (const built of found) {
        // "she" is the last person named, unless that name is usually a man's (and "he" a woman's): then no one.
        const fits = (pronoun: string, person = lastPerson) => {
          if (person === undefined) return false;
          // "Grandad Pete", "Aunt Mira": the first word that is a name says.
          const usual = person.split(/\s+/).map(usualPronoun).find(Boolean);
          return /^they$/i.test(pronoun) || usual === undefined || usual === pronoun.toLowerCase();
        };
        // "Maeve has been great, so I bumped her to $31 an hour": the one person named before it in the sentence, else the last named.
        const named = people.length === 1 && built.at !== undefined && sentence.slice(0, built.at).includes(people[0]!.split(' ')[0]!) ? people[0] : undefined;
        const resolve = (pronoun: string) => (named && fits(pronoun, named) ? named : fits(pronoun) ? lastPerson! : pronoun);
        const row = Object.fromEntries(Object.entries(built.row).map(([k, v]) => [k, v === ME ? author.key : k === 'subject' && v && PRONOUN.test(v) ? resolve(v) : v]));
        if (row.subject && PRONOUN.test(row.subject)) continue;
        if (built.known && !heldAlike(input, candidates, row)) continue;
        // A named author's job lives on their contact; only the anonymous user keeps it as a fact.
        if (author.key !== 'user' && row.subject === author.key && /^(?:employer|occupation)$/.test(row.attribute ?? '')) continue;
        // One statement, one value per subject and attribute: the first pattern that read it wins.
        if (matched && candidates.some((c) => c.evidence.includes(record.id) && c.row.subject === row.subject && (c.row.attribute ?? c.row.preference) === (row.attribute ?? row.preference))) continue;
        matched = true;
        // A sentence that states two things makes two statements, each its own clause, not the sentence twice.
        // (A correction's sentence is rewritten to its stated value: its clauses are not the record's.)
        const clause = found.length > 1 && !correction ? clauseAt(sentence, built.at, row) : undefined;
        const candidate = { table: built.table, row: withDate(row, record.timestamp), statement: trimPhrase(clause ?? held), correction: correction || built.change, explicit: correction, evidence: [record.id] };
        supersedeWithinBatch(candidates, candidate);
        candidates.push(candidate);
      }
      if (people.length > 0) lastPerson = people[people.length - 1];
      // "Sorry, I got that wrong: it is on the 14th, not the 12th": "it" is the last dated thing.
      // "dentist called, they moved me to dec 4": the last dated thing moved, told as news rather than as a correction.
      // "the exam office moved ECN2041. it's Thursday 21 May now": "it", after a sentence telling of a move, is what moved.
      const movedBefore = index > 0 && /\b(?:moved|rescheduled|changed|pushed|bumped|postponed|brought forward)\b/i.test(heldList[index - 1]!) && /\bnow\b/i.test(sentence);
      const itDate = !matched ? (correction || movedBefore ? IT_DATE.exec(sentence) : MOVED_ME.exec(sentence)) : null;
      const lastDated = itDate ? (movedBefore && !correction ? namedDatedThing(input, candidates, heldList[index - 1]!) : lastDatedThing(input, candidates, correction ? '' : sentence)) : undefined;
      if (itDate && lastDated) {
        const dated = datedThing(`the ${lastDated} is ${itDate[1]}`, record.timestamp, (subject) => previousDate(input, candidates, subject));
        if (dated) {
          const candidate: Candidate = { table: 'profile', row: withDate({ subject: dated.subject, attribute: 'date', value: dated.iso }, record.timestamp), statement: `${dated.subject}: ${dated.iso} (${trimPhrase(held)})`, correction: true, explicit: true, evidence: [record.id] };
          supersedeWithinBatch(candidates, candidate);
          candidates.push(candidate);
          matched = true;
        }
      }
      // "ive changed the pw. its now kettle9981": a password said changed, its new value.
      const passwordAgain = !matched && index > 0 && PASSWORD_CHANGED.test(heldList[index - 1]!) ? PASSWORD_AGAIN.exec(sentence) : null;
      if (passwordAgain) {
        const known = [...candidates].reverse().find((c) => c.table === 'profile' && /password$/.test(c.row.attribute ?? ''))?.row.attribute;
        const attribute = known ?? (/\bwi-?fi\b/i.test(`${heldList[index - 1]} ${sentence}`) ? 'wifi password' : 'password');
        const candidate: Candidate = { table: 'profile', row: withDate({ subject: author.key, attribute, value: passwordAgain[1]! }, record.timestamp), statement: `${attribute}: ${passwordAgain[1]} (${trimPhrase(held)})`, correction: true, explicit: true, evidence: [record.id] };
        supersedeWithinBatch(candidates, candidate);
        candidates.push(candidate);
        matched = true;
      }
      // "they changed the keypad... it's 5083 now", "mine's 8032 now": the last code spoken of has a new value.
      const codeAgain = !matched ? CODE_AGAIN.exec(sentence) : null;
      const lastCode = codeAgain && /\b(?:now|new|changed|reset|switched)\b/i.test(sentence) ? lastCodeOf(input, candidates) : undefined;
      if (codeAgain && lastCode && lastCode.row.value !== codeAgain[1]) {
        const candidate: Candidate = { table: 'profile', row: { ...lastCode.row, value: codeAgain[1]! }, statement: `${lastCode.row.attribute}: ${codeAgain[1]} (${trimPhrase(held)})`, correction: true, explicit: true, evidence: [record.id] };
        supersedeWithinBatch(candidates, candidate);
        candidates.push(candidate);
        matched = true;
      }
      const bare = !matched && correction ? BARE_CORRECTION.exec(held) : null;
      const previous = candidates[candidates.length - 1];
      if (bare && previous && previous.table === 'profile') {
        const row = withDate({ ...previous.row, value: trimPhrase(bare[1]!) }, record.timestamp);
        // The remark stays, superseded by the correction in the same patch (see supersedeWithinBatch).
        const sameRecord = previous.evidence.includes(record.id);
        if (sameRecord) candidates.pop();
        candidates.push({ ...previous, row, statement: `${previous.row.attribute} of ${previous.row.subject}: ${row.value} (corrected)`, correction: true, explicit: true, evidence: sameRecord ? [...previous.evidence] : [record.id] });
        matched = true;
      }
      // A correction in words that its own rules did not read ("sorry, £15 not £12 for the tickets").
      if (!matched && insteadAt && correction) candidates.push(...saidInstead(held, author.key, record, reading));
    }
    const line = lineChanged(authorOf(record).content, record, input, candidates);
    if (line) {
      supersedeWithinBatch(candidates, line);
      candidates.push(line);
    }
  }

  const ops: FactOp[] = [];
  const tables = new Map(input.tables.map((t) => [t.name, t]));
  for (const wanted of [PROFILE, PREFERENCES]) {
    if (!tables.has(wanted.name) && candidates.some((c) => c.table === wanted.name)) {
      ops.push({ op: 'create_table', table: wanted.name, columns: [...wanted.columns], key: [...wanted.key] });
      tables.set(wanted.name, wanted);
    }
  }
  if (candidates.some((c) => c.row.date) && !tables.get('profile')?.columns.includes('date')) {
    ops.push({ op: 'add_column', table: 'profile', column: 'date', default: null });
  }
  ops.push(...extractActionNotes(input));
  for (const [index, candidate] of candidates.entries()) {
    if (restatesEarlier(candidate, candidates.slice(0, index))) continue;
    ops.push({
      op: 'add',
      table: candidate.table,
      row: sameThingAs(candidate, input, candidates.slice(0, index)),
      statement: candidate.statement,
      ...(candidate.correction ? { correction: true } : {}),
      // A plain statement of a new home or plan is no surer than any other statement.
      confidence: candidate.explicit ? 0.85 : 0.7,
      evidence: candidate.evidence,
    });
  }
  return { ops };
}

/**
 * One sentence read twice by two rules as the same thing's value ("I've moved your physio to Thursday at 14:00" as
 * the physio's date, and as the user's physio, "Thursday"): the second would show the same sentence again beside the
 * first. Only the same value counts (equal, or a date and its weekday): "my dentist is Dr Patel and the dentist is
 * booked for Friday 8 May" says two things. A value and the one it replaces (the same subject and attribute) are a
 * pair, not a restatement, and both stay.
 */
function restatesEarlier(candidate: Candidate, earlier: readonly Candidate[]): boolean {
  const { subject, attribute } = candidate.row;
  return earlier.some(
    (e) =>
      e.statement === candidate.statement &&
      e.table === candidate.table &&
      e.evidence.join(' ') === candidate.evidence.join(' ') &&
      !(e.row.subject === subject && e.row.attribute === attribute) &&
      (attribute === e.row.subject || subject === e.row.attribute) &&
      sameValueSaid(e.row.value, candidate.row.value),
  );
}

/** The same value written twice: equal, or a date and the weekday it falls on ("2026-12-03" and "Thursday"). */
function sameValueSaid(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const [date, day] = /^\d{4}-\d{2}-\d{2}$/.test(a) ? [a, b] : [b, a];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const weekday = WEEKDAY_INDEX.indexOf(day.toLowerCase().replace(/s$/, ''));
  return weekday >= 0 && new Date(`${date}T12:00:00Z`).getUTCDay() === weekday;
}

/** An agent's booking said with what is booked: "I've booked / moved / rescheduled the visit …", "your delivery is set for …". */
const BOOKED_BY_ASSISTANT = /\b(?:(?:i've|i have|we've|we have) (?:scheduled|booked|moved|rescheduled|pushed|arranged|set)|your [a-z][a-z -]{1,30}? (?:is|has been) (?:now )?(?:booked|scheduled|set|moved|rescheduled|confirmed) (?:for|to))\b/i;
/** The user's facts an assistant's message states (ASSISTANT_PATTERNS), one per attribute and sentence. */
function toldByAssistant(record: UpdaterInput['records'][number], userKey: string, previous: (subject: string) => string | undefined): Candidate[] {
  const found: Candidate[] = [];
  for (const said of heldSentences(authorOf(record).content)) {
    if (isSmallTalk(said) || isHypothetical(said) || looksLikeInstruction(said)) continue;
    // Typographic apostrophes read as plain ones ("I’ve booked"); the statement keeps the writer's.
    const held = said.replace(/[’‘]/g, "'");
    // "I've moved the visit to Monday, Nov 9", "your installation is scheduled for the 14th": the agent books the day.
    const dated = BOOKED_BY_ASSISTANT.test(held) && !savedNoDay(held) ? datedThing(held, record.timestamp, previous) : undefined;
    if (dated) {
      found.push({ table: 'profile', row: withDate({ subject: dated.subject, attribute: 'date', value: dated.iso }, record.timestamp), statement: trimPhrase(said), correction: /\b(?:moved|rescheduled|pushed|changed)\b/i.test(held), evidence: [record.id] });
    }
    for (const { pattern, build, change } of ASSISTANT_PATTERNS) {
      for (const match of held.matchAll(pattern)) {
        const built = build(match, held);
        // "your balance is not 240, it's 310": the value is after the denial (saidInstead).
        if (!built || /^not\b/i.test(built.row.value ?? '')) continue;
        const row = Object.fromEntries(Object.entries(built.row).map(([k, v]) => [k, v === ME ? userKey : v]));
        // One value of a sentence is read once, by the first pattern that reads it.
        if (found.some((c) => c.statement === trimPhrase(said) && (c.row.attribute === row.attribute || c.row.value === row.value))) continue;
        found.push({ table: built.table, row: withDate(row, record.timestamp), statement: trimPhrase(said), correction: (change ?? false) || CHANGE_SIGNAL.test(held), evidence: [record.id] });
      }
    }
  }
  return found;
}

function datedThing(sentence: string, timestamp: string, previous: (subject: string) => string | undefined, bare = true): { subject: string; iso: string } | undefined {
  for (const pattern of [WRONG_ABOUT, SCHEDULED_THING, DATED_THING, APPOINTMENT, VISIT, STARTS_ON, BOOKED_BARE, HAVE_DATED, ...(bare ? [BARE_DATED] : [])]) {
    const found = pattern.exec(sentence);
    if (!found) continue;
    // An appointment's subject is the thing and whom it is with ("appointment with dr lindqvist"); its day is last.
    // Its time of day is no date, and a weekday before a day of the month only restates it ("fri the 15th 9:40" is the 15th).
    const day = (text: string) => text.replace(/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+(?=(?:the\s+)?\d)/i, '').replace(/\s*(?:at\s+)?(?:\d{1,2}[:.]\d{2}(?:\s*[ap]m)?|\d{1,2}\s*[ap]m)\b|\s+at\s+\d{1,2}\b/gi, '');
    const match =
      pattern === APPOINTMENT
        ? [found[0], `${found[1]!.replace(/\bappt\b/i, 'appointment').replace(/^(?:my |our )/i, '').replace(/^(dad|mum|mom|mother|father|son|daughter|wife|husband|partner|gran|grandma|grandpa|sister|brother)'?s\s/i, "$1's ")}${found[2]!.replace(/^\s+w\s+/i, ' with ')}`, day(found[3]!)]
        : pattern === VISIT
          ? [found[0], `${found[1]!}'s visit`, found[2]!.replace(/\s*(?:-|–|to|till|until)\s*.*$/, '')]
          : pattern === STARTS_ON
            ? [found[0], `${found[1]!.replace(/['’]s$/, '')}'s start date`, found[2]!]
            : found;
    // "but my first dress fitting", "the confirmation email and the fitting": the thing is the last one named.
    const named = match[1]!.replace(/^.*\s(?:and|but|so|then)\s+(?=(?:the|my|our|your|their)\s)/i, '').replace(/^(?:(?:but|and|so|also|oh|well|then|plus)\s+)+/i, '');
    const subject = trimPhrase(named.replace(/^(?:the|an?|your|our|my|their) /i, '').toLowerCase());
    if (!subject || NOT_DATED.test(subject) || subject.split(' ').length > 5) continue;
    // "the warm-up is 6:15, and sectionals are tue 7pm": a time of day is no date (the weekday after it is another thing's).
    if (/^(?:(?:on|for|at)\s+)?(?:\d{1,2}[:.]\d{2}(?:\s?[ap]m)?|\d{1,2}\s?[ap]m)\b\s*(?:$|[,;]|and\b|(?:every|each|daily|sharp)\b)/i.test(match[2]!.trim())) continue;
    // A bare day restating a known date ("it is on the 14th, not the 12th") is in that date's month.
    const known = previous(subject);
    const bareDay = /^\W*(?:on |for )?(?:the )?([0-3]?\d)(?:st|nd|rd|th)\b(?! of)/i.exec(match[2]!);
    if (known && bareDay) {
      const iso = `${known.slice(0, 8)}${String(Number(bareDay[1])).padStart(2, '0')}`;
      if (realDay(iso)) return { subject, iso };
    }
    // "freeze is now mon the 18th", "on fri the 15th at 9:40": the day of the month says which day, as for an appointment.
    const date = resolveDate(pattern === APPOINTMENT ? match[2]! : day(match[2]!.replace(/^(?:(?:on|for|now)\s+)+/i, '')), timestamp, true);
    // "the budget is 40 pounds a head now": "now" says the value is current, not that the thing is dated today.
    if (date && /^(?:right\s+)?now$/i.test(date.text.trim())) continue;
    // "the tasting got pushed to thurs" when it was next tuesday: put off, so the Thursday after it.
    if (date && known && date.iso <= known && /\b(?:pushed|postponed|put off|bumped back|delayed)\b/i.test(sentence) && /^(?:mon|tue|wed|thu|fri|sat|sun)/i.test(date.text.replace(/^(?:on|to|for)\s+/i, ''))) {
      const later = new Date(`${date.iso}T00:00:00Z`);
      while (later.toISOString().slice(0, 10) <= known) later.setUTCDate(later.getUTCDate() + 7);
      return { subject, iso: later.toISOString().slice(0, 10) };
    }
    if (date) return { subject, iso: date.iso };
  }
  return undefined;
}

const MOVED_ME = /\b(?:they|she|he|the (?:clinic|surgery|office|dentist|doctor|vet|garage|school))(?:'ve| have)? (?:moved|rescheduled|pushed|bumped|changed) (?:me|us|it|(?:my|our|the) (?:appt|appointment|booking|slot))(?: back| forward)? to ((?:the |mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|next |[0-3]?\d)[^.;!?,]{0,30})/i;
const IT_DATE = /^(?:it|that)(?:'s|s| is| was| will be)? (?:actually |now )?((?:on |for )?[^.;!?]{1,40})/i;

/**
 * The dated thing a move is of: in this batch (latest first), then in the store; the one the news names, else one of
 * one's own appointments when it moved "me", else the latest.
 */
/** The subjects of dated things, the batch's newest first, then the store's. */
function datedSubjects(input: UpdaterInput, candidates: readonly Candidate[]): string[] {
  return [
    ...[...candidates].reverse().flatMap((c) => (c.row.attribute === 'date' && c.row.subject ? [c.row.subject] : [])),
    ...input.existing.flatMap((item) => {
      const row = item.row as Record<string, string | null> | undefined;
      return row?.attribute === 'date' && row.subject ? [row.subject] : [];
    }),
  ];
}

function lastDatedThing(input: UpdaterInput, candidates: readonly Candidate[], sentence = ''): string | undefined {
  const subjects = datedSubjects(input, candidates);
  // "dentist office called… they bumped me to March 26".
  const said = new Set(sentence.toLowerCase().match(/\p{L}+/gu) ?? []);
  const named = subjects.find((subject) => subject.split(/\W+/).some((word) => word.length >= 4 && said.has(word)));
  const mine = /\b(?:me|us|my|our)\b/i.test(sentence) ? subjects.find((subject) => APPOINTMENT_WORD.test(subject)) : undefined;
  return named ?? mine ?? subjects[0];
}
/** The dated thing a sentence names by a word of its subject, if exactly one ("the exam office moved ECN2041"). */
function namedDatedThing(input: UpdaterInput, candidates: readonly Candidate[], sentence: string): string | undefined {
  const said = new Set(sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const subjects = new Set(datedSubjects(input, candidates));
  const named = [...subjects].filter((subject) => subject.toLowerCase().split(/[^\p{L}\p{N}]+/u).some((word) => word.length >= 4 && said.has(word)));
  return named.length === 1 ? named[0] : undefined;
}
const APPOINTMENT_WORD = /\b(?:dentist|dental|doctor|gp|vet|physio|appt|appointment|check-?up|scan|consultation|interview|clinic|surgery|hair|eye|therapist|therapy|dr)\b/i;

/** "it's 5083 now", "mine's 8032 now": a code said again with its value alone. */
/** A password said changed ("ive changed the pw", "new wifi password"), then its value alone: "its now kettle9981". */
const PASSWORD_CHANGED = /\b(?:changed|reset|updated|new)\b[^.;!?]{0,30}\b(?:pw|password|passcode)\b/i;
const PASSWORD_AGAIN = /\b(?:it's|it’s|its|it is)\s+now\s+((?=[\w-]*\d)(?=[\w-]*[a-z])[a-z][\w-]{5,})\b/i;
const CODE_AGAIN = /\b(?:it's|it’s|its|it is|mine's|mine’s|mine is|the new one is|new one's|new one’s)\s+(?!(?:19|20)\d\d\b)(\d{3,8})\b(?!\s*(?:am|pm|%|kg|km|mi|min|mins|minutes|hours|days|dollars|euros|pounds|people|[.:,]\d))/i;
const CODE_ATTRIBUTE = /\b(?:code|combination|PIN|passcode)$/;

/** The code spoken of last: in this batch, else the last stored one the updater was given. */
function lastCodeOf(input: UpdaterInput, candidates: readonly Candidate[]): Candidate | undefined {
  const inBatch = [...candidates].reverse().find((c) => c.table === 'profile' && CODE_ATTRIBUTE.test(c.row.attribute ?? ''));
  if (inBatch) return inBatch;
  const stored = [...input.existing].reverse().find((item) => CODE_ATTRIBUTE.test(((item.row as Record<string, string | null> | undefined)?.attribute ?? '') as string));
  const row = stored?.row as Record<string, string | null> | undefined;
  return row ? { table: 'profile', row: { subject: row.subject ?? ME, attribute: row.attribute ?? '', value: row.value ?? null }, statement: '', correction: false, evidence: [] } : undefined;
}

/** The date already known for a thing: from earlier in the batch, else from the store. */
function previousDate(input: UpdaterInput, candidates: readonly Candidate[], subject: string): string | undefined {
  const inBatch = [...candidates].reverse().find((c) => c.row.subject === subject && c.row.attribute === 'date');
  if (inBatch?.row.value) return inBatch.row.value;
  const stored = input.existing.find((item) => {
    const row = item.row as Record<string, string | null> | undefined;
    return row?.subject === subject && row.attribute === 'date';
  });
  const value = (stored?.row as Record<string, string | null> | undefined)?.value;
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

const LINE_CHANGE_CUE = /\b(?:changed|new number|new one|now|actually|no longer|doesn['’]?t work|does not work|stopped working|stops working|switched|moved)\b/i;
const PHONE_NUMBER = /\+?[\d(][\d ().-]{5,}\d/g;

/**
 * "also fyi the escalation line changed … new number is +44 20 7946 0877", "the maintenance number the agent gave me
 * doesn't work, they've now said it's actually 07700 900871": a record that names a line or number held already,
 * with a word of change and another number, gives that line its new number (whoever said the first).
 */
function lineChanged(content: string, record: UpdaterInput['records'][number], input: UpdaterInput, candidates: readonly Candidate[]): Candidate | undefined {
  const text = content.slice(0, 2_000);
  if (!LINE_CHANGE_CUE.test(text)) return undefined;
  // One's own number ("call me on …", "my mobile is …") is no line's.
  const phones = [...text.matchAll(PHONE_NUMBER)]
    .filter((m) => !/\b(?:(?:call|text|ring|reach|phone) me (?:on|at)|my (?:[a-z]+ )?(?:number|mobile|phone|cell)(?: is| now| is now|['’]s| changed to)*)\s*$/i.test(text.slice(Math.max(0, (m.index ?? 0) - 30), m.index)))
    .map((m) => m[0].trim())
    .filter((phone) => phone.replace(/\D/g, '').length >= 7);
  if (phones.length === 0) return undefined;
  const rows = [...candidates.filter((c) => !c.evidence.includes(record.id)).map((c) => c.row), ...input.existing.map((item) => item.row as Record<string, string | null> | undefined)];
  const lines = new Map<string, Record<string, string | null>>();
  for (const row of rows) {
    const attribute = row?.attribute ?? '';
    const thing = / (?:line|number)$/.exec(attribute) ? attribute.replace(/ (?:line|number)$/, '') : '';
    const named = escapeRegExp(thing);
    // Named as a line or number ("the out of hours line changed", "the number for repairs"), not a word said in passing.
    if (!row || !thing || !row.value || !new RegExp(`\\b${named} (?:phone )?(?:line|number)\\b|\\b(?:line|number) for (?:the )?${named}\\b`, 'i').test(text)) continue;
    lines.set(`${row.subject}\u0000${attribute}`, row);
  }
  if (lines.size !== 1) return undefined;
  const [held] = [...lines.values()];
  const now = phones.filter((phone) => phone.replace(/\D/g, '') !== held!.value!.replace(/\D/g, '')).at(-1);
  if (!now) return undefined;
  return { table: 'profile', row: { ...held!, value: now }, statement: `${held!.attribute}: ${now} (${trimPhrase(text.slice(0, 200))})`, correction: true, explicit: true, evidence: [record.id] };
}

/** Whether a row of the same subject with this attribute, or one ending in the other's words, is held already. */
function heldAlike(input: UpdaterInput, candidates: readonly Candidate[], row: Candidate['row']): boolean {
  const attribute = row.attribute ?? '';
  const rows = [...candidates.map((c) => c.row), ...input.existing.map((item) => item.row as Record<string, unknown> | undefined)];
  return rows.some((held) => held?.subject === row.subject && typeof held?.attribute === 'string' && (held.attribute.toLowerCase() === attribute.toLowerCase() || namesAlike(held.attribute, attribute)));
}

/** Whether one name is the other with words before it ("personal tutor" and "tutor"), either way round. */
function namesAlike(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return (x.length > y.length && x.endsWith(` ${y}`)) || (y.length > x.length && y.endsWith(` ${x}`));
}

/** Attributes too general to stand for a longer one ("date" is not "start date"). */
const GENERAL_ATTRIBUTE = /^(?:date|name|value|number|time|day|place|home|plan|code|phone|email|address)$/i;

/**
 * "my personal tutor is Dr Okafor", later "my tutor is now Dr Hensley": a change said of a thing under a
 * shorter or longer name is a new value for the row already held, when exactly one row of the same subject
 * has an attribute ending in the other's words. Only for changes; a plain statement may be a second thing.
 */
function sameThingAs(candidate: Candidate, input: UpdaterInput, earlier: readonly Candidate[]): Candidate['row'] {
  const { subject, attribute } = candidate.row;
  if (!candidate.correction || candidate.table !== 'profile' || !subject || !attribute) return candidate.row;
  const rows = [
    ...earlier.filter((c) => c.table === 'profile').map((c) => c.row),
    ...input.existing.filter((item) => item.table === 'profile').map((item) => item.row as Record<string, string | null> | undefined),
  ].filter((row): row is Record<string, string | null> => typeof row?.subject === 'string' && typeof row.attribute === 'string');
  // A dated thing is named by its subject: "the fitting is 21 May, not the 14th" moves "first dress fitting".
  if (attribute === 'date' || attribute === 'time') {
    const dated = rows.filter((row) => row.attribute === attribute);
    if (dated.some((row) => row.subject === subject)) return candidate.row;
    const things = [...new Set(dated.map((row) => row.subject!).filter((other) => namesAlike(other, subject)))];
    return things.length === 1 ? { ...candidate.row, subject: things[0]! } : candidate.row;
  }
  if (GENERAL_ATTRIBUTE.test(attribute)) return candidate.row;
  const held = rows.filter((row) => row.subject === subject);
  if (held.some((row) => row.attribute === attribute)) return candidate.row;
  const names = [...new Set(held.map((row) => row.attribute!).filter((other) => !GENERAL_ATTRIBUTE.test(other) && namesAlike(other, attribute)))];
  return names.length === 1 ? { ...candidate.row, attribute: names[0]! } : candidate.row;
}

function withDate(row: Record<string, string | null>, timestamp: string): Record<string, string | null> {
  if (row.attribute === undefined || !DATE_ATTRIBUTES.test(row.attribute ?? '')) return row;
  const date = resolveDate(row.value ?? '', timestamp);
  return date ? { ...row, date: date.iso } : row;
}

/**
 * Within one batch, a correction replaces the remark it corrects. The remark
 * is still added first (its value held, if only for a moment), so the patch
 * supersedes it and every line that states it is marked with the correction
 * (domain/supersession.ts); a remark from the same record is dropped.
 */
function supersedeWithinBatch(candidates: Candidate[], next: Candidate): void {
  if (!next.correction) return;
  const key = (c: Candidate) => `${c.table}\u0000${c.row.subject}\u0000${c.row.attribute ?? c.row.preference}`;
  for (let i = candidates.length - 1; i >= 0; i -= 1) {
    const earlier = candidates[i]!;
    if (key(earlier) !== key(next)) continue;
    if (earlier.evidence.some((id) => next.evidence.includes(id)) || earlier.row.value === next.row.value) {
      next.evidence.unshift(...earlier.evidence.filter((id) => !next.evidence.includes(id)));
      candidates.splice(i, 1);
    }
  }
}

/** Where one clause of a sentence ends and the next begins: a semicolon, or "and"/"but" before a new subject. */
const CLAUSE_BOUNDARY = /\s*(?:;\s*|,?\s+(?:and|but|while|whereas|so)\s+(?=(?:i|we|my|our|she|he|they|his|her|their|its)\b))/giu;

/**
 * The clause of `sentence` that holds the value read at `at` ("I moved to
 * Lisbon and I work at Acme now" → "I work at Acme now"), when it names the
 * value and is more than a word or two; otherwise nothing (the whole sentence
 * stands).
 */
function clauseAt(sentence: string, at: number | undefined, row: Candidate['row']): string | undefined {
  if (at === undefined) return undefined;
  let start = 0;
  let clause: string | undefined;
  for (const boundary of sentence.matchAll(CLAUSE_BOUNDARY)) {
    const end = boundary.index!;
    if (end > at) {
      clause = sentence.slice(start, end);
      break;
    }
    start = end + boundary[0].length;
  }
  clause ??= sentence.slice(start);
  const value = (row.value ?? row.preference ?? '').toLowerCase();
  if (!value || !clause.toLowerCase().includes(value) || clause.trim().split(/\s+/).length < 3 || clause.length === sentence.length) return undefined;
  return clause;
}
