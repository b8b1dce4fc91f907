import type pg from 'pg';
import { migrate } from '../../../src/server/database/migrations';

/** The whole schema, as a server opening the database would make it. */
export async function migrateForTests(pool: pg.Pool) {
  await migrate(pool);
}
