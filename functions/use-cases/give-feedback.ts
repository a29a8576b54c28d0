/**
 * Feedback closes the loop: an agent (or its user) says whether an item it
 * was given was helpful, wrong or outdated. The item changes by the
 * verification rules, as an audited change applied with the store's version
 * check, and the snapshot is reassembled so the next read reflects it.
 */
import { randomUUID } from 'node:crypto';
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { applyFeedback, updaterOfItem, type FeedbackRequest } from '../domain/lifecycle.js';
import type { MemoryItem } from '../domain/memory.js';
import type { Effect } from '../domain/verification.js';
import type { InjectionLog } from '../ports/injection-log.js';
import { assembleSnapshot, type SnapshotDependencies } from './assemble-snapshot.js';
import { changeStore, type LifecycleStore } from './store-change.js';

export interface FeedbackDependencies {
  readonly memory: LifecycleStore;
  readonly injections: Pick<InjectionLog, 'read'>;
  readonly snapshot?: SnapshotDependencies;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

export interface FeedbackResult {
  readonly feedbackId: string;
  readonly itemId: string;
  readonly outcome: FeedbackRequest['outcome'];
  readonly effect: Effect;
  readonly item: MemoryItem;
}

/** Applies one piece of feedback. Unknown item or injection: NotFoundError, nothing written. */
export async function giveFeedback(deps: FeedbackDependencies, agent: AgentKey, request: FeedbackRequest): Promise<FeedbackResult> {
  const updater = updaterOfItem(request.itemId);
  if (!updater) throw new NotFoundError(`no memory item ${request.itemId} for agent ${agent.agentId}`);
  if (request.injectionId !== undefined) {
    const injection = await deps.injections.read(agent, request.injectionId);
    if (!injection) throw new NotFoundError(`no context response ${request.injectionId} for agent ${agent.agentId}`);
    if (!injection.items.some((included) => included.id === request.itemId)) {
      throw new ValidationError([{ field: 'itemId', rule: `was not injected by context response ${request.injectionId}` }]);
    }
  }
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const feedbackId = (deps.newId ?? randomUUID)();
  const { result } = await changeStore(deps.memory, agent, updater, now, (store) => {
    const item = store.items.find((candidate) => candidate.id === request.itemId);
    if (!item) throw new NotFoundError(`no memory item ${request.itemId} for agent ${agent.agentId}`);
    const next = applyFeedback(item, request, { feedbackId, now, batch: store.lastBatch });
    return {
      changes: [{ before: item, after: next.item }],
      changeId: `feedback-${feedbackId}`,
      origin: {
        kind: 'feedback',
        feedbackId,
        itemId: request.itemId,
        outcome: request.outcome,
        ...(request.injectionId ? { injectionId: request.injectionId } : {}),
        ...(request.note ? { note: request.note } : {}),
        ...(request.evidence ? { evidence: request.evidence } : {}),
      },
      result: { feedbackId, itemId: request.itemId, outcome: request.outcome, effect: next.effect, item: next.item },
    };
  });
  if (deps.snapshot) await assembleSnapshot(deps.snapshot, agent);
  return result;
}
