/**
 * Threads of events (a person's story, a task's life, a date and its
 * correction) interleaved at random into one conversation, so dependent
 * events keep their order while unrelated ones mix.
 */
import type { CorpusBuilder } from './builder.js';

export type Step = (b: CorpusBuilder) => void;

export function interleave(b: CorpusBuilder, threads: readonly (readonly Step[])[], between: Step, options: { fillerChance: number; daysBetween: [number, number] }): void {
  const queues = threads.map((steps) => [...steps]);
  let sinceDay = 0;
  while (queues.some((q) => q.length > 0)) {
    const live = queues.filter((q) => q.length > 0);
    const queue = b.pick(live);
    queue.shift()!(b);
    if (b.chance(options.fillerChance)) between(b);
    sinceDay += 1;
    if (sinceDay >= 2 + Math.floor(b.random() * 4)) {
      sinceDay = 0;
      const [min, max] = options.daysBetween;
      b.waitDays(min + Math.floor(b.random() * (max - min + 1)));
    }
  }
}

/** A task's grammar, so every paraphrase can be composed from it. */
export interface TaskSpec {
  readonly key: string;
  readonly verb: string;
  readonly past: string;
  readonly participle: string;
  readonly gerund: string;
  readonly object: string;
  /** " to Priya", " with José": the counterpart, with its preposition. */
  readonly counterpart?: string;
  /** Ditransitive past ("sent Priya the contract"), when the verb allows it. */
  readonly dative?: string;
  readonly owner: string;
}

export function taskTitle(spec: TaskSpec): string {
  return `${spec.verb} ${spec.object}${spec.counterpart ?? ''}`;
}
