import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiProxyPlugin } from './src/server/vite-plugin';

/**
 * The code two or more pages share, and the entry does not load, in one chunk: a page is
 * then its own chunk and this one, two requests, where automatic splitting made some 30
 * small files that a browser fetches six at a time.
 */
const sharedByPages = {
  debugName: 'pages-shared',
  name: (id: string, ctx: { getModuleInfo: (id: string) => ModuleInfo | null }) =>
    loadedByEntry(id, (other) => ctx.getModuleInfo(other), new Set()) ? null : 'pages-shared',
  minShareCount: 2,
  includeDependenciesRecursively: false,
};

interface ModuleInfo {
  isEntry: boolean;
  importers: readonly string[];
}

/** Whether a module is in the entry's static graph: an entry, or imported by one such. */
function loadedByEntry(
  id: string,
  info: (id: string) => ModuleInfo | null,
  seen: Set<string>,
): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const module = info(id);
  if (!module) return false;
  return module.isEntry || module.importers.some((importer) => loadedByEntry(importer, info, seen));
}

export default defineConfig({
  plugins: [react(), apiProxyPlugin()],
  // The browsers the app supports preload modules themselves: no polyfill in the entry.
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [sharedByPages] } } },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
