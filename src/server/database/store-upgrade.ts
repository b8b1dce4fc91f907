import type pg from 'pg';
import { keyHash, readRecordKey } from '../log/list-page';

/**
 * A data folder from before the record log kept each list as chunks of records
 * (`store_chunks`: u32 count | u32 ends[count] | f64 ts[count] | the records joined by
 * commas). Migration 6 moves every list's current copy into the log, in its stored order,
 * with its frontier, and drops the old tables: nothing is asked of the service again, and
 * the index, made from the same records, stays as it is.
 */
export async function upgradeStore(client: pg.PoolClient): Promise<void> {
  const { rows: exists } = await client.query<{ found: string | null }>(
    "SELECT to_regclass('store_chunks')::text AS found",
  );
  if (!exists[0]?.found) return;
  const { rows: lists } = await client.query<{
    list: string;
    generation: string;
    complete: boolean;
    frontier: string | null;
    head_checked_at: string;
  }>('SELECT list, generation, complete, frontier, head_checked_at FROM store_lists');
  for (const list of lists) {
    const stable = !/^\/v1\/events\/0x[0-9a-f]{64}$/.test(list.list);
    const { rows: ids } = await client.query<{ id: number }>(
      `INSERT INTO log_lists (path, stable, complete, frontier, head_checked_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [
        list.list,
        stable,
        list.complete,
        list.complete ? null : list.frontier,
        list.head_checked_at,
      ],
    );
    const id = ids[0]!.id;
    // A few chunks at a time: a list of millions of records is never held whole.
    const chunks = async function* () {
      let after: string | null = null;
      for (;;) {
        const { rows }: { rows: { first: string; data: Buffer }[] } = await client.query(
          `SELECT first, data FROM store_chunks WHERE list = $1 AND generation = $2
             AND ($3::bigint IS NULL OR first > $3) ORDER BY first LIMIT 16`,
          [list.list, list.generation, after],
        );
        yield* rows;
        if (rows.length < 16) return;
        after = rows.at(-1)!.first;
      }
    };
    for await (const { data } of chunks()) {
      const records = recordsOf(data);
      const identity = list.list === '/v1/contracts' ? 'contract' : 'event';
      await client.query(
        `INSERT INTO log_records (list_id, key, ts, body)
         SELECT $1, k, t, b FROM unnest($2::bytea[], $3::bigint[], $4::bytea[]) WITH ORDINALITY
           AS u(k, t, b, n) ORDER BY n
         ON CONFLICT (list_id, key) DO NOTHING`,
        [
          id,
          records.map((record) => keyHash(readRecordKey(record.text, identity))),
          records.map((record) => record.ts),
          records.map((record) => Buffer.from(record.text)),
        ],
      );
    }
    await client.query(
      'UPDATE log_lists SET records = (SELECT count(*) FROM log_records WHERE list_id = $1) WHERE id = $1',
      [id],
    );
  }
  await client.query('DROP TABLE store_chunks, store_keys, store_lists');
}

function recordsOf(data: Buffer): { text: string; ts: number }[] {
  const count = data.readUInt32LE(0);
  const body = data.subarray(4 + count * 12);
  const records: { text: string; ts: number }[] = [];
  let start = 0;
  for (let index = 0; index < count; index++) {
    const end = data.readUInt32LE(4 + index * 4);
    // The store kept any finite time; the log keeps whole seconds, and 0 for what no unix
    // time can be (as list-page.ts reads a record).
    const ts = Math.trunc(data.readDoubleLE(4 + count * 4 + index * 8));
    records.push({
      text: body.subarray(start, end).toString(),
      ts: Number.isSafeInteger(ts) && ts >= 0 ? ts : 0,
    });
    start = end + 1;
  }
  return records;
}
