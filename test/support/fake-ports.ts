/**
 * One agent's world on the in-memory fakes: every port a use case needs, a
 * settable clock, and event factories. For unit tests only; integration tests
 * use the emulator (test/support/local-stack.ts).
 */
import type { AgentKey } from '../../functions/domain/agent-key.js';
import type { IncomingEvent } from '../../functions/domain/events.js';
import { DEFAULT_LADDERS, type LadderConfig } from '../../functions/domain/ladders.js';
import {
  InMemoryAgentLedger,
  InMemoryBatchQueue,
  InMemoryIdleCheckScheduler,
  InMemoryMemoryStore,
  InMemoryRawLog,
  InMemorySnapshotStore,
  InMemorySummaryStore,
  ScriptedModel,
  type ModelScript,
} from '../../functions/ports/fakes/index.js';
import type { IngestDependencies } from '../../functions/use-cases/ingest-events.js';
import type { ConsolidationDependencies } from '../../functions/use-cases/consolidate-batch.js';
import type { SummaryDependencies } from '../../functions/use-cases/summaries.js';
import type { SnapshotDependencies } from '../../functions/use-cases/assemble-snapshot.js';
import { DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';

/** A clock tests move by hand. */
export class FakeClock {
  constructor(private at = Date.parse('2026-11-02T09:00:00Z')) {}
  readonly now = (): Date => new Date(this.at);
  advance(ms: number): void {
    this.at += ms;
  }
}

export function fakeWorld(options: { batchSize?: number; model?: ModelScript; ladders?: LadderConfig } = {}) {
  const clock = new FakeClock();
  const ledger = new InMemoryAgentLedger();
  const rawLog = new InMemoryRawLog();
  const queue = new InMemoryBatchQueue(clock.now);
  const idleChecks = new InMemoryIdleCheckScheduler();
  const memory = new InMemoryMemoryStore();
  const summaries = new InMemorySummaryStore();
  const snapshots = new InMemorySnapshotStore();
  const model = new ScriptedModel(options.model ?? {});
  const ladders = options.ladders ?? DEFAULT_LADDERS;
  const ingest: IngestDependencies = { ledger, rawLog, queue, batchSize: options.batchSize ?? 3, rawWriteConcurrency: 4, now: clock.now };
  const summaryDeps: SummaryDependencies = { summaries, rawLog, model, ladders, cursor: { timeZone: 'UTC', idleGapMs: 30 * 60_000 }, now: clock.now };
  const snapshot: SnapshotDependencies = { memory, summaries, ledger, snapshots, ladders, now: clock.now };
  const consolidation: ConsolidationDependencies = { ledger, rawLog, memory, model, budget: DEFAULT_BUDGET, now: clock.now };
  return { clock, ledger, rawLog, queue, idleChecks, memory, summaries, snapshots, model, ladders, ingest, summaryDeps, snapshot, consolidation };
}

export const agent: AgentKey = { tenantId: 'default', agentId: 'agent-1' };

let counter = 0;

/** A message event; ids are unique unless given. */
export function message(content: string, extra: Partial<IncomingEvent> = {}): IncomingEvent {
  counter += 1;
  return { id: `m-${counter}`, type: 'message', role: 'user', content, timestamp: '2026-11-02T09:00:00Z', ...extra };
}

export function action(content: string, extra: Partial<IncomingEvent> = {}): IncomingEvent {
  counter += 1;
  return { id: `a-${counter}`, type: 'action', role: 'tool', content, timestamp: '2026-11-02T09:00:00Z', ...extra };
}

/** `n` messages. */
export function messages(n: number, prefix = 'note'): IncomingEvent[] {
  return Array.from({ length: n }, (_, i) => message(`${prefix} ${i + 1}`));
}
