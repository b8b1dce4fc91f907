import { DAY } from '../../lib/utc';
/**
 * Wash-trade flags of sales, after the rules analysts use (Dune's nft_wash_trades): the
 * buyer is the seller; the token goes back from the buyer to the seller within 30 days
 * (or came from the buyer within 30 days before); one wallet buys or sells the token
 * three times or more within 30 days either side. Who sold and who bought is who held
 * the token before and after (the transfer's addresses; a sale record may name them
 * reversed).
 *
 * Stored on each sale's row (`idx_changes.wash`, a bitmask of the rules that fired) at
 * ingest: a new or joined sale can change the flags of the token's other sales within
 * 30 days either side, so those are computed again in the same transaction (ingest.ts).
 * The hourly rollup keeps the flagged part of each hour (`wash_events`, `wash_volume`),
 * so every figure can leave flagged sales out.
 */
export const WASH_WINDOW_SECONDS = 30 * DAY;
export const WASH_REPEAT = 3;

/** The bits of `idx_changes.wash`, one a rule. */
export const WASH_BITS = { selfTrade: 1, roundTrip: 2, buyerRepeats: 4, sellerRepeats: 8 } as const;

/**
 * SQL: the flags each sale `c` has now (`wash`) beside those stored (`stored`), for the
 * sales `from` names (it binds `c`; `c.kind = 2` is added here). Each rule reads the
 * token's sales within the window: a token has few, an index range each (the window said
 * as (token, time) bounds, which only the token's own indexes serve).
 */
export const washFlagsOf = (from: string, where = 'true') => `
SELECT c.id, c.ts, c.wash AS stored, (
    CASE WHEN c.from_addr = c.to_addr THEN ${WASH_BITS.selfTrade} ELSE 0 END
  | CASE WHEN n.round_trip THEN ${WASH_BITS.roundTrip} ELSE 0 END
  | CASE WHEN n.buyer_trades >= ${WASH_REPEAT} THEN ${WASH_BITS.buyerRepeats} ELSE 0 END
  | CASE WHEN n.seller_trades >= ${WASH_REPEAT} THEN ${WASH_BITS.sellerRepeats} ELSE 0 END
  )::smallint AS wash
FROM ${from}
CROSS JOIN LATERAL (
  SELECT bool_or(o.id <> c.id AND o.from_addr = c.to_addr AND o.to_addr = c.from_addr) AS round_trip,
    count(*) FILTER (WHERE o.from_addr = c.to_addr OR o.to_addr = c.to_addr) AS buyer_trades,
    count(*) FILTER (WHERE o.from_addr = c.from_addr OR o.to_addr = c.from_addr) AS seller_trades
  FROM idx_changes o
  WHERE o.contract_id = c.contract_id AND o.token_id = c.token_id AND o.has_sale
    AND (o.token_id, o.ts) >= (c.token_id, c.ts - ${WASH_WINDOW_SECONDS})
    AND (o.token_id, o.ts) <= (c.token_id, c.ts + ${WASH_WINDOW_SECONDS})
) n
WHERE c.kind = 2 AND ${where}`;

/** The reasons a sale is flagged, in words, from its stored bits; empty when none fired. */
export function washReasons(wash: number): string[] {
  const reasons: string[] = [];
  if (wash & WASH_BITS.selfTrade) reasons.push('The buyer is the seller.');
  if (wash & WASH_BITS.roundTrip) {
    reasons.push('The token went back between the same two wallets within 30 days.');
  }
  if (wash & WASH_BITS.buyerRepeats) {
    reasons.push(`The buyer traded this token ${WASH_REPEAT} times or more within 30 days.`);
  }
  if (wash & WASH_BITS.sellerRepeats) {
    reasons.push(`The seller traded this token ${WASH_REPEAT} times or more within 30 days.`);
  }
  return reasons;
}
