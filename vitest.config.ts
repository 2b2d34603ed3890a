import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Integration tests spawn processes and watch real files, two test files at a time on a
    // 2-core machine: give them room. A timeout only bounds a test that hangs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is spent waiting on spawned processes, file events and sockets, so two
    // files run side by side even on two cores (vitest's default there is one).
    maxWorkers: 2,
    globalSetup: ['test/setup/build.ts'],
  },
});
