/** Ports of the memory stores (contacts, facts, tasks) and their audit log. */
import type { AgentKey } from '../domain/agent-key.js';
import type { FactTable, MemoryItem, PatchOp, UpdaterName, UpdaterStore } from '../domain/memory.js';
import type { ItemChange } from '../domain/patch.js';
import type { UpdaterView } from '../domain/views.js';
import type { BatchRange } from '../domain/sequencing.js';
import { MemoryServiceError } from '../domain/errors.js';

/** Another writer moved the store head first, or the batch was already applied; the updater reruns on fresh state. */
export class StoreVersionConflictError extends MemoryServiceError {
  override readonly name = 'StoreVersionConflictError';
}

/** A patch that cannot be applied in one atomic commit (DynamoDB allows 100 items, 400 KB each). */
export class PatchTooLargeError extends MemoryServiceError {
  override readonly name = 'PatchTooLargeError';
}

/** One applied patch, as the audit log keeps it: enough to diff and to reverse. */
export interface AuditEntry {
  readonly updater: UpdaterName;
  readonly batch: BatchRange;
  readonly appliedAt: string;
  readonly modelId: string;
  readonly prompt: { readonly id: string; readonly version: string };
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly ops: readonly PatchOp[];
  readonly changes: readonly ItemChange[];
  readonly quarantined: readonly { readonly op: PatchOp; readonly reason: string }[];
  readonly tablesBefore?: readonly FactTable[];
  readonly tablesAfter?: readonly FactTable[];
}

export interface UpdaterCommit {
  readonly updater: UpdaterName;
  /** The store head version the patch was computed against. */
  readonly expectedVersion: number;
  readonly batch: BatchRange;
  readonly changes: readonly ItemChange[];
  /** The fact tables after the patch, when they changed. */
  readonly tables?: readonly FactTable[];
  readonly audit: AuditEntry;
  readonly view: UpdaterView;
}

export interface StoreHead {
  readonly updater: UpdaterName;
  readonly version: number;
  readonly lastBatch: number;
}

export interface ItemPage {
  readonly items: readonly MemoryItem[];
  readonly nextToken?: string;
}

/**
 * The memory stores. `commit` is all or nothing as readers see it: the store
 * head moves to the next version, every changed item, the audit entry (which
 * doubles as the per-batch, per-updater completion marker) and the refreshed
 * view become visible together. A patch too large for one transaction is
 * staged (recorded, items written, then head, audit and view last); until it
 * finishes, `load` reports `pendingBatch` and shows the items as before, and
 * `resume` completes it from its record without recomputing it.
 */
export interface MemoryStore {
  loadHeads(agent: AgentKey, updaters: readonly UpdaterName[]): Promise<StoreHead[]>;
  load(agent: AgentKey, updater: UpdaterName): Promise<UpdaterStore>;
  commit(agent: AgentKey, commit: UpdaterCommit): Promise<void>;
  /** Finishes the staged commit of `batchIndex`, if one was started; returns it, or undefined when there is none. */
  resume(agent: AgentKey, updater: UpdaterName, batchIndex: number): Promise<UpdaterCommit | undefined>;
  listItems(agent: AgentKey, updater: UpdaterName, page: { limit: number; nextToken?: string }): Promise<ItemPage>;
  readAudit(agent: AgentKey, batchIndex: number, updater: UpdaterName): Promise<AuditEntry | undefined>;
  readView(agent: AgentKey, updater: UpdaterName): Promise<UpdaterView | undefined>;
}
