import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { rebuildIndex } from '../../../src/server/index/rebuild';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { CONTRACT, deliverLists, scenario } from './history';
import { emptyIndex } from './index-harness';
import { indexSnapshot } from './index-snapshot';

/**
 * A rebuild of the index from the record log gives what ingest gave for the same records,
 * whatever order their pages came in: random histories (twins, self-trades), their
 * contract's list (without burns, as the deployed service sends it) and some of their
 * tokens' lists, each cut into pages, the pages of every list delivered in any order to
 * ingest as the log commits them; then every table compared, row by row, before and after
 * the rebuild, from an index as ingest left it, emptied, or damaged.
 */

const databases = usePostgresDatabases();
let pool: pg.Pool;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await databases.database();
  drop = database.drop;
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  await migrate(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await drop?.();
});

describe('the index rebuilt from the record log', () => {
  it('is what ingest made of the same records, from an index as it left it, emptied or damaged', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenario,
        fc.constantFrom('as ingested', 'emptied', 'damaged'),
        async (delivered, before) => {
          await emptyIndex(pool);
          await deliverLists(pool, delivered);
          const ingested = await indexSnapshot(pool);
          if (before === 'emptied') {
            await pool.query(`TRUNCATE idx_changes, idx_tokens, idx_owners, idx_hourly;
              UPDATE idx_contracts SET name = NULL, symbol = NULL, image = NULL,
                contract_type = NULL, listed = false, complete = false, oldest_ts = NULL,
                newest_ts = NULL, records = 0`);
          }
          if (before === 'damaged') {
            await pool.query(`
              DELETE FROM idx_changes WHERE id = (SELECT max(id) FROM idx_changes);
              UPDATE idx_changes SET wash = 15, price = 1
                WHERE id = (SELECT min(id) FROM idx_changes);
              INSERT INTO idx_changes (key, contract_id, tx, token_id, from_addr, to_addr, ts,
                base_kind, label, event_id, has_transfer, has_sale)
              SELECT '\\xbad0', id, '\\x', 9, '\\x01', '\\x02', 1, 1, 'transfer', '', true, false
              FROM idx_contracts WHERE address = '${CONTRACT}';
              UPDATE idx_tokens SET owner = '\\x03', changes = 99, minted_at = 5
                WHERE token_id = (SELECT min(token_id) FROM idx_tokens);
              UPDATE idx_owners SET tokens = tokens + 1;
              DELETE FROM idx_hourly WHERE hour = (SELECT min(hour) FROM idx_hourly);
              UPDATE idx_contracts SET oldest_ts = 1, records = 7, listed = NOT listed`);
          }
          await rebuildIndex(pool, { batch: delivered.batch });
          expect(await indexSnapshot(pool)).toEqual(ingested);
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);

  it('leaves out the records the service no longer lists: what ingest made of the others', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenario,
        fc.array(fc.nat(), { maxLength: 12 }),
        async (delivered, picks) => {
          await emptyIndex(pool);
          await deliverLists(pool, delivered);
          const { rows } = await pool.query<{ seq: string; path: string; body: string }>(
            `SELECT r.seq, l.path, convert_from(r.body, 'UTF8') AS body
             FROM log_records r JOIN log_lists l ON l.id = r.list_id ORDER BY r.seq`,
          );
          const gone = [...new Set(picks.map((pick) => rows[pick % rows.length]!))];
          await pool.query('UPDATE log_records SET removed_at = 1 WHERE seq = ANY($1)', [
            gone.map((row) => row.seq),
          ]);
          await rebuildIndex(pool, { batch: delivered.batch });
          const rebuilt = await indexSnapshot(pool);

          const removed = new Set(gone.map((row) => `${row.path} ${row.body}`));
          await emptyIndex(pool);
          await deliverLists(pool, delivered, {
            keep: (path, record) => !removed.has(`${path} ${JSON.stringify(record)}`),
          });
          expect(rebuilt).toEqual(await indexSnapshot(pool));
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
