import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DatabaseStartError,
  startEmbeddedPostgres,
  stopLeftPostgres,
  type EmbeddedPostgres,
} from '../../../src/server/database/embedded-postgres';
import { migrate } from '../../../src/server/database/migrations';

/**
 * A damaged cluster (its control file, or a table's pages, garbled while it was stopped)
 * is refused at start with one line naming the damage and how to rebuild: stop the
 * server, move DATA_DIR/postgres aside, start again.
 */
const dirs: string[] = [];
const running: EmbeddedPostgres[] = [];

afterEach(async () => {
  for (const database of running.splice(0)) await database.stop();
  for (const dir of dirs.splice(0)) {
    await stopLeftPostgres(join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
  }
});

function newDataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-pg-'));
  dirs.push(dir);
  chmodSync(dir, 0o755);
  return join(dir, 'data');
}

async function start(dataDir: string) {
  const database = await startEmbeddedPostgres({ dataDir, durable: false, log: () => {} });
  running.push(database);
  return database;
}

/** A cluster with the server's schema and a few lists in the log, stopped. */
async function madeCluster() {
  const dataDir = newDataDir();
  const database = await start(dataDir);
  const pool = new pg.Pool({ connectionString: database.url });
  pool.on('error', () => {});
  await migrate(pool);
  await pool.query(
    `INSERT INTO log_lists (path, stable, frontier)
       SELECT '/v1/events/0x' || n, false, 'c' FROM generate_series(1, 50) AS n`,
  );
  const { rows } = await pool.query<{ path: string }>(
    `SELECT pg_relation_filepath('log_lists') AS path`,
  );
  await pool.end();
  await database.stop();
  running.splice(running.indexOf(database), 1);
  return { dataDir, pgData: database.pgData, table: join(database.pgData, rows[0]!.path) };
}

async function refusal(dataDir: string): Promise<string> {
  const error = await start(dataDir).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(DatabaseStartError);
  return (error as Error).message;
}

function garble(file: string, from: number, length: number) {
  const bytes = readFileSync(file);
  randomBytes(length).copy(bytes, from);
  writeFileSync(file, bytes);
}

describe('a damaged embedded cluster', () => {
  it('with its control file garbled is refused with one line saying how to rebuild', async () => {
    const { dataDir, pgData } = await madeCluster();
    const control = join(pgData, 'global', 'pg_control');
    const healthy = readFileSync(control);
    garble(control, 40, 64);
    const message = await refusal(dataDir);
    console.log(message);
    expect(message).not.toContain('\n');
    expect(message).toContain(`the database in ${pgData} is damaged`);
    expect(message).toMatch(/incorrect checksum in control file/);
    expect(message).toContain(`mv ${pgData} ${pgData}.damaged`);
    expect(message).toMatch(/read again from the service/);
    // The refusal left nothing running or locked: put right, it starts.
    writeFileSync(control, healthy);
    await start(dataDir);
  }, 60_000);

  it('with a table’s pages garbled is refused with one line saying how to rebuild', async () => {
    const { dataDir, pgData, table } = await madeCluster();
    const healthy = readFileSync(table);
    // Inside the first page, past its header: only its checksum tells.
    garble(table, 1_000, 200);
    const message = await refusal(dataDir);
    console.log(message);
    expect(message).not.toContain('\n');
    expect(message).toContain(`the database in ${pgData} is damaged`);
    expect(message).toMatch(/invalid page|checksum/);
    expect(message).toContain(`mv ${pgData} ${pgData}.damaged`);
    writeFileSync(table, healthy);
    await start(dataDir);
  }, 60_000);

  it('with its write-ahead log garbled is refused with one line saying how to rebuild', async () => {
    const { dataDir, pgData } = await madeCluster();
    const wal = join(pgData, 'pg_wal');
    for (const name of readdirSync(wal).filter((file) => /^[0-9A-F]{24}$/.test(file))) {
      garble(join(wal, name), 0, 256 * 1024);
    }
    const message = await refusal(dataDir);
    console.log(message);
    expect(message).not.toContain('\n');
    expect(message).toContain(`the database in ${pgData} is damaged`);
    expect(message).toContain(`mv ${pgData} ${pgData}.damaged`);
  }, 60_000);

  it('that is healthy starts as before', async () => {
    const { dataDir } = await madeCluster();
    await start(dataDir);
  }, 60_000);
});
