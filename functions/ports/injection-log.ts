/**
 * The injection log: what each context response put in front of the agent
 * (item ids and versions, snapshot version, budget and query), kept so that
 * any answer an agent gave can be traced and reproduced.
 */
import type { AgentKey } from '../domain/agent-key.js';
import type { IncludedItem } from '../domain/context.js';

export interface Injection {
  readonly requestId: string;
  readonly at: string;
  readonly snapshotVersion: number;
  readonly maxTokens: number;
  readonly query?: string;
  readonly contact?: string;
  readonly project?: string;
  /** The views the context was built from, when not all of them. */
  readonly views?: readonly string[];
  readonly tokens: number;
  readonly items: readonly IncludedItem[];
}

export interface InjectionLog {
  record(agent: AgentKey, injection: Injection): Promise<void>;
  read(agent: AgentKey, requestId: string): Promise<Injection | undefined>;
}

/**
 * The injection log read offline, to count how often items were used. Never
 * called on the read path.
 */
export interface InjectionHistory {
  /** Injections recorded after `after` (ISO time; all when absent), oldest first. */
  listSince(agent: AgentKey, after: string | undefined): Promise<Injection[]>;
}
