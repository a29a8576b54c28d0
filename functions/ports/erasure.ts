/**
 * Erasure of one agent: the queued job, the stores that erase, and the
 * minimal record the tenant keeps (no content).
 */
import type { AgentKey } from '../domain/agent-key.js';

export interface ErasureJob extends AgentKey {
  readonly requestedAt: string;
  /** Key id (not the key) that asked for it. */
  readonly requestedBy: string;
}

export interface ErasureQueue {
  enqueue(job: ErasureJob): Promise<void>;
}

/** Deletes everything of one agent in one store; returns how many objects or items went (0 when nothing was left). */
export interface AgentDataEraser {
  readonly name: string;
  erase(agent: AgentKey): Promise<number>;
}

export interface ErasureRecord {
  readonly agentId: string;
  readonly requestedAt: string;
  readonly erasedAt: string;
  readonly requestedBy: string;
  /** Objects or items deleted, by store. */
  readonly counts: Readonly<Record<string, number>>;
}

/** The tenant's erasure records, kept outside any agent's partition. */
export interface ErasureLog {
  record(tenantId: string, entry: ErasureRecord): Promise<void>;
  list(tenantId: string): Promise<ErasureRecord[]>;
}
