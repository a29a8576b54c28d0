/**
 * The snapshot: everything an agent reads on a turn, ready-made in one item
 * (one GetItem). It holds each store's budgeted view (saying what it left
 * out), the latest summary at each level of both ladders, and how far it lags
 * the raw log.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Ladder } from './ladders.js';
import type { UpdaterView } from './views.js';
import type { IndexManifest } from './index-segment.js';

export const SNAPSHOT_VIEWS = ['contacts', 'facts', 'tasks', 'time', 'count'] as const;
export type SnapshotView = (typeof SNAPSHOT_VIEWS)[number];

export interface LadderLevelView {
  readonly id: string;
  readonly level: number;
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly text: string;
  readonly tokens: number;
  /** When the summary was written: its "as of". */
  readonly asOf: string;
}

export interface Freshness {
  /** Every store has consolidated records up to this sequence number. */
  readonly lastConsolidatedSequence: number;
  /** The last sequence number ingested when the snapshot was assembled. */
  readonly lastIngestedSequence: number;
  /** Records ingested but not yet in the stores, at assembly time. */
  readonly pendingRecords: number;
  /** Timestamp of the newest consolidated record. */
  readonly newestConsolidatedRecordAt?: string;
}

export interface Snapshot {
  readonly tenantId: string;
  readonly agentId: string;
  readonly version: number;
  readonly generatedAt: string;
  readonly freshness: Freshness;
  readonly contacts?: UpdaterView;
  readonly facts?: UpdaterView;
  readonly tasks?: UpdaterView;
  readonly time: readonly LadderLevelView[];
  readonly count: readonly LadderLevelView[];
  /** The retrieval index's manifest: which segments to search (read path only; not part of `GET /snapshot`). */
  readonly index?: IndexManifest;
}

export type LadderViews = Record<Ladder, readonly LadderLevelView[]>;

/** The snapshot restricted to the requested views (freshness and identity always included). */
export function selectViews(snapshot: Snapshot, views: readonly SnapshotView[]): Partial<Snapshot> {
  const { contacts, facts, tasks, time, count, index: _index, ...always } = snapshot;
  const all = { contacts, facts, tasks, time, count };
  return { ...always, ...Object.fromEntries(views.map((view) => [view, all[view]])) };
}

/** The counters a snapshot's freshness is read from (the agent ledger's status). */
export interface LedgerCounters {
  readonly lastSequence: number;
  readonly lastConsolidatedSequence: number;
  readonly lastConsolidatedRecordAt?: string;
}

/** Freshness as the ledger says it is now, rather than as it was when the snapshot was assembled. */
export function liveFreshness(freshness: Freshness | undefined, counters: LedgerCounters): Freshness {
  const newest = counters.lastConsolidatedRecordAt ?? freshness?.newestConsolidatedRecordAt;
  return {
    lastConsolidatedSequence: counters.lastConsolidatedSequence,
    lastIngestedSequence: counters.lastSequence,
    pendingRecords: Math.max(0, counters.lastSequence - counters.lastConsolidatedSequence),
    ...(newest ? { newestConsolidatedRecordAt: newest } : {}),
  };
}

/** The snapshot of an agent that has records but nothing consolidated yet: no views, no summaries, no index. */
export function emptySnapshot(agent: { readonly tenantId: string; readonly agentId: string }, counters: LedgerCounters, at: string): Snapshot {
  return { tenantId: agent.tenantId, agentId: agent.agentId, version: 0, generatedAt: at, freshness: liveFreshness(undefined, counters), time: [], count: [] };
}

/** The stored form of a snapshot: gzip-compressed JSON. */
export function packSnapshot(snapshot: Snapshot): Uint8Array {
  return gzipSync(JSON.stringify(snapshot));
}

export function unpackSnapshot(packed: Uint8Array): Snapshot {
  return JSON.parse(gunzipSync(packed).toString('utf8')) as Snapshot;
}
