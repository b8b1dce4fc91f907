import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchRoute, pageModules } from '../../lib/routes';

/** One chunk of Vite's build manifest (`build.manifest`), as far as this reads it. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * The app's shell for a page, naming the page's code: its chunk and the chunks and styles
 * it imports, which the browser then fetches while the entry script still runs instead of
 * after it, when the router asks for the page. The entry's own files are already in the
 * shell. Without a manifest (a client built without one), the shell as it is.
 */
export function pageShells(clientDir: string, shell: string): (path: string) => string {
  const file = join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return () => shell;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const shells = new Map<string, string>();
  for (const [name, module] of Object.entries(pageModules)) {
    const tags = linksOf(manifest, `src/pages/${module}.tsx`);
    if (!tags) continue;
    // A function, not a string: `$&` in a file name must stay text.
    shells.set(
      name,
      shell.replace(/<\/head>/i, () => `  ${tags}\n  </head>`),
    );
  }
  return (path) => {
    const route = matchRoute(path);
    return (route && shells.get(route)) ?? shell;
  };
}

function linksOf(manifest: Record<string, ManifestChunk>, key: string): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (chunkKey: string) => {
    const chunk = manifest[chunkKey];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [
    ...[...scripts].map((src) => `<link rel="modulepreload" crossorigin href="/${src}">`),
    // Preloaded, not applied: Vite's loader adds each as a stylesheet when the page's
    // code is imported, and a stylesheet here would hold the entry script back.
    ...[...styles].map((href) => `<link rel="preload" as="style" crossorigin href="/${href}">`),
  ].join('\n    ');
}
