/**
 * Assemble an agent's snapshot from its store views, the latest summary at
 * each ladder level and its progress, and write it as the next version. Runs
 * offline (after each consolidated batch, after the ladder writes a summary,
 * after a sweep), so the read path is one lookup.
 */
import type { AgentKey } from '../domain/agent-key.js';
import { LADDERS, LEVEL_NAMES, topLevel, type LadderConfig } from '../domain/ladders.js';
import { UPDATERS } from '../domain/memory.js';
import type { LadderLevelView, Snapshot } from '../domain/snapshot.js';
import { MemoryServiceError } from '../domain/errors.js';
import type { SnapshotStore } from '../ports/snapshot-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { AgentLedger } from '../ports/pipeline.js';
import type { SummaryStore } from '../ports/summary-store.js';
import { refreshItems, type IndexDependencies } from './index-memory.js';

export interface SnapshotDependencies {
  readonly memory: MemoryStore;
  readonly summaries: SummaryStore;
  readonly ledger: AgentLedger;
  readonly snapshots: Pick<SnapshotStore, 'readVersion' | 'write'>;
  readonly ladders: LadderConfig;
  readonly now?: () => Date;
  /** When set, the index's items segment follows the views, and the snapshot carries the index manifest. */
  readonly index?: IndexDependencies;
}

const MAX_ATTEMPTS = 5;

export async function assembleSnapshot(deps: SnapshotDependencies, agent: AgentKey): Promise<Snapshot> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const previous = await deps.snapshots.readVersion(agent);
    const [views, ladders, status] = await Promise.all([
      Promise.all(UPDATERS.map((updater) => deps.memory.readView(agent, updater))),
      Promise.all(
        LADDERS.map(async (ladder) => {
          const levels: LadderLevelView[] = [];
          for (let level = 0; level <= topLevel(deps.ladders, ladder); level += 1) {
            const latest = await deps.summaries.latestWithText(agent, ladder, level);
            if (latest) levels.push({ id: latest.id, level, name: LEVEL_NAMES[ladder][level]!, from: latest.from, to: latest.to, text: latest.text, tokens: latest.tokens, asOf: latest.createdAt });
          }
          return levels;
        }),
      ),
      deps.ledger.readStatus(agent),
    ]);
    const [contacts, facts, tasks] = views;
    const index = deps.index ? await refreshItems(deps.index, agent, { ...(contacts ? { contacts } : {}), ...(facts ? { facts } : {}), ...(tasks ? { tasks } : {}) }) : undefined;
    const snapshot: Snapshot = {
      tenantId: agent.tenantId,
      agentId: agent.agentId,
      version: previous + 1,
      generatedAt: (deps.now ?? (() => new Date()))().toISOString(),
      freshness: {
        lastConsolidatedSequence: status?.lastConsolidatedSequence ?? 0,
        lastIngestedSequence: status?.lastSequence ?? 0,
        pendingRecords: (status?.lastSequence ?? 0) - (status?.lastConsolidatedSequence ?? 0),
        ...(status?.lastConsolidatedRecordAt ? { newestConsolidatedRecordAt: status.lastConsolidatedRecordAt } : {}),
      },
      ...(contacts ? { contacts } : {}),
      ...(facts ? { facts } : {}),
      ...(tasks ? { tasks } : {}),
      time: ladders[0]!,
      count: ladders[1]!,
      ...(index && index.version > 0 ? { index } : {}),
    };
    // An agent the ledger does not know (erased, or a late job for it) gets no snapshot back.
    if (!status) return snapshot;
    if (await deps.snapshots.write(agent, snapshot)) return snapshot;
  }
  throw new MemoryServiceError(`snapshot of ${agent.agentId} kept changing while it was assembled`);
}
