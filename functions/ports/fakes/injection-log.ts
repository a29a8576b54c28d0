/** In-memory injection log: one entry per request id, a repeated id overwriting the entry (as the adapter's put does). */
import { agentPartitionKey, type AgentKey } from '../../domain/agent-key.js';
import type { Injection, InjectionLog } from '../injection-log.js';
import { stored } from './storage.js';

export class InMemoryInjectionLog implements InjectionLog {
  private readonly entries = new Map<string, Injection>();

  async record(agent: AgentKey, injection: Injection): Promise<void> {
    this.entries.set(`${agentPartitionKey(agent)}#${injection.requestId}`, stored(injection));
  }

  async read(agent: AgentKey, requestId: string): Promise<Injection | undefined> {
    return stored(this.entries.get(`${agentPartitionKey(agent)}#${requestId}`));
  }
}
