import {
  chownSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { postgresBinaries } from '../../src/server/database/postgres-binaries';
import { postgresUser } from '../../src/server/database/postgres-user';
import { freePort } from './free-port';
import {
  postgresFolder,
  runAsPostgres,
  startCluster,
  type PostgresServer,
} from './postgres-server';

/**
 * A hot standby of a test PostgreSQL (`postgres-server.ts`), fed by PostgreSQL's own
 * streaming replication, from the same npm-registry binaries. Those ship no
 * `pg_basebackup`, so the base backup is taken as it does, through the server's low-level
 * backup functions: a physical replication slot keeps the WAL from before the copy,
 * `pg_backup_start`, the cluster's files copied, `pg_backup_stop`'s label written beside
 * them; then `standby.signal` and `primary_conninfo` (a `REPLICATION` role over TCP on
 * 127.0.0.1, which initdb's `pg_hba.conf` trusts), as `pg_basebackup -R` writes them.
 */
export interface PostgresStandby {
  url: string;
  /** Stops it at once, as a crash would; `start` brings it back. */
  kill(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const SLOT = 'test_standby';
// Files of a running cluster a copy must leave out (as pg_basebackup does).
const LEFT_OUT = new Set(['postmaster.pid', 'postmaster.opts', 'log']);
const EMPTIED = new Set(['pg_wal', 'pg_replslot', 'pg_stat_tmp', 'pg_dynshmem', 'pg_notify']);

async function onPrimary<T>(primary: PostgresServer, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: primary.url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function startStandby(primary: PostgresServer): Promise<PostgresStandby> {
  const dir = postgresFolder('store-standby-');
  const data = join(dir, 'data');
  await onPrimary(primary, async (client) => {
    await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'replicator') THEN
        CREATE ROLE replicator REPLICATION LOGIN;
      END IF; END $$`);
    await client.query('SELECT pg_create_physical_replication_slot($1, true)', [SLOT]);
    // A non-exclusive backup lasts as long as the session that started it.
    await client.query(`SELECT pg_backup_start('test standby', true)`);
    copyCluster(primary.data, data);
    const { rows } = await client.query<{ labelfile: string }>(
      'SELECT labelfile FROM pg_backup_stop(false)',
    );
    writeFileSync(join(data, 'backup_label'), rows[0]!.labelfile);
  });
  writeFileSync(join(data, 'standby.signal'), '');
  appendFileSync(
    join(data, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=replicator application_name=${SLOT}'\n` +
      `primary_slot_name = '${SLOT}'\n`,
  );
  const user = postgresUser();
  if (user) chownTree(data, user.uid, user.gid);
  const port = await freePort();
  let running = false;
  const standby: PostgresStandby = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill() {
      if (!running) return;
      running = false;
      runAsPostgres(postgresBinaries().pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    async start() {
      startCluster(data, dir, port);
      running = true;
      await streaming(primary);
    },
    async stop() {
      try {
        standby.kill();
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await onPrimary(primary, (client) =>
          client.query(
            'SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active',
            [SLOT],
          ),
        ).catch(() => undefined);
      }
    },
  };
  await standby.start();
  return standby;
}

/** Waits until the primary sends WAL to the standby (its walsender says `streaming`). */
async function streaming(primary: PostgresServer) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const found = await onPrimary(primary, (client) =>
      client.query(
        `SELECT 1 FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming'`,
        [SLOT],
      ),
    );
    if (found.rowCount) return;
    await sleep(50);
  }
  throw new Error('the standby did not start streaming within 30 s');
}

/** Copies a running cluster's files, without those a backup leaves out; files gone meanwhile are skipped. */
function copyCluster(from: string, to: string) {
  const walk = (dir: string) => {
    const target = join(to, relative(from, dir));
    mkdirSync(target, { recursive: true, mode: 0o700 });
    const emptied = EMPTIED.has(relative(from, dir));
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(path);
      else if (!emptied && !LEFT_OUT.has(name) && stat.isFile()) {
        try {
          copyFileSync(path, join(target, name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
  };
  walk(from);
}

function chownTree(path: string, uid: number, gid: number) {
  chownSync(path, uid, gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}
