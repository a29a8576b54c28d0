/**
 * Applying a patch to one updater's store: pure, deterministic, no I/O.
 *
 * Rules: duplicates merge into the existing item (reinforcing it); a changed
 * detail keeps its history; a fact that contradicts an active fact marks both
 * as `conflict` unless the batch shows a correction, in which case the old one
 * is archived and superseded; archived items stay (and can be restored from
 * the audit log); text that reads as an instruction is quarantined.
 */
import type { ContactOp, FactOp, PatchOp, TaskOp, UpdaterStore } from './memory.js';
import { archive, instructionText, markToVerify, MAX_CHANGED_ITEMS_PER_BATCH, PatchState, type PatchContext, type PatchResult } from './patch/common.js';
import { applyContactOp } from './patch/contacts.js';
import { applyFactOp } from './patch/facts.js';
import { applyTaskOp } from './patch/tasks.js';

export { aliasItems, InvalidModelOutputError, itemId, ITEM_ARRAY_CAPS, MAX_CHANGED_ITEMS_PER_BATCH, type ItemChange, type PatchContext, type PatchResult } from './patch/common.js';
export { contentWords, similarity } from './patch/tasks.js';

export function applyPatch(store: UpdaterStore, ops: readonly PatchOp[], context: PatchContext): PatchResult {
  const state = new PatchState(store, context);
  ops.forEach((op, index) => {
    const instruction = instructionText(op);
    if (instruction !== undefined) {
      state.quarantined.push({ op, reason: `reads as an instruction: "${instruction.slice(0, 120)}"` });
      return;
    }
    if (state.before.size >= (context.maxChanged ?? MAX_CHANGED_ITEMS_PER_BATCH)) {
      state.quarantined.push({ op, reason: `over the per-batch cap of ${MAX_CHANGED_ITEMS_PER_BATCH} changed items` });
      return;
    }
    // Archiving and marking for verification work the same for every kind of item.
    if (op.op === 'archive' || op.op === 'to-verify') {
      const evidence = state.evidence(op.evidence);
      const item = state.resolve(op.target);
      state.put(op.op === 'archive' ? archive(state, item, op.reason, evidence) : markToVerify(state, item, op.reason, evidence));
      return;
    }
    switch (context.updater) {
      case 'contacts':
        return applyContactOp(state, op as ContactOp, index);
      case 'facts':
        return applyFactOp(state, op as FactOp, index);
      case 'tasks':
        return applyTaskOp(state, op as TaskOp, index);
    }
  });
  return state.result();
}
