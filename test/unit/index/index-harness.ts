import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { startPostgres, type PostgresServer } from '../../support/postgres-server';

/** The whole schema, as a server opening the database would make it. */
export async function migrateForTests(pool: pg.Pool) {
  await migrate(pool);
}

/**
 * A PostgreSQL of the test file's own, with the whole schema, started before its tests and
 * stopped after them: the pool is there once the tests run.
 */
export function useIndexDatabase(): { readonly pool: pg.Pool } {
  let server: PostgresServer | undefined;
  const state = {} as { pool: pg.Pool };
  beforeAll(async () => {
    server = await startPostgres();
    state.pool = new pg.Pool({ connectionString: server.url, max: 4 });
    await migrateForTests(state.pool);
  }, 60_000);
  afterAll(async () => {
    await state.pool?.end();
    await server?.stop();
  });
  return state;
}

/** Empties the index and the record log it is made from: a property's next run starts anew. */
export const emptyIndex = (pool: pg.Pool) =>
  pool.query(
    `TRUNCATE idx_changes, idx_tokens, idx_owners, idx_hourly, idx_contracts, log_lists,
       log_records RESTART IDENTITY`,
  );
