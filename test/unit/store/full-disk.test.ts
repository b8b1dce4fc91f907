import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FAILURE_MESSAGES,
  databaseFailure,
} from '../../../src/server/database/database-error';
import {
  startEmbeddedPostgres,
  stopLeftPostgres,
  type EmbeddedPostgres,
} from '../../../src/server/database/embedded-postgres';
import { postgresUser } from '../../../src/server/database/postgres-user';
import { chunksOf, type ListMeta } from '../../../src/server/store/engine';
import { DiskFullError, openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * The store on a full disk: the test PostgreSQL keeps this database's tables on a 20 MB
 * tmpfs (a tablespace there), filled through store commits. The failing commit is an
 * error of kind 'full' (SQLSTATE 53100), nothing exits, what is stored is still read, and
 * once space is freed (a ballast file on the same tmpfs removed) commits succeed again.
 * Needs root (mount); skipped, saying so, otherwise.
 */
const databases = usePostgresDatabases();
const mounted: { point: string; parent: string }[] = [];

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
  for (const database of embedded.splice(0)) await database.stop();
  for (const { point, parent } of mounted.splice(0)) {
    await stopLeftPostgres(join(point, 'data'));
    spawnSync('umount', ['-l', point]);
    rmSync(parent, { recursive: true, force: true });
  }
});
const embedded: EmbeddedPostgres[] = [];

const meta = (generation: number, next: number, bytes: number): ListMeta => ({
  generation,
  first: 0,
  next,
  complete: true,
  frontier: null,
  headCheckedAt: 1,
  fetchedAt: 1,
  bytes,
});

/** About 1 MB of records that do not compress (TOAST would otherwise shrink them). */
function recordsOfAMegabyte() {
  return Array.from({ length: 256 }, (_, index) => ({
    json: Buffer.from(JSON.stringify({ n: index, data: randomBytes(2_000).toString('base64') })),
    ts: 1_700_000_000 - index,
  }));
}

describe('the store on a full disk', () => {
  it('(a table that cannot grow) fails writes as "full", keeps reading, and writes again once space is freed', async (context) => {
    const disk = mountTmpfs('20m');
    if ('skip' in disk) {
      console.warn(`Skipping the full-disk test: ${disk.skip}`);
      context.skip();
      return;
    }
    const mountPoint = disk.point;
    const user = postgresUser();
    const space = join(mountPoint, 'tablespace');
    mkdirSync(space, { mode: 0o700 });
    if (user) chownSync(space, user.uid, user.gid);
    // Room an operator can free later.
    const ballast = join(mountPoint, 'ballast');
    writeFileSync(ballast, randomBytes(4 * 1024 * 1024));

    const { url, drop } = await databases.database();
    const name = new URL(url).pathname.slice(1);
    const tablespace = `full_${name.slice(5, 17)}`;
    const admin = new pg.Client({ connectionString: databases.server().url });
    await admin.connect();
    await admin.query(`CREATE TABLESPACE ${tablespace} LOCATION '${space}'`);
    await admin.query(`ALTER DATABASE ${name} SET default_tablespace = ${tablespace}`);
    const engine = await openPostgresEngine({ connectionString: url });
    try {
      const written: { list: string; meta: ListMeta }[] = [];
      let failure: unknown;
      for (let n = 0; n < 40 && failure === undefined; n++) {
        const records = recordsOfAMegabyte();
        const chunks = chunksOf(0, records);
        const list = `/v1/events/0x${n}`;
        const state = meta(n + 1, records.length, 0);
        try {
          await engine.commit(list, state, chunks, true);
          written.push({ list, meta: state });
        } catch (error) {
          failure = error;
        }
      }
      expect(failure, 'the disk never filled').toBeDefined();
      expect((failure as { code?: string }).code).toBe('53100');
      expect(databaseFailure(failure)).toBe('full');
      expect(DATABASE_FAILURE_MESSAGES.full).toMatch(/disk is full/);
      expect(written.length).toBeGreaterThan(3);

      // What is stored still reads, in full, and the engine still answers.
      for (const { list, meta: state } of written) {
        expect(await engine.read(list)).toMatchObject({ generation: state.generation });
        const chunks = await engine.chunksFrom(list, state.generation, 0, Infinity);
        expect(chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0)).toBe(state.next);
      }
      expect((await engine.stats()).lists).toBe(written.length);

      // Space freed: the next commit goes through.
      rmSync(ballast);
      const records = recordsOfAMegabyte();
      await engine.commit('/v1/events/0xafter', meta(999, records.length, 0), chunksOf(0, records));
      const after = await engine.chunksFrom('/v1/events/0xafter', 999, 0, Infinity);
      expect(after.reduce((sum, chunk) => sum + chunk.ends.length, 0)).toBe(records.length);
    } finally {
      await engine.close();
      await drop();
      await admin.query(`DROP TABLESPACE ${tablespace}`);
      await admin.end();
    }
  }, 60_000);

  it('(the whole embedded cluster on it) stops writing before PostgreSQL’s log runs out', async (context) => {
    const disk = mountTmpfs('160m');
    if ('skip' in disk) {
      console.warn(`Skipping the full-disk test: ${disk.skip}`);
      context.skip();
      return;
    }
    const dataDir = join(disk.point, 'data');
    const database = await startEmbeddedPostgres({ dataDir, durable: false, log: () => {} });
    embedded.push(database);
    const pid = database.pid();
    const ballast = join(disk.point, 'ballast');
    writeFileSync(ballast, randomBytes(16 * 1024 * 1024));
    const engine = await openPostgresEngine({ connectionString: database.url });
    try {
      const written: { list: string; meta: ListMeta }[] = [];
      let failure: unknown;
      for (let n = 0; n < 150 && failure === undefined; n++) {
        const records = recordsOfAMegabyte();
        const list = `/v1/events/0x${n}`;
        const state = meta(n + 1, records.length, 0);
        try {
          await engine.commit(list, state, chunksOf(0, records), true);
          written.push({ list, meta: state });
        } catch (error) {
          failure = error;
        }
      }
      expect(failure, 'the disk never filled').toBeInstanceOf(DiskFullError);
      expect((failure as Error).message).toMatch(/MB free/);
      expect(databaseFailure(failure)).toBe('full');
      expect(written.length).toBeGreaterThan(3);
      // PostgreSQL is still the same process, and what is stored reads.
      expect(database.pid()).toBe(pid);
      for (const { list, meta: state } of written) {
        const chunks = await engine.chunksFrom(list, state.generation, 0, Infinity);
        expect(chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0)).toBe(state.next);
      }
      // Writes go on once space is freed.
      rmSync(ballast);
      const records = recordsOfAMegabyte();
      await engine.commit('/v1/events/0xafter', meta(999, records.length, 0), chunksOf(0, records));
      expect(await engine.read('/v1/events/0xafter')).toMatchObject({ generation: 999 });
      expect(database.pid()).toBe(pid);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
