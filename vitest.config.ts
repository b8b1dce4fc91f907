import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The tests' own config, apart from `vite.config.ts`: that one mounts the API proxy into
 * Vite and so imports the whole server, which every run would load before its first test.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    // One PostgreSQL for the run, and a migrated template on it (test/support): each test
    // file's databases are copies of it, so files run side by side, one per core.
    globalSetup: ['test/support/global-postgres.ts'],
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Tests wait for events; the timeout only bounds a hang, and a machine busy with
        // other work may take seconds to start a PostgreSQL.
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          // Hooks start servers and databases too: Vitest's 10 s ran out on a busy machine.
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['test/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['test/component/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
    globals: true,
    // CSS modules are built as in the app: their class names, and the values TypeScript
    // reads from them (breakpoints), are the real ones.
    css: { include: [/\.module\.css$/] },
  },
});
