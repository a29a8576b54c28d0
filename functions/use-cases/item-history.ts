/**
 * An item's history, read from the audit: every version with the batch and
 * patch that made it. Read-only, so the store pages' function can serve it
 * without the snapshot and index machinery a revert needs.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError } from '../domain/errors.js';
import { updaterOfItem } from '../domain/lifecycle.js';
import type { MemoryItem, UpdaterName } from '../domain/memory.js';
import type { AuditRecord, ChangeOrigin } from '../ports/memory-store.js';
import type { LifecycleStore } from './store-change.js';

export interface ItemVersion {
  readonly version: number;
  readonly appliedAt: string;
  readonly batch: number;
  /** consolidation, feedback, revert, usage or forget. */
  readonly cause: string;
  /** Where the patch is filed: `GET /audit?batch=N` lists it. */
  readonly patch: { readonly updater: UpdaterName; readonly batch: number; readonly changeId?: string; readonly modelId: string; readonly prompt: { readonly id: string; readonly version: string }; readonly ops: number };
  readonly origin?: ChangeOrigin;
  readonly before: MemoryItem | null;
  readonly after: MemoryItem;
}

/** Every version of one item, oldest first, each with the batch and patch that made it. */
export async function itemHistory(memory: Pick<LifecycleStore, 'listAudit'>, agent: AgentKey, itemId: string): Promise<{ itemId: string; versions: ItemVersion[] }> {
  const updater = updaterOfItem(itemId);
  const records: AuditRecord[] = updater ? await memory.listAudit(agent, { updater }) : [];
  const versions = records
    .flatMap((record) => record.entry.changes.filter((change) => change.after.id === itemId).map((change) => ({ record, change })))
    .sort((a, b) => a.record.entry.appliedAt.localeCompare(b.record.entry.appliedAt))
    .map(({ record, change }, index): ItemVersion => ({
      version: index + 1,
      appliedAt: record.entry.appliedAt,
      batch: record.batch,
      cause: record.entry.origin?.kind ?? 'consolidation',
      patch: {
        updater: record.updater,
        batch: record.batch,
        ...(record.changeId ? { changeId: record.changeId } : {}),
        modelId: record.entry.modelId,
        prompt: record.entry.prompt,
        ops: record.entry.ops.length,
      },
      ...(record.entry.origin ? { origin: record.entry.origin } : {}),
      before: change.before,
      after: change.after,
    }));
  if (versions.length === 0) throw new NotFoundError(`no memory item ${itemId} for agent ${agent.agentId}`);
  return { itemId, versions };
}
