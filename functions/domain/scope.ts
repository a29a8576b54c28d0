/**
 * Project scope. An event may name the project or topic it belongs to
 * (`metadata.project`); an item takes the project its evidence shares, and
 * is agent-wide when its evidence names none, or two different projects.
 * Contacts are people, the same in every project: always agent-wide.
 *
 * Reading with a project goes from the specific to the broad: items and
 * records of that project first, agent-wide ones after, and nothing scoped
 * to another project. Reading without one sees every scope.
 */
import type { Evidence } from './memory.js';

/** 1 to 64 characters: letters, digits and `. _ : / -`, starting with a letter or digit. */
export const PROJECT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;
export const PROJECT_RULE = 'must be 1 to 64 characters: letters, digits and . _ : / -, starting with a letter or digit';

/** The project an event's metadata names, when it names a valid one. */
export function projectOf(metadata: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const project = metadata?.project;
  return typeof project === 'string' && PROJECT_PATTERN.test(project) ? project : undefined;
}

/** The project every piece of evidence names; undefined when any names none, or they name different ones. */
export function sharedProject(evidence: readonly Pick<Evidence, 'project'>[]): string | undefined {
  const projects = new Set(evidence.map((e) => e.project));
  if (projects.size !== 1) return undefined;
  return [...projects][0];
}

/**
 * The scope an item keeps when new evidence supports it: a project item
 * stays in its project while the new records name no other project, and
 * becomes agent-wide once another project's record supports it too.
 */
export function widenedProject(current: string | undefined, added: readonly Pick<Evidence, 'project'>[]): string | undefined {
  if (current === undefined) return undefined;
  return added.some((e) => e.project !== undefined && e.project !== current) ? undefined : current;
}

/** Whether a unit scoped to `project` may be shown to a reader asking about `asked`. */
export function visibleIn(project: string | undefined, asked: string | undefined): boolean {
  return asked === undefined || project === undefined || project === '' || project === asked;
}
