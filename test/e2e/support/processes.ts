import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, REPO_DIR, UPSTREAM_TIMEOUT_MS } from './servers';

/** The browser tests' servers as child processes: started, awaited, stopped. */

export const LOG_DIR = join(ARTIFACTS_DIR, 'logs');
const START_TIMEOUT_MS = 30_000;

/** A child in its own process group, so the teardown can stop it and anything it started. */
export function launch(
  name: string,
  args: string[],
  env: Record<string, string>,
  children: ChildProcess[],
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `${name}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`No "${pattern.source}" within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split('\n')) {
        const match = pattern.exec(line);
        if (match) {
          cleanUp();
          resolve(match);
          return;
        }
      }
    };
    const onExit = (code: number | null) =>
      fail(new Error(`A server exited (code ${code}) before it was ready:\n${output}`));
    const cleanUp = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      cleanUp();
      reject(error);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

export async function waitForReady(url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become ready: ${last}`);
}

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export async function stopChildren(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          signalGroup(child, 'SIGTERM');
        }),
    ),
  );
}

/**
 * A production server as shipped (`app-server.ts`) in front of a sample service, on
 * `port`, as the browser tests want it; its URL once `/readyz` answers. `env` adds to or
 * overrides the settings below (its `DATA_DIR` at least).
 */
export async function startAppServer(
  name: string,
  options: { port: number; sampleUrl: string; apiKey: string; env: Record<string, string> },
  children: ChildProcess[],
): Promise<string> {
  const app = launch(
    name,
    ['test/e2e/support/app-server.ts'],
    {
      HOST: '127.0.0.1',
      PORT: String(options.port),
      TOKEN_EVENTS_API_URL: options.sampleUrl,
      TOKEN_EVENTS_API_KEY: options.apiKey,
      // Short, so the timeout tests are quick.
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      // Tests from two workers share a server: per-client limits and the real service's
      // 5 requests/s plan would only make them slow and flaky.
      RATE_LIMIT_PER_MINUTE: '0',
      UPSTREAM_RATE_PER_SECOND: '0',
      SHUTDOWN_TIMEOUT_MS: '2000',
      // A collection is indexed when a page first asks about it; indexing every contract
      // in the background would only compete with the tests for the machine's two cores.
      INDEX_BACKGROUND_SHARE: '0',
      // The server fetches contract images itself: kept offline as the browser is (a
      // name under .invalid never resolves), so the sample's ipfs:// ones fail at once.
      IMAGE_IPFS_GATEWAY: 'https://ipfs.invalid/ipfs/',
      ...options.env,
    },
    children,
  );
  const line = await waitForLine(app, /Token activity dashboard on (http:\/\/\S+?)\/?$/m);
  const url = (line[1] as string).replace(/\/$/, '');
  await waitForReady(`${url}/readyz`);
  return url;
}
