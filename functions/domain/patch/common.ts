/**
 * What every updater's patch application shares: the patch's working state
 * (items by id, what changed, refs and aliases), and the item-level changes
 * (reinforce, archive, mark to verify, propose, merge) the updaters apply.
 */
import { createHash } from 'node:crypto';
import { MemoryServiceError } from '../errors.js';
import { looksLikeInstruction } from '../instructions.js';
import { applySignal, initialStanding, isIndependentRecord, standingOf } from '../verification.js';
import { sharedProject, widenedProject } from '../scope.js';
import type { SourcePriority } from '../conflict-priority.js';
import {
  ALIAS_PREFIX,
  type Evidence,
  type FactTable,
  type FieldChange,
  type ItemScope,
  type MemoryItem,
  type PatchOp,
  type UpdaterName,
  type UpdaterStore,
} from '../memory.js';

/** The model's output broke a rule (unknown alias, evidence outside the batch, ...). */
export class InvalidModelOutputError extends MemoryServiceError {
  override readonly name = 'InvalidModelOutputError';
}

export interface PatchContext {
  readonly updater: UpdaterName;
  readonly batch: number;
  readonly now: string;
  readonly scope: ItemScope;
  /** The batch's records by record id. */
  readonly records: ReadonlyMap<string, Evidence>;
  /** Alias (C1, F2, T3) to item id, as given to the model. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Items this patch may still change (a batch read in chunks shares one cap); default MAX_CHANGED_ITEMS_PER_BATCH. */
  readonly maxChanged?: number;
}

export interface ItemChange {
  readonly before: MemoryItem | null;
  readonly after: MemoryItem;
}

export interface PatchResult {
  readonly items: readonly MemoryItem[];
  readonly tables: readonly FactTable[];
  readonly changes: readonly ItemChange[];
  readonly tablesChanged: boolean;
  /** Operations refused because their text reads as an instruction. */
  readonly quarantined: readonly { readonly op: PatchOp; readonly reason: string }[];
}

const MAX_EVIDENCE_PER_ITEM = 50;
/** Per-item array caps, so no item grows without bound (DynamoDB items hold 400 KB). */
export const ITEM_ARRAY_CAPS = { evidence: MAX_EVIDENCE_PER_ITEM, history: 50, aliases: 20, relationships: 30, preferences: 30, channels: 20 } as const;
/**
 * Items one updater may change in one batch. Operations after the cap is
 * reached are quarantined (kept in the audit with the reason) rather than
 * failing the batch; a patch under the cap but over one transaction is
 * committed in steps by the store.
 */
export const MAX_CHANGED_ITEMS_PER_BATCH = 500;

/** Gives the model short aliases for existing items, and the way back. */
export function aliasItems(updater: UpdaterName, items: readonly MemoryItem[]) {
  const prefix = ALIAS_PREFIX[updater];
  const aliasOf = new Map<string, string>();
  const idOf = new Map<string, string>();
  items.forEach((item, index) => {
    const alias = `${prefix}${index + 1}`;
    aliasOf.set(item.id, alias);
    idOf.set(alias, item.id);
  });
  return { aliasOf, idOf };
}

export function itemId(updater: UpdaterName, scope: ItemScope, ...parts: (string | number)[]): string {
  const digest = createHash('sha256').update([scope.tenantId, scope.agentId, updater, ...parts].join('\u0000')).digest('hex');
  return `${ALIAS_PREFIX[updater].toLowerCase()}_${digest.slice(0, 16)}`;
}

export class PatchState {
  readonly items = new Map<string, MemoryItem>();
  readonly before = new Map<string, MemoryItem | null>();
  tables: FactTable[];
  tablesChanged = false;
  readonly quarantined: { op: PatchOp; reason: string }[] = [];

  constructor(
    store: UpdaterStore,
    readonly context: PatchContext,
  ) {
    for (const item of store.items) this.items.set(item.id, item);
    this.tables = [...store.tables];
  }

  /** Items added earlier in this patch, by their `ref`. */
  readonly refs = new Map<string, string>();
  /** The source priority of values this patch created (domain/conflict-priority.ts); stored items rank as `memory`. */
  readonly priorities = new Map<string, SourcePriority>();

