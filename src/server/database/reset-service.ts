import pg from 'pg';
import { migrate } from './migrations';
import { openDatabase, type DatabaseConfig } from './open-database';

/**
 * `npm run index -- --reset`: empties what one service filled (the record log, the index,
 * the name of the service) so that the database can take another. The month's usage and
 * the request budget stay: they count the key's requests, whichever service they read.
 */
export async function resetService(pool: pg.Pool, log: (line: string) => void): Promise<void> {
  // Every index table, so one added later is emptied too.
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables
      WHERE schemaname = current_schema() AND tablename LIKE 'idx\\_%' ORDER BY 1`,
  );
  const { rows } = await pool.query<{
    records: string;
    lists: string;
    contracts: string;
    changes: string;
    service: string | null;
  }>(
    `SELECT (SELECT count(*) FROM log_records) AS records, (SELECT count(*) FROM log_lists) AS lists,
            (SELECT count(*) FROM idx_contracts) AS contracts,
            (SELECT count(*) FROM idx_changes) AS changes,
            (SELECT description FROM log_source) AS service`,
  );
  const found = rows[0]!;
  log(
    `Deleting ${found.records} records in ${found.lists} lists, the index of ${found.contracts} ` +
      `contracts (${found.changes} changes of hands) and the service they came from ` +
      `(${found.service ?? 'none recorded'}).`,
  );
  const names = tables.map((table) => pg.escapeIdentifier(table.name));
  await pool.query(
    `TRUNCATE log_records, log_lists, log_source, ${names.join(', ')} RESTART IDENTITY`,
  );
  // Places start at 1 again: a cursor given before must not name one of the new records.
  await pool.query("DELETE FROM store_settings WHERE name = 'cursor-secret'");
  log('Done: the next start takes this database for its own service.');
}

/** Opens the configured database (brought to the current schema) and resets it. */
export async function resetDatabase(
  config: DatabaseConfig,
  log: (line: string) => void,
): Promise<void> {
  const database = await openDatabase(config, log);
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    await migrate(pool);
    await resetService(pool, log);
  } finally {
    await pool.end();
    await database.close();
  }
}
