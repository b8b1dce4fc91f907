import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian's package puts the browser; `.ci/run` and the global setup install it there. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

// Playwright's own browser download does not work here: we drive the system Chromium.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate) && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The Chromium to run: `CHROMIUM_PATH` when set (it must exist), else Debian's
 * /usr/bin/chromium, else `chromium` or `chromium-browser` on the PATH.
 */
export function findChromium(): { path?: string; problem?: string } {
  const configured = process.env.CHROMIUM_PATH?.trim();
  if (configured) {
    return isExecutable(configured)
      ? { path: configured }
      : { problem: `CHROMIUM_PATH is set to "${configured}", which is not an executable file.` };
  }
  if (isExecutable(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM };
  const found = onPath('chromium') ?? onPath('chromium-browser');
  return found ? { path: found } : {};
}
