import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { startServer } from './main';

/**
 * `npm start`: builds the client when the build is missing or older than its sources,
 * then starts the production server.
 */
const clientDir = resolve('dist/client');
const builtIndex = join(clientDir, 'index.html');
// What goes into the browser build; server files do not, so changing them needs no rebuild.
const sources = [
  'src/app',
  'src/api',
  'src/components',
  'src/pages',
  'src/lib',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
];

function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestModification(join(path, name))),
    stat.mtimeMs,
  );
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
if (Math.max(...sources.map(newestModification)) > builtAt) {
  console.log('Building the app…');
  await build({ logLevel: 'warn', configLoader: 'runner' });
}
startServer(clientDir);
