/**
 * Labelled corpora for the extraction benchmark: records as an agent would
 * post them, and the memory a careful reader would keep from them (ground
 * truth). Every corpus is generated from events (a person is introduced,
 * changes job, a task is opened and later closed, ...); each event is
 * rendered by one of several paraphrases, so the same truth reads many ways.
 */

/** One record of a corpus, shaped like an ingested event (plus its sequence). */
export interface CorpusRecord {
  readonly id: string;
  readonly sequence: number;
  readonly timestamp: string;
  readonly type: 'message' | 'action';
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly interactionId?: string;
  readonly contact?: { readonly id?: string; readonly name?: string };
  /** Who wrote the record, when the role alone cannot tell (two people sharing the `user` role). */
  readonly speaker?: string;
  readonly metadata?: Record<string, unknown>;
}

/** A person the agent should know about, as they stand at the end of the corpus. */
export interface ExpectedContact {
  readonly name: string;
  /** Other names that refer to the same person (first name, title + surname). */
  readonly aliases: readonly string[];
  /** The contact id the records use for this person, when they have one. */
  readonly id?: string;
  readonly organisation?: string;
  readonly role?: string;
  /** Organisation and role over time, oldest first (the last entry is the final state). */
  readonly history: readonly { readonly at: string; readonly organisation?: string; readonly role?: string }[];
}

/** A fact as (subject, attribute, value); subject is a person key (see ExpectedTruth.people) or a thing ("budget review"). */
export interface ExpectedFact {
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
}

export interface ExpectedTask {
  readonly title: string;
  readonly state: 'open' | 'done' | 'cancelled';
  /** Who does it (person key), for the report; not scored. */
  readonly owner?: string;
  readonly due?: string;
}

export interface ExpectedTruth {
  readonly contacts: readonly ExpectedContact[];
  readonly facts: readonly ExpectedFact[];
  readonly tasks: readonly ExpectedTask[];
  /** Person keys to every way the records may name that person (id, names, aliases). */
  readonly people: Readonly<Record<string, readonly string[]>>;
}

export interface ExtractionCorpus {
  readonly name: string;
  readonly style: string;
  readonly records: readonly CorpusRecord[];
  readonly truth: ExpectedTruth;
}
