/**
 * Replaying a corpus through the public API, shared by the developer tools
 * (recall-lab.ts, strict-recall.ts, stale-check.ts): a quiet local stack with
 * one key and a caller of its API; each sample's turns posted to its agent in
 * requests of 100 and flushed, then waiting until an agent's last batch is
 * consolidated.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SCOPES } from '../../functions/domain/auth.js';
import { startLocalStack, type LocalStack } from '../../local/local-stack.js';
import { turnEvent, type CorpusSample } from '../eval/corpus.js';

export type ApiCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

const KEY = 'replay-key-0123456789abcdef';

/** A quiet local stack with one admin key for the default tenant, and a caller of its API that throws on any error status. */
export async function startReplayStack(namePrefix: string): Promise<{ readonly stack: LocalStack; readonly call: ApiCall }> {
  const stack = await startLocalStack({ port: 0, namePrefix: `${namePrefix}-${Date.now().toString(36)}`, log: () => {}, apiKeys: [{ tenantId: 'default', key: KEY, scopes: [...SCOPES], agents: '*' }] });
  const call: ApiCall = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.url}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  return { stack, call };
}

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
