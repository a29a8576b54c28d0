/**
 * Store measurement: everything stored for one agent, read through the list
 * endpoints, how each item or summary traces back to the turns it came from,
 * and what the store costs (items, summaries, bytes, tokens).
 */
import { countTokens } from '../../functions/commons/tokens.js';
import type { ApiClient, Listed } from './api-client.js';
import type { StoreSize } from './types.js';

const STORES = ['contacts', 'facts', 'tasks'] as const;

export type MemorySize = Omit<StoreSize, 'rawBytes' | 'historyTokens'>;

/** Everything stored for one agent, and how to trace an item back to the turns it came from. */
export interface StoredMemory {
  readonly items: Listed[];
  readonly summaries: Listed[];
  readonly size: MemorySize;
  trace(ids: readonly string[], expandSummaries?: boolean): Set<string>;
  /** A cited id as turns: a summary's sources, or the id itself (a turn). */
  expand(id: string): readonly string[];
}

export async function readMemory(api: ApiClient, agentId: string): Promise<StoredMemory> {
  const lists = await Promise.all(STORES.map((store) => api.listAll(`/v1/agents/${agentId}/${store}`)));
  const summaries = [...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=time`)), ...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=count`))];
  const items = lists.flat();
  const byId = new Map<string, Listed>([...items, ...summaries].map((entry) => [entry.id, entry]));
  const expanded = new Map<string, readonly string[]>();
  const turnsOf = (id: string, depth = 0): readonly string[] => {
    const known = expanded.get(id);
    if (known) return known;
    const entry = byId.get(id);
    if (!entry || depth > 8) return [];
    const turns = entry.evidence
      ? entry.evidence.map((e) => e.recordId)
      : [...(entry.sources ?? []), ...(entry.children ?? []).flatMap((child) => turnsOf(child, depth + 1))];
    expanded.set(id, turns);
    return turns;
  };
  const liveText = (item: Listed) => [item.statement, item.biography, item.summary, item.title].filter(Boolean).join('\n');
  const live = items.filter((item) => item.status !== 'archived');
  return {
    items,
    summaries,
    expand(id) {
      return byId.has(id) ? turnsOf(id) : [id];
    },
    trace(ids, expandSummaries = true) {
      const traced = new Set<string>();
      for (const id of ids) {
        const entry = byId.get(id);
        if (!entry || (!expandSummaries && !entry.evidence)) continue;
        for (const turn of turnsOf(id)) traced.add(turn);
      }
      return traced;
    },
    size: {
      items: Object.fromEntries(STORES.map((store, i) => [store, { live: lists[i]!.filter((item) => item.status !== 'archived').length, archived: lists[i]!.filter((item) => item.status === 'archived').length }])) as StoreSize['items'],
      summaries: summaries.filter((s) => !s.empty).length,
      memoryBytes: Buffer.byteLength(JSON.stringify(items)) + Buffer.byteLength(JSON.stringify(summaries.filter((s) => !s.empty))),
      memoryTokens: countTokens([...live.map(liveText), ...summaries.map((s) => s.text ?? '')].join('\n')),
    },
  };
}

/** The store sizes of several agents, summed. */
export function sumMemorySizes(sizes: readonly MemorySize[]): MemorySize {
  const items: StoreSize['items'] = { contacts: { live: 0, archived: 0 }, facts: { live: 0, archived: 0 }, tasks: { live: 0, archived: 0 } };
  for (const size of sizes) {
    for (const store of STORES) {
      items[store].live += size.items[store].live;
      items[store].archived += size.items[store].archived;
    }
  }
  return {
    items,
    summaries: sizes.reduce((sum, s) => sum + s.summaries, 0),
    memoryBytes: sizes.reduce((sum, s) => sum + s.memoryBytes, 0),
    memoryTokens: sizes.reduce((sum, s) => sum + s.memoryTokens, 0),
  };
}