  remember(ref: string | undefined, id: string): void {
    if (ref !== undefined) this.refs.set(`new:${ref}`, id);
  }

  resolve(alias: string): MemoryItem {
    const id = this.refs.get(alias) ?? this.context.aliases.get(alias);
    const item = id === undefined ? undefined : this.items.get(id);
    if (!item) throw new InvalidModelOutputError(`${this.context.updater}: unknown item alias ${alias}`);
    return item;
  }

  evidence(ids: readonly string[]): Evidence[] {
    return ids.map((id) => {
      const evidence = this.context.records.get(id);
      if (!evidence) throw new InvalidModelOutputError(`${this.context.updater}: evidence ${id} is not a record of this batch`);
      return evidence;
    });
  }

  put(item: MemoryItem): void {
    if (!this.before.has(item.id)) this.before.set(item.id, this.items.get(item.id) ?? null);
    this.items.set(item.id, bounded(item));
  }

  active(): MemoryItem[] {
    return [...this.items.values()].filter((item) => item.status !== 'archived');
  }

  result(): PatchResult {
    const changes: ItemChange[] = [];
    for (const [id, before] of this.before) {
      const after = this.items.get(id)!;
      if (before === null || JSON.stringify(before) !== JSON.stringify(after)) changes.push({ before, after });
    }
    return { items: [...this.items.values()], tables: this.tables, changes, tablesChanged: this.tablesChanged, quarantined: this.quarantined };
  }
}

/** Keeps an item's arrays within ITEM_ARRAY_CAPS: the newest evidence and history, the first aliases and details. */
export function bounded<T extends MemoryItem>(item: T): T {
  let next: MemoryItem = item;
  if (item.evidence.length > ITEM_ARRAY_CAPS.evidence) next = { ...next, evidence: item.evidence.slice(-ITEM_ARRAY_CAPS.evidence) };
  if (item.history.length > ITEM_ARRAY_CAPS.history) next = { ...next, history: item.history.slice(-ITEM_ARRAY_CAPS.history) };
  if (next.kind === 'contact') {
    const contact = next;
    if (contact.aliases.length > ITEM_ARRAY_CAPS.aliases) next = { ...contact, aliases: contact.aliases.slice(0, ITEM_ARRAY_CAPS.aliases) };
    if (contact.relationships.length > ITEM_ARRAY_CAPS.relationships) next = { ...(next as typeof contact), relationships: contact.relationships.slice(-ITEM_ARRAY_CAPS.relationships) };
    if (contact.preferences.length > ITEM_ARRAY_CAPS.preferences) next = { ...(next as typeof contact), preferences: contact.preferences.slice(-ITEM_ARRAY_CAPS.preferences) };
    if (contact.channels.length > ITEM_ARRAY_CAPS.channels) next = { ...(next as typeof contact), channels: contact.channels.slice(-ITEM_ARRAY_CAPS.channels) };
  }
  return next as T;
}

export function instructionText(op: PatchOp): string | undefined {
  const texts: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  const { evidence: _evidence, ...payload } = op as PatchOp & { evidence?: unknown };
  collect(payload);
  return texts.find(looksLikeInstruction);
}

/** An item's scope: the agent's, narrowed to the project its evidence shares (see domain/scope.ts). */
export function scopeFrom(state: PatchState, evidence: readonly Evidence[]): ItemScope {
  const project = sharedProject(evidence);
  return project ? { ...state.context.scope, project } : state.context.scope;
}

export const projectOfItem = (item: MemoryItem) => item.scope.project;

export function baseItem(state: PatchState, id: string, evidence: Evidence[], scope: ItemScope = scopeFrom(state, evidence)) {
  const { now } = state.context;
  return {
    id,
    scope,
    ...initialStanding(0.7),
    hitCount: 1,
    createdAt: now,
    updatedAt: now,
    lastReinforcedAt: now,
    evidence,
    history: [] as FieldChange[],
  };
}

export function mergeEvidence(existing: readonly Evidence[], added: readonly Evidence[]): Evidence[] {
  const bySequence = new Map(existing.map((evidence) => [evidence.sequence, evidence]));
  for (const evidence of added) bySequence.set(evidence.sequence, evidence);
  return [...bySequence.values()].sort((a, b) => a.sequence - b.sequence).slice(-MAX_EVIDENCE_PER_ITEM);
}

