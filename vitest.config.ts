import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 15_000,
    // starting an embedded database (PGlite) takes seconds, and longer on a loaded machine
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
