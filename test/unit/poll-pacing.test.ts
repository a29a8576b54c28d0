/** The local runners' poll pacing: backoff while idle, woken by activity, never faster than the base interval. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer, idleCeilingMs, signalActivity } from '../../local/poll-pacing.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** How long `idle()` waits, in fake milliseconds, advancing `step` at a time (and calling `during` once after the first step). */
async function waited(pacer: ReturnType<typeof createPacer>, during?: () => void, step = 10): Promise<number> {
  let done = false;
  const started = Date.now();
  void pacer.idle().then(() => {
    done = true;
  });
  let first = true;
  while (!done) {
    await vi.advanceTimersByTimeAsync(step);
    if (first && during) during();
    first = false;
  }
  return Date.now() - started;
}

describe('poll pacing', () => {
  it('doubles the wait after each empty poll, up to the ceiling, and starts again at the base after work', async () => {
    const pacer = createPacer(50, 400);
    const waits: number[] = [];
    for (let poll = 0; poll < 5; poll += 1) waits.push(await waited(pacer));
    pacer.busy();
    waits.push(await waited(pacer));
    pacer.stop();

    expect(waits).toEqual([50, 100, 200, 400, 400, 50]);
  });

  it('ends a long wait when activity is signalled, but not sooner than the base interval', async () => {
    const pacer = createPacer(50, 1_000);
    for (let poll = 0; poll < 4; poll += 1) await waited(pacer);

    expect(await waited(pacer, () => signalActivity())).toBe(50);
    // The backoff starts again from the base.
    expect(await waited(pacer)).toBe(50);
    pacer.stop();
  });

  it('ends its wait when stopped, and waits no more afterwards', async () => {
    const pacer = createPacer(50, 1_000);
    for (let poll = 0; poll < 4; poll += 1) await waited(pacer);

    // An 800 ms wait, stopped after its first 10 ms step, ends within the next step.
    expect(await waited(pacer, () => pacer.stop())).toBe(20);
    expect(await waited(pacer)).toBe(10);
  });

  it('sets the ceiling at twenty times the base, at least one second', () => {
    expect([idleCeilingMs(10), idleCeilingMs(50), idleCeilingMs(100)]).toEqual([1_000, 1_000, 2_000]);
  });
});
