/**
 * Memory items and the patches that change them. Every item carries its
 * evidence (the raw records it came from), scope, status, verification and
 * confidence; every change arrives as a typed patch operation.
 */
import { z } from 'zod';

export const UPDATERS = ['contacts', 'facts', 'tasks'] as const;
export type UpdaterName = (typeof UPDATERS)[number];

export type ItemStatus = 'draft' | 'active' | 'conflict' | 'archived';
export type Verification = 'unverified' | 'verified' | 'refuted';

/** A pointer to the raw record an item was derived from. */
export interface Evidence {
  readonly recordId: string;
  readonly sequence: number;
  readonly timestamp: string;
  /** Who wrote the record (user, assistant, tool...): the agent's own words are not independent evidence. */
  readonly role?: string;
  /** The project the record names (`metadata.project`), when it names one. */
  readonly project?: string;
}

export interface ItemScope {
  readonly tenantId: string;
  readonly agentId: string;
  readonly contactId?: string;
  /** The project the item belongs to (see domain/scope.ts); absent for agent-wide items. */
  readonly project?: string;
}

/** A change to one field, kept so that "changed details" stay visible. */
export interface FieldChange {
  readonly field: string;
  readonly from: unknown;
  readonly to: unknown;
  readonly at: string;
  readonly batch: number;
  readonly evidence: readonly string[];
}

interface ItemBase {
  readonly id: string;
  readonly scope: ItemScope;
  readonly status: ItemStatus;
  readonly verification: Verification;
  readonly confidence: number;
  readonly hitCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastReinforcedAt: string;
  /** When a context response last injected the item (counted offline from the injection log). */
  readonly lastHitAt?: string;
  /** Independent sources that supported the item (see domain/verification.ts). */
  readonly confirmations?: number;
  readonly validUntil?: string;
  readonly supersedes?: readonly string[];
  readonly supersededBy?: string;
  readonly evidence: readonly Evidence[];
  readonly history: readonly FieldChange[];
  /** Why the item is in `conflict` or `to-verify`, when it is. */
  readonly note?: string;
  /**
   * A change only tool records stated (closing a task, a contact's new
   * employer): kept here, not applied, until a user or assistant record
   * confirms it (domain/patch.ts).
   */
  readonly proposedChange?: { readonly fields: Readonly<Record<string, unknown>>; readonly evidence: readonly string[]; readonly at: string };
}

export interface ContactItem extends ItemBase {
  readonly kind: 'contact';
  readonly name: string;
  readonly aliases: readonly string[];
  readonly role?: string;
  readonly organisation?: string;
  readonly relationships: readonly { readonly type: string; readonly to: string }[];
  readonly preferences: readonly string[];
  readonly channels: readonly { readonly type: string; readonly value: string }[];
  /** Who they are: stable. */
  readonly biography: string;
  /** What is going on with them lately. */
  readonly summary: string;
  readonly lastMentionedAt: string;
}

export interface FactItem extends ItemBase {
  readonly kind: 'fact';
  readonly table: string;
  readonly row: Readonly<Record<string, string | null>>;
  readonly statement: string;
}

export type TaskState = 'open' | 'done' | 'cancelled';

export interface TaskItem extends ItemBase {
  readonly kind: 'task';
  readonly title: string;
  readonly owner: string;
  /** ISO date (YYYY-MM-DD), resolved against the message's own timestamp. */
  readonly due?: string;
  readonly state: TaskState;
  readonly closedAt?: string;
  readonly contactId?: string;
}

export type MemoryItem = ContactItem | FactItem | TaskItem;

/** A fact table: its columns, and which of them identify a row. */
export interface FactTable {
  readonly name: string;
  readonly columns: readonly string[];
  readonly key: readonly string[];
  readonly description?: string;
}

/** One updater's store as loaded for a batch. */
export interface UpdaterStore<I extends MemoryItem = MemoryItem> {
  readonly updater: UpdaterName;
  /** Version of the store head; the commit is conditional on it. */
  readonly version: number;
  /** Highest batch index applied by this updater. */
  readonly lastBatch: number;
  readonly items: readonly I[];
  /** Fact tables (facts updater only). */
  readonly tables: readonly FactTable[];
  /** A staged commit of this batch was started and has not finished; `items` show the state before it. */
  readonly pendingBatch?: number;
}

// ---------------------------------------------------------------------------
// Patch operations, as a model proposes them. Existing items are referred to
// by short aliases (C1, F2, T3) that the updater maps back to real ids.

