import type pg from 'pg';
import { parseListPath } from '../../src/server/index/list-path';
import { keyHash, type StoredRecord } from '../../src/server/log/list-page';

/**
 * Records appended to the record log's tables (src/server/log/log-schema.ts) as the log
 * commits a page, for tests and benches that feed ingest themselves: the list's row
 * (`stable` unless it is a contract's events), each record not already in the list with
 * its identity, time and bytes in the page's order, the list's count and `complete`.
 * Answers the list's state after the page, as ingest's `onCommit` is given it.
 */
export async function appendToLog(
  client: pg.ClientBase,
  path: string,
  records: readonly StoredRecord[],
  complete: boolean,
): Promise<{ complete: boolean; records: number }> {
  const stable = parseListPath(path)?.kind !== 'contract-events';
  const { rows: lists } = await client.query<{ id: number }>(
    `INSERT INTO log_lists (path, stable) VALUES ($1, $2)
     ON CONFLICT (path) DO UPDATE SET path = excluded.path RETURNING id`,
    [path, stable],
  );
  const id = lists[0]!.id;
  const { rows } = await client.query<{ complete: boolean; records: string }>(
    `WITH added AS (
       INSERT INTO log_records (list_id, key, ts, body)
       SELECT $1, k, t, b FROM unnest($2::bytea[], $3::bigint[], $4::bytea[]) WITH ORDINALITY
         AS u(k, t, b, n) ORDER BY n
       ON CONFLICT (list_id, key) DO NOTHING RETURNING 1
     )
     UPDATE log_lists
     SET complete = complete OR $5, records = records + (SELECT count(*) FROM added)
     WHERE id = $1 RETURNING complete, records`,
    [
      id,
      records.map((record) => keyHash(record.key)),
      records.map((record) => Math.trunc(record.ts)),
      records.map((record) => Buffer.from(record.json)),
      complete,
    ],
  );
  return { complete: rows[0]!.complete, records: Number(rows[0]!.records) };
}
