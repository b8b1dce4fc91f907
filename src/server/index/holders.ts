import type pg from 'pg';
import type { Holder, HoldersFigures } from '../../lib/answers';
import { LATEST_FIRST } from './ingest';
import { figuresFromRow, RANGES, rangeCounts } from './holder-figures';
import { COUNTS_AT, keepIfFar, largestFirst, sinceAt, type HolderCounts } from './holder-moments';
import type { KeysetValues } from './keyset';
import { addressBytes, hexOf, Sql } from './sql';

/**
 * A collection's holders: each owner with how many tokens it holds (ERC1155: tokens, not
 * copies; the records carry no balances), since when (`HOLDING_SINCE`), the distribution
 * and the share of the ten largest; now (from `idx_owners`) or as of any moment (the
 * counts from the nearest kept moment, `holder-moments.ts`; the snapshot file replays
 * every change of hands up to it in SQL, with the same "latest change" rule as the tokens
 * table).
 * A token whose latest known change is a burn is held by nobody; a burn the index never
 * saw (contract lists carry none) leaves the token with its last holder.
 */

export interface HoldersAnswer extends HoldersFigures {
  holders: Holder[];
  next: KeysetValues | null;
}

/** Holders come largest first, then by address (descending): one order, now or as of. */
const before = (a: Omit<Holder, 'since'>, b: Omit<Holder, 'since'>) =>
  b.tokens - a.tokens || (a.owner > b.owner ? -1 : a.owner < b.owner ? 1 : 0);

const distributionOf = (counts: (range: readonly [number, number]) => number) =>
  RANGES.map(([range, low, high]) => ({ range, holders: counts([low, high]) }));

export async function holders(
  pool: pg.Pool,
  contractId: number,
  options: {
    asOf?: number;
    limit: number;
    after: KeysetValues | null;
    owner?: string;
    /** Where a moment worked out may be kept (the primary); none: nothing is written. */
    keepIn?: pg.Pool;
  },
): Promise<HoldersAnswer> {
  return options.asOf === undefined
    ? holdersNow(pool, contractId, options)
    : holdersAsOf(pool, contractId, { ...options, asOf: options.asOf });
}

/**
 * The figures of the holders in `from` (rows of owner, tokens) where `where` holds: their
 * count, the tokens they hold, the ten largest's, and how many fall in each range.
 */
const figuresSql = (from: string, where: string) => `SELECT count(*) AS holders,
  coalesce(sum(tokens), 0) AS held,
  (SELECT coalesce(sum(tokens), 0) FROM (SELECT tokens FROM ${from} WHERE ${where}
    ORDER BY tokens DESC LIMIT 10) top) AS top10, ${rangeCounts('tokens')}
  FROM ${from} WHERE ${where}`;

/** Now: a page of `idx_owners` in its index's order, and its figures from one scan of it. */
async function holdersNow(
  pool: pg.Pool,
  contractId: number,
  options: { limit: number; after: KeysetValues | null; owner?: string },
): Promise<HoldersAnswer> {
  const [page, figures, burned] = await Promise.all([
    ownersPage(pool, contractId, options),
    pool.query<Record<string, string | null>>(figuresSql('idx_owners', 'contract_id = $1'), [
      contractId,
    ]),
    pool.query<{ burned: string }>(
      'SELECT count(*) AS burned FROM idx_tokens WHERE contract_id = $1 AND burned',
      [contractId],
    ),
  ]);
  return { ...page, ...figuresFromRow(figures.rows[0]!, Number(burned.rows[0]!.burned)) };
}

