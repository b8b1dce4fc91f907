/**
 * Each token's mint facts, kept on its `idx_tokens` row so that a collection's market
 * reads the tokens minted in a span as one index range (`idx_tokens_minted`) instead of
 * looking every minted token up:
 *
 * - `minter`, `minted_at`: the receiver and time of the token's first mint (at one time,
 *   in the holder rule's order: see LATEST_FIRST in ingest.ts), NULL when none is indexed;
 * - `first_sale_at`: its first sale at or after that mint; `first_clean_sale_at`: the same
 *   among the sales not flagged as wash trades (NULL when none).
 *
 * The time is said as a (token, time) bound, which only the token's own indexes serve (see
 * RESET_WASH in ingest.ts).
 *
 * Pages arrive in any order (a sale before its mint, a flag set by a later page), so the
 * facts are never moved on by the batch alone: for every token a batch touched they are
 * read again from the token's own rows, after its sales' flags are, in the same
 * transaction (ingest.ts). The migration that added them filled every token with the
 * same statement.
 */
const firstSale = (extra: string) => `(
    SELECT s.ts FROM idx_changes s
    WHERE s.contract_id = t0.contract_id AND s.token_id = t0.token_id AND s.has_sale
      AND s.kind = 2 AND (s.token_id, s.ts) >= (t0.token_id, m.ts)${extra}
    ORDER BY s.token_id, s.ts LIMIT 1)`;

/** SQL: sets the mint facts of the tokens `where` names (it binds `t0`, of idx_tokens). */
export const updateMintFacts = (where: string) => `
UPDATE idx_tokens t SET minter = f.minter, minted_at = f.minted_at,
  first_sale_at = f.first_sale_at, first_clean_sale_at = f.first_clean_sale_at
FROM (
  SELECT t0.contract_id, t0.token_id, m.to_addr AS minter, m.ts AS minted_at,
    ${firstSale('')} AS first_sale_at,
    ${firstSale(' AND s.wash = 0')} AS first_clean_sale_at
  FROM idx_tokens t0
  LEFT JOIN LATERAL (
    SELECT c.ts, c.to_addr FROM idx_changes c
    WHERE c.contract_id = t0.contract_id AND c.token_id = t0.token_id AND c.kind = 0
    ORDER BY c.ts, c.rank, c.id LIMIT 1
  ) m ON true
  WHERE ${where}
) f
WHERE t.contract_id = f.contract_id AND t.token_id = f.token_id
  AND (t.minter, t.minted_at, t.first_sale_at, t.first_clean_sale_at)
    IS DISTINCT FROM (f.minter, f.minted_at, f.first_sale_at, f.first_clean_sale_at)`;
