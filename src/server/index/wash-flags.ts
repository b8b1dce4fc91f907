import type pg from 'pg';
import type { EventRow } from '../../lib/answers';

/**
 * Wash-trade flags of sales, each with its reason, after the rules analysts use
 * (Dune's nft_wash_trades): the buyer is the seller; the token goes back from the buyer
 * to the seller within 30 days (or came from the buyer within 30 days before); one wallet
 * buys or sells the token three times or more within 30 days either side. Who sold and
 * who bought is who held the token before and after (the transfer's addresses; a sale
 * record may name them reversed). Computed for a page of rows at a time from the token
 * index: a token has few changes, so each rule is a short index range.
 */
export const WASH_WINDOW_SECONDS = 30 * 86_400;
export const WASH_REPEAT = 3;

const FLAGS_SQL = `
SELECT c.id::text AS id,
  c.from_addr = c.to_addr AS self_trade,
  EXISTS (
    SELECT 1 FROM idx_changes o
    WHERE o.contract_id = c.contract_id AND o.token_id = c.token_id AND o.has_sale AND o.id <> c.id
      AND o.ts BETWEEN c.ts - $2 AND c.ts + $2
      AND o.from_addr = c.to_addr AND o.to_addr = c.from_addr
  ) AS round_trip,
  (SELECT count(*) FROM idx_changes o
    WHERE o.contract_id = c.contract_id AND o.token_id = c.token_id AND o.has_sale
      AND o.ts BETWEEN c.ts - $2 AND c.ts + $2
      AND (o.from_addr = c.to_addr OR o.to_addr = c.to_addr))::integer AS buyer_trades,
  (SELECT count(*) FROM idx_changes o
    WHERE o.contract_id = c.contract_id AND o.token_id = c.token_id AND o.has_sale
      AND o.ts BETWEEN c.ts - $2 AND c.ts + $2
      AND (o.from_addr = c.from_addr OR o.to_addr = c.from_addr))::integer AS seller_trades
FROM idx_changes c WHERE c.id = ANY($1::bigint[]) AND c.has_sale`;

interface FlagRow {
  id: string;
  self_trade: boolean;
  round_trip: boolean;
  buyer_trades: number;
  seller_trades: number;
}

/** The reasons a sale is flagged, in words; empty when no rule fires. */
export function washReasons(row: FlagRow): string[] {
  const reasons: string[] = [];
  if (row.self_trade) reasons.push('The buyer is the seller.');
  if (row.round_trip) {
    reasons.push('The token went back between the same two wallets within 30 days.');
  }
  if (row.buyer_trades >= WASH_REPEAT) {
    reasons.push(`The buyer traded this token ${row.buyer_trades} times within 30 days.`);
  }
  if (row.seller_trades >= WASH_REPEAT) {
    reasons.push(`The seller traded this token ${row.seller_trades} times within 30 days.`);
  }
  return reasons;
}

/** Sets `washFlags` on the page's flagged sales. */
export async function flagWashTrades(pool: pg.Pool, rows: EventRow[]): Promise<void> {
  const sales = rows.filter((row) => row.kind === 'sale');
  if (sales.length === 0) return;
  const { rows: flags } = await pool.query<FlagRow>(FLAGS_SQL, [
    sales.map((row) => row.id),
    WASH_WINDOW_SECONDS,
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const flag of flags) {
    const reasons = washReasons(flag);
    const row = byId.get(flag.id);
    if (row && reasons.length > 0) row.washFlags = reasons;
  }
}
