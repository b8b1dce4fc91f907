import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FAILURE_MESSAGES,
  databaseFailure,
} from '../../../src/server/database/database-error';
import { postgresUser } from '../../../src/server/database/postgres-user';
import type { StoredRecord } from '../../../src/server/log/list-page';
import {
  DiskFullError,
  openRecordLog,
  type ListState,
  type RecordLog,
} from '../../../src/server/log/record-log';
import { createServerFaults } from '../../../src/server/server-faults';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * The log on a full disk. A commit that fails for want of disk, by PostgreSQL's own
 * refusal (a table that cannot grow: this database's tables on a 12 MB tmpfs) or by the
 * log's guard (a commit that would leave less than `diskReserveBytes` on the data
 * directory's disk, refused before a write-ahead log that cannot grow stops PostgreSQL),
 * is an error of kind 'full' (SQLSTATE 53100) and the server's 'disk' fault; nothing exits,
 * what is logged is still read, and once space is freed (a ballast file removed) commits
 * succeed again and the fault is over. The tmpfs needs root (mount): skipped, saying so,
 * otherwise; the guard's ballast needs `fallocate`.
 */
const databases = usePostgresDatabases();
const mounted: { point: string; parent: string }[] = [];
const opened: RecordLog[] = [];

/** A tmpfs of `size` mounted on a new folder, or why not (not root, mount refused). */
function mountTmpfs(size: string): { point: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'not root: cannot mount a tmpfs' };
  const parent = mkdtempSync(join(tmpdir(), 'full-disk-'));
  // As root, PostgreSQL runs as another user, who must reach it.
  chmodSync(parent, 0o755);
  const point = join(parent, 'disk');
  mkdirSync(point);
  const result = spawnSync(
    'mount',
    ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', point],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    rmSync(parent, { recursive: true, force: true });
    return {
      skip: `mount -t tmpfs failed: ${(result.stderr || result.error?.message || '').trim()}`,
    };
  }
  mounted.push({ point, parent });
  return { point };
}

afterEach(async () => {
  for (const log of opened.splice(0)) await log.close();
  for (const { point, parent } of mounted.splice(0)) {
    spawnSync('umount', ['-l', point]);
    rmSync(parent, { recursive: true, force: true });
  }
});

async function open(
  connectionString: string,
  options: { diskReserveBytes?: number } = {},
  faults = createServerFaults(),
) {
  const log = await openRecordLog({ connectionString, faults, ...options });
  opened.push(log);
  return { log, faults };
}

/** About 1 MB of records that do not compress (TOAST would otherwise shrink them). */
function recordsOfAMegabyte(): StoredRecord[] {
  return Array.from({ length: 256 }, (_, index) => {
    const json = Buffer.from(
      JSON.stringify({ n: index, data: randomBytes(2_000).toString('base64') }),
    );
    return {
      json,
      ts: 1_700_000_000 - index,
      key: createHash('sha256').update(json).digest('hex'),
    };
  });
}

/** Lists made before the disk fills (making one writes too). */
const listsOf = (log: RecordLog, count: number) =>
  Promise.all(Array.from({ length: count }, (_, n) => log.list(`/v1/events/0x${n}`, false)));

/** Commits a megabyte to each list in turn until one fails; the lists written, the failure. */
async function fill(log: RecordLog, lists: ListState[]) {
  const written: ListState[] = [];
  for (const list of lists) {
    try {
      written.push((await log.commit(list, recordsOfAMegabyte(), { complete: true })).state);
    } catch (failure) {
      return { written, failure };
    }
  }
  throw new Error('the disk never filled');
}

/** Every record of each list is still read. */
async function expectReadable(log: RecordLog, lists: ListState[]) {
  for (const list of lists) {
    const page = await log.page(list, null, 1_000, 64 * 1024 * 1024);
    expect(page.records).toHaveLength(256);
  }
}