/** A page of the holders now, each with since when: a keyset range of `idx_owners`. */
async function ownersPage(
  pool: pg.Pool,
  contractId: number,
  options: { limit: number; after: KeysetValues | null; owner?: string },
): Promise<{ holders: Holder[]; next: KeysetValues | null }> {
  const sql = new Sql();
  const where = [`contract_id = ${sql.param(contractId)}`];
  if (options.owner !== undefined) where.push(`owner = ${sql.param(addressBytes(options.owner))}`);
  if (options.after) {
    const [count, owner] = options.after;
    where.push(
      `(tokens, owner) < (${sql.param(count)}::integer, ${sql.param(Buffer.from(String(owner), 'hex'))})`,
    );
  }
  const page = await pool.query<{ owner: Buffer; tokens: number }>(
    `SELECT owner, tokens FROM idx_owners WHERE ${where.join(' AND ')}
     ORDER BY tokens DESC, owner DESC LIMIT ${sql.param(options.limit + 1)}`,
    sql.values,
  );
  const shown = page.rows.slice(0, options.limit);
  const since = await sinceOf(
    pool,
    contractId,
    shown.map((row) => row.owner),
  );
  const last = shown.at(-1);
  return {
    holders: shown.map((row) => ({
      owner: hexOf(row.owner),
      tokens: row.tokens,
      since: since.get(row.owner.toString('hex')) ?? 0,
    })),
    next:
      page.rows.length > options.limit && last ? [last.tokens, last.owner.toString('hex')] : null,
  };
}

/**
 * Every holder, in the answer's order, a batch at a time (the snapshot's file): now, a
 * keyset walk of `idx_owners` without the figures; as of a moment, one replay.
 */
export async function* everyHolder(
  pool: pg.Pool,
  contractId: number,
  asOf: number | undefined,
  batch: number,
): AsyncGenerator<Holder[]> {
  if (asOf !== undefined) {
    const { owners } = await replayHolders(pool, contractId, asOf);
    for (let start = 0; start < owners.length; start += batch)
      yield owners.slice(start, start + batch);
    return;
  }
  let after: KeysetValues | null = null;
  do {
    const page = await ownersPage(pool, contractId, { limit: batch, after });
    if (page.holders.length > 0) yield page.holders;
    after = page.next;
  } while (after);
}

/**
 * A holder's "since", over the tokens it holds (each with `since`, the time of its latest
 * change, the one that brought it to its holder): when it got the earliest of them. It
 * has held at least one token without a break from then on, whatever it sold or bought
 * since; the start of that unbroken stretch may be earlier still, which only a replay of
 * its every change would tell. Now and as of a moment, page and snapshot, read it here.
 */
const HOLDING_SINCE = 'min(since)';

/** When each of these owners' holding began (`HOLDING_SINCE`). */
async function sinceOf(pool: pg.Pool, contractId: number, owners: Buffer[]) {
  if (owners.length === 0) return new Map<string, number>();
  const { rows } = await pool.query<{ owner: Buffer; since: string }>(
    `SELECT owner, ${HOLDING_SINCE} AS since FROM idx_tokens
     WHERE contract_id = $1 AND NOT burned AND owner = ANY($2::bytea[]) GROUP BY owner`,
    [contractId, owners],
  );
  return new Map(rows.map((row) => [row.owner.toString('hex'), Number(row.since)]));
}

/**
 * As of a moment: every token's latest change up to it (read from the token index alone,
 * in its order), then each owner's count: every holder in the answer's order, and how
 * many tokens were burned by then.
 */
export async function replayHolders(
  pool: pg.Pool,
  contractId: number,
  asOf: number,
): Promise<{ owners: Holder[]; burned: number }> {
  const { rows } = await pool.query<{ owner: Buffer | null; tokens: string; since: string | null }>(
    `WITH t AS MATERIALIZED (
      SELECT DISTINCT ON (token_id) token_id, to_addr AS owner, ts AS since, kind = 3 AS burned
      FROM idx_changes WHERE contract_id = $1 AND ts <= $2
      ORDER BY token_id, ${LATEST_FIRST})
    SELECT owner, count(*) AS tokens, ${HOLDING_SINCE} AS since FROM t WHERE NOT burned GROUP BY owner
    UNION ALL SELECT NULL, count(*), NULL FROM t WHERE burned`,
    [contractId, asOf],
  );
  const owners = rows
    .filter((row) => row.owner !== null)
    .map((row) => ({
      owner: hexOf(row.owner),
      tokens: Number(row.tokens),
      since: Number(row.since),
    }))
    .sort(before);
  return { owners, burned: Number(rows.find((row) => row.owner === null)?.tokens ?? 0) };
}

