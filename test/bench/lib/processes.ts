import { fork, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../support/free-port';

/**
 * The servers under test, each in a process of its own so that the load generator (this
 * process) does not share an event loop with what it measures. Every child is recorded
 * here and ended by its own pid when the run ends, however it ends.
 */
const children = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

export interface Running {
  port: number;
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

const STARTUP_TIMEOUT_MS = 90_000;

function track(child: ChildProcess, name: string): { stderr: () => string } {
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.once('exit', () => children.delete(child));
  child.once('error', (error) => {
    stderr += `\n${name}: ${error.message}`;
  });
  return { stderr: () => stderr };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      child.kill('SIGTERM');
    });
}

function running(child: ChildProcess, port: number): Running {
  return { port, url: `http://127.0.0.1:${port}`, child, stop: stopper(child) };
}

/** Waits for `{ type: 'listening', port }` over IPC, or fails with the child's stderr. */
function listening(child: ChildProcess, name: string, stderr: () => string): Promise<number> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS} ms: ${stderr()}`));
    }, STARTUP_TIMEOUT_MS);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type !== 'listening' || typeof message.port !== 'number') return;
      clearTimeout(timer);
      done(message.port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited (${code}) before listening: ${stderr()}`));
    });
  });
}

export interface SampleServiceSpec {
  key: string;
  seed?: number;
  contracts?: number;
  events?: number;
  /** Delay of every answer, as the real service's own latency. */
  latencyMs?: number;
  /** The usage plan's throttle (429 beyond it), as the real service's basic plan. */
  throttle?: { perSecond: number; burst: number };
  /** `scale`: events made per request, not held (sample-service/scale.ts). */
  shape?: 'default' | 'scale';
}

/** The standalone sample service (`src/server/sample-service/cli.ts`) on a free port. */
export async function startSampleService(spec: SampleServiceSpec): Promise<Running> {
  const args = ['--import', 'tsx', resolve('src/server/sample-service/cli.ts')];
  args.push('--host', '127.0.0.1', '--port', '0', '--key', spec.key, '--profile', 'deployed');
  args.push('--seed', String(spec.seed ?? 1), '--live', 'off');
  if (spec.contracts !== undefined) args.push('--contracts', String(spec.contracts));
  if (spec.events !== undefined) args.push('--events', String(spec.events));
  if (spec.latencyMs !== undefined) args.push('--latency', String(spec.latencyMs));
  if (spec.shape !== undefined) args.push('--shape', spec.shape);
  if (spec.throttle) {
    args.push('--rate', String(spec.throttle.perSecond), '--burst', String(spec.throttle.burst));
  }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const { stderr } = track(child, 'sample service');
  const port = await new Promise<number>((done, fail) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`sample service did not start: ${stderr()}`));
    }, STARTUP_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      done(Number(match[1]));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`sample service exited (${code}): ${stderr()}`));
    });
  });
  return running(child, port);
}

export interface ProductionServerSpec {
  clientDir: string;
  upstreamUrl: string;
  key: string;
  /** Extra environment, e.g. `DATA_DIR` (a fresh temporary one unless given). */
  env?: Record<string, string>;
}

/**
 * A fresh temporary DATA_DIR. Open to others: as root, the embedded PostgreSQL runs as
 * the postgres user, who must reach it.
 */
export function dataDir(prefix = 'bench-data-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * The production server (`startServer`) pointed at the sample service over HTTP, as it
 * would be at the real one: TOKEN_EVENTS_API_URL/KEY. The per-client rate limit is off
 * (every benchmark connection comes from 127.0.0.1), and so is the 5 requests/s cap the
 * config applies to a real upstream, which would otherwise be what we measure (the record
 * log's benchmark, 8, sets the real rate). Its record log and index are on its embedded
 * PostgreSQL, in a fresh temporary DATA_DIR unless `env` names one.
 */
export async function startProductionServer(spec: ProductionServerSpec): Promise<Running> {
  const child = fork(resolve('test/bench/servers/production-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      CLIENT_DIR: spec.clientDir,
      DATA_DIR: spec.env?.DATA_DIR ?? dataDir(),
      TOKEN_EVENTS_API_URL: spec.upstreamUrl,
      TOKEN_EVENTS_API_KEY: spec.key,
      RATE_LIMIT_PER_MINUTE: '0',
      // Likewise the cap on connections from one address: a hundred visitors are a
      // hundred connections from 127.0.0.1 here (bench 7 opens them at once).
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      UPSTREAM_RATE_PER_SECOND: '0',
      // Overhead is measured with as many upstream requests allowed in flight as the load
      // generator opens; the default bound (4) is a policy for the real service, tested
      // on its own, and would otherwise be what the comparison measures.
      UPSTREAM_CONCURRENCY: '32',
      // What visitors' requests cost is measured: no reading of every collection beside them.
      INDEX_BACKGROUND_SHARE: '0',
      ...spec.env,
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const { stderr } = track(child, 'production server');
  return running(child, await listening(child, 'production server', stderr));
}

export async function startViteProxy(spec: {
  clientDir: string;
  upstreamUrl: string;
  key: string;
  /** A keep-alive agent for the upstream (Vite's default opens a connection per request). */
  keepAlive?: boolean;
}): Promise<Running> {
  const port = await freePort();
  const child = fork(resolve('test/bench/servers/vite-proxy.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      CLIENT_DIR: spec.clientDir,
      UPSTREAM_URL: spec.upstreamUrl,
      UPSTREAM_KEY: spec.key,
      PORT: String(port),
      KEEP_ALIVE: spec.keepAlive ? '1' : '0',
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const { stderr } = track(child, 'vite preview');
  return running(child, await listening(child, 'vite preview', stderr));
}

/** Bench 1's reference floor: bare node:http that reads and parses each page, nothing else. */
export async function startValidatingFloor(spec: {
  upstreamUrl: string;
  key: string;
}): Promise<Running> {
  const child = fork(resolve('test/bench/servers/validating-floor.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, UPSTREAM_URL: spec.upstreamUrl, UPSTREAM_KEY: spec.key },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const { stderr } = track(child, 'validating floor');
  return running(child, await listening(child, 'validating floor', stderr));
}

/**
 * `npm run index -- …args` (src/server/index-cli.ts) with the environment given: its
 * lines as they come, and its exit code when it ends.
 */
export function startIndexCommand(
  args: string[],
  env: Record<string, string>,
  onLine: (line: string) => void,
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve('src/server/index-cli.ts'), ...args],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { stderr } = track(child, 'index command');
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  const exited = new Promise<number | null>((done) => {
    child.once('exit', (code) => {
      if (code !== 0) onLine(`index command exited (${code}): ${stderr()}`);
      done(code);
    });
  });
  return { child, exited };
}

/**
 * CPU time (user + system) a process has used so far, in ms, from Linux's /proc; undefined
 * where there is no /proc. Read before and after a load run, it gives CPU per request.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
    const ticks = Number(fields?.[11]) + Number(fields?.[12]);
    // The kernel reports in USER_HZ, 100 a second on every Linux Node runs on.
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopper(child)()));
}
