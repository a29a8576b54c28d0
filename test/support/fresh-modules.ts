/**
 * Test files share their worker process (`isolate: false` in vitest.config.ts),
 * so the libraries the whole suite loads (the NLP models, the AWS SDK, the
 * tokenizer) are imported once per worker instead of once per file. Each
 * file still starts as a new process would: the environment is put back as
 * the worker began, and the project's own modules are evaluated afresh (a
 * handler builds its runtime from the environment when it is imported).
 */
import { vi } from 'vitest';

const state = globalThis as { __workerEnvironment?: Record<string, string | undefined> };
const initial = (state.__workerEnvironment ??= { ...process.env });
for (const key of Object.keys(process.env)) if (!(key in initial)) delete process.env[key];
Object.assign(process.env, initial);
vi.resetModules();
