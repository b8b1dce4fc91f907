import type pg from 'pg';
import type { WalletCollection } from '../../lib/answers';
import { currencyRef } from './figures';
import { holdings } from './holders';
import { addressBytes } from './sql';

/**
 * A wallet across the indexed collections: per collection, what it holds now, what it
 * bought and sold (count and amount per currency, never summed across currencies), and
 * how many of its sales the wash rules flag.
 */

export async function walletCollections(
  pool: pg.Pool,
  wallet: string,
): Promise<WalletCollection[]> {
  const bytes = addressBytes(wallet);
  const [activity, trades, held, flagged] = await Promise.all([
    pool.query<{
      contract_id: number;
      address: string;
      name: string | null;
      symbol: string | null;
      events: string;
      last: string;
    }>(
      `SELECT a.contract_id, ic.address, ic.name, ic.symbol, a.events, a.last FROM (
         SELECT contract_id, count(*) AS events, max(ts) AS last FROM (
           SELECT contract_id, ts, id FROM idx_changes WHERE from_addr = $1
           UNION SELECT contract_id, ts, id FROM idx_changes WHERE to_addr = $1) e
         GROUP BY contract_id) a JOIN idx_contracts ic ON ic.id = a.contract_id
       ORDER BY a.last DESC`,
      [bytes],
    ),
    // Who held the token says who sold and who bought (a sale record may name them reversed).
    pool.query<{
      contract_id: number;
      side: 'bought' | 'sold';
      currency: Buffer;
      sales: string;
      amount: string;
    }>(
      `SELECT contract_id, CASE WHEN to_addr = $1 THEN 'bought' ELSE 'sold' END AS side,
         coalesce(currency, '\\x'::bytea) AS currency, count(*) AS sales, coalesce(sum(price), 0)::text AS amount
       FROM idx_changes WHERE has_sale AND (to_addr = $1 OR from_addr = $1) AND from_addr <> to_addr
       GROUP BY 1, 2, 3`,
      [bytes],
    ),
    holdings(pool, wallet),
    pool.query<{ contract_id: number; flagged: string }>(
      `SELECT contract_id, count(*) AS flagged FROM (
         SELECT contract_id, id FROM idx_changes WHERE has_sale AND wash <> 0 AND from_addr = $1
         UNION SELECT contract_id, id FROM idx_changes WHERE has_sale AND wash <> 0 AND to_addr = $1) s
       GROUP BY contract_id`,
      [bytes],
    ),
  ]);
  const flaggedIn = new Map(flagged.rows.map((row) => [row.contract_id, Number(row.flagged)]));
  return activity.rows.map((row) => {
    const side = (name: 'bought' | 'sold') =>
      trades.rows
        .filter((trade) => trade.contract_id === row.contract_id && trade.side === name)
        .map((trade) => ({
          currency: currencyRef(trade.currency),
          sales: Number(trade.sales),
          amount: trade.amount,
        }));
    return {
      address: row.address,
      name: row.name,
      symbol: row.symbol,
      holds: held.get(row.contract_id) ?? 0,
      events: Number(row.events),
      bought: side('bought'),
      sold: side('sold'),
      flaggedSales: flaggedIn.get(row.contract_id) ?? 0,
      lastActivity: Number(row.last),
    };
  });
}
