import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { postgresBinaries, type PostgresBinaries } from './postgres-binaries';
import { postgresUser, type PostgresUser } from './postgres-user';

/**
 * The server's own PostgreSQL, when no DATABASE_URL names one: a cluster in
 * `DATA_DIR/postgres` (made on first start, with data checksums), run from the npm
 * registry's binaries as a child of this process, reached only through a unix socket in
 * that folder (no TCP port, so nothing to collide with and nothing for other users to
 * reach). Its log is `DATA_DIR/postgres.log`.
 *
 * - One server per DATA_DIR (data-dir-lock.ts).
 * - A PostgreSQL left running by a server killed without stopping it (kill -9) still
 *   holds `postmaster.pid`; it is found there and stopped before a new one starts.
 * - If it dies while the server runs, it is started again.
 * - Every failure to start is a `DatabaseStartError` whose message is one line naming
 *   the cause.
 * - A damaged cluster (PostgreSQL refusing to start on damaged files, or pages failing
 *   their checksums when the server's small tables are read at start) is refused with one
 *   line saying how to rebuild it: stop, move `DATA_DIR/postgres` aside, start again.
 */
export class DatabaseStartError extends Error {}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** `false` for tests: no fsync, so a cluster is made and written faster. */
  durable?: boolean;
  /** Where lines about restarts and orphans go. */
  log?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** A connection string for `pg`: the socket folder as host. */
  url: string;
  /** The cluster's folder. */
  pgData: string;
  /** The running postmaster's process id. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

const PORT = 5432;
// sun_path holds 108 bytes with its terminating zero.
const MAX_SOCKET_PATH = 107;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const RESTARTS_PER_MINUTE = 5;

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const durable = options.durable ?? true;
  const log = options.log ?? ((line: string) => console.log(line));
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new DatabaseStartError(`cannot create DATA_DIR ${dataDir}: ${reason(error)}`);
  }
  let lock: DataDirLock;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    throw new DatabaseStartError(reason(error));
  }
  const pgData = join(dataDir, 'postgres');
  const socket = join(pgData, `.s.PGSQL.${PORT}`);
  if (socket.length > MAX_SOCKET_PATH) {
    lock.release();
    throw new DatabaseStartError(
      `DATA_DIR ${dataDir} is too long a path for PostgreSQL's socket (${socket.length} ` +
        `characters, at most ${MAX_SOCKET_PATH}): use a shorter DATA_DIR`,
    );
  }
  let binaries: PostgresBinaries;
  let user: PostgresUser | undefined;
  const logPath = join(dataDir, 'postgres.log');
  let child: ChildProcess | undefined;
  let stopping = false;
  const onExit = () => {
    // The process is exiting without stop() (process.exit): PostgreSQL shuts itself down.
    child?.kill('SIGINT');
    lock.release();
  };

  const launch = async () => {
    const from = sizeOf(logPath);
    const logFd = openSync(logPath, 'a', 0o644);
    const started = spawn(binaries.postgres, serverArguments(pgData, durable), {
      ...(user && { uid: user.uid, gid: user.gid }),
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', logFd, logFd],
      // Its own process group: a Ctrl-C meant for the server must not stop it first.
      detached: true,
    });
    closeSync(logFd);
    const exited = new Promise<string>((done) => {
      started.once('exit', (code, signal) => done(signal ?? `exit code ${code}`));
      started.once('error', (error) => done(error.message));
    });
    const ready = await Promise.race([waitUntilReady(pgData, started), exited.then(() => false)]);
    if (!ready) {
      started.kill('SIGQUIT');
      const said = failureOf(logPath, from);
      if (said && DAMAGE.test(said)) throw damagedCluster(pgData, said, logPath);
      throw new DatabaseStartError(
        `PostgreSQL did not start: ${said ?? (await exited)} (log: ${logPath})`,
      );
    }
    child = started;
    void exited.then((how) => {
      if (!stopping) restarting = restart(how);
    });
  };

  const restarts: number[] = [];
  // A restart under way: stop() waits for it, so the PostgreSQL it starts is stopped too.
  let restarting: Promise<void> | undefined;
  const restart = async (how: string) => {
    child = undefined;
    const now = Date.now();
    restarts.push(now);
    while (restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > RESTARTS_PER_MINUTE) {
      log(`PostgreSQL stopped (${how}) ${restarts.length} times in a minute: not restarting it.`);
      return;
    }
    log(`PostgreSQL stopped unexpectedly (${how}): starting it again.`);
    // Backends of the dead postmaster may hold its shared memory for a moment.
    for (let attempt = 0; attempt < 20 && !stopping; attempt++) {
      try {
        await stopOrphan(pgData, log);
        await launch();
        log('PostgreSQL is running again.');
        return;
      } catch (error) {
        if (attempt === 19) log(`PostgreSQL cannot be started again: ${reason(error)}`);
        await sleep(500);
      }
    }
  };

  try {
    binaries = postgresBinaries();
    user = postgresUser();
    if (user) checkReachable(dataDir, user);
    await stopOrphan(pgData, log);
    if (!existsSync(join(pgData, 'PG_VERSION')))
      initCluster(dataDir, pgData, binaries, user, durable);
    await launch();
    const damage = await damageFound(pgData);
    if (damage) {
      const running = child as ChildProcess | undefined;
      stopping = true;
      if (running && running.exitCode === null && running.signalCode === null) {
        const gone = new Promise((done) => running.once('exit', done));
        running.kill('SIGQUIT');
        await gone;
      }
      throw damagedCluster(pgData, damage, logPath);
    }
  } catch (error) {
    lock.release();
    throw error instanceof DatabaseStartError ? error : new DatabaseStartError(reason(error));
  }
  process.once('exit', onExit);

  return {
    url: `postgres://postgres@/postgres?host=${encodeURIComponent(pgData)}`,
    pgData,
    pid: () => child?.pid,
    async stop() {
      if (stopping) return;
      stopping = true;
      process.off('exit', onExit);
      await restarting;
      const running = child;
      if (running && running.exitCode === null && running.signalCode === null) {
        const gone = new Promise((done) => running.once('exit', done));
        running.kill('SIGINT');
        const timer = setTimeout(() => running.kill('SIGQUIT'), STOP_TIMEOUT_MS);
        await gone;
        clearTimeout(timer);
      }
      lock.release();
    },
  };
}

// What PostgreSQL says of damaged files when it starts or reads them: a control file or
// WAL that does not check out, a page failing its checksum or header check, a file cut
// short.
const DAMAGE =
  /incorrect checksum in control file|invalid data in file|could not (locate a valid|find a valid)? ?checkpoint|invalid (primary |secondary )?checkpoint record|invalid (resource manager|magic number|record length|page)|page verification failed|checksum|could not read (file|block)|unexpected pageaddr|contrecord|corrupt/i;

function damagedCluster(pgData: string, said: string, logPath: string) {
  const what = said.replaceAll(/\s+/g, ' ').trim().slice(0, 300);
  return new DatabaseStartError(
    `the database in ${pgData} is damaged (PostgreSQL: ${what}); to rebuild it, stop the ` +
      `server, move that folder aside (mv ${pgData} ${pgData}.damaged) and start again: a new ` +
      `database is made and the index is read again from the service (log: ${logPath})`,
  );
}

// The server's small tables, read whole at start so their pages' checksums are verified.
const SMALL_TABLES = ['schema_version', 'log_lists', 'store_settings'];

/**
 * Reads the catalog and the server's small tables (every page is checked against its
 * checksum as it is read), and asks whether PostgreSQL has met pages failing their
 * checksums: what it said, or undefined when nothing is wrong.
 */
