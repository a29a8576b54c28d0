/**
 * Planning an updater's model input so a batch of any size is read, never
 * failed: records are split into chunks that each fit the per-call prompt
 * cap, and when even that is more than the updater's share of the batch
 * budget allows, the longest records are cut (each to the same length), so
 * every record is read at least in part and short ones are never touched.
 */
import { cutAndPack, waterLevel, type TextOf } from '../domain/chunking.js';
import { renderRecords } from '../domain/prompts/render.js';
import type { PromptRecord } from '../ports/model.js';
import { countTokens } from '../commons/tokens.js';

/** Records' room in one call never falls below this, however large the rest of the prompt. */
export const MIN_RECORD_TOKENS_PER_CALL = 2_000;

export interface InputPlanLimits {
  /** The cap on one call's prompt, in tokens (what the model is sent, not what it answers). */
  readonly maxPromptTokens: number;
  /** This updater's share of the batch's calls and input tokens. */
  readonly maxCalls: number;
  readonly maxInputTokens: number;
}

export interface RecordCut {
  readonly recordId: string;
  readonly tokens: number;
  readonly keptTokens: number;
}

export interface InputPlan {
  readonly chunks: readonly (readonly PromptRecord[])[];
  readonly cut: readonly RecordCut[];
}

/**
 * @param overheadTokens the prompt without its records (instructions,
 *   existing items, tables), measured for the first call.
 */
export function planModelInput(records: readonly PromptRecord[], overheadTokens: number, limits: InputPlanLimits): InputPlan {
  const perCall = Math.max(MIN_RECORD_TOKENS_PER_CALL, limits.maxPromptTokens - overheadTokens);
  const sizes = records.map((record) => countTokens(renderRecords([record])));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= perCall) return { chunks: records.length > 0 ? [records] : [], cut: [] };
  // How many calls the share allows, each paying the overhead again; at least one.
  const calls = Math.max(1, Math.min(limits.maxCalls, Math.floor(limits.maxInputTokens / (overheadTokens + perCall))));
  // No record may be longer than one call's room, nor (in sum) than the calls allow. Packing
  // wastes the end of some chunks, so the level is lowered until the chunks fit the calls.
  let target = calls * perCall;
  let best = fit(records, sizes, Math.min(perCall, waterLevel(sizes, target)), perCall);
  for (let round = 0; round < 8 && best.chunks.length > calls; round += 1) {
    target = Math.floor((target * calls) / best.chunks.length) - 1;
    best = fit(records, sizes, Math.min(perCall, waterLevel(sizes, Math.max(records.length, target))), perCall);
  }
  return best;
}

const CONTENT: TextOf<PromptRecord> = { get: (record) => record.content, set: (record, content) => ({ ...record, content }) };

/** Records cut to `level` tokens each (when longer), then packed into chunks of `perCall`. */
function fit(records: readonly PromptRecord[], sizes: readonly number[], level: number, perCall: number): InputPlan {
  const { chunks, cut } = cutAndPack(records, sizes, level, perCall, CONTENT, countTokens);
  return { chunks, cut: cut.map(({ index, tokens, keptTokens }) => ({ recordId: records[index]!.id, tokens, keptTokens })) };
}
