/** Ports of the summary ladders. */
import type { AgentKey } from '../domain/agent-key.js';
import type { Ladder } from '../domain/ladders.js';
import type { SummaryCursor } from '../domain/summary-cursor.js';

/** One summary, as stored and listed. */
export interface StoredSummary {
  /** `<ladder>:<level>:<index>` */
  readonly id: string;
  readonly ladder: Ladder;
  readonly level: number;
  readonly index: number;
  /** The agent's first week index (time ladder), from which levels above the week are counted. */
  readonly origin: number;
  /** Covered range: ISO dates (time ladder) or interaction numbers (count ladder). */
  readonly from: string;
  readonly to: string;
  /** Ids of the summaries it was written from (levels above the base). */
  readonly children: readonly string[];
  /** Record ids it was written from (base level). */
  readonly sources: readonly string[];
  /** Sequence range of those records (base level, not empty). */
  readonly range?: { readonly fromSequence: number; readonly toSequence: number };
  /**
   * Empty runs only: the last period the item covers at its level. An empty
   * run stands for every period `index`..`through`, all silent; none of them
   * has an item of its own (silence costs one item per level, not one per period).
   */
  readonly through?: number;
  /** Set when `rebuild` regenerated it. */
  readonly rebuiltAt?: string;
  readonly text: string;
  readonly tokens: number;
  /** Model input tokens spent writing it (0 for empty markers). */
  readonly inputTokens: number;
  /** A period with no activity: written with no model call. */
  readonly empty: boolean;
  readonly modelId: string;
  readonly createdAt: string;
}

export interface SummaryPage {
  readonly items: readonly StoredSummary[];
  readonly nextToken?: string;
}

export interface SummaryStore {
  getCursor(agent: AgentKey): Promise<{ cursor: SummaryCursor; version: number } | undefined>;
  /** Conditional on the version read; false when another writer moved it first. */
  putCursor(agent: AgentKey, cursor: SummaryCursor, expectedVersion: number, sweepAt: string | undefined): Promise<boolean>;
  /** Writes a summary once; false when it already exists (a duplicate trigger writes nothing). */
  putSummary(agent: AgentKey, summary: StoredSummary): Promise<boolean>;
  /** Overwrites an existing summary (rebuild); a change, not an insert, so the ladder is not triggered again. */
  replaceSummary(agent: AgentKey, summary: StoredSummary): Promise<void>;
  /** Adds one or more child ids to a parent's slot (one write); returns the slot's children so far. */
  registerChild(agent: AgentKey, ladder: Ladder, level: number, index: number, childId: string | readonly string[]): Promise<ReadonlySet<string>>;
  /** The stored summaries at these keys (a period inside an empty run has none: see `findEmptyRuns`). */
  getSummaries(agent: AgentKey, keys: readonly { ladder: Ladder; level: number; index: number }[]): Promise<StoredSummary[]>;
  /** The empty runs (items with `through`) at a level that overlap periods `first`..`last`, in order. */
  findEmptyRuns(agent: AgentKey, ladder: Ladder, level: number, first: number, last: number): Promise<StoredSummary[]>;
  listSummaries(agent: AgentKey, ladder: Ladder, level: number | undefined, page: { limit: number; nextToken?: string }): Promise<SummaryPage>;
  /** One page of agents due for a sweep in a shard (sweep index), oldest due first. */
  dueForSweep(shard: string, now: string, limit: number, nextToken?: string): Promise<{ agents: AgentKey[]; nextToken?: string }>;
  /**
   * Moves an agent whose sweep failed out of the way: its next sweep is due
   * after an exponential backoff (reset by the next cursor move). Returns the
   * consecutive failures so far.
   */
  deferSweep(agent: AgentKey, now: string): Promise<number>;
  /**
   * Claims a due agent for one sweep: moves its next sweep to `until` if it is
   * still due at `now`. False when it is not (another run claimed it, or its
   * cursor moved), so an agent is handed to the sweep workers once per lease.
   */
  leaseSweep(agent: AgentKey, now: string, until: string): Promise<boolean>;
  /** The newest summary with text at a level, if any. */
  latestWithText(agent: AgentKey, ladder: Ladder, level: number): Promise<StoredSummary | undefined>;
}