async function damageFound(pgData: string): Promise<string | undefined> {
  const client = new pg.Client({
    host: pgData,
    port: PORT,
    user: 'postgres',
    database: 'postgres',
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT count(*) FROM pg_class');
    for (const table of SMALL_TABLES) {
      const { rows } = await client.query<{ found: string | null }>(
        'SELECT to_regclass($1)::text AS found',
        [`public.${table}`],
      );
      if (rows[0]?.found) await client.query(`SELECT count(*) FROM public.${table}`);
    }
    const { rows } = await client.query<{ failures: string }>(
      `SELECT coalesce(sum(checksum_failures), 0) AS failures FROM pg_stat_database`,
    );
    const failures = Number(rows[0]?.failures ?? 0);
    if (failures > 0) return `${failures} pages have failed their checksums`;
    return undefined;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code && /^(XX|58)/.test(code)) return message;
    if (DAMAGE.test(message)) return message;
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/** As root, PostgreSQL's user must be able to pass through every folder above DATA_DIR. */
function checkReachable(dataDir: string, user: PostgresUser) {
  for (let dir = dataDir; ; dir = dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const bit = uid === user.uid ? 0o100 : gid === user.gid ? 0o010 : 0o001;
    if (!(mode & bit)) {
      throw new DatabaseStartError(
        `permission denied: PostgreSQL runs as the user ${user.name}, who cannot enter ${dir} ` +
          `(chmod o+x ${dir}, or choose another DATA_DIR)`,
      );
    }
    if (dir === dirname(dir)) return;
  }
}

function serverArguments(pgData: string, durable: boolean): string[] {
  const settings: Record<string, string> = {
    listen_addresses: '',
    unix_socket_directories: pgData,
    unix_socket_permissions: '0700',
    ...(!durable && { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  return [
    '-D',
    pgData,
    '-p',
    String(PORT),
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}

/** A new cluster, made aside and renamed into place, so a failed initdb leaves nothing. */
function initCluster(
  dataDir: string,
  pgData: string,
  binaries: PostgresBinaries,
  user: PostgresUser | undefined,
  durable: boolean,
) {
  if (existsSync(pgData)) {
    if (readdirSync(pgData).length > 0) {
      throw new DatabaseStartError(
        `${pgData} is not a PostgreSQL cluster (no PG_VERSION) but is not empty: move it away`,
      );
    }
    rmSync(pgData, { recursive: true });
  }
  const making = join(dataDir, 'postgres.init');
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { mode: 0o700 });
  if (user) chownSync(making, user.uid, user.gid);
  const result = spawnSync(
    binaries.initdb,
    [
      '-D',
      making,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--data-checksums',
      ...(durable ? [] : ['--no-sync']),
    ],
    {
      ...(user && { uid: user.uid, gid: user.gid }),
      env: { ...process.env, LC_ALL: 'C' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    rmSync(making, { recursive: true, force: true });
    const said = (result.stderr || result.stdout || '')
      .split('\n')
      .filter((line) => /error|fatal|denied|space/i.test(line))
      .map((line) => line.replace(/^initdb: (error: )?/, ''))[0];
    throw new DatabaseStartError(
      `initdb failed in ${making}: ${said ?? result.error?.message ?? `exit code ${result.status}`}`,
    );
  }
  renameSync(making, pgData);
}

/**
 * Stops a PostgreSQL a killed server left running in `dataDir`, if any (for tests that
 * kill servers: the next start would do it too).
 */
export async function stopLeftPostgres(dataDir: string): Promise<void> {
  await stopOrphan(join(resolve(dataDir), 'postgres'), () => {});
}

/**
 * A PostgreSQL still running on this cluster can only be an orphan: the DATA_DIR lock
 * says no live server of ours holds it. It is asked to shut down (fast: sessions are cut,
 * a checkpoint written), and cut short (immediate) if that takes too long. A
 * `postmaster.pid` naming a process that is not PostgreSQL (a pid given to another
 * process since a reboot) is removed, as PostgreSQL itself would refuse to start.
 */
async function stopOrphan(pgData: string, log: (line: string) => void) {
  const pidFile = join(pgData, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!isPostgres(pid)) {
    if (!isAlive(pid)) return;
    unlinkSync(pidFile);
    return;
  }
  log(
    `A PostgreSQL left running on ${pgData} (process ${pid}) by a server that did not stop it: stopping it.`,
  );
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  let signalled = false;
  while (isAlive(pid)) {
    if (!signalled && Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      signalled = true;
    }
    await sleep(20);
  }
}

async function waitUntilReady(pgData: string, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const lines = readFileSync(join(pgData, 'postmaster.pid'), 'utf8').split('\n');
      if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return true;
    } catch {
      // Not written yet.
    }
    await sleep(10);
  }
  return false;
}

/** The first FATAL/PANIC/ERROR line PostgreSQL logged since `from`, without its prefix. */
function failureOf(logPath: string, from: number): string | undefined {
  try {
    const fd = openSync(logPath, 'r');
    const buffer = Buffer.alloc(Math.min(64 * 1024, Math.max(0, sizeOf(logPath) - from)));
    readSync(fd, buffer, 0, buffer.length, from);
    closeSync(fd);
    const line = buffer
      .toString('utf8')
      .split('\n')
      .find((text) => /\b(FATAL|PANIC|ERROR):/.test(text));
    return line?.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgres(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return basename(command).startsWith('postgres');
  } catch {
    // No /proc: trust the pid file, as pg_ctl does.
    return true;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function reason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${message})`;
  if (code === 'ENOSPC') return `no space left on the disk (${message})`;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'a file is in the way of the folder';
  return message;
}
