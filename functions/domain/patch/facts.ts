/** Fact operations and table schema changes: add (conflict priority, scope, refuted rivals), update, merge, migrations. */
import { newValuePriority, supersedes } from '../conflict-priority.js';
import { applySignal, initialStanding, isIndependentRecord, isShown, standingOf } from '../verification.js';
import type { FactItem, FactOp, FactTable } from '../memory.js';
import { InvalidModelOutputError, itemId, PatchState, scopeFrom, projectOfItem, baseItem, reinforce, change, archive, normalise, mergeItems } from './common.js';

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

export function applyFactOp(state: PatchState, op: FactOp, index: number): void {
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
        // Every other shown value of the key in its scope loses: the marked rivals of a conflict, and an active value
        // a draft was filed against (a tool record that waited behind the user's correction, restated later).
        const contested = withKey.filter((f) => f.id !== same.id && isShown(f) && projectOfItem(f) === projectOfItem(same));
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
