/**
 * Pitfalls and procedures from the batch's actions, by rule.
 *
 * - A failed action followed, later in the batch, by a successful one with
 *   the same tool is a pitfall: what was tried (assumed), what went wrong
 *   (actual), and what worked (avoid), with both records as evidence.
 * - A run of two or more successful actions that recurs, tool for tool, in
 *   two interactions of the batch is a procedure: a short checklist from its
 *   first run, with every record of both runs as evidence. One run that
 *   repeats a procedure memory already holds restates it (the same row), so
 *   the store counts it as a reuse.
 *
 * Both start unverified, like every new item; a later successful reuse
 * (the same row again, from new records) verifies them.
 */
import type { FactOp } from '../../../domain/memory.js';
import type { PromptRecord, UpdaterInput } from '../../../ports/model.js';

export const PITFALLS = { name: 'pitfalls', columns: ['tool', 'assumed', 'actual', 'avoid'], key: ['tool', 'assumed'] } as const;
export const PROCEDURES = { name: 'procedures', columns: ['task', 'steps'], key: ['task'] } as const;

const MAX_TEXT = 160;
const MAX_EVIDENCE = 12;

const short = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_TEXT ? flat : `${flat.slice(0, MAX_TEXT - 1)}…`;
};

interface Note {
  readonly table: typeof PITFALLS.name | typeof PROCEDURES.name;
  readonly row: Record<string, string>;
  readonly statement: string;
  readonly evidence: string[];
}

const actions = (records: readonly PromptRecord[]) => records.filter((r) => r.type === 'action');
const toolOf = (record: PromptRecord) => record.tool ?? 'action';

function pitfalls(records: readonly PromptRecord[]): Note[] {
  const notes: Note[] = [];
  const list = actions(records);
  list.forEach((failed, i) => {
    if (failed.outcome !== 'failure') return;
    const fix = list.slice(i + 1).find((r) => toolOf(r) === toolOf(failed) && r.outcome !== 'failure');
    // Only a success that is said to be one: an action with no outcome may not have worked either.
    if (!fix || fix.outcome !== 'success') return;
    const tool = toolOf(failed);
    const actual = short(failed.error ?? 'it failed');
    const row = { tool, assumed: short(failed.content), actual, avoid: short(fix.content) };
    notes.push({ table: PITFALLS.name, row, statement: `Pitfall with ${tool}: "${row.assumed}" failed (${actual}); what worked: "${row.avoid}"`, evidence: [failed.id, fix.id] });
  });
  return notes;
}

/** The runs of successful actions, per interaction (records without one form one run). */
function runs(records: readonly PromptRecord[]): PromptRecord[][] {
  const byInteraction = new Map<string, PromptRecord[]>();
  for (const record of actions(records)) {
    const key = record.interactionId ?? '';
    byInteraction.set(key, [...(byInteraction.get(key) ?? []), record]);
  }
  return [...byInteraction.values()]
    .filter((run) => run.every((r) => r.outcome !== 'failure'))
    .filter((run) => run.some((r) => r.outcome === 'success') && new Set(run.map(toolOf)).size >= 2);
}

function checklist(run: readonly PromptRecord[]): string {
  return run.map((r, i) => `${i + 1}. ${short(r.content)}`).join(' ');
}

function procedures(records: readonly PromptRecord[], existing: UpdaterInput['existing']): Note[] {
  const notes: Note[] = [];
  const known = new Map(
    existing
      .filter((item) => item.table === PROCEDURES.name)
      .map((item) => item.row as Record<string, string>)
      .filter((row) => typeof row?.task === 'string' && typeof row.steps === 'string')
      .map((row) => [row.task!, row]),
  );
  const byTools = new Map<string, PromptRecord[][]>();
  for (const run of runs(records)) {
    const task = run.map(toolOf).join(' → ');
    byTools.set(task, [...(byTools.get(task) ?? []), run]);
  }
  for (const [task, seen] of byTools) {
    const held = known.get(task);
    if (!held && seen.length < 2) continue;
    const steps = held?.steps ?? checklist(seen[0]!);
    const evidence = [...new Set(seen.flat().map((r) => r.id))].slice(0, MAX_EVIDENCE);
    notes.push({ table: PROCEDURES.name, row: { task, steps }, statement: `Procedure for ${task}: ${steps}`, evidence });
  }
  return notes;
}

/** The table creations and adds the batch's actions call for. */
export function extractActionNotes(input: UpdaterInput): FactOp[] {
  const notes = [...pitfalls(input.records), ...procedures(input.records, input.existing)];
  const ops: FactOp[] = [];
  for (const table of [PITFALLS, PROCEDURES]) {
    if (notes.some((n) => n.table === table.name) && !input.tables.some((t) => t.name === table.name)) {
      ops.push({ op: 'create_table', table: table.name, columns: [...table.columns], key: [...table.key] });
    }
  }
  for (const note of notes) ops.push({ op: 'add', table: note.table, row: note.row, statement: note.statement, confidence: 0.6, evidence: note.evidence });
  return ops;
}
