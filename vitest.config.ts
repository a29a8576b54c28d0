import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/fresh-modules.ts', 'test/support/quiet-logs.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration files share one emulator; each provisions its own resources. Two workers even on a
    // two-core machine: much of an integration file's time is spent waiting on the emulator.
    fileParallelism: true,
    // One worker process runs many files (see test/support/fresh-modules.ts for what each file still gets afresh).
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    sequence: { sequencer: LongestFirst },
  },
});
