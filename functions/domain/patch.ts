/**
 * Applying a patch to one updater's store: pure, deterministic, no I/O.
 *
 * Rules: duplicates merge into the existing item (reinforcing it); a changed
 * detail keeps its history; a fact that contradicts an active fact marks both
 * as `conflict` unless the batch shows a correction, in which case the old one
 * is archived and superseded; archived items stay (and can be restored from
 * the audit log); text that reads as an instruction is quarantined.
 */
import { createHash } from 'node:crypto';
import { MemoryServiceError } from './errors.js';
import { looksLikeInstruction } from './instructions.js';
import { applySignal, initialStanding, isIndependentRecord, isShown, standingOf } from './verification.js';
import { sharedProject, widenedProject } from './scope.js';
import { newValuePriority, supersedes, type SourcePriority } from './conflict-priority.js';
import {
  ALIAS_PREFIX,
  type ContactItem,
  type ContactOp,
  type Evidence,
  type FactItem,
  type FactOp,
  type FactTable,
  type FieldChange,
  type ItemScope,
  type MemoryItem,
  type PatchOp,
  type TaskItem,
  type TaskOp,
  type UpdaterName,
  type UpdaterStore,
} from './memory.js';

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

export function applyPatch(store: UpdaterStore, ops: readonly PatchOp[], context: PatchContext): PatchResult {
  const state = new PatchState(store, context);
  ops.forEach((op, index) => {
    const instruction = instructionText(op);
    if (instruction !== undefined) {
      state.quarantined.push({ op, reason: `reads as an instruction: "${instruction.slice(0, 120)}"` });
      return;
    }
    if (state.before.size >= MAX_CHANGED_ITEMS_PER_BATCH) {
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

class PatchState {
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
function bounded<T extends MemoryItem>(item: T): T {
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

function instructionText(op: PatchOp): string | undefined {
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
function scopeFrom(state: PatchState, evidence: readonly Evidence[]): ItemScope {
  const project = sharedProject(evidence);
  return project ? { ...state.context.scope, project } : state.context.scope;
}

const projectOfItem = (item: MemoryItem) => item.scope.project;

function baseItem(state: PatchState, id: string, evidence: Evidence[], scope: ItemScope = scopeFrom(state, evidence)) {
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

function mergeEvidence(existing: readonly Evidence[], added: readonly Evidence[]): Evidence[] {
  const bySequence = new Map(existing.map((evidence) => [evidence.sequence, evidence]));
  for (const evidence of added) bySequence.set(evidence.sequence, evidence);
  return [...bySequence.values()].sort((a, b) => a.sequence - b.sequence).slice(-MAX_EVIDENCE_PER_ITEM);
}

function reinforce<T extends MemoryItem>(state: PatchState, item: T, evidence: Evidence[]): T {
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

function change(state: PatchState, field: string, from: unknown, to: unknown, evidence: Evidence[]): FieldChange {
  return { field, from: from ?? null, to, at: state.context.now, batch: state.context.batch, evidence: evidence.map((e) => e.recordId) };
}

function archive<T extends MemoryItem>(state: PatchState, item: T, note: string, evidence: Evidence[], supersededBy?: string): T {
  return {
    ...item,
    status: 'archived',
    note,
    ...(supersededBy ? { supersededBy } : {}),
    history: [...item.history, change(state, 'status', item.status, 'archived', evidence)],
    updatedAt: state.context.now,
  };
}

function markToVerify<T extends MemoryItem>(state: PatchState, item: T, reason: string, evidence: Evidence[]): T {
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
const onlyFromTools = (evidence: readonly Evidence[]) => evidence.length > 0 && evidence.every((e) => e.role === 'tool');

/** Keeps the fields a tool record would change as a proposal to verify, leaving the item's values as they are. */
function propose<T extends MemoryItem>(state: PatchState, item: T, fields: Record<string, unknown>, evidence: Evidence[]): T {
  const summary = Object.entries(fields).map(([field, value]) => `${field}: ${String(value)}`).join(', ');
  return {
    ...item,
    proposedChange: { fields, evidence: evidence.map((e) => e.recordId), at: state.context.now },
    note: `to verify: a tool record (${evidence.map((e) => e.recordId).join(', ')}) says ${summary}`,
    updatedAt: state.context.now,
  };
}

// --- contacts ---------------------------------------------------------------

const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '').replace(/\s+/g, ' ').trim();

function findContact(state: PatchState, name: string): ContactItem | undefined {
  const wanted = normalise(name);
  return state
    .active()
    .filter((item): item is ContactItem => item.kind === 'contact')
    .find((contact) => normalise(contact.name) === wanted || contact.aliases.some((alias) => normalise(alias) === wanted));
}

type ContactFields = Extract<ContactOp, { op: 'update' }>['changes'];

function updateContact(state: PatchState, contact: ContactItem, fields: ContactFields, evidence: Evidence[]): ContactItem {
  const identity = Object.fromEntries((['name', 'role', 'organisation'] as const).filter((f) => fields[f] !== undefined && fields[f] !== contact[f]).map((f) => [f, fields[f]]));
  if (onlyFromTools(evidence) && Object.keys(identity).length > 0) {
    // Who someone is and where they work changes on a person's word, not a tool's text alone.
    const { name: _n, role: _r, organisation: _o, ...rest } = fields;
    return propose(state, updateContact(state, contact, rest, evidence), identity, evidence);
  }
  let next = reinforce(state, contact, evidence);
  if (next.proposedChange && !onlyFromTools(evidence)) {
    const { proposedChange: _p, ...settled } = next;
    next = { ...settled, ...(next.note?.startsWith('to verify: a tool record') ? { note: undefined } : {}) } as ContactItem;
  }
  const history = [...next.history];
  for (const field of ['name', 'role', 'organisation'] as const) {
    const value = fields[field];
    if (value !== undefined && value !== next[field]) {
      history.push(change(state, field, next[field], value, evidence));
      next = { ...next, [field]: value };
      if (field === 'name' && !next.aliases.includes(contact.name)) next = { ...next, aliases: [...next.aliases, contact.name] };
    }
  }
  const union = <T>(a: readonly T[], b: readonly T[] | undefined, key: (v: T) => string) => {
    const seen = new Map(a.map((v) => [key(v), v]));
    for (const v of b ?? []) if (!seen.has(key(v))) seen.set(key(v), v);
    return [...seen.values()];
  };
  next = {
    ...next,
    aliases: union(next.aliases, fields.aliases, normalise).filter((alias) => normalise(alias) !== normalise(next.name)),
    preferences: union(next.preferences, fields.preferences, normalise),
    channels: union(next.channels, fields.channels, (c) => `${c.type}:${c.value.toLowerCase()}`),
    relationships: union(next.relationships, fields.relationships, (r) => `${normalise(r.type)}:${normalise(r.to)}`),
    ...(fields.biography !== undefined ? { biography: fields.biography } : {}),
    ...(fields.summary !== undefined ? { summary: fields.summary } : {}),
    lastMentionedAt: evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), next.lastMentionedAt),
    history,
  };
  // A refuted contact waits for its replacement: a new record giving it a new role, employer or name
  // is that replacement, so the contact is shown again, unverified, with the new value.
  const replaced = history.length > contact.history.length && history.slice(contact.history.length).some((c) => c.field !== 'verification');
  if (contact.verification === 'refuted' && replaced && evidence.some((e) => isIndependentRecord(contact, e))) {
    next = { ...next, ...initialStanding(0.7), note: 'replaces a value refuted by feedback', history: [...next.history, change(state, 'verification', 'refuted', 'unverified', evidence)] };
  }
  return next;
}

function applyContactOp(state: PatchState, op: ContactOp, index: number): void {
  const evidence = state.evidence(op.evidence);
  switch (op.op) {
    case 'add': {
      const existing = findContact(state, op.contact.name) ?? op.contact.aliases?.map((alias) => findContact(state, alias)).find(Boolean);
      if (existing) {
        state.remember(op.ref, existing.id);
        state.put(updateContact(state, existing, { ...op.contact, name: existing.name, aliases: [...(op.contact.aliases ?? []), ...(normalise(op.contact.name) !== normalise(existing.name) ? [op.contact.name] : [])] }, evidence));
        return;
      }
      const id = itemId('contacts', state.context.scope, state.context.batch, index, normalise(op.contact.name));
      const created: ContactItem = {
        ...baseItem(state, id, evidence, { ...state.context.scope, contactId: id }),
        kind: 'contact',
        name: op.contact.name,
        aliases: op.contact.aliases ?? [],
        ...(op.contact.role ? { role: op.contact.role } : {}),
        ...(op.contact.organisation ? { organisation: op.contact.organisation } : {}),
        relationships: op.contact.relationships ?? [],
        preferences: op.contact.preferences ?? [],
        channels: op.contact.channels ?? [],
        biography: op.contact.biography ?? '',
        summary: op.contact.summary ?? '',
        lastMentionedAt: evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), ''),
      };
      state.remember(op.ref, id);
      state.put(created);
      return;
    }
    case 'update': {
      const contact = state.resolve(op.target) as ContactItem;
      state.put(updateContact(state, contact, op.changes, evidence));
      return;
    }
    case 'merge':
      return mergeItems(state, op.targets, evidence, (survivor, other) => {
        const absorbed = other as ContactItem;
        return updateContact(state, survivor as ContactItem, {
          aliases: [absorbed.name, ...absorbed.aliases],
          relationships: [...absorbed.relationships],
          preferences: [...absorbed.preferences],
          channels: [...absorbed.channels],
        }, []);
      });
  }
}

function mergeItems(
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

// --- facts ------------------------------------------------------------------

function table(state: PatchState, name: string): FactTable | undefined {
  return state.tables.find((candidate) => candidate.name === name);
}

function setTable(state: PatchState, next: FactTable, replacing?: string): void {
  state.tables = [...state.tables.filter((t) => t.name !== (replacing ?? next.name)), next].sort((a, b) => a.name.localeCompare(b.name));
  state.tablesChanged = true;
}

function facts(state: PatchState, tableName?: string): FactItem[] {
  return [...state.items.values()].filter((item): item is FactItem => item.kind === 'fact' && (tableName === undefined || item.table === tableName));
}

function rowKey(definition: FactTable, row: Readonly<Record<string, string | null>>): string {
  return definition.key.map((column) => normalise(row[column] ?? '')).join('\u0000');
}

function sameRow(a: Readonly<Record<string, string | null>>, b: Readonly<Record<string, string | null>>, columns: readonly string[]): boolean {
  return columns.every((column) => normalise(a[column] ?? '') === normalise(b[column] ?? ''));
}

function ensureColumns(state: PatchState, tableName: string, row: Readonly<Record<string, string | null>>): FactTable {
  let definition = table(state, tableName);
  if (!definition) {
    const columns = Object.keys(row);
    const key = columns.filter((c) => ['subject', 'attribute', 'name', 'item', 'preference'].includes(c));
    definition = { name: tableName, columns, key: key.length > 0 ? key : [columns[0]!] };
    setTable(state, definition);
  }
  const missing = Object.keys(row).filter((column) => !definition!.columns.includes(column));
  if (missing.length > 0) {
    for (const column of missing) addColumn(state, tableName, column, null);
    definition = table(state, tableName)!;
  }
  return definition;
}

function addColumn(state: PatchState, tableName: string, column: string, fill: string | null): void {
  const definition = table(state, tableName);
  if (!definition) throw new InvalidModelOutputError(`facts: add_column on unknown table ${tableName}`);
  if (definition.columns.includes(column)) return;
  setTable(state, { ...definition, columns: [...definition.columns, column] });
  for (const fact of facts(state, tableName)) state.put({ ...fact, row: { ...fact.row, [column]: fill } });
}

function applyFactOp(state: PatchState, op: FactOp, index: number): void {
  switch (op.op) {
    case 'create_table': {
      const existing = table(state, op.table);
      const columns = [...new Set([...(existing?.columns ?? []), ...op.columns])];
      if (op.key.some((column) => !columns.includes(column))) throw new InvalidModelOutputError(`facts: key of ${op.table} names a column it lacks`);
      setTable(state, { name: op.table, columns, key: op.key, ...(op.description ? { description: op.description } : {}) });
      return;
    }
    case 'add_column':
      return addColumn(state, op.table, op.column, op.default ?? null);
    case 'rename_column': {
      const definition = table(state, op.table);
      if (!definition || !definition.columns.includes(op.from)) throw new InvalidModelOutputError(`facts: ${op.table}.${op.from} does not exist`);
      if (definition.columns.includes(op.to)) throw new InvalidModelOutputError(`facts: ${op.table}.${op.to} already exists`);
      const rename = (column: string) => (column === op.from ? op.to : column);
      setTable(state, { ...definition, columns: definition.columns.map(rename), key: definition.key.map(rename) });
      for (const fact of facts(state, op.table)) {
        const { [op.from]: moved, ...rest } = fact.row;
        state.put({ ...fact, row: { ...rest, [op.to]: moved ?? null } });
      }
      return;
    }
    case 'split_table': {
      const definition = table(state, op.table);
      if (!definition || !definition.columns.includes(op.by)) throw new InvalidModelOutputError(`facts: cannot split ${op.table} by ${op.by}`);
      const columns = definition.columns.filter((c) => c !== op.by);
      const key = definition.key.filter((c) => c !== op.by);
      for (const target of new Set(Object.values(op.into))) {
        if (!table(state, target)) setTable(state, { name: target, columns, key: key.length > 0 ? key : [columns[0]!] });
      }
      for (const fact of facts(state, op.table)) {
        const target = op.into[fact.row[op.by] ?? ''];
        if (!target) continue;
        const { [op.by]: _dropped, ...row } = fact.row;
        state.put({ ...fact, table: target, row });
      }
      return;
    }
    case 'merge_tables': {
      const sources = op.tables.map((name) => {
        const definition = table(state, name);
        if (!definition) throw new InvalidModelOutputError(`facts: cannot merge unknown table ${name}`);
        return definition;
      });
      const columns = [...new Set([op.discriminator, ...sources.flatMap((s) => s.columns)])];
      const key = [...new Set([op.discriminator, ...sources.flatMap((s) => s.key)])];
      for (const source of sources) if (source.name !== op.into) state.tables = state.tables.filter((t) => t.name !== source.name);
      setTable(state, { name: op.into, columns, key });
      for (const source of sources) {
        for (const fact of facts(state, source.name)) {
          const row = Object.fromEntries(columns.map((c) => [c, c === op.discriminator ? source.name : (fact.row[c] ?? null)]));
          state.put({ ...fact, table: op.into, row });
        }
      }
      return;
    }
    case 'add': {
      const evidence = state.evidence(op.evidence);
      const definition = ensureColumns(state, op.table, op.row);
      const row = Object.fromEntries(definition.columns.map((c) => [c, op.row[c] ?? null]));
      const key = rowKey(definition, row);
      // The same row restated anywhere is one item (widened to agent-wide when another project restates it);
      // other values of its key are rivals only within one scope: two projects may each have their own deadline.
      const project = scopeFrom(state, evidence).project;
      const withKey = facts(state, op.table).filter((f) => f.status !== 'archived' && rowKey(definition, f.row) === key);
      const same = withKey.find((f) => sameRow(f.row, row, definition.columns));
      const sameKey = withKey.filter((f) => projectOfItem(f) === project);
      // A refuted value is no rival: the new value supersedes it (its replacement, asked for by the feedback).
      const rivals = sameKey.filter(isShown);
      const refuted = sameKey.filter((f) => !isShown(f));
      if (same) {
        state.remember(op.ref, same.id);
        const reinforced = reinforce(state, same, evidence);
        // A further independent record restating one side of an open conflict decides it.
        const decides = (same.status === 'conflict' || same.status === 'draft') && evidence.some((e) => isIndependentRecord(same, e));
        if (!decides) {
          state.put(reinforced);
          return;
        }
        const contested = withKey.filter((f) => f.id !== same.id && isShown(f) && projectOfItem(f) === projectOfItem(same) && (f.status === 'conflict' || f.status === 'draft'));
        for (const rival of contested) state.put(archive(state, rival, `superseded: a later record confirmed ${same.id}`, evidence, same.id));
        state.put({ ...reinforced, status: 'active', note: undefined, ...(contested.length > 0 ? { supersedes: [...(same.supersedes ?? []), ...contested.map((r) => r.id)] } : {}) });
        return;
      }
      const id = itemId('facts', state.context.scope, state.context.batch, index, op.table, key, JSON.stringify(row));
      const created: FactItem = {
        ...baseItem(state, id, evidence),
        kind: 'fact',
        table: op.table,
        row,
        statement: op.statement,
        confidence: initialStanding(op.confidence ?? 0.7).confidence,
      };
      state.remember(op.ref, id);
      const priority = newValuePriority(op, evidence);
      state.priorities.set(id, priority);
      const rivalPriority = (rival: FactItem) => state.priorities.get(rival.id) ?? 'memory';
      for (const old of refuted) state.put(archive(state, old, `refuted; superseded by ${id}`, evidence, id));
      const resisting = op.correction ? [] : rivals.filter((r) => applySignal(standingOf(r), { kind: 'contradiction' }).effect === 'challenged');
      const outranking = op.correction ? [] : rivals.filter((r) => supersedes(rivalPriority(r), priority));
      if (rivals.length === 0) {
        state.put(created);
      } else if (!op.correction && rivals.every((r) => supersedes(priority, rivalPriority(r)))) {
        // A tool's current fact, or several records in agreement, outrank what memory held: supersede it, keep it archived.
        for (const rival of rivals) state.put(archive(state, rival, `superseded by ${id} (${priority === 'tool' ? 'a tool result' : 'records in agreement'})`, evidence, id));
        state.put({ ...created, supersedes: rivals.map((r) => r.id), history: [change(state, 'row', rivals[0]!.row, row, evidence)] });
      } else if (outranking.length > 0) {
        // This batch already settled the key more strongly (the user's correction, a tool result): the newcomer waits.
        state.put({ ...created, status: 'draft', note: `contradicts ${outranking.map((r) => `${r.id} (${rivalPriority(r)})`).join(', ')}; to verify` });
      } else if (resisting.length > 0) {
        // One remark against a value verified several times: a conflict to verify, not an overwrite.
        // The verified value stays verified (it ranks first) but is marked; the newcomer waits as a
        // draft until a record or feedback decides. Other rivals are marked as usual.
        const note = `contradicted by ${id}; to verify`;
        for (const rival of rivals) state.put({ ...rival, status: 'conflict', note, updatedAt: state.context.now });
        state.put({ ...created, status: 'draft', note: `contradicts verified ${resisting.map((r) => r.id).join(', ')}; to verify` });
      } else if (op.correction) {
        // The batch shows the earlier value was wrong: supersede it, keep it archived.
        for (const rival of rivals) state.put(archive(state, rival, `corrected by ${id}`, evidence, id));
        state.put({ ...created, supersedes: rivals.map((r) => r.id), history: [change(state, 'row', rivals[0]!.row, row, evidence)] });
      } else {
        // Two sources disagree and nothing says which is right: mark, never overwrite.
        const note = `conflicts with ${[id, ...rivals.map((r) => r.id)].join(', ')}`;
        for (const rival of rivals) state.put({ ...rival, status: 'conflict', note, updatedAt: state.context.now });
        state.put({ ...created, status: 'conflict', note });
      }
      return;
    }
    case 'update': {
      const evidence = state.evidence(op.evidence);
      const fact = state.resolve(op.target) as FactItem;
      const definition = op.row ? ensureColumns(state, fact.table, op.row) : table(state, fact.table);
      const row = op.row ? { ...fact.row, ...op.row } : fact.row;
      const history = op.row && !sameRow(fact.row, row, definition?.columns ?? Object.keys(row)) ? [...fact.history, change(state, 'row', fact.row, row, evidence)] : fact.history;
      state.put({
        ...reinforce(state, fact, evidence),
        row,
        statement: op.statement ?? fact.statement,
        history,
        ...(op.correction || fact.status === 'conflict' ? { status: 'active' as const, note: undefined } : {}),
      });
      return;
    }
    case 'merge':
      return mergeItems(state, op.targets, state.evidence(op.evidence), (survivor) => survivor);
  }
}

// --- tasks ------------------------------------------------------------------

const STOP_WORDS = new Set(['the', 'a', 'an', 'to', 'for', 'of', 'on', 'in', 'and', 'my', 'me', 'by', 'with', 'at', 'this', 'that', 'it', 'i', 'you', 'your', 'our']);

export function contentWords(text: string): Set<string> {
  return new Set(
    normalise(text)
      .split(' ')
      .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
      .map((word) => word.replace(/(ing|ed|es|s)$/, '')),
  );
}

export function similarity(a: string, b: string): number {
  const left = contentWords(a);
  const right = contentWords(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

function applyTaskOp(state: PatchState, op: TaskOp, index: number): void {
  const evidence = state.evidence(op.evidence);
  switch (op.op) {
    case 'add': {
      const duplicate = state
        .active()
        .filter((item): item is TaskItem => item.kind === 'task' && item.state === 'open' && projectOfItem(item) === scopeFrom(state, evidence).project)
        .find((task) => similarity(task.title, op.task.title) >= 0.6);
      if (duplicate) {
        state.remember(op.ref, duplicate.id);
        state.put({ ...reinforce(state, duplicate, evidence), ...(op.task.due && !duplicate.due ? { due: op.task.due } : {}) });
        return;
      }
      const id = itemId('tasks', state.context.scope, state.context.batch, index, normalise(op.task.title));
      state.remember(op.ref, id);
      state.put({
        ...baseItem(state, id, evidence),
        kind: 'task',
        title: op.task.title,
        owner: op.task.owner,
        ...(op.task.due ? { due: op.task.due } : {}),
        ...(op.task.contact ? { contactId: op.task.contact } : {}),
        state: 'open',
      });
      return;
    }
    case 'update': {
      const task = state.resolve(op.target) as TaskItem;
      // A tool's text cannot close or cancel a task on its own: the state change waits for a person's record.
      const proposedState = onlyFromTools(evidence) && op.changes.state !== undefined && op.changes.state !== task.state ? op.changes.state : undefined;
      const changes = proposedState ? { ...op.changes, state: undefined } : op.changes;
      let next: TaskItem = reinforce(state, task, evidence);
      if (next.proposedChange && !onlyFromTools(evidence)) {
        const { proposedChange: _p, ...settled } = next;
        next = { ...settled, ...(next.note?.startsWith('to verify: a tool record') ? { note: undefined } : {}) } as TaskItem;
      }
      const history = [...next.history];
      for (const field of ['title', 'owner', 'due', 'state'] as const) {
        const value = changes[field];
        if (value !== undefined && value !== next[field]) {
          history.push(change(state, field, next[field], value, evidence));
          next = { ...next, [field]: value };
        }
      }
      if (changes.state && changes.state !== 'open' && task.state === 'open') {
        const closedAt = evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), '');
        next = { ...next, closedAt };
      }
      state.put(proposedState ? propose(state, { ...next, history }, { state: proposedState }, evidence) : { ...next, history });
      return;
    }
    case 'merge':
      return mergeItems(state, op.targets, evidence, (survivor) => survivor);
  }
}
