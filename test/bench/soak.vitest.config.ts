import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The soaks: tests that repeat one thing thousands of times to show that nothing piles up
 * (memory, requests in flight), or that work on the full-size data. They check, and fail
 * like tests, but take too long for `npm test`: `npm run bench -- soak` runs them
 * (`soak.ts`). Files named `*.soak.ts`, beside the harness of the tests they extend.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'soak',
    include: ['test/**/*.soak.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-postgres.ts'],
    globals: true,
    // One file at a time: a heap measured beside another file's work says less.
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
