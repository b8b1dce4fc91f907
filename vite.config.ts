import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { apiProxyPlugin } from './src/server/vite-plugin';

export default defineConfig({
  plugins: [react(), apiProxyPlugin()],
  // The browsers the app supports preload modules themselves: no polyfill in the entry.
  build: { outDir: 'dist/client', emptyOutDir: true, modulePreload: { polyfill: false } },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
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
        },
      },
    ],
    globals: true,
    // CSS modules are built as in the app: their class names, and the values TypeScript
    // reads from them (breakpoints), are the real ones.
    css: { include: [/\.module\.css$/] },
  },
});
