/**
 * Replaying a corpus through the public API, shared by the developer tools
 * (recall-lab.ts, strict-recall.ts): each sample's turns posted to its agent
 * in requests of 100 and flushed, then waiting until an agent's last batch is
 * consolidated.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { turnEvent, type CorpusSample } from '../eval/corpus.js';

export type ApiCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Posts every sample's turns to its agent (same index) and flushes each agent's open batch. */
export async function postSamples(call: ApiCall, samples: readonly CorpusSample[], agents: readonly string[]): Promise<void> {
  for (const [i, sample] of samples.entries()) {
    for (let at = 0; at < sample.turns.length; at += 100) await call('POST', `/v1/agents/${agents[i]}/events`, { events: sample.turns.slice(at, at + 100).map(turnEvent) });
    await call('POST', `/v1/agents/${agents[i]}/flush`);
  }
}

/** Until everything the agent was sent is consolidated (polled every half second). */
export async function waitConsolidated(call: ApiCall, agent: string): Promise<void> {
  for (;;) {
    const status = await call<{ lastSequence: number; lastConsolidatedSequence: number }>('GET', `/v1/agents/${agent}/status`);
    if (status.lastConsolidatedSequence >= status.lastSequence) return;
    await sleep(500);
  }
}
