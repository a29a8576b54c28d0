/** Ports of the memory stores (contacts, facts, tasks) and their audit log. */
import type { AgentKey } from '../domain/agent-key.js';
import type { FactTable, ItemStatus, MemoryItem, PatchOp, UpdaterName, UpdaterStore } from '../domain/memory.js';
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
  /** Set on changes that are not a batch's consolidation (feedback, revert, usage counts, forgetting). */
  readonly origin?: ChangeOrigin;
  /** Redaction placeholders in the batch's records the model read, by type (`secret:password`: 2); never the secret. */
  readonly redactions?: Readonly<Record<string, number>>;
  /** How the batch was read when it did not fit one call: chunks, records cut to fit, records left unread. */
  readonly reading?: BatchReading;
}

export interface BatchReading {
  readonly chunks?: number;
  readonly cut?: readonly { readonly recordId: string; readonly tokens: number; readonly keptTokens: number }[];
  readonly unread?: { readonly recordIds: readonly string[]; readonly reason: string };
}

/** Why a change outside consolidation was made. */
export type ChangeOrigin =
  | {
      readonly kind: 'feedback';
      readonly feedbackId: string;
      readonly itemId: string;
      readonly outcome: 'helpful' | 'wrong' | 'outdated';
      readonly injectionId?: string;
      readonly note?: string;
      readonly evidence?: readonly string[];
    }
  | { readonly kind: 'revert'; readonly reverts: number; readonly conflicts: readonly { readonly itemId: string; readonly reason: string }[] }
  | { readonly kind: 'usage'; readonly injections: number; readonly through: string }
  | { readonly kind: 'outcome'; readonly records: readonly string[]; readonly through: number }
  | { readonly kind: 'forget'; readonly policy: Readonly<Record<string, number>> }
  | { readonly kind: 'purge'; readonly items: readonly string[]; readonly afterDays: number };

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
  /** A store page by page; `status` keeps only items in that status (e.g. `archived`). */
  listItems(agent: AgentKey, updater: UpdaterName, page: { limit: number; nextToken?: string; status?: ItemStatus }): Promise<ItemPage>;
  readAudit(agent: AgentKey, batchIndex: number, updater: UpdaterName): Promise<AuditEntry | undefined>;
  readView(agent: AgentKey, updater: UpdaterName): Promise<UpdaterView | undefined>;
}

/**
 * A change to one updater's store outside consolidation. It moves the store
 * version (so it is serialised with batches by the same check) but never the
 * applied batch; its audit entry is filed under `batch` (the batch it refers
 * to: the last applied one, or the batch a revert undoes) and `changeId`.
 */
export interface StoreChange {
  readonly updater: UpdaterName;
  readonly expectedVersion: number;
  readonly batch: number;
  /** Unique per batch and updater (`[A-Za-z0-9_-]`); a second change with the same id is refused. */
  readonly changeId: string;
  readonly changes: readonly ItemChange[];
  /** Item ids deleted from the store in the same transaction (archived items past retention). */
  readonly deletes?: readonly string[];
  readonly tables?: readonly FactTable[];
  readonly audit: AuditEntry;
  readonly view: UpdaterView;
  /** A progress marker written in the same transaction (e.g. how far the injection log was counted). */
  readonly cursor?: { readonly name: string; readonly value: string };
}

/** One audit entry with where it is filed. */
export interface AuditRecord {
  readonly updater: UpdaterName;
  readonly batch: number;
  /** Absent for a batch's consolidation entry. */
  readonly changeId?: string;
  readonly entry: AuditEntry;
}

/**
 * Changes outside consolidation (feedback, revert, usage, forgetting), and
 * the audit log read as a whole. `commitChange` is atomic like `commit`.
 */
export interface MemoryRevisions {
  /** Throws StoreVersionConflictError when the store moved on, ChangeAlreadyAppliedError when `changeId` is taken. */
  commitChange(agent: AgentKey, change: StoreChange): Promise<void>;
  /** Audit entries in key order (batch, then updater, then change), optionally of one updater and/or one batch. */
  listAudit(agent: AgentKey, filter: { readonly updater?: UpdaterName; readonly batch?: number }): Promise<AuditRecord[]>;
  readCursor(agent: AgentKey, name: string): Promise<string | undefined>;
}
