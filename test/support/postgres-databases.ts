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
  const admin = async (...sql: string[]) => {
    const client = new pg.Client({ connectionString: shared().url });
    await client.connect();
    try {
      for (const statement of sql) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  // A pool's end() resolves before its clients' sockets have closed: dropped at once, the
  // database's FORCE ended them mid-goodbye, and the client, no longer the pool's, threw
  // its "terminating connection" where nothing listened. Those get a second to leave
  // first; whatever is still connected then is ended by FORCE, as a test may mean to.
  const dropWhenLeft = (name: string) =>
    admin(
      `DO $$ BEGIN
         FOR i IN 1..100 LOOP
           EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE datname = '${name}');
           PERFORM pg_sleep(0.01);
         END LOOP;
       END $$`,
      `DROP DATABASE ${name} WITH (FORCE)`,
    );
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
        drop: () => dropWhenLeft(name),
      };
    },
  };
}