describe('the log on a full disk', () => {
  it('(a table that cannot grow) fails writes as "full", keeps reading, writes again once space is freed', async (context) => {
    const disk = mountTmpfs('12m');
    if ('skip' in disk) {
      console.warn(`Skipping the full-disk test: ${disk.skip}`);
      context.skip();
      return;
    }
    const user = postgresUser();
    const space = join(disk.point, 'tablespace');
    mkdirSync(space, { mode: 0o700 });
    if (user) chownSync(space, user.uid, user.gid);
    // Room an operator can free later.
    const ballast = join(disk.point, 'ballast');
    writeFileSync(ballast, randomBytes(3 * 1024 * 1024));

    const { url, drop } = await databases.database({ empty: true });
    const name = new URL(url).pathname.slice(1);
    const tablespace = `full_${name.slice(5, 17)}`;
    const admin = new pg.Client({ connectionString: databases.server().url });
    await admin.connect();
    await admin.query(`CREATE TABLESPACE ${tablespace} LOCATION '${space}'`);
    await admin.query(`ALTER DATABASE ${name} SET default_tablespace = ${tablespace}`);
    try {
      // The data directory's own disk has room: PostgreSQL is the one to refuse.
      const { log, faults } = await open(url);
      const lists = await listsOf(log, 25);
      const { written, failure } = await fill(log, lists.slice(0, -1));
      expect((failure as { code?: string }).code).toBe('53100');
      expect(databaseFailure(failure)).toBe('full');
      expect(DATABASE_FAILURE_MESSAGES.full).toMatch(/disk is full/);
      expect(written.length).toBeGreaterThan(3);
      expect(faults.list().map((fault) => fault.kind)).toEqual(['disk']);
      await expectReadable(log, written);
      expect((await log.stats()).records).toBe(written.length * 256);

      // Space freed: the next commit goes through, and the fault is over.
      rmSync(ballast);
      await log.commit(lists.at(-1)!, recordsOfAMegabyte(), { complete: true });
      await expectReadable(log, [lists.at(-1)!]);
      expect(faults.list()).toEqual([]);
    } finally {
      await Promise.all(opened.splice(0).map((log) => log.close()));
      await drop();
      await admin.query(`DROP TABLESPACE ${tablespace}`);
      await admin.end();
    }
  }, 60_000);

  it('(the data directory’s disk within the reserve) refuses commits before PostgreSQL, until space is freed', async (context) => {
    const { url, drop } = await databases.database({ empty: true });
    // Room an operator can free later: 2 GB on the data directory's disk.
    const folder = mkdtempSync(join(tmpdir(), 'full-disk-'));
    const ballast = join(folder, 'ballast');
    try {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client
        .query<{ dir: string }>("SELECT current_setting('data_directory') AS dir")
        .finally(() => client.end());
      const dataDir = rows[0]!.dir;
      const made = spawnSync('fallocate', ['-l', '2G', ballast], { encoding: 'utf8' });
      if (made.status !== 0) {
        console.warn(`Skipping the reserve test: fallocate failed: ${made.stderr.trim()}`);
        context.skip();
        return;
      }
      // A reserve 1 GB above what is free now: freeing the ballast leaves 1 GB over it.
      const free = async () => {
        const stats = await statfs(dataDir);
        return stats.bavail * stats.bsize;
      };
      const { log, faults } = await open(url, { diskReserveBytes: (await free()) + 2 ** 30 });
      const list = await log.list('/v1/events/0xfull', false);
      const refused = log.commit(list, recordsOfAMegabyte(), { complete: true });
      await expect(refused).rejects.toThrow(DiskFullError);
      const failure = await refused.catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: '53100', message: expect.stringMatching(/MB free/) });
      expect(databaseFailure(failure)).toBe('full');
      expect(faults.list()).toEqual([
        expect.objectContaining({ kind: 'disk', message: expect.stringMatching(/MB free/) }),
      ]);
      // Nothing was written, and the log still reads.
      expect(await log.state(list.path)).toMatchObject({ records: 0, complete: false });
      expect((await log.page(list, null, 10, 1_000)).records).toEqual([]);

      // Space freed: the commit goes through, and the fault is over.
      rmSync(ballast);
      await log.commit(list, recordsOfAMegabyte(), { complete: true });
      await expectReadable(log, [list]);
      expect(faults.list()).toEqual([]);
    } finally {
      await Promise.all(opened.splice(0).map((log) => log.close()));
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});
