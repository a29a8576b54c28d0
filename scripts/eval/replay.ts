/**
 * The replay: each sample's turns posted through the API with their own
 * timestamps, in stages (for the learning curve), each stage flushed and
 * waited on until consolidation and both ladders have caught up. Only the
 * last stage sweeps.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalStack } from '../../local/local-stack.js';
import type { ApiClient } from './api-client.js';
import { turnEvent, type CorpusSample } from './corpus.js';

const INGEST_CHUNK = 100;

export interface ReplayAgent {
  readonly sample: CorpusSample;
  readonly agentId: string;
}

export interface StageDone {
  readonly stage: number;
  /** Turns ingested so far, over every sample. */
  readonly ingestedTurns: number;
  /** How many of each agent's turns (a prefix, in time order) have been replayed. */
  readonly posted: ReadonlyMap<string, number>;
}

export interface ReplayTiming {
  readonly stages: number;
  readonly ingestMs: number;
  readonly consolidationMs: number;
  readonly ladderMs: number;
  /** JSON bytes of the events as posted. */
  readonly rawBytes: number;
}

const sessionsOf = (sample: CorpusSample) => [...new Set(sample.turns.map((t) => t.session))];

/** No more stages than the shortest conversation has sessions: each stage adds at least one. */
export function stageCount(samples: readonly CorpusSample[], requested = 4): number {
  return Math.max(1, Math.min(requested, ...samples.map((s) => sessionsOf(s).length)));
}

/**
 * Replays every agent's sample in `stages` stages; after each stage has
 * settled, `afterStage` runs (the learning curve scores the answerable
 * questions there).
 */
export async function replay(
  api: ApiClient,
  stack: Pick<LocalStack, 'eventSources'>,
  agents: readonly ReplayAgent[],
  options: { stages: number; settleTimeoutMs: number; log: (line: string) => void; afterStage?: (done: StageDone) => Promise<void> },
): Promise<ReplayTiming> {
  const { stages, log } = options;
  const totalTurns = agents.reduce((sum, a) => sum + a.sample.turns.length, 0);
  const posted = new Map<string, number>(agents.map(({ agentId }) => [agentId, 0]));
  let ingestMs = 0;
  let consolidationMs = 0;
  let ladderMs = 0;
  let ingestedTurns = 0;
  let rawBytes = 0;

  for (let stage = 1; stage <= stages; stage += 1) {
    const stageStart = Date.now();
    for (const { sample, agentId } of agents) {
      // The first k sessions in time order (session numbers need not be), as a prefix of the turns.
      const sessions = sessionsOf(sample);
      const included = new Set(sessions.slice(0, Math.ceil((sessions.length * stage) / stages)));
      const from = posted.get(agentId)!;
      let upTo = from;
      if (stage === stages) upTo = sample.turns.length;
      else while (upTo < sample.turns.length && included.has(sample.turns[upTo]!.session)) upTo += 1;
      for (let i = from; i < upTo; i += INGEST_CHUNK) {
        const events = sample.turns.slice(i, Math.min(upTo, i + INGEST_CHUNK)).map(turnEvent);
        rawBytes += events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);
        await api.call('POST', `/v1/agents/${agentId}/events`, { events });
        ingestedTurns += events.length;
        if (ingestedTurns % 1000 < events.length) log(`ingested ${ingestedTurns}/${totalTurns} turns`);
      }
      posted.set(agentId, upTo);
    }
    ingestMs += Date.now() - stageStart;
    // Only the last stage sweeps: a sweep closes every day up to today, and records replayed after it
    // would count into today's open day (late records), not their own.
    const settled = await settle(api, stack, agents.map((a) => a.agentId), { sweep: stage === stages, timeoutMs: options.settleTimeoutMs }, log);
    consolidationMs += settled.consolidatedAt - stageStart;
    ladderMs += settled.idleAt - settled.consolidatedAt;
    log(`stage ${stage}/${stages}: ${ingestedTurns} turns ingested, consolidated and summarised (${((Date.now() - stageStart) / 1000).toFixed(1)} s)`);
    await options.afterStage?.({ stage, ingestedTurns, posted });
  }
  return { stages, ingestMs, consolidationMs, ladderMs, rawBytes };
}

/**
 * Flush, wait until every record is consolidated, then (`sweep`) close the
 * last day and interaction, and wait for the ladders. The sweep also marks
 * every silent day from the corpus's end to today as empty, which costs time
 * on an old corpus.
 */
async function settle(api: ApiClient, stack: Pick<LocalStack, 'eventSources'>, agentIds: readonly string[], options: { sweep: boolean; timeoutMs: number }, log: (line: string) => void): Promise<{ consolidatedAt: number; idleAt: number }> {
  const deadline = Date.now() + options.timeoutMs;
  for (const agentId of agentIds) await api.call('POST', `/v1/agents/${agentId}/flush`);
  let lastReport = 0;
  for (;;) {
    const statuses = await Promise.all(agentIds.map((agentId) => api.call<{ lastSequence: number; lastConsolidatedSequence: number }>('GET', `/v1/agents/${agentId}/status`)));
    const done = statuses.reduce((sum, s) => sum + s.lastConsolidatedSequence, 0);
    const total = statuses.reduce((sum, s) => sum + s.lastSequence, 0);
    if (done >= total) break;
    if (Date.now() > deadline) throw new Error(`consolidation did not catch up in time: ${done}/${total} records`);
    if (Date.now() - lastReport > 10_000) {
      log(`consolidated ${done}/${total} records`);
      lastReport = Date.now();
    }
    // The status endpoint is the only signal the public API gives; poll it.
    await sleep(250);
  }
  const consolidatedAt = Date.now();
  if (options.sweep) for (const agentId of agentIds) await api.call('POST', `/v1/agents/${agentId}/sweep`);
  await stack.eventSources.waitForIdle(Math.max(1_000, deadline - Date.now()));
  const idleAt = Date.now();
  log(`ladders settled ${((idleAt - consolidatedAt) / 1000).toFixed(1)} s after consolidation caught up${options.sweep ? ' (final sweep included)' : ''}`);
  return { consolidatedAt, idleAt };
}
