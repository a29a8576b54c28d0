/**
 * Local contact extraction: people, their organisation and role (and changes
 * to them), relationships to the user, preferences and channels; then a
 * biography (stable) and a running summary (recent) for every contact the
 * batch mentions, within a token budget.
 */
import type { ContactOp } from '../../../domain/memory.js';
import type { UpdaterInput } from '../../../ports/model.js';
import nlp from 'compromise';
import { DEEP_SENTENCES_PER_RECORD, namedWithReach, OTHERS_RELATION_PATTERN, RELATION_PATTERN, RELATION_REVERSE_PATTERN, relationType, authorOf, capitalise, casedInside, cleanName, commonWord, countTokens, englishWordNotName, heldSentences, isHypothetical, isSmallTalk, holdsWords, personNames, restoreDots, trimPhrase, UNNAMED_RELATION, usualPronoun } from './text.js';
import { looksLikeInstruction } from '../../../domain/instructions.js';
import { escapeRegExp } from '../../../commons/regexp.js';

const SUMMARY_TOKENS = 120;
/** An organisation: capitalised words, with "of", "&", "and" between them ("University of Glasgow", "Fontaine & Fils"). Bounded, so linear. */
const ORG = `\\p{Lu}[\\p{L}\\p{N}&'’\\u2024-]*(?: (?:of |& |and |de )?\\p{Lu}[\\p{L}\\p{N}&'’\\u2024-]*){0,5}`;
const NAME = `(?:(?:Dr|Mr|Mrs|Ms|Prof)\\u2024? )?\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+){0,2}`;
const WHO = `(${NAME}|[Ss]he|[Hh]e|[Tt]hey|I|i(?= |['’](?:m|ve|d|ll)\\b)|and)`;
/** A time of the year or the week, never an organisation ("the middle of August", "for Easter"). */
const WHEN_WORD = /^(?:(?:jan|febr)uary|march|april|may|june|july|august|(?:sept|nov|dec)ember|october|(?:mon|tues|wednes|thurs|fri|satur|sun)day|spring|summer|autumn|winter|christmas|easter|halloween|(?:new )?year|the weekend|weekend)$/i;

/** A role: lower-case words or acronyms ("head of purchasing", "IT manager", "CFO"). */
const ROLE_STOP = '(?:last|this|these|next|yesterday|today|tomorrow|now|there|since|until|on|in|from|starting|and|but|so|at|for|with|after|before|when|because|which|who|is|are|was|were|be|been|has|have|had)';
const ROLE = `((?!(?:she|he|they|i|we|it|who|and|but|so|then|there|in|on|at|from|with|for|since|until|after|before|off|out|back|home|away|because|got|gets|has|had|have|is|was|were|are|be|been|do|does|did|go|goes|went|get|just|also|still|really|not|never|always|of|to|ready)\\b)(?:[a-z]+|[A-Z]{2,5})(?: (?!${ROLE_STOP}\\b)(?:[a-z]+|[A-Z]{2,5})){0,4})`;
const ARTICLES = `(?:(?:the|a|an|their|our|his|her|its|new) ){0,2}`;
/** Words that make a place someone is at their employer. */
const EMPLOYED = /\b(?:job|position|post|works?|working|worked|employed|hired|shifts?)\b/i;
const WHEN = `(?: (?:last|this|next) (?:week|month|year)| yesterday| recently| today| these days| now| on \\p{Lu}[a-z]+day)?`;
const AS_ROLE = `(?:,? as ${ARTICLES}${ROLE})?`;
/** Where within an employer a role is held, said after it and not part of it ("ward manager on the cardiac ward"). */
const ROLE_PLACE = `(?: (?:on|in|for) (?:the )?(?:[a-z'’]+ ){0,2}(?:ward|team|department|desk|unit|floor|section|site|shift|project|account)s?)?`;
/** Nouns that make a bare phrase a job title ("promoted to purchasing director"), so "she is now happy" is not one. */
const JOB_WORDS = 'pharmacist|plumber|electrician|paramedic|dentist|surgeon|pilot|carpenter|mechanic|barista|librarian|therapist|midwife|paralegal|journalist|photographer|translator|officer|manager|director|head|lead|leader|engineer|designer|developer|scientist|analyst|nurse|doctor|teacher|chef|founder|ceo|cfo|coo|cto|cio|president|vp|partner|consultant|researcher|assistant|accountant|lawyer|architect|editor|writer|owner|specialist|coordinator|administrator|secretary|agent|representative|buyer|recruiter|professor|lecturer|controller|strategist|producer|technician|supervisor|chair|principal|captain|chief|auditor|cashier|clerk|tutor|coach|trainer|instructor|cook|baker|butcher|farmer|driver|courier|cleaner|receptionist|banker|broker|realtor|economist|actuary|physiotherapist|physio|vet|veterinarian|optician|programmer|intern|apprentice|surveyor|inspector|sergeant|detective|firefighter|musician|artist|actor|dancer|professional|adjuster|underwriter|installer|dispatcher|advisor|adviser|caseworker|handler|rep|planner|associate|aide|carer|caregiver|nanny|babysitter|childminder|dogwalker|walker|housekeeper|gardener|landlord|landlady|pt|admin|contact|fitter|assessor|valuer|loss adjuster|concierge|steward|host';
const JOB_NOUN = new RegExp(`\\b(?:${JOB_WORDS})s?\\b`, 'i');

interface RoleRule {
  readonly pattern: RegExp;
  /** Capture group numbers: who, organisation, role (0 when the rule has none). */
  readonly who: number;
  readonly org: number;
  readonly role: number;
  /** The role must read as a job title (rules without an organisation to anchor them). */
  readonly jobNoun?: boolean;
  /** The role is a department someone runs ("runs purchasing"). */
  readonly department?: boolean;
  /** The organisation is one they left. */
  readonly leaves?: boolean;
  /** The organisation is one they were at once: said of them, not their employer. */
  readonly former?: boolean;
  /** The role is a trade's work, named for who does it ("plumbing": plumber). */
  readonly trade?: boolean;
  /** Read in a question or a supposition too: a job said in apposition to a name is so either way. */
  readonly always?: boolean;
  /** The role is kept only when it reads as a job title; the rest of the match stands either way. */
  readonly roleIfJob?: boolean;
  /** Who must read as a name, not a capitalised English word ("Medals from Podium Awards" is no one from there). */
  readonly named?: boolean;
}

/** Work said as what is done, and who does it. */
const TRADES: Readonly<Record<string, string>> = {
  plumbing: 'plumber', nursing: 'nurse', teaching: 'teacher', accounting: 'accountant', accountancy: 'accountant', gardening: 'gardener', farming: 'farmer',
  cleaning: 'cleaner', tutoring: 'tutor', coaching: 'coach', catering: 'caterer', hairdressing: 'hairdresser', photography: 'photographer', carpentry: 'carpenter',
  bookkeeping: 'bookkeeper', roofing: 'roofer', plastering: 'plasterer', decorating: 'decorator', translation: 'translator', nannying: 'nanny', dentistry: 'dentist',
};

/**
 * A name said after these is a place ("since first year at Leeds, a paramedic at St James's", "moved to Nottingham, a
 * nurse at Southmead now"): no apposition gives it a job.
 */
const NOT_AFTER_PLACE_WORD = '(?<!\\b(?:[Aa]t|[Ii]n|[Nn]ear|[Ii]nto|[Oo]utside|[Aa]round|[Aa]cross|(?:moved|moving|moves|relocated|relocating|went|gone|going|flew|flying|drove|driving|headed|heading) to) )';

