/**
 * How often the local event sources poll the emulator.
 *
 * Lambda's pollers long-poll, so they cost AWS nothing while a queue is
 * empty. The local runners short-poll, because a long poll would hold the
 * emulator's serialised request slot (`moto_locked_server.py`). Every short
 * poll costs the emulator a few milliseconds of CPU. A runner that polls every
 * 50 ms, on three sources, keeps half a core busy doing nothing.
 *
 * So a runner polls at its base interval while it finds work, and after each
 * empty poll it waits twice as long, up to a ceiling. Anything that can make
 * work appears wakes it at once:
 * - a local function's invocation has ended (every write the pipeline makes
 *   comes from one);
 * - a write went through the local stack's own clients (a test or a script
 *   writing directly);
 * - a delivery failed, and its visibility timeout has passed.
 * The ceiling bounds what no signal covers, such as a delayed message coming
 * due.
 */

type Listener = () => void;

const listeners = new Set<Listener>();

/** Tells every runner in this process that work may have appeared. */
export function signalActivity(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` on every signal, until the returned function is called. */
export function onActivity(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export interface Pacer {
  /** Waits after an empty poll: the base interval, doubled after each empty poll up to the ceiling, or less if woken. */
  idle(): Promise<void>;
  /** Work was found: the next wait is the base interval again. */
  busy(): void;
  /** Ends the current wait as soon as the base interval allows, and resets the backoff. */
  wake(): void;
  /** Ends any wait now and stops listening for signals. */
  stop(): void;
}

/** The idle ceiling for a base interval: twenty times it, and at least one second. */
export function idleCeilingMs(baseMs: number): number {
  return Math.max(1_000, baseMs * 20);
}

export function createPacer(baseMs: number, ceilingMs = idleCeilingMs(baseMs)): Pacer {
  let next = baseMs;
  let sleeping: { started: number; timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let stopped = false;
  let unsubscribe: () => void = () => {};

  const finish = () => {
    if (!sleeping) return;
    clearTimeout(sleeping.timer);
    const { resolve } = sleeping;
    sleeping = undefined;
    resolve();
  };

  const pacer: Pacer = {
    idle() {
      if (stopped) return Promise.resolve();
      const ms = next;
      next = Math.min(next * 2, ceilingMs);
      return new Promise<void>((resolve) => {
        sleeping = { started: Date.now(), timer: setTimeout(finish, ms), resolve };
      });
    },
    busy() {
      next = baseMs;
    },
    wake() {
      next = baseMs;
      if (!sleeping) return;
      // Never sooner than the base interval after the last poll: a storm of signals polls no faster than before.
      const rest = Math.max(0, sleeping.started + baseMs - Date.now());
      clearTimeout(sleeping.timer);
      sleeping.timer = setTimeout(finish, rest);
    },
    stop() {
      stopped = true;
      unsubscribe();
      finish();
    },
  };
  unsubscribe = onActivity(() => pacer.wake());
  return pacer;
}

/** The commands that cannot create work for a poller: reads, and the pollers' own calls. */
const READ_ONLY = /^(Get|List|Describe|Receive|Query|Scan|BatchGet|Head)/;

/**
 * Adds a middleware that signals activity after each successful write a client
 * sends, so a runner polls promptly after a test or script writes to a queue or
 * a streamed table directly.
 */
export function signalWrites(client: { middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void } }): void {
  const middleware = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const result = await next(args);
    if (!READ_ONLY.test(context.commandName ?? '')) signalActivity();
    return result;
  };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'signalLocalActivity' });
}

/** Consecutive empty polls, and polls completed, of one source. */
export interface PollCounts {
  streak: number;
  polls: number;
}

/** One polled source: its counts and its pacer, kept together by the runner's poll loop. */
export interface PolledSource {
  readonly counts: PollCounts;
  readonly pacer: Pacer;
  /** Work is in hand: the source is busy from now, not only once its poll ends (a delivery may outlast the idle checks). */
  inHand(): void;
  /** Records a finished poll, then waits as long as the pacer says (not at all after work, or once stopped). */
  polled(delivered: boolean): Promise<void>;
}

/** A paced source for each id, at the base interval `baseMs`. */
export function pacedSources(ids: readonly string[], baseMs: number): Map<string, PolledSource> {
  return new Map(
    ids.map((id) => {
      const counts: PollCounts = { streak: 0, polls: 0 };
      const pacer = createPacer(baseMs);
      const source: PolledSource = {
        counts,
        pacer,
        inHand() {
          counts.streak = 0;
        },
        async polled(delivered) {
          counts.streak = delivered ? 0 : counts.streak + 1;
          counts.polls += 1;
          if (delivered) pacer.busy();
          else await pacer.idle();
        },
      };
      return [id, source];
    }),
  );
}

/**
 * Resolves once every source has had two consecutive empty polls, at least
 * one begun after this call: nothing is in hand, and nothing was waiting.
 * Wakes the sources meanwhile, so they poll at their base interval.
 */
export async function waitForQuiet(sources: ReadonlyMap<string, { counts: PollCounts; pacer: Pacer }>, pollIntervalMs: number, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const start = new Map([...sources].map(([id, source]) => [id, source.counts.polls]));
  const settled = () => [...sources].every(([id, { counts }]) => counts.streak >= 2 && counts.polls - start.get(id)! >= 2);
  while (!settled()) {
    if (Date.now() > deadline) throw new Error(`${what} not idle after ${timeoutMs} ms`);
    for (const { pacer } of sources.values()) pacer.wake();
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}