/** The figures of every holder at one moment (in the answer's order) and the burns by then. */
export function holdersFigures(
  owners: readonly Omit<Holder, 'since'>[],
  burned: number,
): HoldersFigures {
  const tokensHeld = owners.reduce((sum, holder) => sum + holder.tokens, 0);
  const top10 = owners.slice(0, 10).reduce((sum, holder) => sum + holder.tokens, 0);
  return {
    totalHolders: owners.length,
    tokensHeld,
    knownBurned: burned,
    distribution: distributionOf(
      ([low, high]) =>
        owners.filter((holder) => holder.tokens >= low && holder.tokens <= high).length,
    ),
    top10Share: tokensHeld > 0 ? top10 / tokensHeld : 0,
  };
}

/** Owners and their counts, in the answer's order. */
export const countsInOrder = (counts: HolderCounts): Omit<Holder, 'since'>[] =>
  counts.owners.map((row) => ({ owner: hexOf(row.owner), tokens: row.tokens })).sort(before);

/**
 * As of a moment: the counts then (`holder-moments.ts`, a moment kept first when far from
 * the nearest), the page asked for and the figures worked out in the database, which
 * sends the page alone; then since when each holder on the page holds.
 */
async function holdersAsOf(
  pool: pg.Pool,
  contractId: number,
  options: {
    asOf: number;
    limit: number;
    after: KeysetValues | null;
    owner?: string;
    keepIn?: pg.Pool;
  },
): Promise<HoldersAnswer> {
  if (options.keepIn) await keepIfFar(pool, contractId, options.asOf, options.keepIn);
  const sql = new Sql();
  // $1 and $2, as COUNTS_AT reads them.
  sql.param(contractId);
  sql.param(options.asOf);
  const where: string[] = [];
  if (options.owner !== undefined) where.push(`owner = ${sql.param(addressBytes(options.owner))}`);
  if (options.after) {
    const [count, owner] = options.after;
    where.push(
      `(tokens, owner) < (${sql.param(count)}::integer, ${sql.param(Buffer.from(String(owner), 'hex'))})`,
    );
  }
  const { rows } = await pool.query<Record<string, unknown>>(
    `WITH ${COUNTS_AT},
     page AS (${largestFirst(where.length > 0 ? where.join(' AND ') : 'true', sql.param(options.limit + 1))})
     SELECT (SELECT coalesce(json_agg(json_build_array(encode(owner, 'hex'), tokens)
         ORDER BY tokens DESC, owner DESC), '[]') FROM page) AS page,
       (SELECT n FROM burned) AS burned,
       (SELECT coalesce(sum(tokens), 0) FROM (${largestFirst('true', '10')}) top) AS top10, f.*
     FROM figures f`,
    sql.values,
  );
  const row = rows[0]!;
  const page = (row.page as [string, number][]).map(([owner, tokens]) => ({
    owner: `0x${owner}`,
    tokens,
  }));
  const shown = page.slice(0, options.limit);
  const since = await sinceAt(
    pool,
    contractId,
    options.asOf,
    shown.map((holder) => addressBytes(holder.owner)),
  );
  const last = shown.at(-1);
  return {
    holders: shown.map((holder) => ({ ...holder, since: since.get(holder.owner.slice(2)) ?? 0 })),
    next: page.length > options.limit && last ? [last.tokens, last.owner.slice(2)] : null,
    ...figuresFromRow(row, Number(row.burned)),
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
