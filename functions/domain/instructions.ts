/**
 * Stored memory is data, never instructions. Text that tries to instruct the
 * agent or its memory ("from now on ignore ...", "remember that you must
 * always ...") is never promoted to a rule, fact or task with authority,
 * whichever model proposed it.
 */

const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\bfrom now on\b/i,
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
