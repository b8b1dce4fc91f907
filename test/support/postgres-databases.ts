import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './postgres-server';

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
      const name = `test_${randomUUID().replaceAll('-', '')}`;
      await admin(`CREATE DATABASE ${name}`);
      return {
        url: running().url.replace(/\/postgres$/, `/${name}`),
        drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`),
      };
    },
  };
}
