import type pg from 'pg';
import { LATEST_FIRST } from './ingest';
import type { KeysetValues } from './keyset';
import { addressBytes, hexOf, Sql } from './sql';

/**
 * A collection's holders: each owner with how many tokens it holds (ERC1155: tokens, not
 * copies; the records carry no balances), since when, the distribution and the share of
 * the ten largest; now (from `idx_tokens`) or as of any moment (every change of hands up
 * to it, replayed in SQL with the same "latest change" rule as the tokens table).
 * A token whose latest known change is a burn is held by nobody; a burn the index never
 * saw (contract lists carry none) leaves the token with its last holder.
 */
export interface Holder {
  owner: string;
  tokens: number;
  /** When the owner's latest token came to it (unix seconds). */
  since: number;
}

export interface HoldersAnswer {
  holders: Holder[];
  next: KeysetValues | null;
  totalHolders: number;
  tokensHeld: number;
  knownBurned: number;
  distribution: { range: string; holders: number }[];
  top10Share: number;
}

const RANGES: [string, number, number][] = [
  ['1', 1, 1],
  ['2–5', 2, 5],
  ['6–10', 6, 10],
  ['11–25', 11, 25],
  ['26+', 26, Number.MAX_SAFE_INTEGER],
];

/**
 * Each owner's tokens (`owner, tokens, since`), and a last row of burned tokens (`owner`
 * NULL): now from the tokens table's own indexes; as of a moment by replaying every
 * change up to it, read from the token index alone in its order.
 */
function ownersQuery(sql: Sql, contractId: number, asOf: number | undefined): string {
  const id = sql.param(contractId);
  if (asOf === undefined) {
    return `SELECT owner, count(*) AS tokens, max(since) AS since FROM idx_tokens
        WHERE contract_id = ${id} AND NOT burned GROUP BY owner
      UNION ALL SELECT NULL, count(*), NULL FROM idx_tokens WHERE contract_id = ${id} AND burned`;
  }
  return `WITH t AS MATERIALIZED (
      SELECT DISTINCT ON (token_id) token_id, to_addr AS owner, ts AS since, kind = 3 AS burned
      FROM idx_changes WHERE contract_id = ${id} AND ts <= ${sql.param(asOf)}
      ORDER BY token_id, ${LATEST_FIRST})
    SELECT owner, count(*) AS tokens, max(since) AS since FROM t WHERE NOT burned GROUP BY owner
    UNION ALL SELECT NULL, count(*), NULL FROM t WHERE burned`;
}

export async function holders(
  pool: pg.Pool,
  contractId: number,
  options: { asOf?: number; limit: number; after: KeysetValues | null; owner?: string },
): Promise<HoldersAnswer> {
  const sql = new Sql();
  const { rows } = await pool.query<{ owner: Buffer | null; tokens: string; since: string | null }>(
    ownersQuery(sql, contractId, options.asOf),
    sql.values,
  );
  const burned = Number(rows.find((row) => row.owner === null)?.tokens ?? 0);
  const owners = rows
    .filter((row) => row.owner !== null)
    .map((row) => ({
      owner: hexOf(row.owner),
      tokens: Number(row.tokens),
      since: Number(row.since),
    }))
    .sort((a, b) => b.tokens - a.tokens || (a.owner < b.owner ? -1 : 1));
  const tokensHeld = owners.reduce((sum, holder) => sum + holder.tokens, 0);
  const top10 = owners.slice(0, 10).reduce((sum, holder) => sum + holder.tokens, 0);
  let start = 0;
  if (options.after) {
    const [count, owner] = options.after as [number, string];
    start = owners.findIndex((h) => h.tokens < count || (h.tokens === count && h.owner > owner));
    if (start < 0) start = owners.length;
  }
  const selected = options.owner
    ? owners.filter((holder) => holder.owner === options.owner)
    : owners.slice(start, start + options.limit);
  const last = selected.at(-1);
  const more = !options.owner && start + options.limit < owners.length;
  return {
    holders: selected,
    next: more && last ? [last.tokens, last.owner] : null,
    totalHolders: owners.length,
    tokensHeld,
    knownBurned: burned,
    distribution: RANGES.map(([range, low, high]) => ({
      range,
      holders: owners.filter((holder) => holder.tokens >= low && holder.tokens <= high).length,
    })),
    top10Share: tokensHeld > 0 ? top10 / tokensHeld : 0,
  };
}

/** How many tokens of each contract a wallet holds now. */
export async function holdings(pool: pg.Pool, wallet: string) {
  const { rows } = await pool.query<{ contract_id: number; tokens: string }>(
    `SELECT contract_id, count(*) AS tokens FROM idx_tokens WHERE owner = $1 AND NOT burned
     GROUP BY contract_id`,
    [addressBytes(wallet)],
  );
  return new Map(rows.map((row) => [row.contract_id, Number(row.tokens)]));
}
