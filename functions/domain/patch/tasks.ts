/** Task operations: add (near-duplicates merge into the open task), update (a tool record alone only proposes a state), merge. */
import type { TaskItem, TaskOp } from '../memory.js';
import { itemId, PatchState, scopeFrom, projectOfItem, baseItem, reinforce, change, onlyFromTools, propose, normalise, mergeItems } from './common.js';

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

export function applyTaskOp(state: PatchState, op: TaskOp, index: number): void {
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
