import type pg from 'pg';
import type { AlsoHeld, OverlapHolder } from '../../lib/answers';
import type { KeysetValues } from './keyset';
import { hexOf, Sql } from './sql';

/**
 * What a collection's holders hold beside it, now (`idx_owners`): the other collections
 * its holders hold most (how many of them, their share), and the wallets that hold both
 * of two collections. Tokens held, not copies, as every holders figure.
 */

/** Every other collection at least one of the holders holds, most holders in common first. */
export async function alsoHold(
  pool: pg.Pool,
  contractId: number,
  limit: number,
): Promise<{ holders: number; collections: AlsoHeld[] }> {
  const [total, held] = await Promise.all([
    pool.query<{ holders: string }>(
      'SELECT count(*) AS holders FROM idx_owners WHERE contract_id = $1',
      [contractId],
    ),
    pool.query<{
      address: string;
      name: string | null;
      symbol: string | null;
      in_common: string;
      tokens: string;
      holders: string;
    }>(
      `WITH common AS (
         SELECT o.contract_id, count(*) AS in_common, sum(o.tokens) AS tokens
         FROM idx_owners h JOIN idx_owners o ON o.owner = h.owner AND o.contract_id <> h.contract_id
         WHERE h.contract_id = $1 GROUP BY o.contract_id
         ORDER BY in_common DESC, o.contract_id LIMIT $2)
       SELECT c.address, c.name, c.symbol, common.in_common, common.tokens,
         (SELECT count(*) FROM idx_owners a WHERE a.contract_id = common.contract_id) AS holders
       FROM common JOIN idx_contracts c ON c.id = common.contract_id
       ORDER BY common.in_common DESC, c.address`,
      [contractId, limit],
    ),
  ]);
  const holders = Number(total.rows[0]!.holders);
  return {
    holders,
    collections: held.rows.map((row) => {
      const inCommon = Number(row.in_common);
      const theirs = Number(row.holders);
      return {
        address: row.address,
        name: row.name,
        symbol: row.symbol,
        inCommon,
        share: holders > 0 ? inCommon / holders : 0,
        holders: theirs,
        theirShare: theirs > 0 ? inCommon / theirs : 0,
        tokens: Number(row.tokens),
      };
    }),
  };
}

export interface OverlapFigures {
  holders: number;
  otherHolders: number;
  inCommon: number;
  share: number;
  otherShare: number;
}

/** How many hold each of two collections, and both. */
export async function overlapFigures(
  pool: pg.Pool,
  contractId: number,
  otherId: number,
): Promise<OverlapFigures> {
  const { rows } = await pool.query<{ holders: string; other: string; both: string }>(
    `SELECT (SELECT count(*) FROM idx_owners WHERE contract_id = $1) AS holders,
       (SELECT count(*) FROM idx_owners WHERE contract_id = $2) AS other,
       (SELECT count(*) FROM idx_owners a JOIN idx_owners b ON b.contract_id = $2 AND b.owner = a.owner
        WHERE a.contract_id = $1) AS both`,
    [contractId, otherId],
  );
  const holders = Number(rows[0]!.holders);
  const otherHolders = Number(rows[0]!.other);
  const inCommon = Number(rows[0]!.both);
  return {
    holders,
    otherHolders,
    inCommon,
    share: holders > 0 ? inCommon / holders : 0,
    otherShare: otherHolders > 0 ? inCommon / otherHolders : 0,
  };
}

/**
 * A page of the wallets that hold both: most tokens of the first collection first, then
 * of the other, then by address (descending), a keyset range of the two owners' rows.
 */
export async function overlapPage(
  pool: pg.Pool,
  contractId: number,
  otherId: number,
  options: { limit: number; after: KeysetValues | null },
): Promise<{ rows: OverlapHolder[]; next: KeysetValues | null }> {
  const sql = new Sql();
  const where = [`a.contract_id = ${sql.param(contractId)}`];
  if (options.after) {
    const [tokens, otherTokens, owner] = options.after;
    where.push(
      `(a.tokens, b.tokens, a.owner) < (${sql.param(tokens)}::integer, ${sql.param(otherTokens)}::integer, ${sql.param(Buffer.from(String(owner), 'hex'))})`,
    );
  }
  const { rows } = await pool.query<{ owner: Buffer; tokens: number; other: number }>(
    `SELECT a.owner, a.tokens, b.tokens AS other
     FROM idx_owners a JOIN idx_owners b ON b.contract_id = ${sql.param(otherId)} AND b.owner = a.owner
     WHERE ${where.join(' AND ')}
     ORDER BY a.tokens DESC, b.tokens DESC, a.owner DESC LIMIT ${sql.param(options.limit + 1)}`,
    sql.values,
  );
  const shown = rows.slice(0, options.limit);
  const last = shown.at(-1);
  return {
    rows: shown.map((row) => ({
      owner: hexOf(row.owner),
      tokens: row.tokens,
      otherTokens: row.other,
    })),
    next:
      rows.length > options.limit && last
        ? [last.tokens, last.other, last.owner.toString('hex')]
        : null,
  };
}

/** Every wallet that holds both, in the page's order, a batch at a time (the file). */
export async function* everyOverlapHolder(
  pool: pg.Pool,
  contractId: number,
  otherId: number,
  batch: number,
): AsyncGenerator<OverlapHolder[]> {
  let after: KeysetValues | null = null;
  do {
    const page = await overlapPage(pool, contractId, otherId, { limit: batch, after });
    if (page.rows.length > 0) yield page.rows;
    after = page.next;
  } while (after);
}
