import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, databaseUrl, startPostgres, type PostgresServer } from './postgres-server';

/**
 * One test PostgreSQL for a test file (started before its tests, stopped after), and a
 * new database on it for each test that asks, so tests share the server but nothing else.
 */
export function usePostgresDatabases() {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => server?.stop());

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: running().url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const running = () => {
    if (!server) throw new Error('the test PostgreSQL is not running');
    return server;
  };
  return {
    server: running,
    /** A new, empty database: its URL, and how to drop it. */
    async database(): Promise<{ url: string; drop: () => Promise<void> }> {
      const name = await createDatabase(running().url);
      return {
        url: databaseUrl(running().url, name),
        drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`),
      };
    },
  };
}