const text = (max: number) => z.string().trim().min(1).max(max);
const evidenceIds = z.array(z.string().min(1)).min(1).max(50);
/** An existing item's alias (C1, F2, T3), or `new:<ref>` for an item added earlier in the same patch. */
const alias = z.string().regex(/^([CFT][0-9]+|new:[A-Za-z0-9_-]{1,40})$/, { error: 'must be an alias such as C1, F2, T3 or new:<ref>' });
const ref = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);

export const contactFieldsSchema = z.strictObject({
  name: text(200).optional(),
  aliases: z.array(text(200)).max(20).optional(),
  role: text(200).optional(),
  organisation: text(200).optional(),
  relationships: z.array(z.strictObject({ type: text(60), to: text(200) })).max(20).optional(),
  preferences: z.array(text(300)).max(20).optional(),
  channels: z
    .array(
      z.strictObject({
        type: text(30),
        value: text(300),
        /** The record says this replaces the contact's earlier ones of this type ("my new number is ..."): those move to its history. */
        replacesEarlier: z.boolean().optional(),
      }),
    )
    .max(10)
    .optional(),
  biography: text(2000).optional(),
  summary: text(2000).optional(),
});

export const contactOpSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), ref: ref.optional(), contact: contactFieldsSchema.extend({ name: text(200) }), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('update'), target: alias, changes: contactFieldsSchema, evidence: evidenceIds }),
  z.strictObject({ op: z.literal('merge'), targets: z.array(alias).min(2).max(10), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('archive'), target: alias, reason: text(300), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('to-verify'), target: alias, reason: text(300), evidence: evidenceIds }),
]);

const cell = z.union([z.string().max(1000), z.null()]);
const tableName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, { error: 'must be snake_case, at most 40 characters' });

export const factOpSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('add'),
    ref: ref.optional(),
    table: tableName,
    row: z.record(z.string(), cell),
    statement: text(1000),
    /** The batch shows this replaces an earlier value ("actually, ..."). */
    correction: z.boolean().optional(),
    confidence: z.number().min(0).max(1).optional(),
    evidence: evidenceIds,
  }),
  z.strictObject({ op: z.literal('update'), target: alias, row: z.record(z.string(), cell).optional(), statement: text(1000).optional(), correction: z.boolean().optional(), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('merge'), targets: z.array(alias).min(2).max(10), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('archive'), target: alias, reason: text(300), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('to-verify'), target: alias, reason: text(300), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('create_table'), table: tableName, columns: z.array(tableName).min(1).max(30), key: z.array(tableName).min(1).max(5), description: text(300).optional() }),
  z.strictObject({ op: z.literal('add_column'), table: tableName, column: tableName, default: cell.optional() }),
  z.strictObject({ op: z.literal('rename_column'), table: tableName, from: tableName, to: tableName }),
  z.strictObject({ op: z.literal('split_table'), table: tableName, by: tableName, into: z.record(z.string(), tableName) }),
  z.strictObject({ op: z.literal('merge_tables'), tables: z.array(tableName).min(2).max(10), into: tableName, discriminator: tableName }),
]);

export const taskOpSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('add'),
    ref: ref.optional(),
    task: z.strictObject({ title: text(300), owner: text(200), due: z.iso.date().optional(), contact: text(200).optional() }),
    evidence: evidenceIds,
  }),
  z.strictObject({
    op: z.literal('update'),
    target: alias,
    changes: z.strictObject({ title: text(300).optional(), owner: text(200).optional(), due: z.iso.date().optional(), state: z.enum(['open', 'done', 'cancelled']).optional() }),
    evidence: evidenceIds,
  }),
  z.strictObject({ op: z.literal('merge'), targets: z.array(alias).min(2).max(10), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('archive'), target: alias, reason: text(300), evidence: evidenceIds }),
  z.strictObject({ op: z.literal('to-verify'), target: alias, reason: text(300), evidence: evidenceIds }),
]);

export type ContactOp = z.infer<typeof contactOpSchema>;
export type FactOp = z.infer<typeof factOpSchema>;
export type TaskOp = z.infer<typeof taskOpSchema>;
export type PatchOp = ContactOp | FactOp | TaskOp;

/** What each updater's model call must return. */
export const updaterOutputSchemas = {
  contacts: z.strictObject({ ops: z.array(contactOpSchema).max(200) }),
  facts: z.strictObject({ ops: z.array(factOpSchema).max(200) }),
  tasks: z.strictObject({ ops: z.array(taskOpSchema).max(200) }),
} as const;

/** Alias prefix per updater: C1, F1, T1. */
export const ALIAS_PREFIX: Record<UpdaterName, string> = { contacts: 'C', facts: 'F', tasks: 'T' };
