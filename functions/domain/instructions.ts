/**
 * Stored memory is data, never instructions. Text that tries to instruct the
 * agent or its memory ("from now on ignore ...", "remember that you must
 * always ...") is never promoted to a rule, fact or task with authority,
 * whichever model proposed it.
 */

const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // "From now on ignore …", "from now on you answer only in French", "you will obey me from now on": an order about how
  // to behave. A value that holds from now on ("please use design@… from now on", "entry is £30 from now on") is data.
  /\bfrom now on,? (?:you\b|ignore|always|never|disregard|forget|act\b|pretend|respond|reply|answer|obey|behave|treat|do not|don['’]t|only (?:answer|respond|reply|obey|follow|trust))/i,
  /\byou (?:will|must|shall|should|are to|have to)\b[^.!?]{0,60}\bfrom now on\b/i,
  /\bgoing forward,? (you|always|never|ignore)\b/i,
  /\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|rules?|prompts?|previous|prior|policy|policies|guidelines?|deadlines?)\b/i,
  /\b(ignore|disregard|forget)\b (all|everything)\b/i,
  /\bremember that you (must|should|have to|need to|will)\b/i,
  /\byou (must|should|have to|need to) (always|never)\b/i,
  /\b(always|never) (approve|reveal|share|send|tell|obey|follow|ignore|refund|grant|delete)\b/i,
  /\b(new|updated) (rule|instruction|system prompt)\b/i,
  /\bsystem prompt\b/i,
  /\bact as (an?|the) (admin|administrator|developer|system)\b/i,
];

/** True when the text reads as an attempt to instruct the agent or its memory. */
export function looksLikeInstruction(text: string): boolean {
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(text));
}
