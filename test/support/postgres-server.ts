import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresBinaries } from '../../src/server/database/postgres-binaries';
import { postgresUser } from '../../src/server/database/postgres-user';
import { freePort } from './free-port';

/**
 * A PostgreSQL server of the tests' own, from the same npm-registry binaries the server
 * embeds: a new cluster in a temporary folder, on a free port of the loopback interface
 * (so other processes, a benchmark's servers, can be given its URL), stopped and removed
 * afterwards. As root it runs as the unprivileged `postgres` user, as the server's own.
 */
export interface PostgresServer {
  url: string;
  /** Its cluster's folder and port (a standby is made from them: postgres-standby.ts). */
  data: string;
  port: number;
  /** Stops it at once, as a crash would (`pg_ctl stop -m immediate`); `stop` still cleans up. */
  kill(): void;
  /** Stops every process of it (SIGSTOP), as a frozen host would; returns how to thaw it. */
  freeze(): () => void;
  stop(): Promise<void>;
}

/** Runs one of PostgreSQL's programs as the user its clusters belong to; throws on failure. */
export function runAsPostgres(file: string, args: string[]) {
  const user = postgresUser();
  const result = spawnSync(file, args, {
    ...(user && { uid: user.uid, gid: user.gid }),
    env: { ...process.env, LC_ALL: 'C' },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`${file} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

/** A new temporary folder PostgreSQL's user owns. */
export function postgresFolder(prefix: string): string {
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** `pg_ctl start` of a cluster on 127.0.0.1:port, its socket and log in `dir`. */
export function startCluster(data: string, dir: string, port: number) {
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  runAsPostgres(postgresBinaries().pgCtl, [
    '-D',
    data,
    '-o',
    settings,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
}

/** The URL of another database on the server `serverUrl` (which names `postgres`). */
export const databaseUrl = (serverUrl: string, name: string) =>
  serverUrl.replace(/\/postgres$/, `/${name}`);

/**
 * A new database of a random name on the server at `serverUrl`, empty or a copy of the
 * database `template`: its name.
 */
export async function createDatabase(
  serverUrl: string,
  prefix = 'test',
  template?: string,
): Promise<string> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return name;
}

export async function startPostgres(): Promise<PostgresServer> {
  const binaries = postgresBinaries();
  const dir = postgresFolder('store-pg-');
  const run = runAsPostgres;
  const data = join(dir, 'data');
  run(binaries.initdb, [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  startCluster(data, dir, port);
  let running = true;
  const kill = () => {
    if (!running) return;
    running = false;
    run(binaries.pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  const processes = () => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).stdout;
    return [postmaster, ...children.split('\n').filter(Boolean).map(Number)];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    data,
    port,
    kill,
    freeze() {
      const frozen = processes();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
      return () => {
        for (const pid of frozen) process.kill(pid, 'SIGCONT');
      };
    },
    async stop() {
      try {
        kill();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