export function reinforce<T extends MemoryItem>(state: PatchState, item: T, evidence: Evidence[]): T {
  const fresh = evidence.some((e) => !item.evidence.some((known) => known.sequence === e.sequence));
  // Confidence moves by the verification rules: only records new to the item and not written
  // by the agent itself count, so the consolidator restating an item never raises it.
  const independent = new Map(evidence.filter((e) => isIndependentRecord(item, e)).map((e) => [e.recordId, e]));
  let standing = standingOf(item);
  for (let i = 0; i < independent.size; i += 1) standing = applySignal(standing, { kind: 'record', independent: true }).standing;
  // Supported in another project too: the item is no longer one project's.
  const project = widenedProject(item.scope.project, evidence);
  const widened = project !== item.scope.project;
  const { project: _project, ...agentWide } = item.scope;
  return {
    ...item,
    ...(widened ? { scope: agentWide, history: [...item.history, change(state, 'scope.project', item.scope.project, null, evidence)] } : {}),
    evidence: mergeEvidence(item.evidence, evidence),
    hitCount: item.hitCount + (fresh ? 1 : 0),
    verification: standing.verification,
    confidence: standing.confidence,
    confirmations: standing.confirmations,
    ...(independent.size > 0 ? { lastReinforcedAt: state.context.now } : {}),
    updatedAt: state.context.now,
  };
}

export function change(state: PatchState, field: string, from: unknown, to: unknown, evidence: Evidence[]): FieldChange {
  return { field, from: from ?? null, to, at: state.context.now, batch: state.context.batch, evidence: evidence.map((e) => e.recordId) };
}

export function archive<T extends MemoryItem>(state: PatchState, item: T, note: string, evidence: Evidence[], supersededBy?: string): T {
  return {
    ...item,
    status: 'archived',
    note,
    ...(supersededBy ? { supersededBy } : {}),
    history: [...item.history, change(state, 'status', item.status, 'archived', evidence)],
    updatedAt: state.context.now,
  };
}

export function markToVerify<T extends MemoryItem>(state: PatchState, item: T, reason: string, evidence: Evidence[]): T {
  return {
    ...item,
    status: 'draft',
    verification: 'unverified',
    note: reason,
    evidence: mergeEvidence(item.evidence, evidence),
    history: [...item.history, change(state, 'status', item.status, 'draft', evidence)],
    updatedAt: state.context.now,
  };
}

/** Whether only tool records say it: a tool's text may not close a task or rewrite a contact on its own. */
export const onlyFromTools = (evidence: readonly Evidence[]) => evidence.length > 0 && evidence.every((e) => e.role === 'tool');

/** Keeps the fields a tool record would change as a proposal to verify, leaving the item's values as they are. */
export function propose<T extends MemoryItem>(state: PatchState, item: T, fields: Record<string, unknown>, evidence: Evidence[]): T {
  const summary = Object.entries(fields).map(([field, value]) => `${field}: ${String(value)}`).join(', ');
  return {
    ...item,
    proposedChange: { fields, evidence: evidence.map((e) => e.recordId), at: state.context.now },
    note: `to verify: a tool record (${evidence.map((e) => e.recordId).join(', ')}) says ${summary}`,
    updatedAt: state.context.now,
  };
}

export const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '').replace(/\s+/g, ' ').trim();

export function mergeItems(
  state: PatchState,
  targets: readonly string[],
  evidence: Evidence[],
  combine: (survivor: MemoryItem, other: MemoryItem) => MemoryItem,
): void {
  const [first, ...rest] = targets.map((alias) => state.resolve(alias));
  let survivor = first!;
  for (const other of rest) {
    if (other.id === survivor.id) continue;
    survivor = combine(survivor, other);
    survivor = { ...survivor, evidence: mergeEvidence(survivor.evidence, other.evidence), hitCount: survivor.hitCount + other.hitCount, supersedes: [...(survivor.supersedes ?? []), other.id] } as MemoryItem;
    state.put(archive(state, other, `merged into ${survivor.id}`, evidence, survivor.id));
  }
  state.put(reinforce(state, survivor, evidence));
}
