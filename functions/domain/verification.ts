/**
 * Verification rules: how one piece of evidence moves an item's standing
 * (status, verification, confidence, independent confirmations). Pure and
 * deterministic; patch application, feedback and the sweep all go through
 * these functions, so each rule is stated (and tested) once. The rules are
 * written out one paragraph each in docs/design/note-lifecycle.md.
 */
import type { Evidence, ItemStatus, MemoryItem, Verification } from './memory.js';

/** What the rules need to know of an item. */
export interface Standing {
  readonly status: ItemStatus;
  readonly verification: Verification;
  readonly confidence: number;
  /** Independent sources that supported the item (records, confirmations, successful outcomes). */
  readonly confirmations: number;
}

/** One piece of evidence about an item. */
export type Signal =
  /** A raw record restating the item. `independent` is false for a record already among its evidence or written by the agent itself. */
  | { readonly kind: 'record'; readonly independent: boolean }
  /** The user (or the agent acting for them) confirmed the item: `helpful` feedback. */
  | { readonly kind: 'confirmation' }
  /** An action taken with the item in context succeeded or failed. */
  | { readonly kind: 'outcome'; readonly success: boolean }
  /** A record states another value for the same key, with nothing saying the old one was wrong. */
  | { readonly kind: 'contradiction' }
  /** A record explicitly corrects the item ("actually, it is ..."). */
  | { readonly kind: 'correction' }
  /** `wrong` feedback. */
  | { readonly kind: 'refutation' }
  /** `outdated` feedback: true once, not any more. */
  | { readonly kind: 'expiry' };

/**
 * What the signal did: `unchanged` (nothing to learn), `reinforced`,
 * `verified` (newly), `restored` (an archived or refuted item is back),
 * `weakened`, `challenged` (a strongly verified item keeps its value; the
 * contradiction is to be verified), `conflict` (both values marked),
 * `superseded`, `refuted`, `archived`.
 */
export type Effect = 'unchanged' | 'reinforced' | 'verified' | 'restored' | 'weakened' | 'challenged' | 'conflict' | 'superseded' | 'refuted' | 'archived';

export interface Transition {
  readonly standing: Standing;
  readonly effect: Effect;
}

export interface VerificationPolicy {
  /** Highest confidence an unverified item can reach: inference alone never looks certain. */
  readonly unverifiedCap: number;
  /** Highest confidence of a verified item. */
  readonly verifiedCap: number;
  /** Share of the remaining distance to the cap that one independent record closes. */
  readonly recordStep: number;
  /** Share closed by a confirmation or a successful outcome. */
  readonly confirmationStep: number;
  /** Share of confidence a failed outcome takes away. */
  readonly failurePenalty: number;
  /** Independent sources that make an item verified without a confirmation. */
  readonly recordsToVerify: number;
  /** Independent sources from which one contradicting record only challenges the item. */
  readonly confirmationsToResist: number;
  /** An unverified item whose confidence falls below this is refuted. */
  readonly refuteBelow: number;
  /** Confidence of a refuted item (kept for audit, never shown). */
  readonly refutedConfidence: number;
}

export const DEFAULT_VERIFICATION_POLICY: VerificationPolicy = {
  unverifiedCap: 0.8,
  verifiedCap: 0.98,
  recordStep: 0.35,
  confirmationStep: 0.5,
  failurePenalty: 0.3,
  recordsToVerify: 2,
  confirmationsToResist: 3,
  refuteBelow: 0.35,
  refutedConfidence: 0.05,
};

const round = (value: number) => Math.round(value * 100) / 100;

/** Moves confidence a share of the way to the cap: growth slows as it nears the cap and never passes it. */
export function growConfidence(confidence: number, step: number, cap: number): number {
  if (confidence >= cap) return round(confidence);
  return round(Math.min(cap, confidence + step * (cap - confidence)));
}

function capOf(verification: Verification, policy: VerificationPolicy): number {
  return verification === 'verified' ? policy.verifiedCap : policy.unverifiedCap;
}

/** The standing of a new item: inferred once, unverified, its confidence bounded by the unverified cap. */
export function initialStanding(confidence: number, policy: VerificationPolicy = DEFAULT_VERIFICATION_POLICY): Standing {
  return { status: 'active', verification: 'unverified', confidence: round(Math.min(confidence, policy.unverifiedCap)), confirmations: 1 };
}

/** The standing an item has now (items written before confirmations were counted: one per distinct evidence record). */
export function standingOf(item: Pick<MemoryItem, 'status' | 'verification' | 'confidence' | 'evidence'> & { readonly confirmations?: number }): Standing {
  return {
    status: item.status,
    verification: item.verification,
    confidence: item.confidence,
    confirmations: item.confirmations ?? new Set(item.evidence.map((e) => e.recordId)).size,
  };
}

