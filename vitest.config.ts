import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Integration tests spawn processes and watch real files; give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    globalSetup: ['test/setup/build.ts'],
  },
});
