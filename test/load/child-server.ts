import { fork, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built client when there is one, else a stub `index.html` (page routes still answer). */
export function clientDir(): { dir: string; stub: boolean } {
  const built = resolve('dist/client');
  if (existsSync(join(built, 'index.html'))) return { dir: built, stub: false };
  const dir = mkdtempSync(join(tmpdir(), 'loadtest-client-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>load test</title>');
  return { dir, stub: true };
}

/**
 * The production server over the embedded sample service in a process of its own
 * (`server-process.ts`), so that its memory and CPU are apart from the load generator's.
 * `env` is added to the environment; it resolves once the server listens.
 */
export async function startChildServer(dir: string, env: Record<string, string>) {
  // A store of its own, empty at each run; open to others, as root its PostgreSQL runs as
  // the postgres user.
  const dataDir = mkdtempSync(join(tmpdir(), 'loadtest-store-'));
  chmodSync(dataDir, 0o755);
  const child = fork(resolve('test/load/server-process.ts'), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: {
      ...process.env,
      // The embedded sample service, whatever .env says: empty values are not overridden.
      TOKEN_EVENTS_API_URL: '',
      TOKEN_EVENTS_API_KEY: '',
      // Its data stays put while it is measured.
      SAMPLE_LIVE: 'off',
      HOST: '127.0.0.1',
      PORT: '0',
      CLIENT_DIR: dir,
      DATA_DIR: dataDir,
      ...env,
    },
    // One JSON log line per request, as in production, written to /dev/null.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port } = await reply<{ port: number }>(child, 'listening');
  return { child, port };
}

/** The child's answer of `type` over IPC, after sending it `send`. */
export function reply<T>(child: ChildProcess, type: string, send?: object): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolvePromise(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`server exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (send) child.send(send);
  });
}

/** Stops the child: SIGTERM, and its exit code once it is gone. */
export async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  return new Promise<number | null>((done) => child.once('exit', done));
}

// A fixed sequence, so runs pick the same mix of requests.
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `p` quantile of sorted values (0 when there are none). */
export const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
export const round1 = (value: number) => Math.round(value * 10) / 10;
