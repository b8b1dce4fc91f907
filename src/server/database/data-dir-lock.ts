import {
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * One server per DATA_DIR: `server.pid` names the process that holds the folder (its pid
 * and, on Linux, when it started, so a pid the system has given to another process since
 * does not count). A lock whose process is gone (killed, crashed) is taken over; a live
 * one refuses the start. The file is removed on a clean stop.
 */
export class DataDirBusyError extends Error {}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, 'server.pid');
  const mine = holder(process.pid);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, mine);
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let held: string;
    try {
      held = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const [pid, started] = held.trim().split(' ');
    if (isAlive(Number(pid), started)) {
      throw new DataDirBusyError(
        `another server (process ${pid}) is using DATA_DIR ${dataDir}: stop it, or give ` +
          'this server another DATA_DIR',
      );
    }
    takeOver(path, held);
  }
  throw new DataDirBusyError(`DATA_DIR ${dataDir} is being taken by another server`);
}

/** Removes a dead holder's file, unless another server replaced it in the meantime. */
function takeOver(path: string, stale: string) {
  const aside = `${path}.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readFileSync(aside, 'utf8') !== stale) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone holds it now: the next attempt says who.
    }
  }
  unlinkSync(aside);
}

function holder(pid: number): string {
  return `${pid} ${startTime(pid) ?? '-'}\n`;
}

/** A process's state and start time (clock ticks since boot), from /proc; undefined elsewhere. */
function procStat(pid: number): { state: string; started: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', started: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

const startTime = (pid: number) => procStat(pid)?.started;

function isAlive(pid: number, started: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = procStat(pid);
  // A killed process stays a zombie until its parent reaps it: it holds nothing.
  if (now?.state === 'Z') return false;
  if (!now || !started || started === '-') return true;
  return now.started === started;
}
