import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/**
 * The server's own PostgreSQL through its life: made, started again, found running after
 * its server was killed, refused to a second server, and failing to start with one line
 * that says why.
 */
const dirs: string[] = [];
const running: EmbeddedPostgres[] = [];

afterEach(async () => {
  for (const database of running.splice(0)) await database.stop();
  for (const dir of dirs.splice(0)) {
    await stopLeftPostgres(join(dir, 'data'));
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

function newDataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-pg-'));
  dirs.push(dir);
  // Not 0700: as root, PostgreSQL runs as another user, who must reach DATA_DIR.
  chmodSync(dir, 0o755);
  return join(dir, 'data');
}

async function start(dataDir: string, log?: (line: string) => void) {
  const database = await startEmbeddedPostgres({ dataDir, durable: false, log: log ?? (() => {}) });
  running.push(database);
  return database;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopped(database: EmbeddedPostgres) {
  await database.stop();
  running.splice(running.indexOf(database), 1);
}

/** A child process that starts the database in `dataDir` and holds it: a server. */
function holder(dataDir: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'hold-database.ts'), dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`the holder exited: ${out}`)));
  });
  return { child, ready };
}

describe('the embedded PostgreSQL', () => {
  it('makes a cluster with data checksums on first start, owned by an unprivileged user', async () => {
    const dataDir = newDataDir();
    const database = await start(dataDir);
    const [row] = await query<{ checksums: string; version: string }>(
      database.url,
      "SELECT current_setting('data_checksums') AS checksums, current_setting('server_version_num') AS version",
    );
    expect(row).toEqual({ checksums: 'on', version: expect.stringMatching(/^18/) });
    if (process.getuid?.() === 0) expect(statSync(database.pgData).uid).not.toBe(0);
  });

  it('starts again on the data it has', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    await stopped(first);
    const again = await start(dataDir);
    expect(await query(again.url, 'SELECT n FROM kept')).toEqual([{ n: 42 }]);
  });

  it('stops the PostgreSQL a killed server left running, and starts its own', async () => {
    const dataDir = newDataDir();
    const killed = holder(dataDir);
    const left = await killed.ready;
    await query(
      `postgres://postgres@/postgres?host=${encodeURIComponent(join(dataDir, 'postgres'))}`,
      'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)',
    );
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));
    expect(isAlive(left)).toBe(true);

    const lines: string[] = [];
    const database = await start(dataDir, (line) => lines.push(line));
    expect(isAlive(left)).toBe(false);
    expect(database.pid()).not.toBe(left);
    expect(lines.join('\n')).toMatch(/left running .* stopping it/);
    expect(await query(database.url, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
  });

  it('refuses a second server on the same DATA_DIR with one line saying which', async () => {
    const dataDir = newDataDir();
    const other = holder(dataDir);
    await other.ready;
    try {
      const refused = start(dataDir);
      await expect(refused).rejects.toThrow(DatabaseStartError);
      await expect(refused).rejects.toThrow(
        new RegExp(`^another server \\(process ${other.child.pid}\\) is using DATA_DIR [^\\n]+$`),
      );
    } finally {
      other.child.kill('SIGTERM');
      await new Promise((resolve) => other.child.once('exit', resolve));
    }
  });

  it('starts again when its PostgreSQL dies while the server runs', async () => {
    const dataDir = newDataDir();
    const lines: string[] = [];
    let again: () => void = () => {};
    const restarted = new Promise<void>((resolve) => (again = resolve));
    const database = await start(dataDir, (line) => {
      lines.push(line);
      if (/running again/.test(line)) again();
    });
    const first = database.pid()!;
    process.kill(first, 'SIGKILL');
    await restarted;
    expect(database.pid()).not.toBe(first);
    expect(await query(database.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(lines[0]).toMatch(/stopped unexpectedly \(SIGKILL\)/);
  }, 30_000);

  it('stops the PostgreSQL it is starting again when stopped meanwhile', async () => {
    const dataDir = newDataDir();
    let restarting: () => void = () => {};
    const begun = new Promise<void>((resolve) => (restarting = resolve));
    const database = await start(dataDir, (line) => {
      if (/starting it again/.test(line)) restarting();
    });
    process.kill(database.pid()!, 'SIGKILL');
    await begun;
    await stopped(database);
    // Nothing holds the data folder: its postmaster.pid is gone with the PostgreSQL.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 30_000);

  describe('cannot start: one line naming the cause', () => {
    const oneLine = async (started: Promise<unknown>, cause: RegExp) => {
      const error = await started.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(DatabaseStartError);
      const { message } = error as Error;
      expect(message).not.toContain('\n');
      expect(message).toMatch(cause);
    };

    it('when DATA_DIR cannot be made', async () => {
      const dataDir = newDataDir();
      writeFileSync(dataDir, 'a file, not a folder');
      await oneLine(start(join(dataDir, 'inner')), /^cannot create DATA_DIR .*inner: /);
    });

    it('when PostgreSQL may not write in DATA_DIR', async () => {
      const dataDir = newDataDir();
      mkdirSync(dataDir);
      // As root, PostgreSQL's user cannot pass a folder only root may enter; anyone
      // else cannot write in a folder they may only read.
      chmodSync(dataDir, process.getuid?.() === 0 ? 0o700 : 0o500);
      await oneLine(start(join(dataDir, 'inner')), /permission denied/i);
    });

    it('when the cluster is not one this PostgreSQL can run', async () => {
      const dataDir = newDataDir();
      const database = await start(dataDir);
      await stopped(database);
      writeFileSync(join(database.pgData, 'PG_VERSION'), '99\n');
      await oneLine(start(dataDir), /^PostgreSQL did not start: .*incompatible/);
    });
  });
});
