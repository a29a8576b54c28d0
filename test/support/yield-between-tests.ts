/**
 * A worker of the forks pool reports each test to the runner over RPC with a fixed 60-second reply timeout.
 * A file of synchronous tests (the local model's extraction, the linear-time checks) never lets the worker's
 * event loop reach its poll phase, so on a loaded two-core machine the runner's replies wait unread until the
 * timeout fires first: every test passes and the run still fails ("Timeout calling onTaskUpdate"). A turn of the
 * event loop after each test reads them.
 */
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