/**
 * A record counts as independent support only if it is new to the item and
 * was not written by the agent itself: the agent repeating what memory told
 * it (or the consolidator restating an item) is not evidence.
 */
export function isIndependentRecord(item: Pick<MemoryItem, 'evidence'>, record: Evidence): boolean {
  if (record.role === 'assistant') return false;
  return !item.evidence.some((known) => known.recordId === record.recordId || known.sequence === record.sequence);
}

/** Applies one signal to a standing. */
export function applySignal(standing: Standing, signal: Signal, policy: VerificationPolicy = DEFAULT_VERIFICATION_POLICY): Transition {
  const live = standing.status !== 'archived' && standing.verification !== 'refuted';
  switch (signal.kind) {
    case 'record': {
      // Restatements teach nothing; a refuted or archived item is not revived by records alone.
      if (!signal.independent || !live) return { standing, effect: 'unchanged' };
      const confirmations = standing.confirmations + 1;
      const verification: Verification = standing.verification === 'verified' || confirmations >= policy.recordsToVerify ? 'verified' : 'unverified';
      const confidence = growConfidence(standing.confidence, policy.recordStep, capOf(verification, policy));
      return { standing: { ...standing, confirmations, verification, confidence }, effect: verification !== standing.verification ? 'verified' : 'reinforced' };
    }
    case 'confirmation': {
      const revived = !live || standing.status === 'draft' || standing.status === 'conflict';
      const confidence = growConfidence(Math.max(standing.confidence, live ? 0 : 0.5), policy.confirmationStep, policy.verifiedCap);
      const next: Standing = { status: 'active', verification: 'verified', confidence, confirmations: standing.confirmations + 1 };
      return { standing: next, effect: !live ? 'restored' : revived || standing.verification !== 'verified' ? 'verified' : 'reinforced' };
    }
    case 'outcome': {
      if (!live) return { standing, effect: 'unchanged' };
      if (signal.success) {
        const confidence = growConfidence(standing.confidence, policy.confirmationStep, policy.verifiedCap);
        return {
          standing: { ...standing, verification: 'verified', confidence, confirmations: standing.confirmations + 1 },
          effect: standing.verification === 'verified' ? 'reinforced' : 'verified',
        };
      }
      const confidence = round(standing.confidence * (1 - policy.failurePenalty));
      if (standing.verification === 'verified') {
        // One failure does not undo what was verified; it makes the item something to check.
        return { standing: { ...standing, status: 'conflict', confidence }, effect: 'challenged' };
      }
      if (confidence < policy.refuteBelow) return { standing: { ...standing, verification: 'refuted', confidence: policy.refutedConfidence }, effect: 'refuted' };
      return { standing: { ...standing, confidence }, effect: 'weakened' };
    }
    case 'contradiction': {
      if (!live) return { standing, effect: 'unchanged' };
      if (standing.verification === 'verified' && standing.confirmations >= policy.confirmationsToResist) {
        // A single slip against a fact verified several times: a conflict to verify, not an overwrite.
        // The item keeps its verification (and so its rank); the newcomer waits as a draft.
        return { standing: { ...standing, status: 'conflict' }, effect: 'challenged' };
      }
      return { standing: { ...standing, status: 'conflict' }, effect: 'conflict' };
    }
    case 'correction':
      // An explicit correction wins at once, whatever the old value's standing.
      return { standing: { ...standing, status: 'archived' }, effect: live ? 'superseded' : 'unchanged' };
    case 'refutation':
      if (standing.verification === 'refuted') return { standing, effect: 'unchanged' };
      return { standing: { ...standing, verification: 'refuted', confidence: policy.refutedConfidence }, effect: 'refuted' };
    case 'expiry':
      if (standing.status === 'archived') return { standing, effect: 'unchanged' };
      return { standing: { ...standing, status: 'archived' }, effect: 'archived' };
  }
}

/** Whether an item may be shown as memory (context, snapshot views): never archived, never refuted. */
export function isShown(item: Pick<MemoryItem, 'status' | 'verification'>): boolean {
  return item.status !== 'archived' && item.verification !== 'refuted';
}

/** Ranking weight of an item's verification: confirmed items first, unconfirmed ones after, conflicts last. */
export function verificationWeight(status: string | undefined, verification: unknown): number {
  if (status === 'conflict' || status === 'draft') return 0.8;
  if (verification === 'verified') return 1.1;
  return 1;
}
