import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  migrate,
  migrations,
  SchemaTooNewError,
  type Migration,
} from '../../../src/server/database/migrations';
import { usePostgresDatabases } from '../../support/postgres-databases';

/** Schema versions: applied once and in order, upgraded in place, never misread. */
const databases = usePostgresDatabases();
const cleanUp: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

async function newPool() {
  const { url, drop } = await databases.database({ empty: true });
  const pool = new pg.Pool({ connectionString: url });
  cleanUp.push(drop, () => pool.end());
  return pool;
}

const tables = async (pool: pg.Pool) =>
  (
    await pool.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    )
  ).rows.map((row) => row.name);

const versions = async (pool: pg.Pool) =>
  (await pool.query<{ version: number }>('SELECT version FROM schema_version ORDER BY 1')).rows.map(
    (row) => row.version,
  );

const NEXT: Migration = {
  version: migrations.length + 1,
  name: 'a later step',
  sql: 'CREATE TABLE later (n int); INSERT INTO later VALUES (1);',
};

describe('schema migrations', () => {
  it('make a new database: the log’s tables, and the version they are at', async () => {
    const pool = await newPool();
    expect(await migrate(pool)).toEqual({ from: 0, to: migrations.length });
    const made = await tables(pool);
    expect(made).toEqual(
      expect.arrayContaining([
        'log_lists',
        'log_records',
        'log_source',
        'schema_version',
        'store_settings',
        'upstream_budget',
        'upstream_usage',
      ]),
    );
    // The event store's, made by the first steps, are gone after the sixth.
    expect(made.filter((name) => /^store_(chunks|lists|keys)$/.test(name))).toEqual([]);
    // Again: nothing to do.
    expect(await migrate(pool)).toEqual({ from: migrations.length, to: migrations.length });
    expect(await versions(pool)).toEqual(migrations.map((step) => step.version));
  });

  it('upgrade a database an older server made, in place', async () => {
    const pool = await newPool();
    await migrate(pool);
    await pool.query("INSERT INTO store_settings VALUES ('kept', 'yes')");
    expect(await migrate(pool, [...migrations, NEXT])).toEqual({
      from: migrations.length,
      to: NEXT.version,
    });
    expect((await pool.query('SELECT n FROM later')).rows).toEqual([{ n: 1 }]);
    expect((await pool.query('SELECT value FROM store_settings')).rows).toEqual([{ value: 'yes' }]);
  });

  it('are refused by an older server, which says so', async () => {
    const pool = await newPool();
    await migrate(pool, [...migrations, NEXT]);
    const older = migrate(pool);
    await expect(older).rejects.toThrow(SchemaTooNewError);
    await expect(older).rejects.toThrow(
      `the database was created by a newer version of this server (schema ${NEXT.version}, ` +
        `this server knows ${migrations.length})`,
    );
  });

  it('are applied once when several servers start at once', async () => {
    const pool = await newPool();
    const results = await Promise.all([1, 2, 3, 4].map(() => migrate(pool, [...migrations, NEXT])));
    expect(results.filter((result) => result.from === 0)).toHaveLength(1);
    expect(await versions(pool)).toEqual([...migrations, NEXT].map((step) => step.version));
    expect((await pool.query('SELECT n FROM later')).rows).toEqual([{ n: 1 }]);
  });

  it('leave nothing behind when a step fails', async () => {
    const pool = await newPool();
    const broken = { ...NEXT, sql: 'CREATE TABLE later (n int); SELECT no_such_function();' };
    await expect(migrate(pool, [...migrations, broken])).rejects.toThrow(/no_such_function/);
    expect(await tables(pool)).toEqual([]);
  });

  it('take steps numbered from 1 without gaps', async () => {
    const pool = await newPool();
    await expect(
      migrate(pool, [...migrations, { ...NEXT, version: NEXT.version + 1 }]),
    ).rejects.toThrow(/is not number/);
  });
});
