import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchContext } from './context';
import { kb } from './lib/stats';

/**
 * 5. Bundle: the JavaScript a first visit must download before the app can start: the
 * entry script of index.html, its modulepreloads, and everything they import statically
 * (transitively), gzip-compressed with zlib at level 9 like a static server would. Lazy
 * route chunks (`import()`) are not initial. Every file of the build is listed.
 */
const BUDGET_BYTES = 120 * 1024;
// `import x from"./a.js"`, `export * from"./a.js"`, `import"./a.js"`, but not `import("./a.js")`.
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g;

const gzipSize = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).byteLength;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

export function initialScripts(clientDir: string): { entry: string; initial: string[] } {
  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const entry = /<script[^>]*type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module entry script in index.html');
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map(
    (match) => match[1] as string,
  );
  const initial = new Set<string>();
  const queue = [entry, ...preloads];
  while (queue.length > 0 && initial.size < 500) {
    const file = queue.shift() as string;
    if (initial.has(file)) continue;
    initial.add(file);
    const code = readFileSync(join(clientDir, file), 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) {
      const target = join(file, '..', match[1] as string);
      if (!initial.has(target)) queue.push(target);
    }
  }
  return { entry, initial: [...initial] };
}

export async function bundleSize(context: BenchContext): Promise<void> {
  const { report, clientDir } = context;
  const bench = '5 bundle';
  const { entry, initial } = initialScripts(clientDir);
  const all = files(clientDir)
    .filter((path) => /\.(js|css|html|svg)$/.test(path))
    .map((path) => {
      const bytes = readFileSync(path);
      const name = relative(clientDir, path);
      return {
        name,
        raw: bytes.byteLength,
        gzip: gzipSize(bytes),
        initial: initial.includes(name),
      };
    })
    .sort((a, b) => b.raw - a.raw);

  const initialJs = all.filter((file) => file.initial);
  const initialGzip = initialJs.reduce((sum, file) => sum + file.gzip, 0);
  const initialRaw = initialJs.reduce((sum, file) => sum + file.raw, 0);
  for (const file of all) {
    report.info(
      bench,
      `${file.initial ? '[initial] ' : ''}${file.name}`,
      `${kb(file.raw)} raw, ${kb(file.gzip)} gzip`,
    );
  }
  report.budget(
    bench,
    `initial JS gzip (${initialJs.length} file${initialJs.length === 1 ? '' : 's'}: ${entry} + static imports)`,
    `${kb(initialGzip)} (${kb(initialRaw)} raw)`,
    '≤ 120 KB',
    initialGzip <= BUDGET_BYTES,
  );
  report.set('bundle', { entry, initial, initialGzip, initialRaw, files: all });
}
