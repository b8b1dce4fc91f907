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
 * Pages arrive in any order (a sale before its mint, a flag set by a later page), so the
 * facts are never moved on by the batch alone: for every token a batch touches they are
 * read again from the token's own rows, once its rows and their flags are stored, by the
 * statement that moves the token on (UPSERT_TOKENS in ingest.ts). The migration that added
 * them filled every token with the same look-ups. Each is one range of the token's own
 * indexes: the time is said as a (token, time) bound, which no other index serves (see
 * RESET_WASH in ingest.ts).
 */
const firstSale = (extra: string) => `(
    SELECT s.ts FROM idx_changes s
    WHERE s.contract_id = t0.contract_id AND s.token_id = t0.token_id AND s.has_sale
      AND s.kind = 2 AND (s.token_id, s.ts) >= (t0.token_id, m.ts)${extra}
    ORDER BY s.token_id, s.ts LIMIT 1)`;

/**
 * SQL: the mint facts of the tokens `tokens` names (it binds `t0`, with `contract_id` and
 * `token_id`): those two, `minter`, `minted_at`, `first_sale_at`, `first_clean_sale_at`.
 */
export const mintFactsOf = (tokens: string) => `
SELECT t0.contract_id, t0.token_id, m.to_addr AS minter, m.ts AS minted_at,
  ${firstSale('')} AS first_sale_at,
  ${firstSale(' AND s.wash = 0')} AS first_clean_sale_at
FROM ${tokens}
LEFT JOIN LATERAL (
  SELECT c.ts, c.to_addr FROM idx_changes c
  WHERE c.contract_id = t0.contract_id AND c.token_id = t0.token_id AND c.kind = 0
  ORDER BY c.token_id, c.ts, c.rank, c.id LIMIT 1
) m ON true`;
