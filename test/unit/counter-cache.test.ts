import { describe, expect, it } from 'vitest';
import { AgentCounterCache } from '../../functions/use-cases/counter-cache.js';
import { EMPTY_COUNTERS } from '../../functions/domain/sequencing.js';

describe('AgentCounterCache', () => {
  it('evicts the least recently written agent beyond its capacity', () => {
    const cache = new AgentCounterCache(2);
    cache.set('a', EMPTY_COUNTERS);
    cache.set('b', EMPTY_COUNTERS);
    cache.set('a', { ...EMPTY_COUNTERS, lastSequence: 1 });
    cache.set('c', EMPTY_COUNTERS);

    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.lastSequence).toBe(1);
    expect(cache.get('c')).toBeDefined();
  });

  it('forgets an agent on request', () => {
    const cache = new AgentCounterCache();
    cache.set('a', EMPTY_COUNTERS);
    cache.forget('a');

    expect(cache.get('a')).toBeUndefined();
  });
});
