import type pg from 'pg';
import type { WalletCollection } from '../../lib/answers';
import { currencyRef } from './figures';
import { holdings } from './holders';
import { KIND_CODES } from './index-schema';
import { addressBytes } from './sql';
import {
  NEXT_CHANGE,
  RealisedResults,
  TURN_COLUMNS,
  turnOf,
  type TurnRecord,
} from './wallet-turns';

/**
 * A wallet across the indexed collections: per collection, what it holds now, what it
 * bought and sold (count and amount per currency, never summed across currencies), and
 * how many of its sales the wash rules flag, and its realised result per currency.
 */

export async function walletCollections(
  pool: pg.Pool,
  wallet: string,
): Promise<WalletCollection[]> {
  const bytes = addressBytes(wallet);
  const [activity, trades, held, flagged, results] = await Promise.all([
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
    realisedResults(pool, bytes),
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
      results: results.get(row.contract_id)?.list() ?? [],
      lastActivity: Number(row.last),
    };
  });
}

/**
 * The realised result in every collection, in one query: the wallet's turns that can have
 * one (a token bought, then sold by its next change), summed per collection by the same
 * rule as one collection's figures (`RealisedResults`). Its cost grows with the wallet's
 * purchases (one probe of the token's changes each), not with its collections. The
 * purchases are found by `has_sale` (the rows of the receiver's index, checked), not by
 * `kind`: on `kind` the planner would also scan every contract's sales in idx_changes_kind.
 */
async function realisedResults(pool: pg.Pool, bytes: Buffer) {
  const { rows } = await pool.query<TurnRecord & { contract_id: number }>(
    `SELECT c.contract_id, ${TURN_COLUMNS}
     FROM idx_changes c JOIN ${NEXT_CHANGE} ON true
     WHERE c.to_addr = $1 AND c.has_sale AND n.kind = $2`,
    [bytes, KIND_CODES.sale],
  );
  const byContract = new Map<number, RealisedResults>();
  for (const row of rows) {
    const turn = turnOf(row);
    if (!turn) continue;
    let results = byContract.get(row.contract_id);
    if (!results) byContract.set(row.contract_id, (results = new RealisedResults()));
    results.add(turn);
  }
  return byContract;
}