const ROLE_RULES: readonly RoleRule[] = [
  // "José Álvarez, the head of purchasing at Ferrotek", "Oluwaseun here, operations director at Adeyemi Logistics"
  { pattern: new RegExp(`${NOT_AFTER_PLACE_WORD}\\b(${NAME})(?: here)?, ${ARTICLES}${ROLE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "Lena relocated to Berlin, a backend engineer at Zalando now": the job after the place goes to who moved, not the place.
  { pattern: new RegExp(`\\b${WHO} (?:has |had |just |recently |finally )*(?:moved|relocated)(?: back)? to (?:the )?\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?(?: (?:last|this) (?:week|month|year|spring|summer|autumn|fall|winter)| in \\p{Lu}[a-z]+)?,? ${ARTICLES}${ROLE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3, jobNoun: true },
  // "she works nights as a paramedic", "works at boots as a pharmacist": the role, wherever (or whoever) the employer is
  { pattern: new RegExp(`\\b${WHO} (?:now )?(?:works?|worked|has worked|have worked|has been working) (?:(?:(?!\\bas\\b)[^.,;!?]){1,30} )?as ${ARTICLES}${ROLE}(?=[.,;!?]|$| (?:now|there|these days|in|for|since|and|but|so)\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  // "now works as a data analyst at the Ministry of Health"
  { pattern: new RegExp(`\\b${WHO} (?:now )?(?:works?|worked|has worked|has been working|is working) as ${ARTICLES}${ROLE} (?:at|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "Mark O'Neill (procurement lead, Brightwell Inc.)", "Priti (head of sales at Greenway)"
  { pattern: new RegExp(`\\b(${NAME}) \\(${ROLE}, (${ORG})\\)`, 'gu'), who: 1, role: 2, org: 3 },
  { pattern: new RegExp(`\\b(${NAME}) \\((?:the |their )?${ROLE} (?:at|of|for) (?:the )?(${ORG})\\)`, 'gu'), who: 1, role: 2, org: 3 },
  // "Hannah (their account manager) promised keys", "Ravi, our new tech lead, starts Monday": a job title in apposition.
  { pattern: new RegExp(`\\b(${NAME}) \\(${ARTICLES}${ROLE}\\)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  { pattern: new RegExp(`${NOT_AFTER_PLACE_WORD}\\b(${NAME}), (?:the|their|our|my|his|her|a|an) (?:new )?${ROLE}(?=,|[.;!]|$)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  // "she is the CFO at Brightwell", "I'm a nurse at St. Mary's Hospital", "is now COO at Koru Labs"
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are| was| has been| became)(?: now| also| currently| still)? ${ARTICLES}${ROLE}${ROLE_PLACE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "i've been the ops coordinator at Halvorsen Freight for four years" (a job title: "I've been a guest at the Hilton" is none)
  { pattern: new RegExp(`\\b${WHO}(?:['’]ve been| have been) ${ARTICLES}${ROLE} (?:at|of|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3, jobNoun: true },
  // "works at Ferrotek as a buyer", "she works for Koru Labs, COO"
  { pattern: new RegExp(`\\b${WHO} (?:now )?(?:works?|is working|am working|cooks|teaches) (?:at|for|with) (?:the )?(${ORG})(?:${WHEN})(?:,? as ${ARTICLES}${ROLE}|, ${ARTICLES}${ROLE}(?=[.!;]|$))?`, 'gu'), who: 1, org: 2, role: 3 },
  // "joined Koru Labs as COO", "moved to Orbital", "starts at Halden Group next week as their new head of sourcing"
  {
    pattern: new RegExp(`\\b${WHO}(?: |(?=['’]))(?:(?:has |had |just )?(?:left|quit) (?:the )?${ORG},? (?:and |to )?)?(?:has |had |have |just |recently |finally |also |officially )*(?:joined|moved to|switched to|went to|starts at|started at|is starting at|(?:'m |am |will )?start(?:ing)? at|(?:got|started|landed|took|accepted|has|have|found) (?:a |an |the )?(?:new )?(?:job|position|role|post) (?:at|with)|is now at|is at|'m at|am at|'m now at|am now at|'s at|is with|(?:['’]s|has|have|['’]ve) been (?:at|with)|'m joining|am joining|is joining|started working at|went to work at|opened|founded|started(?<!(?:just|have|has|had|['’]ve) started)|runs) (?:the )?(${ORG})${WHEN}${AS_ROLE}`, 'gu'),
    who: 1,
    org: 2,
    role: 3,
  },
  // "I'm taking the Brightwater Labs offer!!! senior operations analyst": an offer taken is the job.
  // Chat drops the subject ("ok decided, taking the … offer"): then it is the author's.
  { pattern: new RegExp(`(?:\\b${WHO}(?:'m| am| is|['’]ve| have| has)? |(?:^|[,;:!]\\s+))(?:[Tt]aking|[Tt]ook|[Tt]aken|[Aa]ccepting|[Aa]ccepted) (?:the|their) (${ORG}) (?:offer|job)\\b(?:[!.,:;]+ ?${ARTICLES}${ROLE}(?=[.,;!]|$))?`, 'gu'), who: 1, org: 2, role: 3, roleIfJob: true },
  // "has taken a job as head of sourcing with Halden Group"
  { pattern: new RegExp(`\\b${WHO} (?:has )?(?:taken|took|accepted|got|landed) ${ARTICLES}(?:job|position|role|post) as ${ARTICLES}${ROLE} (?:at|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // Chat drops the subject: "Started at Bristol Royal Infirmary on Monday!" is the author's news.
  { pattern: new RegExp(`^(?:(?:[Jj]ust|[Ff]inally|[Oo]fficially) )?(?:[Ss]tarted (?:at|with)|[Jj]oined|[Ss]tarted working at) (?:the )?(${ORG})${WHEN}${AS_ROLE}`, 'gu'), who: 0, org: 1, role: 2 },
  // "starting at Northwind Health in denver on dec 1, senior product analyst": news of one's own job, said ahead.
  { pattern: new RegExp(`(?:^|[,;:!]\\s+)(?:(?:[Ii]'m|[Ii]m|[Aa]nd|[Ss]o) )?(?:[Ss]tarting|[Ss]tart) (?:at|with) (?:the )?(${ORG})(?:[^,.;!?]{0,40}?)(?:,? as |, )${ARTICLES}${ROLE}(?=[.!;,]|$| (?:now|there|in|from|on|starting)\\b)`, 'gu'), who: 0, org: 1, role: 2, jobNoun: true },
  // "I got the nurse job at St. Mary's Hospital"
  { pattern: new RegExp(`\\b${WHO} (?:got|landed|accepted|took|was offered) (?:the|a|an) (?:new )?${ROLE} (?:job|position|role|post) (?:at|with) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3 },
  // "opened his own place, Osteria Luca"
  { pattern: new RegExp(`\\b${WHO} (?:has )?(?:opened|started|founded|launched) (?:his|her|their|my) own (?:place|business|company|restaurant|shop|studio|firm)?,? (${ORG})`, 'gu'), who: 1, org: 2, role: 0 },
  // "dr anand at clifton physio": a doctor at a practice works there.
  { pattern: new RegExp(`\\b((?:Dr|Doctor)\\u2024? \\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?) (?:at|from) (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0 },
  // "Priya Nair from the claims team", "Sam on our billing desk": the team someone works in, said in lower case.
  { pattern: new RegExp(`\\b(${NAME}) (?:from|on|in|with) (?:the|our|your) ((?:[a-z]+ ){1,2}(?:team|department|desk|office))\\b`, 'gu'), who: 1, role: 2, org: 0, department: true },
  // "I met José Álvarez from Ferrotek", "spoke with Søren from Kestrel Bank"
  { pattern: new RegExp(`\\b(${NAME}) from (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0, named: true },
  // "promoted to purchasing director", "was made COO", "has been named head of sourcing at X"
  { pattern: new RegExp(`\\b${WHO} (?:got |was |has been |'s been |have been |was just |has just been )?(?:promoted to|made|named|appointed|elected) ${ARTICLES}${ROLE}(?: (?:at|of) (?:the )?(${ORG}))?`, 'gu'), who: 1, role: 2, org: 3, jobNoun: true },
  // "Our engineer, Tomasz, will call you", "your account manager Hannah Reyes": a job said before the name.
  { pattern: new RegExp(`\\b(?:[Oo]ur|[Yy]our|[Tt]heir|[Mm]y) ((?:[a-z]+ ){0,2}(?:${JOB_WORDS})),? (${NAME})(?=,| will\\b| is\\b| who\\b| can\\b| has\\b|[.;!?]|$)`, 'gu'), who: 2, role: 1, org: 0, jobNoun: true, always: true },
  // "his new aide is called rosa", "our cleaner's called Marta": a job named first, then what the person is called.
  { pattern: new RegExp(`\\b(?:[Mm]y|[Hh]is|[Hh]er|[Oo]ur|[Tt]heir|[Tt]he) (?:new )?((?:[a-z]+ )?(?:${JOB_WORDS}))(?:'s| is) (?:called|named) (${NAME})`, 'gu'), who: 2, role: 1, org: 0, jobNoun: true },
  // "my colleague Ewa Zielińska is our new workspace admin": a role said as what someone is to us.
  { pattern: new RegExp(`\\b${WHO}(?:'s| is| will be) (?:now )?(?:our|their|the|his|her|your) (?:new )?${ROLE}(?=[.,;!?]|$| (?:now|from|starting)\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  // "trainer is Kofi", "the landlord there is Greg Hale": a job named first, then who holds it.
  { pattern: new RegExp(`(?:^|[,;:]\\s*|\\b(?:[Tt]he|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er|[Yy]our) )((?:[a-z]+ ){0,2}(?:${JOB_WORDS}))(?: there)? (?:is|was|will be|'s gonna be|is going to be) (${NAME})(?=[.,;!?]|$| (?:and|but|so|who)\\b)`, 'gu'), who: 2, role: 1, org: 0, jobNoun: true },
  // "my neighbour Marcus is a plumber", "she's a nurse, useful": a job title said plainly
  { pattern: new RegExp(`\\b${WHO}(?:'s| is| was| has been|'s been) (?:a|an) ${ROLE}(?=[.,;!?]|$| (?:by trade|for a living|these days|for|since|in|at|and|but|so)\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  // "marcus next door does plumbing for a living": a trade named by what they do
  { pattern: new RegExp(`\\b${WHO}(?: next door| down the road| upstairs| downstairs)? (?:does|do|did) (${Object.keys(TRADES).join('|')}) for (?:a living|work)\\b`, 'gu'), who: 1, role: 2, org: 0, trade: true },
  // "I'm now chief operating officer", "José is purchasing director now", "he is a chef there"
  // "She's the ward manager on the cardiac ward now": where the role is held may come between.
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are) now ${ARTICLES}${ROLE}${ROLE_PLACE}(?=[.,;!]|$| so\\b)`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  { pattern: new RegExp(`\\b${WHO}(?:'s|'m| is| am| are) ${ARTICLES}${ROLE}${ROLE_PLACE} (?:now|there|over there)\\b`, 'gu'), who: 1, role: 2, org: 0, jobNoun: true },
  { pattern: new RegExp(`\\b[Mm]y title (?:changed|is now)[,:;]? (?:I am|I'm|i am|i'm) (?:now )?${ARTICLES}${ROLE}`, 'gu'), who: 0, role: 1, org: 0 },
  // "Priya is no longer at Brightwell", "Mark left Brightwell": who the next pronoun is, and an organisation they are not at any more.
  { pattern: new RegExp(`\\b${WHO}(?: is no longer (?:at|with)| (?:has |had |just )?(?:left|quit)) (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0, leaves: true },
  // "turns out Dev used to work at Brightwell too": where someone was, said of them, never their employer now.
  { pattern: new RegExp(`\\b${WHO} (?:used to work|previously worked|formerly worked|once worked) (?:at|for|with) (?:the )?(${ORG})`, 'gu'), who: 1, org: 2, role: 0, former: true },
  // "I look after IT for Nowak Studio"
  { pattern: new RegExp(`\\b${WHO} (?:look|looks) after ([A-Z]{2,5}|[a-z]+(?: [a-z]+)?) (?:for|at) (?:the )?(${ORG})`, 'gu'), who: 1, role: 2, org: 3, department: true },
  { pattern: new RegExp(`\\(I am ${ARTICLES}${ROLE}\\)`, 'gu'), who: 0, role: 1, org: 0 },
  // "he runs purchasing there", "who leads the data team", "is in charge of logistics over there"
  { pattern: new RegExp(`\\b${WHO} (?:runs|leads|heads|manages|heads up|is in charge of|looks after) (?!(?:your|my|his|her|their|our|its|this|that|everything|things|it)\\b)((?:the )?[a-z][a-z]+(?: [a-z]+){0,2}?)(?= there| over there| at | for |[.,;!]|$)`, 'gu'), who: 1, role: 2, org: 0, department: true },
  { pattern: new RegExp(`\\b(${NAME}), who (?:runs|leads|heads|manages) (?!(?:your|my|his|her|their|our|its|this|that|everything|things|it)\\b)((?:the )?[a-z][a-z]+(?: [a-z]+){0,2}?)(?=[.,;!]|$)`, 'gu'), who: 1, role: 2, org: 0, department: true },
];
/** Who one finds to serve them: "found a dentist!! Dr Amy Cho", "got a new physio, Sam Reyes", "registered with a GP: Dr Osei". */
const FOUND_PROVIDER = new RegExp(
  `\\b(?:[Ff]ound|[Gg]ot|[Bb]ooked (?:in )?with|[Ss]witched to|[Rr]egistered with|[Ss]igned up with) (?:a|an|my) (?:new |great |good |lovely )?(dentist|doctor|GP|gp|physio|physiotherapist|therapist|vet|accountant|lawyer|solicitor|hairdresser|barber|babysitter|nanny|tutor|trainer|cleaner|optician|osteopath)\\b[ \\t]*[!.,:;—–-]*[ \\t]*(?:(?:it's|its|she's|he's|called|named)[ \\t]+)?(${NAME})`,
  'gu',
);
/** "my physio says no hills. her name is Anke Vos": someone who serves the author, named in the next sentence. */
const NAMED_NEXT = new RegExp(`\\b(?:[Mm]y|[Oo]ur) (?:new )?((?:${JOB_WORDS}))\\b[^.!?]{0,60}[.!?]+\\s+(?:[Hh]er|[Hh]is|[Tt]heir) name(?:'s| is) (${NAME})`, 'gu');
const NEXT_DOOR = new RegExp(`\\b(${NAME}) (?:from |who lives )?next door\\b`, 'gu');
const PET_WORDS = 'puppy|pup|dog|cat|kitten|kitty|rabbit|bunny|hamster|parrot|budgie|tortoise|horse|pony|ferret|guinea pig|beagle|labrador|spaniel|terrier|collie|greyhound|lurcher';
/** A pet's name: "my cat Pickles", "our new puppy, Biscuit", "a beagle mix … her name is biscuit" (within the sentence). */
const PET_NAME = new RegExp(`\\b(?:my|our|his|her|their|the|a|new|rescue) (?:(?:new|little|old|rescue) )*(?:${PET_WORDS})(?: mix)?,? (\\p{Lu}[\\p{L}'-]+)|\\b(?:${PET_WORDS})\\b[^.!?]{0,80}?\\b(?:her|his|its|their) name(?:'s| is) (\\p{L}[\\p{L}'-]+)`, 'giu');
/** Where one orders or buys from is a shop, not a person ("order a bag from Petco"). */
const SHOP = /\b(?:[Oo]rder|[Oo]rdered|[Bb]uy|[Bb]ought|[Pp]urchase|[Pp]urchased)\b[^.!?;]{0,40}? (?:from|at) (\p{Lu}[\p{L}'&-]+)/gu;
/** A name one books a table at or eats at is a place. */
/** "book nonna rosas for 2 at 6", "booked Dishoom for four": a name one books for a number of people is a place. */
const BOOKED_FOR = /\b(?:book|booked|booking|reserve|reserved)\s+(\p{Lu}[\p{L}'’]+(?: \p{Lu}[\p{L}'’]+)?)(?:['’]?s)?\s+for\s+(?:\d+|two|three|four|five|six|seven|eight)\b/gu;
const VENUE = /\b(?:(?:a |the )?table|booking|reservation|dinner|lunch|brunch|breakfast|drinks|coffee|a meal) (?:at|for [a-z0-9 ]{1,12} at) (\p{Lu}[\p{L}'’]+(?: \p{Lu}[\p{L}'’]+)?)/gu;
/** A street's last word, read as a street wherever it stands ("Willow Crescent"); "Lane" or "Court" only after a house number. */
const STREET_END = /(?:^|\s)(?:Street|St|Road|Rd|Avenue|Ave|Crescent|Drive|Boulevard|Blvd|Terrace|Parkway|Highway|Hwy|Mews)\.?$/u;
/** An address is no one: "28 Willow Crescent, Apt 4B", "12b Harrow Lane". */
function isStreet(name: string, sentence: string): boolean {
  if (STREET_END.test(name)) return true;
  const at = sentence.indexOf(name);
  return at > 0 && /\b\d{1,5}[A-Za-z]?,? $/.test(sentence.slice(Math.max(0, at - 8), at));
}
/** Nouns a name before them qualifies: a place ("Ashton Court car park") or a thing ("the Allen key"). */
const QUALIFIED_NOUN = /^(?:car ?park|park|station|stop|centre|center|hall|pavilion|stadium|library|market|church|school|campus|hospital|clinic|gym|pool|cafe|café|pub|bar|restaurant|branch|store|shop|office|building|estate|road|lane|bridge|key|wrench|screwdriver|drive|cable|charger|adapter|card|account|app|sauce|oven)\b/i;
/**
 * A name is a thing's or a place's when a noun of that kind follows it ("meeting at ashton court car park", "with the
 * Allen key"), or, for one word, when an article comes before it and any lower-case noun after it ("the Allen key").
 */
function namesAThing(name: string, sentence: string): boolean {
  const flat = sentence.replace(/\u2024/g, '.');
  const at = flat.indexOf(name);
  if (at < 0) return false;
  const after = flat.slice(at + name.length).replace(/^['’]s\b/, '').trimStart();
  if (QUALIFIED_NOUN.test(after)) return true;
  return !name.includes(' ') && /\b(?:the|a|an)\s+$/i.test(flat.slice(Math.max(0, at - 5), at)) && /^\p{Ll}{3,}\b/u.test(after) && !/^(?:and|or|but|is|was|has|said|says|who|from|at|in|on|to|for|with)\b/.test(after);
}
/** An agent's "Ms Moreau" for the customer Ines Moreau: the user, addressed by title and surname. */
function addressedFormally(name: string, userName: string | undefined): boolean {
  const surname = userName?.trim().split(/\s+/).at(-1);
  return !!surname && userName!.includes(' ') && new RegExp(`^(?:Mr|Mrs|Ms|Miss|Mx|Dr)\\.? ${escapeRegExp(surname)}$`, 'u').test(name.replace(/\u2024/g, '.'));
}
/** An agent naming themself: "I'm Priya Nair from the claims team", "my name is Tom and I'll be looking after this". */
const AGENT_INTRO = new RegExp(`(?:^|[.!,]\\s+)(?:[Hh]i|[Hh]ello|[Gg]ood (?:morning|afternoon|evening))?[ ,]*(?:[A-Z][a-z]+, )?(?:I'm|I’m|I am|[Mm]y name is|[Mm]y name’s|[Mm]y name's) (\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)(?:,? (?:from|on|in|with) (?:the |our )?((?:\\p{L}+ ){0,2}(?:team|department|desk|support|office)))?`, 'u');
/** A short question back ("no?", "really?", "how is he doing?"): naming no one, it passes on who was being spoken of. */
const QUESTION_BACK = /^[\p{L}'’]+(?: [\p{L}'’]+){0,5}[?!]*\?[?!]*$/u;
/** A sentence that goes on about someone already named: "she …", "btw he …". */
const OPENING_PRONOUN = /^(?:(?:also|and|but|so|plus|btw|oh and) )?(she|he)\b/i;
const PREFERENCE_PATTERN = new RegExp(`\\b(${NAME}|[Ss]he|[Hh]e) (?:really )?(likes|loves|prefers|enjoys|hates|dislikes|is allergic to|can't stand) ([^.,;!?]+)`, 'gu');
/** A speaker's own liking: "I love bouldering", "i can't stand coriander" (not "I'd love to", "I like how …"). */
const FIRST_PREFERENCE = /(?<![\p{L}'’])[Ii] (?:really |absolutely |honestly |just |totally )?(like|love|adore|prefer|enjoy|hate|dislike|can['’]t stand|am allergic to) ([^.,;!?]+)/gu;
const FIRST_TO_THIRD: Readonly<Record<string, string>> = { like: 'likes', love: 'loves', adore: 'adores', prefer: 'prefers', enjoy: 'enjoys', hate: 'hates', dislike: 'dislikes', "can't stand": "can't stand", 'am allergic to': 'is allergic to' };
/** A liking of a person, a way or a moment, not a thing: "I love you", "I like how you put it", "I hate when that happens". */
const NOTHING_NAMED_AFTER = /^(?:you|u|ya|y'all|how|what|when|where|why|who|the idea|the way|the sound of that|the thought|hearing|reading that|seeing that|to (?:hear|see|think|say|know)|it when|that you|that idea)\b/iu;
/** What a liking names when it names nothing by itself: a pronoun or a "that" with no noun after it. */
const SAYS_NOTHING_LIKED = /^\s*(?:it|that|this|them|those|these|him|her|one|so)\b(?!\s+(?!(?:to|too|so|as|a\s+lot|very|much|anyway|fine|really|though|tho|lol|haha)\b)[\p{L}])/iu;
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE_PATTERN = /(?<![\p{L}\p{N}_/#.,-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)[\s.-]?)?\d{2,5}(?:[\s.-]?\d{2,4}){1,3}/gu;
/**
 * The phone numbers a sentence gives: not the digits of an account or order code ("LN-4471932"), nor a run out of a
 * longer number read in groups ("tracking number 9400 1109 8836 2214 5570"), nor a number a label says is something else.
 */
function phonesIn(sentence: string): string[] {
  const text = sentence.replace(EMAIL_PATTERN, '');
  const phones: string[] = [];
  for (const match of text.matchAll(PHONE_PATTERN)) {
    const start = match.index ?? 0;
    const end = start + match[0].trimEnd().length;
    if (/\d[\s-]?$/.test(text.slice(Math.max(0, start - 2), start)) || /^[\s-]?\d/.test(text.slice(end, end + 2))) continue;
    if (NOT_A_PHONE.test(text.slice(Math.max(0, start - 40), start))) continue;
    const digits = match[0].replace(/\D/g, '').length;
    // A date ("2026-11-02", "02.11.2026") is no number to call.
    if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(match[0].trim())) continue;
    if (digits >= 7 && digits <= 15) phones.push(match[0].trim());
  }
  return phones;
}
const NOT_A_PHONE = /\b(?:account|order|ticket|case|claim|reference|ref|booking|policy|tracking|confirmation|invoice|membership|member|serial|reservation|incident|return|refund|card|iban|sort code|routing|pin|code|id|number of|no\.)(?: (?:number|no\.?|id|code))?(?: is| was)?[:#]?\s*$/i;
/** Words that end an organisation's capture but are not part of it. */
const ORG_TAIL = /(?: (?:Ltd|Inc|Co|Corp)(?=\.))?(?: (?:[Ll]ast|[Tt]his|[Nn]ext|[Tt]oday|[Yy]esterday|[Nn]ow|[Tt]here))+$/u;

interface Observation {
  name: string;
  role?: string;
  organisation?: string;
  relationships: { type: string; to: string }[];
  preferences: string[];
  channels: Channel[];
  evidence: string[];
  mentions: { timestamp: string; sentence: string }[];
  /** What the records say they are or have ("Ines is an architect", "Nadia grew up in Porto"), in reading order. */
  said: string[];
  /** When the batch first names them. */
  firstAt: string;
  /** Said by or about them as a person (a role, a relation, a speaker): a name compromise missed is still kept. */
  personal: boolean;
  /** The record that said where they work, as far as this batch goes. */
  workSaidIn?: string;
  /** Where they worked before an employer this batch also names ("I've been … at Halvorsen", then "taking the Brightwater offer"). */
  earlier?: { role?: string; organisation: string; evidence: string };
}

interface KnownContact {
  alias: string;
  name: string;
  aliases: string[];
  role?: string;
  organisation?: string;
  relationships: { type: string; to: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
  biography?: string;
  summary: string;
}

function cleanOrg(raw: string): string | undefined {
  const org = trimPhrase(raw.replace(ORG_TAIL, ''));
  if (!org || /^(?:I|He|She|They|We|It|There|Here|Now|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/i.test(org)) return undefined;
  return org;
}

export function extractContacts(input: UpdaterInput): { ops: ContactOp[] } {
  const observations = new Map<string, Observation>();
  const observe = (rawName: string, record: { id: string; timestamp: string }): Observation | undefined => {
    const name = cleanName(rawName);
    if (!name || /^(?:Dr|Mr|Mrs|Ms|Prof)\.?$/.test(name)) return undefined;
    // "Dana" after "Dana Whitfield" (or the other way round) is the same person.
    const key = [...observations.keys()].find((known) => sameName(known, name)) ?? name;
    let observation = observations.get(key);
    if (!observation) {
      observation = { name, relationships: [], preferences: [], channels: [], evidence: [], mentions: [], said: [], firstAt: record.timestamp, personal: false };
      observations.set(key, observation);
    }
    if (name.split(' ').length > observation.name.split(' ').length) observation.name = name;
    if (!observation.evidence.includes(record.id)) observation.evidence.push(record.id);
    return observation;
  };
  /** Organisations and places seen in the batch: a capitalised word that is one of them is not a person. */
  const organisations = new Set<string>((input.existing as unknown as KnownContact[]).flatMap((c) => (c.organisation ? [c.organisation.toLowerCase()] : [])));
  const places = new Set<string>();
  // "a table at Dishoom", "brunch at Dishoom": a venue, wherever else the batch names it ("remind me to call Dishoom").
  for (const record of input.records) for (const match of authorOf(record).content.matchAll(VENUE)) places.add(match[1]!.toLowerCase());
  for (const record of input.records) {
    for (const match of authorOf(record).content.matchAll(BOOKED_FOR)) {
      const venue = match[1]!.toLowerCase();
      places.add(venue);
      // "nonna rosas" is written for "Nonna Rosa's": the name without the possessive is the same place.
      places.add(venue.replace(/['’]?s$/, ''));
    }
  }
  // "the puppy … her name is biscuit", "my cat Pickles": a pet, whatever is said of it later; "order a bag from Petco": a shop.
  const pets = new Set<string>();
  for (const record of input.records) {
    const content = authorOf(record).content;
    for (const match of content.matchAll(PET_NAME)) pets.add((match[1] ?? match[2])!.toLowerCase());
    for (const match of content.matchAll(SHOP)) places.add(match[1]!.toLowerCase());
  }
  const knownNames = (input.existing as unknown as KnownContact[]).flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  /** The user's name in this batch, when their messages carry one: whom an assistant's "your" stands for. */
  const userName = input.records.map((record) => (record.role === 'user' ? authorOf(record).name : undefined)).find(Boolean);
  /** The user's name with a surname, when the batch or the store gives one ("Gareth" who said "name is Gareth Pryce"): an agent's "Mr. Pryce" is them. */
  const fullUserName = () => {
    if (!userName || userName.includes(' ')) return userName;
    const known = [...observations.values()].map((o) => o.name).concat((input.existing as unknown as KnownContact[]).map((c) => c.name));
    return known.find((name) => name.startsWith(`${userName} `) && name.split(/\s+/).length === 2) ?? userName;
  };
  const spelledAsNames = casedInside(input.records.map((record) => authorOf(record).content));
  /** The last person named in the batch, for "he runs purchasing there". */
  let lastPerson: Observation | undefined;
  /** The people named most recently, latest last: "she" after "my sister Ana … Marco …" goes back to Ana. */
  const recent: Observation[] = [];
  const rememberNamed = (people: readonly Observation[]) => {
    for (const person of people) {
      const at = recent.indexOf(person);
      if (at >= 0) recent.splice(at, 1);
      recent.push(person);
    }
    recent.splice(0, Math.max(0, recent.length - 4));
  };
  /**
   * Whom "he" or "she" stands for: the candidate, unless its name is usually the other pronoun's and one of
   * the last people named takes this one. A name the lexicon does not tag, or tags for both, is never passed over;
   * after someone spoken of without a name ("his partner, she got a job at …"), the pronoun is theirs: no one's here.
   */
  const byPronoun = (pronoun: string, candidate: Observation | undefined, sentence: string): Observation | undefined => {
    const wanted = pronoun.toLowerCase();
    if (!candidate || (wanted !== 'he' && wanted !== 'she')) return candidate;
    const usual = usualPronoun(candidate.name);
    if (!usual || usual === wanted) return candidate;
    if (UNNAMED_RELATION.test(sentence)) return undefined;
    return [...recent].reverse().find((person) => person !== candidate && usualPronoun(person.name) === wanted) ?? candidate;
  };

  /**
   * The one person the last message's last sentence named or asked about ("did you hear about Hannah?"): a next
   * message opening on "she"/"he" goes on about them, across a bare question back ("no?") too.
   */
  let spokenOf: { name: string; record: { id: string; timestamp: string } } | undefined;
  for (const record of input.records) {
    const author = authorOf(record);
    const speaker = author.name ? observe(author.name, record) : undefined;
    if (speaker) speaker.personal = true;
    let previousNamed: Observation[] = [];
    // The last relation this record named ("my sister Clara … her number is …"), even inside a question.
    let relatedInRecord: Observation | undefined;
    const opening = spokenOf;
    const questionBack = QUESTION_BACK.test(author.content.trim());
    if (!questionBack) spokenOf = undefined;
    // "Hi, I'm Priya Nair from the claims team": the agent who answers names themself; a contact the user deals with.
    if (record.role === 'assistant') {
      const intro = AGENT_INTRO.exec(author.content.slice(0, 400));
      const name = intro && !commonWord(intro[1]!.split(' ')[0]!) ? intro[1]! : undefined;
      const agent = name ? observe(name, { id: record.id, timestamp: record.timestamp }) : undefined;
      if (agent) {
        agent.personal = true;
        agent.role ??= intro![2] ? trimPhrase(intro![2]) : 'support agent';
      }
    }
    // "found a dentist!! Dr Amy Cho, her office is …": who serves the author, named in the next breath.
    if (record.role !== 'assistant' && !looksLikeInstruction(author.content)) {
      for (const match of author.content.slice(0, 2_000).matchAll(FOUND_PROVIDER)) {
        const person = observe(match[2]!, record);
        if (!person) continue;
        person.personal = true;
        addUnique(person.relationships, { type: relationType(match[1]!.toLowerCase()), to: author.key }, (r) => r.type);
      }
      for (const match of author.content.slice(0, 2_000).matchAll(NAMED_NEXT)) {
        const person = observe(match[2]!, record);
        if (!person) continue;
        person.personal = true;
        person.role ??= match[1]!;
        addUnique(person.relationships, { type: relationType(match[1]!.toLowerCase()), to: author.key }, (r) => r.type);
      }
    }
    for (const [index, held] of heldSentences(author.content).entries()) {
      // A number said alone ("07700 900263") is no small talk: it is read for whose it is.
      if ((isSmallTalk(held) && !/^\+?[\d ().-]{7,}\.?$/.test(held.trim())) || looksLikeInstruction(held)) continue;
      const sentence = restoreDots(held);
      const deep = index < DEEP_SENTENCES_PER_RECORD;
      if (deep) {
        const doc = nlp(sentence);
        // A name given with an address or a number in brackets is a person's, whatever the tagger makes of "Marsh".
        const reached = new Set(namedWithReach(sentence).map(({ name }) => name.toLowerCase()));
        for (const place of doc.places().out('array') as string[]) if (!reached.has(trimPhrase(place).toLowerCase())) places.add(trimPhrase(place).toLowerCase());
        for (const org of doc.organizations().out('array') as string[]) organisations.add(trimPhrase(org).toLowerCase());
      }
      const hypothetical = isHypothetical(held);
      const found: { at: number; who: string; org?: string; role?: string; department: boolean; leaves: boolean; former: boolean }[] = [];
      {
        // As written, and with its asides out ("Leila, my former colleague, now works as …").
        const readings = [...new Set([spelledOut(held), withoutAsides(held)])];
        for (const rule of ROLE_RULES) {
          // "If that doesn't help, I can book our furniture technician, Owen Castellanos": who holds a job is so
          // whatever the sentence supposes.
          if (hypothetical && !rule.always) continue;
          for (const [text, match] of readings.flatMap((text) => [...text.matchAll(rule.pattern)].map((m) => [text, m] as const))) {
            // "I'm" can read as a name: it is the author.
            const who = rule.who === 0 || !match[rule.who] || /^[Ii](?:['’](?:m|ve|d|ll))?$/.test(match[rule.who]!) ? 'I' : match[rule.who]!;
            if (rule.named && who !== 'I' && !who.includes(' ') && englishWordNotName(who)) continue;
            const org = rule.org ? (match[rule.org] ? cleanOrg(match[rule.org]!) : undefined) : undefined;
            const said = rule.role && match[rule.role] ? trimPhrase(match[rule.role]!.replace(/^the /, '').replace(CHAT_TAIL, '')) : undefined;
            // "I accepted the Koru Labs job, starts monday!": what follows the comma is no job title.
            const role = said && rule.trade ? TRADES[said.toLowerCase()] : said && rule.roleIfJob && !JOB_NOUN.test(said) ? undefined : said;
            if (rule.jobNoun && role && !JOB_NOUN.test(role)) continue;
            // "a great cook", "a terrible driver": a judgement, not a job.
            if (rule.jobNoun && role && /^(?:great|good|bad|terrible|amazing|brilliant|decent|natural|born|real|total|huge|big|lovely|fantastic|awful|excellent|better|best|worse|worst|proper|crap|rubbish)\b/.test(role)) continue;
            if (role && /^(?:no longer|not|never|still|also|just|about|going|leaving|moving|gone|been|done|off|away|back|out|up|down|home|ready|sure|able|due|keen|free|busy|late|early|sick|fine)\b/.test(role)) continue;
            // "he's gone by the middle of August": a month, a weekday, a season or a holiday employs no one.
            if (org && WHEN_WORD.test(org)) continue;
            // "I went to Ray's yesterday for the cherry": a visit to a shop, not a new employer.
            if (org && !role && /\b(?:went|go|going|gone) to\b/.test(match[0]) && !EMPLOYED.test(match[0]) && (/['’]s$/u.test(org) || /^,?\s+(?:for|to (?:buy|get|pick|see|collect))\b/.test(text.slice((match.index ?? 0) + match[0].length)))) continue;
            // "Biscuit's vet appointment at Clifton Vets": an event someone has somewhere is no job.
            if (role && /\b(?:appointment|meeting|party|birthday|wedding|dinner|lunch|exam|test|interview|flight|booking|reservation|class|lesson|session|check-?up|operation|surgery|scan|holiday|trip|visit|match|gig|concert)s?$/i.test(role)) continue;
            // "works twice as fast as the other developer", "as hard as any nurse": a comparison, not a role.
            if (role && /\bas\b/.test(role)) continue;
            // "he's still mad you beat him at Monopoly": a phrase with someone in it is no job title.
            if (role && /\b(?:you|him|them|me|us)\b/.test(role)) continue;
            // "Maya's visiting the weekend of Oct 17", "Sam's coming with Maya": what someone is doing is not a role.
            if (role && !rule.department && /^\p{L}+ing\b/u.test(role) && !JOB_NOUN.test(role)) continue;
            if (!org && !role) continue;
            // "moved to Bristol" names a place; "got a job at the Harland Library" an employer, whatever else it names.
            if (org && places.has(org.toLowerCase()) && !role && !EMPLOYED.test(match[0])) continue;
            // "went to Rachel Okafor at Linden Physio": someone seen at a place, not an employer.
            if (org && !role && /^ at \p{Lu}/u.test(text.slice((match.index ?? 0) + match[0].length))) continue;
            if (org) organisations.add(org.toLowerCase());
            found.push({ at: match.index ?? 0, who, ...(org ? { org } : {}), ...(role ? { role } : {}), department: rule.department ?? false, leaves: rule.leaves ?? false, former: rule.former ?? false });
          }
        }
      }
      const orgNames = [...organisations];
      // A name that is a thing's or a place's is remembered as a place, so later mentions of it are no one either.
      const thingOrPlace = (name: string) => namesAThing(name, sentence) && places.add(name.toLowerCase()).size > 0;
      const candidates = (deep ? personNames(sentence, orgNames, spelledAsNames) : []).filter(
        (name) =>
          !places.has(name.toLowerCase()) &&
          !organisations.has(name.toLowerCase()) &&
          !isStreet(name, sentence) &&
          !thingOrPlace(name) &&
          !(record.role === 'assistant' && addressedFormally(name, fullUserName())),
      );
      const spokenEarlier = spokenOf;
      if (!questionBack || candidates.length > 0) spokenOf = candidates.length === 1 ? { name: candidates[0]!, record } : undefined;
      const named = candidates
        // A question or a hypothetical ("should I call Tom?") mentions people already known; it introduces no one.
        .filter((name) => !hypothetical || [...observations.keys()].some((known) => sameName(known, cleanName(name) ?? name)) || knownNames.some((known) => sameName(known, cleanName(name) ?? name)))
        .map((name) => observe(name, record))
        .filter((o): o is Observation => !!o);
      for (const observation of named) {
        observation.mentions.push({ timestamp: record.timestamp, sentence });
        for (const clause of saidOf(observation.name, withoutAsides(sentence), author.name, record.timestamp, named.length === 1)) addUnique(observation.said, cited(clause, record.id), clauseKey);
      }
      // "did you hear about Hannah?" / "no?" / "she got engaged to Theo": the opening pronoun is Hannah, whoever else the sentence names.
      if (index === 0 && opening && !hypothetical && !named.some((o) => sameName(o.name, cleanName(opening.name) ?? opening.name))) {
        const pronoun = OPENING_PRONOUN.exec(sentence)?.[1]?.toLowerCase();
        const usual = usualPronoun(cleanName(opening.name) ?? opening.name);
        const person = pronoun && (!usual || usual === pronoun) ? observe(opening.name, opening.record) : undefined;
        if (person) {
          observe(person.name, record);
          person.personal = true;
          person.mentions.push({ timestamp: record.timestamp, sentence });
          const aboutThem = withoutAsides(sentence).replace(OPENING_PRONOUN, person.name);
          for (const clause of saidOf(person.name, aboutThem, author.name, record.timestamp, true)) addUnique(person.said, cited(clause, record.id), clauseKey);
          lastPerson = person;
          rememberNamed([person]);
        }
      }
      // "Kofi (my boss) is off. Also he's doing an MBA": a sentence naming no one goes on about the one person the message's previous sentence named.
      if (named.length === 0 && previousNamed.length === 1 && !hypothetical) {
        const [person] = previousNamed;
        const aboutThem = withoutAsides(sentence).replace(OPENING_PRONOUN, person!.name);
        if (aboutThem.startsWith(person!.name)) for (const clause of saidOf(person!.name, aboutThem, author.name, record.timestamp, true)) addUnique(person!.said, cited(clause, record.id), clauseKey);
      }
      previousNamed = named;
      if (speaker && !hypothetical) for (const clause of saidBySelf(speaker.name, sentence, record.timestamp)) addUnique(speaker.said, cited(clause, record.id), clauseKey);
      const subject = (who: string): Observation | undefined => {
        if (/^(?:she|he|they)$/i.test(who)) return byPronoun(who, lastPerson, sentence);
        if (who === 'I' || who === 'i') return speaker;
        if (organisations.has(who.toLowerCase())) return undefined;
        return observe(who, record);
      };
      // A sentence's own named people come first for its pronouns; then the last one named before it.
      const before = lastPerson;
      if (named.length > 0) lastPerson = named[0];
      // In reading order, so "Priya left Brightwell; she moved to Koru Labs" gives "she" to Priya.
      let current: Observation | undefined;
      for (const fact of found.sort((a, b) => a.at - b.at)) {
        const pronoun = /^(?:she|he|they|and)$/i.test(fact.who);
        const opensWithPronoun = /^(?:she|he|they)\b/i.test(sentence);
        const person = pronoun ? (current ?? (fact.who === 'and' && !opensWithPronoun ? undefined : byPronoun(fact.who, lastPerson ?? before, sentence))) : subject(fact.who);
        if (!person) continue;
        current = person;
        if (fact.former) {
          person.personal = true;
          if (fact.org) addUnique(person.said, cited(`${person.name} used to work at ${fact.org}`, record.id), clauseKey);
          if (!person.mentions.some((m) => m.sentence === sentence)) person.mentions.push({ timestamp: record.timestamp, sentence });
          continue;
        }
        if (fact.leaves) {
          // Leaving clears the organisation (and the role held there) unless the same sentence names the next one.
          if (fact.org && person.organisation?.toLowerCase() === fact.org.toLowerCase()) person.organisation = undefined;
          person.personal = true;
          continue;
        }
        person.personal = true;
        if (fact.org && person.organisation && person.workSaidIn && person.workSaidIn !== record.id && person.organisation.toLowerCase() !== fact.org.toLowerCase()) {
          // A move within the batch: the earlier employer goes to the contact's history (a role is a trade: a nurse
          // who moves hospitals is still a nurse, so it stays unless another is said).
          person.earlier ??= { ...(person.role ? { role: person.role } : {}), organisation: person.organisation, evidence: person.workSaidIn };
        }
        if (fact.org) person.organisation = fact.org;
        if (fact.role) person.role = fact.department ? fact.role.replace(/^the /, '') : fact.role;
        if (fact.org || fact.role) person.workSaidIn = record.id;
        if (!person.mentions.some((m) => m.sentence === sentence)) person.mentions.push({ timestamp: record.timestamp, sentence });
      }
      if (named.length > 0) lastPerson = named[named.length - 1];
      rememberNamed(named);
      for (const match of held.matchAll(RELATION_PATTERN)) {
        const person = observe(match[2]!, record);
        // An agent's "my manager, Graham Oduya" is the agent's manager: a role, not the user's relation.
        if (person && record.role === 'assistant') {
          person.personal = true;
          if (JOB_NOUN.test(match[1]!)) person.role ??= relationType(match[1]!);
          continue;
        }
        if (person) {
          relatedInRecord = person;
          person.personal = true;
          addUnique(person.relationships, { type: relationType(match[1]!), to: author.key }, (r) => r.type);
        }
      }
      // "Mrs Petrakis next door said she'll do it": a neighbour, named by where they live.
      for (const match of held.matchAll(NEXT_DOOR)) {
        const person = observe(match[1]!, record);
        if (person) {
          person.personal = true;
          addUnique(person.relationships, { type: 'neighbour', to: author.key }, (r) => r.type);
        }
      }
      for (const match of held.matchAll(RELATION_REVERSE_PATTERN)) {
        const person = observe(match[1]!, record);
        if (person) {
          person.personal = true;
          addUnique(person.relationships, { type: relationType(match[2]!), to: author.key }, (r) => r.type);
        }
      }
      // "my sister Nadia is coming with her son Omar": Omar is Nadia's son, not the user's. "her" is the last person
      // this sentence named before it, when "her" can be them; nobody from an earlier message.
      for (const match of held.matchAll(OTHERS_RELATION_PATTERN)) {
        const at = (o: Observation) => held.lastIndexOf(o.name.split(' ')[0]!, match.index);
        const pronoun = /^(?:his|her)\b/i.exec(match[0])?.[0].toLowerCase();
        const fits = (o: Observation) => !pronoun || !usualPronoun(o.name) || usualPronoun(o.name) === (pronoun === 'his' ? 'he' : 'she');
        // Chat writes the owner in lower case too ("kai's mom Linda"); a common word there is no one ("the boss's wife Jo").
        if (match[1] && /^\p{Ll}/u.test(match[1]) && (commonWord(match[1]) || /^(?:his|her|their|its|my|our|your|one|everyone|someone|anyone)$/i.test(match[1]))) continue;
        const ownerName = match[1] ? capitalise(match[1]) : named.filter((o) => at(o) >= 0 && fits(o)).sort((a, b) => at(a) - at(b)).at(-1)?.name;
        const owner = ownerName ? observe(ownerName, record) : undefined;
        const person = owner ? observe(match[3]!, record) : undefined;
        if (!owner || !person || owner === person) continue;
        person.personal = true;
        owner.personal = true;
        const type = `${owner === speaker ? 'the user' : owner.name}'s ${relationType(match[2]!)}`;
        // The contact schema's bound on a relationship's type.
        if (type.length > 60) continue;
        addUnique(person.relationships, { type, to: owner === speaker ? author.key : owner.name }, (r) => r.type);
      }
      for (const match of held.matchAll(PREFERENCE_PATTERN)) {
        const person = subject(match[1]!);
        // "jay likes that too", "she loves it": what is liked is in another sentence; this one names nothing.
        if (person && !SAYS_NOTHING_LIKED.test(match[3]!)) addUnique(person.preferences, `${match[2]} ${trimPhrase(match[3]!)}`, (p) => p.toLowerCase());
      }
      // "I love bouldering", "i really can't stand coriander": what speakers say they like is theirs, said of them.
      if (speaker && !hypothetical) {
        for (const match of held.matchAll(FIRST_PREFERENCE)) {
          // Said of them: "I love my allotment" is "loves their allotment".
          const liked = trimPhrase(match[2]!).replace(/\bmy\b/g, 'their').replace(/\bme\b/g, 'them');
          if (!SAYS_NOTHING_LIKED.test(liked) && !NOTHING_NAMED_AFTER.test(liked)) addUnique(speaker.preferences, `${FIRST_TO_THIRD[match[1]!.toLowerCase().replace('’', "'")] ?? match[1]!} ${liked}`, (p) => p.toLowerCase());
        }
      }
      // An assistant's "your number is now …" is the user's; an assistant naming no one gives no one a number.
      const reach = EMAIL_PATTERN.test(sentence) || phonesIn(sentence).length > 0;
      EMAIL_PATTERN.lastIndex = 0;
      const addressee = reach && record.role === 'assistant' && /\byour\b/i.test(sentence) && userName ? observe(userName, record) : undefined;
      // "Her number is …": the person "her" stands for; "my number is …" the author's own.
      // "her numbers 07700 …" is texting's "her number's".
      const theirs = /\b(?:her|his|their)\s+(?:(?:new|work|home|mobile|cell|phone|contact|direct)\s+)?(?:numbers?|phone|mobile|cell|e-?mail|address|line)\b/i.test(sentence);
      const owner = theirs ? (named.length === 1 ? named[0] : named.length === 0 ? (relatedInRecord ?? lastPerson) : undefined) : undefined;
      // "he's only on tbrannigan@… now": said of the person just spoken of, not of the one saying it.
      const firstPerson = /\b(?:my|me|mine|i|i'm|i’m|im)\b/i.test(sentence);
      const ofSomeoneElse = /\b(?:he|she|he's|she's|he’s|she’s|he is|she is|his|him|her)\b/i.test(sentence) && !firstPerson;
      // "agent is a guy called Gareth btw, if i'm not around. 0113 496 0721": a number said alone, after a sentence of
      // the same record that named one person, is that person's, not the speaker's.
      const spokenBefore = !firstPerson && named.length === 0 && spokenEarlier && spokenEarlier.record === record ? observe(spokenEarlier.name, record) : undefined;
      // With no speaker, "call me on …" is the author's own number, not the last person's named.
      // "ring him 07700 900148": the number of the one to ring, whom the sentence does not name; not the speaker's.
      const toThem = /\b(?:ring|call|text|phone|whatsapp|message|contact)\s+(?:him|her|them)\b/i.test(sentence);
      const unnamed = record.role === 'assistant' ? addressee : toThem ? undefined : spokenBefore && spokenBefore !== speaker ? spokenBefore : ofSomeoneElse ? (lastPerson !== speaker ? lastPerson : undefined) : (speaker ?? (/\b(?:me|my)\b/i.test(sentence) ? undefined : lastPerson));
      // "Idris's number for the keys: 07700 …": the number of whom the sentence names it, known as a name or not.
      const lowerPossessor = POSSESSED_REACH_LOWER.exec(sentence)?.[1];
      const knownLower = lowerPossessor ? [...[...observations.values()].map((o) => o.name), ...knownNames].find((name) => name.split(' ')[0]!.toLowerCase() === lowerPossessor) : undefined;
      const possessor = POSSESSED_REACH.exec(sentence)?.[1] ?? knownLower?.split(' ')[0];
      // "i gave u priyas number wrong, its …": Priya's, though the sentence says "i"; "my number" or "call me" is the author's.
      const ownReach = /\b(?:my|mine)\s+(?:(?:new|work|home|mobile|cell|phone|contact|direct)\s+)?(?:number|phone|mobile|cell|e-?mail)\b|\b(?:call|text|ring|reach|phone|message)\s+me\b/i.test(sentence);
      const theirsByName = !theirs && possessor && !ownReach && (!firstPerson || knownLower !== undefined || POSSESSED_REACH.test(sentence)) && (named.length === 0 || named.some((o) => sameName(o.name, possessor))) ? observe(possessor, record) : undefined;
      // "pete's got a new phone, 07700 …", "the shop's number is …": someone's or something's the batch does not know by that name; not the speaker's.
      const unknownOwner = lowerPossessor !== undefined && !knownLower && !firstPerson && named.length === 0;
      const target = unknownOwner ? undefined : theirs ? (owner !== speaker ? owner : undefined) : theirsByName && theirsByName !== speaker ? theirsByName : named.length === 1 ? named[0] : named.length === 0 ? unnamed : undefined;
      // "Lucy Marsh at Marsh Carter Architects (lucy@…, 01943 …)": what the brackets after a name give is that person's.
      const bracketed = reach ? namedWithReach(sentence) : [];
      for (const { name, inBrackets } of bracketed) {
        const person = observe(name, record);
        if (!person) continue;
        for (const email of inBrackets.match(EMAIL_PATTERN) ?? []) addChannel(person.channels, { type: 'email', value: email }, false);
        for (const phone of phonesIn(inBrackets)) addChannel(person.channels, { type: 'phone', value: phone }, false);
      }
      // What is left outside those brackets is read as before.
      const rest = bracketed.reduce((text, { inBrackets }) => text.replace(inBrackets, ' '), sentence);
      if (target) {
        const replaces = CHANNEL_CHANGE.test(rest);
        // "The old one, 07700 900412, will stop working": a number said as the one replaced is no way to reach them now.
        const saidAsOld = (value: string) => SAID_AS_OLD.test(rest.slice(Math.max(0, rest.indexOf(value) - 40), rest.indexOf(value)));
        for (const email of rest.match(EMAIL_PATTERN) ?? []) if (!saidAsOld(email)) addChannel(target.channels, { type: 'email', value: email }, replaces);
        // A number already someone else's in this batch ("the driver should ring 07700 900418", the user's mobile) stays theirs.
        const owned = (value: string) => [...observations.values()].some((o) => o !== target && o.channels.some((c) => c.value === value));
        // "escalation line is +44 …", "the office line is 0161 …": a line of a thing or a service is no one's.
        // "the escalation line changed … new number is …": the line's new number, said in the next sentence, is not the speaker's.
        const lineNews = !theirs && named.length === 0 && LINE_NEWS.test(record.content ?? '');
        const aThings = (phone: string) => lineNews || THINGS_LINE.test(sentence.slice(Math.max(0, sentence.indexOf(phone) - 40), sentence.indexOf(phone)));
        for (const phone of phonesIn(rest)) if (!owned(phone) && !aThings(phone) && !saidAsOld(phone)) addChannel(target.channels, { type: 'phone', value: phone }, replaces);
      }
    }
  }
  // A name that turned out to be an organisation or a place (and was never described as a person) is not a contact.
  for (const [key, observation] of observations) {
    const lower = observation.name.toLowerCase();
    const aPlace = places.has(lower) || [...places].some((place) => place.startsWith(`${lower} `));
    if (pets.has(lower) || (!observation.personal && (aPlace || [...organisations].some((org) => org === lower || holdsWords(org, lower))))) observations.delete(key);
  }

  const known = input.existing as unknown as KnownContact[];
  const ops: ContactOp[] = [];
  for (const observation of observations.values()) {
    const match = known.find((contact) => [contact.name, ...contact.aliases].some((name) => sameName(name, observation.name)));
    const merged = {
      name: match && match.name.length >= observation.name.length ? match.name : observation.name,
      role: observation.role ?? match?.role,
      organisation: observation.organisation ?? match?.organisation,
      relationships: dedupe([...(match?.relationships ?? []), ...observation.relationships], (r) => r.type),
      preferences: dedupe([...(match?.preferences ?? []), ...observation.preferences], (p) => p.toLowerCase()),
      // A new number or address replaces the ones known before it ("my new email is ..."); otherwise all are kept.
      channels: currentChannels([...(match?.channels ?? []), ...observation.channels]),
    };
    const previous = match?.biography ?? '';
    // One clause per thing said of them: "lives in Paris" replaces "lives in Lyon".
    const earlier = saidIn(previous);
    const said = dedupe([...earlier, ...observation.said], (c) => saidKey(merged.name, c));
    const stated = [merged.role, merged.organisation, ...merged.relationships.map((r) => r.type), ...merged.preferences, ...earlier, ...observation.said].filter((k): k is string => !!k);
    const biography = biographyOf({
      ...merged,
      said,
      firstMentioned: firstMentionIn(previous) ?? observation.firstAt.slice(0, 10),
      topics: topicsOf(observation, [...observations.values()].map((o) => o.name), topicsIn(previous), stated),
    });
    const summary = runningSummary(observation.mentions, match?.summary ?? '');
    const fields = {
      ...(observation.role ? { role: observation.role } : {}),
      ...(observation.organisation ? { organisation: observation.organisation } : {}),
      ...(observation.relationships.length ? { relationships: observation.relationships } : {}),
      ...(observation.preferences.length ? { preferences: observation.preferences } : {}),
      ...(observation.channels.length ? { channels: observation.channels } : {}),
      biography,
      ...(summary ? { summary } : {}),
    };
    if (match) {
      const longer = observation.name.length > match.name.length && sameName(match.name, observation.name);
      ops.push({ op: 'update', target: match.alias, changes: { ...fields, ...(longer ? { name: observation.name } : {}) }, evidence: observation.evidence });
    } else {
      // Said to have moved within the batch: added as they were, then moved, so the old employer is history.
      const earlier = observation.earlier;
      if (earlier) ops.push({ op: 'add', contact: { name: observation.name, organisation: earlier.organisation, ...(earlier.role ? { role: earlier.role } : {}) }, evidence: [earlier.evidence] });
      ops.push({ op: 'add', contact: { name: observation.name, ...fields }, evidence: observation.evidence });
    }
  }
  return { ops };
}

/** "Dana" and "Dana Whitfield" are the same name; "Dana" and "Dan" are not. */
function sameName(a: string, b: string): boolean {
  const left = a.toLowerCase().replace(/\u2024/g, '.');
  const right = b.toLowerCase().replace(/\u2024/g, '.');
  if (left === right || left.startsWith(`${right} `) || right.startsWith(`${left} `)) return true;
  // "Mrs Pryce" after "Rosalind Pryce": the same person, by title and surname.
  const titled = (one: string, other: string) => {
    const match = /^(?:mr|mrs|ms|miss|mx|dr)\.? (\S+)$/.exec(one);
    return !!match && other.split(' ').length > 1 && other.endsWith(` ${match[1]}`) && !/^(?:mr|mrs|ms|miss|mx|dr)\.? /.test(other);
  };
  return titled(left, right) || titled(right, left);
}

interface Channel {
  type: string;
  value: string;
  /** Said as a change ("my new number is ..."): it replaces the contact's earlier ones of its type. */
  replacesEarlier?: boolean;
}

/** A number said as a thing's or a service's line: "escalation line is", "the maintenance number's", "support hotline:". */
const THINGS_LINE = /\b(?:line|hotline|helpline|switchboard|landline|desk|reception|office|support|maintenance|emergency|escalation|booking|bookings|enquiries|out-of-hours)(?:\s(?:line|number|phone))?(?:\sis|['’]s|:)(?:\snow)?\s*$|\bnumber for (?:the\s)?[a-z][a-z -]{1,30}(?:,\s*it['’]s|\sis)(?:\snow)?\s*$/i;

/** A record telling that a thing's line or number changed. */
const LINE_NEWS = /\b(?!(?:my|your|his|her|their|phone|mobile|cell|contact|old|new|work|home|personal)\b)[a-z]+ (?:phone )?(?:line|hotline|helpline|number)\b[^.!?]{0,40}\b(?:changed|moved|switched|is new|doesn['’]?t work|stopped working)\b/i;

/** A way to reach someone said as theirs by name: "Idris's number", "Bea's new mobile". */
const POSSESSED_REACH = /\b(\p{Lu}[\p{Ll}-]+)['’]s\s+(?:got\s+(?:a\s+)?)?(?:(?:new|work|home|mobile|cell|phone|contact|direct)\s+){0,2}(?:number|phone|mobile|cell|e-?mail|line)\b/u;
/** The same in lower-case chat ("sanne's got a new work phone"): taken only for a name the batch or the store knows. */
// Texting drops the apostrophe too ("priyas number"): only a name known elsewhere is read so (below).
const POSSESSED_REACH_LOWER = /\b(?!(?:here|there|that|what|it|let|this|who)s\b)(\p{Ll}[\p{Ll}-]+?)['’]?s\s+(?:got\s+(?:a\s+)?)?(?:(?:new|work|home|mobile|cell|phone|contact|direct)\s+){0,2}(?:number|phone|mobile|cell|e-?mail|line)\b/u;

/** "My new email is ...", "your number is now ...", "I've changed my phone to ...": the value replaces the old one. */
const CHANNEL_CHANGE = /\b(?:only|now) on\b|\bstop using\b|\bnew\s+(?:(?:work|home|mobile|cell|personal|contact)\s+)?(?:number|phone|mobile|cell|e-?mail|address|one)\b|\bthe old one\b|\buse\b[^.!?]{0,40}\bnow\b|\b(?:number|phone|mobile|cell|e-?mail|address)\s+(?:is|'s|’s)\s+now\b|\b(?:changed|switched|updated)\b[^.!?]{0,40}\bto\b|\bno longer\b/i;

/** Words just before a number or address that say it is the one replaced ("the old one,", "stop using", "it used to be"). */
const SAID_AS_OLD = /\b(?:old|previous|former)\s+(?:one|number|mobile|phone|cell|e-?mail|address)[\s,:(–-]*(?:(?:is|was)\s*:?\s*)?$|\bstop using\s+$|\b(?:used to be|was)\s*:?\s*$/i;

const channelKey = (c: Channel) => `${c.type}:${c.value.toLowerCase()}`;

/**
 * A channel the batch gives someone, in the order said: all are sent, so the patch keeps the replaced
 * ones in the contact's history; one said again as a change moves to the end, after what it replaces.
 */
function addChannel(list: Channel[], channel: Channel, replaces: boolean): void {
  const at = list.findIndex((c) => channelKey(c) === channelKey(channel));
  if (at >= 0 && !replaces) return;
  if (at >= 0) list.splice(at, 1);
  list.push(replaces ? { ...channel, replacesEarlier: true } : channel);
}

/** The channels that hold after these, in order: each one said as a change leaves out those of its type before it. */
function currentChannels(list: readonly Channel[]): { type: string; value: string }[] {
  let held: Channel[] = [];
  for (const channel of list) {
    if (channel.replacesEarlier) held = held.filter((c) => c.type !== channel.type);
    held = [...held.filter((c) => channelKey(c) !== channelKey(channel)), channel];
  }
  return held.map(({ type, value }) => ({ type, value }));
}

function addUnique<T>(list: T[], value: T, key: (v: T) => string): void {
  if (!list.some((existing) => key(existing) === key(value))) list.push(value);
}

function dedupe<T>(list: T[], key: (v: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of list) seen.set(key(value), value);
  return [...seen.values()];
}

/** A relationship type that names whose it is: "Nadia's son". */
const OWNED_RELATION = /['’]s /;

/**
 * Who a contact is, from what the records say: work, relation to the user,
 * what was said they are or have, what they like, what they come up with,
 * how to reach them. The "Said:" and "Comes up with:" parts are read back
 * from the previous biography, so they accumulate across batches.
 */
export function biographyOf(contact: {
  name: string;
  role?: string | undefined;
  organisation?: string | undefined;
  relationships: { type: string }[];
  preferences: string[];
  channels: { type: string; value: string }[];
  said?: string[];
  topics?: string[];
  firstMentioned?: string | undefined;
}): string {
  const parts: string[] = [];
  const work = [contact.role, contact.organisation ? `at ${contact.organisation}` : undefined].filter(Boolean).join(' ');
  parts.push(work ? `${contact.name}: ${work}.` : `${contact.name}.`);
  // A relation to someone else carries its owner in its type ("Nadia's son"); the rest are the user's.
  const ofUser = contact.relationships.filter((r) => !OWNED_RELATION.test(r.type));
  if (ofUser.length) parts.push(`The user's ${ofUser.map((r) => r.type).join(' and ')}.`);
  for (const r of contact.relationships.filter((r) => OWNED_RELATION.test(r.type))) parts.push(`${capitaliseFirst(r.type)}.`);
  // "Tom is the user's manager" says no more than the relation line.
  const restates = (clause: string) => [contact.role, ...contact.relationships.map((r) => r.type)].some((known) => known && new RegExp(`\\b(?:is|was) (?:the user's|\\S+'s|our|their|a|an|the) ${escapeRegExp(known)}\\b`, 'i').test(clause));
  // "Ana is an auditor at Deloitte" once she is an accountant there: a job the head line no longer says is not current.
  const stale = (clause: string) => {
    const text = uncited(clause);
    return WORK_CLAUSE.test(text) && [contact.role, contact.organisation].some((now) => now && !text.toLowerCase().includes(now.toLowerCase()));
  };
  const said = (contact.said ?? []).filter((clause) => !restates(clause) && !stale(clause));
  if (said.length) parts.push(`Said: ${said.slice(-SAID_KEPT).join('; ')}.`);
  if (contact.preferences.length) parts.push(`${capitaliseFirst(contact.preferences.slice(-3).join('; '))}.`);
  if (contact.topics?.length) parts.push(`Comes up with: ${contact.topics.join(', ')}.`);
  if (contact.channels.length) parts.push(`Reach: ${contact.channels.map((c) => `${c.type} ${c.value}`).join(', ')}.`);
  // Nothing else said of them: when they came into the conversation is still something.
  if (parts.length === 1 && !work && contact.firstMentioned) parts.push(`First mentioned ${contact.firstMentioned}.`);
  return parts.join(' ');
}

const SAID_KEPT = 4;
const TOPICS_KEPT = 4;
/** Words that say a phrase names what someone is (a job, a relation, a standing). */
const IDENTITY_NOUN = new RegExp(`\\b(?:${JOB_WORDS}|fan|student|member|volunteer|runner|vegan|vegetarian|sister|brother|wife|husband|partner|mother|father|son|daughter|cousin|friend|neighbou?r|roommate|flatmate|fianc[ée]e?|aunt|uncle|grandmother|grandfather)s?\\b`, 'i');
/** What one has, counted ("two kids", "a dog"), and states one is in for good ("married", "vegan"). */
const COUNTED = '(?:kids?|children|sons?|daughters?|dogs?|cats?|puppy|kitten|baby|brothers?|sisters?|siblings?|grandkids?|grandchildren)';
const STATES = '(?:vegan|vegetarian|allergic to|married|engaged|pregnant|retired|divorced)';
/** What someone is or has for good, not what they are doing this week. */
/**
 * A verb in the present tense right after a name says what someone does as a habit or a standing ("keeps bees",
 * "leads QA automation", "lectures in marine biology"); these say what happens, what is thought or judged once
 * ("Gary deserves a medal"), and the last words are chat's "that's" and "he's" without their apostrophe after a name
 * called out ("Beth thats amazing").
 */
const NOT_HABITS = 'says|thinks|wants|needs|feels|seems|looks|knows|hopes|asks|tells|gets|goes|comes|sends|means|reckons|starts|arrives|leaves|lands|texts|calls|emails|replies|sounds|agrees|believes|guesses|likes|loves|hates|prefers|enjoys|is|was|has|does|makes|takes|gives|lets|puts|sees|wonders|wishes|forgets|remembers|mentions|suggests|thanks|sorts|plays|runs|owns|speaks|teaches|coaches|volunteers|lives|studies|laughs|cries|smiles|jokes|worries|complains|insists|argues|keeps (?:saying|asking|telling|going|trying|forgetting)|deserves|owes|misses|adores|thats|whats|its|hes|shes|theres|heres|wheres|congrats|always|perhaps|yes';
const HABIT = `(?!(?:${NOT_HABITS})\\b)\\p{Ll}{3,}(?<![sui])s(?= \\p{Ll})`;
/** An age said in words or digits ("about seventy-five", "nearly 40"). */
// Said as an age only where nothing follows the number but the clause's end ("Tom is 5 minutes away" is no age).
const AGE = `(?:about |nearly |almost |only |just |over |under )?(?:\\d{1,2}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)(?: years old)?(?=\\s*(?:[,.;!?)]|$)|\\s+(?:and|but|now|next|this|last|in|on)\\b)`;
/** Work someone did once ("drove buses for thirty years", "worked as a welder", "used to teach"). */
// Work, not an afternoon's: a job's title, or years spent at it ("Dan worked on the slides all weekend" is none).
const PAST_WORK = `(?:worked as (?:a |an )?\\p{Ll}+|used to be (?:a|an) \\p{Ll}+|(?:is|was|['’]s) (?:a |an )?(?:retired|former) \\p{Ll}+|(?:drove|worked|taught|ran|served|farmed|nursed)\\b(?=[^.,;!?]{0,50}?\\bfor (?:\\d+|[a-z]+(?:-[a-z]+)?) years\\b)|spent (?:\\d+|[a-z]+) years)`;
const STABLE_THIRD = `(?:(?:is|['’]s) ${AGE}|${PAST_WORK}|got (?:engaged|married|divorced)|(?:is|was|['’]s) (?:engaged|married|pregnant|expecting)\\b|had (?:a|her|his|their) (?:first )?(?:baby|son|daughter)|retired|(?:is|['’]s) retraining|lives|lived|grew up|was born|comes from|(?:is|was|['’]s) from|studies|studied|graduated|teaches|taught|owns|speaks|coaches|volunteers|finished (?:her|his|their) (?:degree|phd|masters|training|apprenticeship)|(?:has|had) (?:a|an|two|three|four|five|\\d+) ${COUNTED}\\b|(?:is|was|['’]s) (?:\\p{Ll}+ly )?(?:(?:a )?(?:strict )?${STATES}|fluent in|(?:coeliac|celiac|diabetic|lactose intolerant))\\b|(?:is|['’]s) (?:now |still |currently )?(?:doing (?:a|an|her|his|their) |studying |learning |training (?:as|for) )|(?:has|had|['’]s got|has got) (?:a |an )?(?:\\p{Ll}+ ){0,3}(?:allergy|allergies|intolerance)\\b|(?:has|had) (?:a|an|like \\d+|\\d+) (?:pet )?(?:parrot|dog|cat|rabbit|horse|tortoise|snake|hamster)s?\\b|(?:has|['’]s) been (?:\\p{L}+ing) [^.,;!?]{1,40}? (?:for|since)\\b|plays (?:the )?\\p{L}+|${HABIT}|runs (?:a|an|her|his|their) (?:small |little |own )?\\p{L}+|(?:is|was|['’]s) (?:a|an|the|my|our|their|his|her) (?=[^.;!?]{0,40}?\\b(?:${IDENTITY_NOUN.source})))`;
/** The same, said of oneself, with the third-person form it takes in a profile. */
const STABLE_FIRST: readonly [RegExp, string][] = [
  [/^(?:live|lives)\b/, 'lives'],
  [/^(?:lived|grew up|was born|studied|graduated|taught|finished (?:my) (?:degree|phd|masters|training|apprenticeship))\b/, '$&'],
  [/^(?:come from|['’]m from|am from)\b/, 'is from'],
  [/^study\b/, 'studies'],
  [/^teach\b/, 'teaches'],
  [/^own\b/, 'owns'],
  [/^speak\b/, 'speaks'],
  [/^coach\b/, 'coaches'],
  [/^volunteer\b/, 'volunteers'],
  [new RegExp(`^(?:have|['’]ve got|have got)(?= (?:a|an|two|three|four|five|\\d+) ${COUNTED}\\b)`), 'has'],
  [new RegExp(`^(?:['’]m|am)(?= ${STATES}\\b)`), 'is'],
];
/** Where a clause about someone begins: the start of a sentence or a clause. */
const CLAUSE_START = `(?:^|(?<=[,;:(] )|(?<=\\b(?:[Nn]ame['’]s|[Nn]ame is|[Cc]alled) )|(?<=\\b(?:and|but|so|also|btw|fyi) )|(?<=\\b[Mm]y (?:[a-z]+ )?[a-z]+ )|(?<=\\b(?:Dr|Mr|Mrs|Ms|Prof|Professor)[.\\u2024]? ))`;
const CLAUSE_REST = `[^.,;!?()]{0,60}?(?=$|[.,;!?()]| (?:but|lol|haha|btw|tbh|fyi|ngl|imo|which|so|and (?:then|i|I|she|he|they|we|my|her|his))\\b|['’])`;

/** Chat's contractions without the apostrophe ("shes at boots now"), spelled out for the role rules. */
function spelledOut(sentence: string): string {
  return sentence.replace(/\b([Ss]he|[Hh]e)s\b/g, "$1's").replace(/\b[Ii]m\b(?= (?:a|an|the|now|at|with|working)\b)/g, "I'm");
}

/** The sentence with its asides taken out, so a name is the subject of what follows them. */
function withoutAsides(sentence: string): string {
  return spelledOut(sentence)
    // "Leila, my former colleague, now works as …": the apposition out, so the name is the subject again.
    .replace(/\b(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+)?), (?:my|our|his|her|their|whom [^,]{1,60}|the [^,]{1,40}) ?[^,]{0,40}, (?=\p{Ll})/gu, '$1 ')
    // "Dmitri, who has worked as …": the relative clause is said of the name.
    .replace(/\b(\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+)?), who (?!m\b)/gu, '$1 ')
    // "she's married", "he's a dentist": a pronoun's 's is always "is" or "has".
    .replace(/\b([Ss]he|[Hh]e)['’]s (?!been\b|got\b|had\b)/g, '$1 is ');
}

/** A clause with no subject after one about someone, saying what else they did or are ("…, drove buses for thirty years"). */
const GOES_ON = new RegExp(`^,\\s+((?:${PAST_WORK}|grew up in|lived in)${CLAUSE_REST})`, 'u');

/** Clauses of a sentence that say what the named person is or has: "Ines is an architect now". */
function saidOf(name: string, sentence: string, author: string | undefined, at: string, only: boolean): string[] {
  if (isHypothetical(sentence)) return [];
  const first = name.split(' ')[0]!;
  // "she" or "he" later in a sentence that names no one else is the person named in it.
  const pronoun = only ? `|(?<=\\b${escapeRegExp(first)}\\b.*)(?:[Ss]he|[Hh]e)` : '';
  // Spoken style repeats the subject: "my dad Abdullah he's been keeping pigeons".
  const pattern = new RegExp(`${CLAUSE_START}(?:(?:${escapeRegExp(name)}|${escapeRegExp(first)})(?:,? (?:[Ss]he|[Hh]e)(?=[ '’]))?${pronoun})(?:['’]s (?=from\\b)|,? |(?=['’]s (?:got|been)\\b))(?:${STABLE_THIRD})${CLAUSE_REST}`, 'gu');
  // "my" is the writer's: "Tom is my manager" from Priya is "Tom is Priya's manager".
  const owner = author && author !== name ? `${author}'s` : "the user's";
  const said = (clause: string) => anchored(trimPhrase(clause.replace(/\bmy\b/g, owner).replace(/\bme\b/g, author ?? 'the user')), at);
  return [...sentence.matchAll(pattern)]
    .flatMap((m) => {
      const clause = said(`${name}${m[0].slice(m[0].startsWith(name) ? name.length : m[0].startsWith(first) ? first.length : m[0].indexOf(' ')).replace(/^,?(?: (?:[Ss]he|[Hh]e)(?=[ '’]))?/, '').replace(/^,/, '')}`);
      // "he's about seventy-five, drove buses in Nottingham for thirty years": the next clause goes on about them.
      const next = GOES_ON.exec(sentence.slice((m.index ?? 0) + m[0].length));
      return next ? [clause, said(`${name} ${next[1]!}`)] : [clause];
    })
    .filter((c) => c.split(' ').length >= 3);
}

/** What a speaker says they are or have ("I grew up in Porto"), said of them: "Nadia grew up in Porto". */
function saidBySelf(name: string, sentence: string, at: string): string[] {
  const clauses: string[] = [];
  for (const m of sentence.matchAll(new RegExp(`${CLAUSE_START}[Ii](?= |['’])`, 'gu'))) {
    const rest = sentence.slice((m.index ?? 0) + 1).replace(/^ (?:(?:now|still|also|actually|currently) )?/, '');
    for (const [pattern, third] of STABLE_FIRST) {
      const verb = rest.match(pattern);
      if (!verb) continue;
      const tail = rest.slice(verb[0].length).match(new RegExp(`^${CLAUSE_REST}`, 'u'))?.[0] ?? '';
      const clause = trimPhrase(`${name} ${third === '$&' ? verb[0] : third}${tail}`.replace(/\bmy\b/g, 'their').replace(/\bme\b/g, 'them'));
      if (clause.split(' ').length >= 3) clauses.push(anchored(clause, at));
      break;
    }
  }
  return clauses;
}

/** What chat puts after a role ("a landscape architect btw", "an auditor now lol"): not part of it. */
const CHAT_TAIL = /(?:\s+(?:btw|lol|lmao|tho|though|fyi|haha|rn|now|atm|too|apparently|i think|iirc))+[\s.,!?]*$/i;

const RELATIVE_TIME = /\s*\b(?:yesterday|yday|today|tonight|this (?:morning|week|month|year)|last (?:night|week|month|year)|recently|just now|\d+ (?:days?|weeks?|months?) ago|a (?:few )?(?:days?|weeks?|months?) ago)\b/i;

/** "Diego graduated yesterday" read later says nothing of when: the day it was said replaces the relative time. */
function anchored(clause: string, at: string): string {
  return RELATIVE_TIME.test(clause) ? `${trimPhrase(clause.replace(RELATIVE_TIME, ''))} (said ${at.slice(0, 10)})` : clause;
}

/** Noun phrases that come up where a contact is mentioned, most frequent first, then what was kept before. */
function topicsOf(observation: Observation, names: readonly string[], previous: readonly string[], known: readonly string[]): string[] {
  const counts = new Map<string, number>();
  const lowerNames = names.flatMap((n) => n.toLowerCase().split(' '));
  for (const { sentence } of observation.mentions) {
    const seen = new Set<string>();
    for (const noun of nlp(sentence).nouns().json() as { terms: { normal: string; tags: string[] }[] }[]) {
      const words = noun.terms
        .filter((t) => !t.tags.some((tag) => ['Determiner', 'Pronoun', 'Possessive', 'Date', 'Duration', 'Value', 'Person', 'Adverb', 'Conjunction', 'Preposition'].includes(tag)))
        .map((t) => t.normal.replace(/[^\p{L}\p{N}' -]/gu, '').trim())
        .filter((w) => w && !lowerNames.includes(w) && !TIME_WORDS.has(w));
      const phrase = words.join(' ');
      if (phrase.length < 4 || words.length > 3 || GENERIC_NOUNS.has(phrase) || seen.has(phrase)) continue;
      seen.add(phrase);
      counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
    }
  }
  // Only what comes up more than once: a phrase seen once is as likely chance as a topic.
  const repeated = [...counts.entries()].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]).map(([phrase]) => phrase);
  const said = [...known].join(' ').toLowerCase();
  const distinct = (list: string[]) => list.filter((p, i) => !said.includes(p) && !list.some((other, j) => j !== i && other.includes(p) && other !== p));
  return distinct(dedupe([...repeated, ...previous], (p) => p)).slice(0, TOPICS_KEPT);
}

const TIME_WORDS = new Set(['last', 'next', 'this', 'that', 'ago', 'early', 'late', 'soon', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const GENERIC_NOUNS = new Set(['here', 'there', 'everyone', 'everything', 'something', 'anything', 'problem', 'details', 'question', 'help', 'lol', 'haha', 'omg', 'thanks', 'thx', 'thing', 'things', 'stuff', 'time', 'times', 'idea', 'people', 'person', 'guy', 'guys', 'lots', 'week', 'weekend', 'month', 'year', 'night', 'morning', 'evening', 'today', 'tomorrow', 'yesterday', 'news', 'update', 'way', 'point', 'sense', 'part', 'kind', 'sort', 'bit', 'life', 'work', 'fine', 'okay', 'good', 'great', 'sure', 'yeah']);

/**
 * A "Said:" clause carries the id of the record it was read from ("has a cat
 * [D1:19]"): the contact line then cites the turn each thing said of them
 * rests on, not only the latest mentions.
 */
const CITATION = / \[([^\]]+)\]$/u;
const cited = (clause: string, recordId: string) => (/[[\].;]/u.test(recordId) ? clause : `${clause} [${recordId}]`);
const uncited = (clause: string) => clause.replace(CITATION, '');
/** A clause that says where someone works or what as ("works at", "is an auditor at", "joined"). */
const WORK_CLAUSE = /\b(?:works?|worked|working) (?:at|for|as)\b|\b(?:is|was) (?:an?|the) [\p{L} -]+? (?:at|for)\b|\b(?:joined|started at|moved to a job at)\b/iu;

/** One clause said twice, in two records, is one clause: the first record's. */
const clauseKey = (clause: string) => uncited(clause).toLowerCase();

/** What a "Said:" clause is about, so a later one on the same thing replaces it. */
function saidKey(name: string, citedClause: string): string {
  const clause = uncited(citedClause);
  const first = name.split(' ')[0]!;
  const rest = clause.slice(clause.startsWith(name) ? name.length : clause.startsWith(first) ? first.length : 0).trim().toLowerCase();
  if (/^(?:lives|lived)\b/.test(rest)) return 'lives';
  if (/^(?:(?:is|was) from|comes from|grew up|was born)\b/.test(rest)) return 'origin';
  if (/^(?:studies|studied|graduated|finished)\b/.test(rest)) return 'studies';
  if (/^(?:is|was) (?:married|engaged|divorced)\b/.test(rest)) return 'marital';
  const has = rest.match(/^(?:has|had) (?:a|an|like \d+|\d+|two|three|four|five) (?:pet )?(\p{L}+?)s?\b/u);
  if (has) return `has ${has[1]}`;
  return rest.split(' ').slice(0, 3).join(' ');
}

/** The "Said:" clauses of a biography this module wrote. */
function saidIn(biography: string): string[] {
  return (biography.match(/(?:^| )Said: ([^.]*)\./)?.[1] ?? '').split('; ').filter(Boolean);
}

/** The day a biography this module wrote says someone was first mentioned. */
function firstMentionIn(biography: string): string | undefined {
  return biography.match(/(?:^| )First mentioned (\d{4}-\d{2}-\d{2})\./)?.[1];
}

/** The "Comes up with:" phrases of a biography this module wrote. */
function topicsIn(biography: string): string[] {
  return (biography.match(/(?:^| )Comes up with: ([^.]*)\./)?.[1] ?? '').split(', ').filter(Boolean);
}

function capitaliseFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The newest mentions first, dated, until the token budget is spent; older summary lines fill what is left. */
export function runningSummary(mentions: { timestamp: string; sentence: string }[], previous: string): string {
  const lines = [...mentions]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .map((mention) => `${mention.timestamp.slice(0, 10)}: ${mention.sentence}`);
  const candidates = dedupe([...lines, ...previous.split('\n').filter(Boolean)], (line) => line);
  const kept: string[] = [];
  let tokens = 0;
  for (const line of candidates) {
    const cost = countTokens(line) + 1;
    if (tokens + cost > SUMMARY_TOKENS) break;
    kept.push(line);
    tokens += cost;
  }
  return kept.join('\n');
}
