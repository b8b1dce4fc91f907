import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, databaseUrl } from './postgres-server';

/**
 * A new database for each test that asks, on the run's test PostgreSQL (started once by
 * `global-postgres.ts`), so tests share the server but nothing else. A test that stops,
 * freezes or fills its server starts one of its own (`startPostgres`).
 */
export function usePostgresDatabases() {
  const shared = () => inject('testPostgres');
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: shared().url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    server: () => ({ url: shared().url }),
    /**
     * A new database: its URL, and how to drop it. It has the whole schema, as a server
     * opening it would make it (a copy of the run's migrated template), or nothing (`empty`:
     * for the tests of migrations and of what a server finds at its first start).
     */
    async database({ empty = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
      const { url, migrated } = shared();
      const name = await createDatabase(url, 'test', empty ? undefined : migrated);
      return {
        url: databaseUrl(url, name),
        drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`),
      };
    },
  };
}
