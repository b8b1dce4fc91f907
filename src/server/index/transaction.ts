import type pg from 'pg';
import type { TransactionAnswer } from '../../lib/answers';
import { EVENT_COLUMNS, EVENT_FROM, eventRow, type EventRecord } from './event-rows';
import { addressBytes } from './sql';

/** Every change of hands of one transaction the index holds, across collections, in order. */
export async function transactionEvents(
  pool: pg.Pool,
  hash: string,
): Promise<Omit<TransactionAnswer, 'hash'>> {
  const { rows } = await pool.query<EventRecord & { name: string | null; symbol: string | null }>(
    `SELECT ${EVENT_COLUMNS}, ic.name, ic.symbol FROM ${EVENT_FROM}
     WHERE c.tx = $1 ORDER BY c.ts, c.id`,
    [addressBytes(hash)],
  );
  const collections = new Map<string, TransactionAnswer['collections'][number]>();
  for (const row of rows) {
    if (!collections.has(row.contract)) {
      collections.set(row.contract, { address: row.contract, name: row.name, symbol: row.symbol });
    }
  }
  return { events: rows.map(eventRow), collections: [...collections.values()] };
}
