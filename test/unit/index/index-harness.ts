import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * A database of the test file's own with the whole schema, made before its tests and
 * dropped after them: the pool is there once the tests run.
 */
export function useIndexDatabase(): { readonly pool: pg.Pool } {
  const databases = usePostgresDatabases();
  let drop: (() => Promise<void>) | undefined;
  const state = {} as { pool: pg.Pool };
  beforeAll(async () => {
    const database = await databases.database();
    drop = database.drop;
    state.pool = new pg.Pool({ connectionString: database.url, max: 4 });
  }, 60_000);
  afterAll(async () => {
    await state.pool?.end();
    await drop?.();
  });
  return state;
}

/** Empties the index and the record log it is made from: a property's next run starts anew. */
export const emptyIndex = (pool: pg.Pool) =>
  pool.query(
    `TRUNCATE idx_changes, idx_tokens, idx_owners, idx_hourly, idx_contracts, log_lists,
       log_records RESTART IDENTITY`,
  );
