import { hourlyRows } from './hourly';
import { LATEST_FIRST } from './ingest';
import { mintFactsOf } from './mint-facts';
import { washFlagsOf } from './wash-flags';

/**
 * What a rebuild makes from a contract's change rows ($1: its number), one statement per
 * table over the whole contract, with the rules ingest applies page by page (the same SQL
 * builders, the same holder rule), in the order ingest keeps: the flags first, which the
 * tokens' mint facts read.
 */

/** Each sale's wash-trade flags, set where they changed; none on any other change. */
export const SET_WASH = [
  `UPDATE idx_changes u SET wash = f.wash
   FROM (${washFlagsOf('idx_changes c', 'c.contract_id = $1')}) f
   WHERE u.id = f.id AND f.wash <> f.stored`,
  'UPDATE idx_changes SET wash = 0 WHERE contract_id = $1 AND kind <> 2 AND wash <> 0',
];

const TOKEN_COLUMNS = `owner, since, rank, last_id, first_ts, minted, burned, changes, minter,
  minted_at, first_sale_at, first_clean_sale_at`;
const columnsOf = (alias: string) => TOKEN_COLUMNS.replace(/\w+/g, `${alias}.$&`);

/**
 * Each token's state: its latest change by the holder rule, its first time, whether it was
 * ever minted, its count of changes, its mint facts. Stored tokens are changed only where
 * they differ (most do not when the index was right), new ones added, others deleted. It
 * answers the contract's count of change rows.
 *
 * The contract's rows are read once and sorted here (MATERIALIZED): in the token index's
 * order they would be fetched from the table one by one, at random, as rows this
 * transaction just wrote are not yet marked all-visible. Mint facts are looked up only
 * for tokens that have a mint: for the others every fact is NULL, as it would be.
 */
export const SYNC_TOKENS = `
WITH changes AS MATERIALIZED (
  SELECT token_id, to_addr, ts, rank, id, kind FROM idx_changes WHERE contract_id = $1
), latest AS MATERIALIZED (
  SELECT DISTINCT ON (token_id) token_id, to_addr, ts, rank, id, kind,
    min(ts) OVER t AS first_ts, bool_or(kind = 0) OVER t AS minted, count(*) OVER t AS changes
  FROM changes
  WINDOW t AS (PARTITION BY token_id)
  ORDER BY token_id, ${LATEST_FIRST}
), facts AS (${mintFactsOf(
  '(SELECT $1::integer AS contract_id, token_id FROM latest WHERE minted) t0',
)}
), tokens (token_id, ${TOKEN_COLUMNS}) AS MATERIALIZED (
  SELECT l.token_id, l.to_addr, l.ts, l.rank, l.id, l.first_ts, l.minted, l.kind = 3,
    l.changes::integer, f.minter, f.minted_at, f.first_sale_at, f.first_clean_sale_at
  FROM latest l LEFT JOIN facts f USING (token_id)
), changed AS (
  UPDATE idx_tokens t SET (${TOKEN_COLUMNS}) = (${columnsOf('n')}) FROM tokens n
  WHERE t.contract_id = $1 AND t.token_id = n.token_id
    AND (${columnsOf('t')}) IS DISTINCT FROM (${columnsOf('n')})
), added AS (
  INSERT INTO idx_tokens (contract_id, token_id, ${TOKEN_COLUMNS})
  SELECT $1, n.* FROM tokens n
  WHERE NOT EXISTS (SELECT FROM idx_tokens t WHERE t.contract_id = $1 AND t.token_id = n.token_id)
), dropped AS (
  DELETE FROM idx_tokens t WHERE t.contract_id = $1
    AND NOT EXISTS (SELECT FROM tokens n WHERE n.token_id = t.token_id)
)
SELECT coalesce(sum(changes), 0)::integer AS changes FROM tokens`;

/** Each holder's count of tokens, made again (a row per holder: few beside the tokens). */
export const SET_OWNERS = [
  'DELETE FROM idx_owners WHERE contract_id = $1',
  `INSERT INTO idx_owners (contract_id, owner, tokens)
   SELECT $1, owner, count(*) FROM idx_tokens WHERE contract_id = $1 AND NOT burned GROUP BY owner`,
];

/** Every hour made again from the rows. */
export const SET_HOURS = [
  'DELETE FROM idx_hourly WHERE contract_id = $1',
  hourlyRows('idx_changes c', 'c.contract_id = $1'),
];
