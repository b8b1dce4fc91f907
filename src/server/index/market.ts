import type pg from 'pg';
import type {
  FirstSaleFigures,
  MarketFigures,
  MarketVolume,
  MintersFigures,
} from '../../lib/answers';
import { tokenIdToHex } from '../../lib/token-id';
import { currencyRef } from './figures';
import { hourlyTotal } from './hourly';
import { KIND_CODES } from './index-schema';
import { hexOf, Sql } from './sql';
import { DAY, HOUR } from '../../lib/utc';

/**
 * The market of one collection over its whole history or a span (`from` inclusive, `to`
 * exclusive, unix seconds):
 *
 * - the ten highest sales of each currency (a sale naming none is ETH's, marked assumed;
 *   prices of different currencies are never compared);
 * - each marketplace's sales and share of them, its volume per currency and share of that
 *   currency's volume (never summed across currencies);
 * - the minters: of the wallets that received a token's first mint in the span, those
 *   holding at least one token of the collection now; of the tokens first minted in the
 *   span, those held now by the wallet their first mint went to (whether or not it left and
 *   came back);
 * - for the tokens first minted in the span, the time from that mint to their first sale
 *   at or after it, whenever that sale came: quartiles, a spread in buckets, and how many
 *   never sold. A token's first mint and first sale are kept at ingest (mint-facts.ts).
 *
 * With `excludeWash`, the sales flagged as wash trades are left out of every figure: top
 * sales, shares and the first sale (the first unflagged one).
 *
 * Who sold and who bought is who held the token before and after (the transfer's
 * addresses; a sale record may name them reversed), as the wash-trade flags read them.
 */

export interface MarketSpan {
  from?: number;
  to?: number;
  excludeWash?: boolean;
}

/** How many sales of each currency the answer lists. */
export const TOP_SALES = 10;

/** The spread of the time from mint to first sale: [label, from, to) in seconds. */
export const FIRST_SALE_BUCKETS: readonly (readonly [string, number, number | null])[] = [
  ['< 1 day', 0, DAY],
  ['1–7 days', DAY, 7 * DAY],
  ['7–30 days', 7 * DAY, 30 * DAY],
  ['30–180 days', 30 * DAY, 180 * DAY],
  ['> 180 days', 180 * DAY, null],
];

/**
 * The one definition of the sales the market counts, on the rows of `alias`: the top
 * sales and the shares read their sales through it, so a rule that leaves some sales out
 * is added here (and, as a first sale after a mint is kept per token at ingest, with and
 * without flagged sales, as a column of mint-facts.ts). `rollup` says whether the hourly
 * totals can answer instead of the rows (they cannot when a rule looks at single rows
 * the hours do not keep apart, or the span cuts an hour).
 */
export function saleRows(sql: Sql, alias: string, span: MarketSpan) {
  const where = [`${alias}.kind = ${KIND_CODES.sale}`, ...spanOf(sql, alias, span)];
  if (span.excludeWash) where.push(`${alias}.wash = 0`);
  // The hours keep their flagged part apart, so leaving it out is a subtraction.
  const rollup = (span.from ?? 0) % HOUR === 0 && (span.to ?? 0) % HOUR === 0;
  return { where, rollup };
}

function spanOf(sql: Sql, alias: string, span: MarketSpan): string[] {
  const where: string[] = [];
  if (span.from !== undefined) where.push(`${alias}.ts >= ${sql.param(span.from)}`);
  if (span.to !== undefined) where.push(`${alias}.ts < ${sql.param(span.to)}`);
  return where;
}

export async function market(
  pool: pg.Pool,
  contractId: number,
  span: MarketSpan,
): Promise<MarketFigures> {
  const [topSales, shares, mints] = await Promise.all([
    topSalesOf(pool, contractId, span),
    marketplaceShares(pool, contractId, span),
    mintFigures(pool, contractId, span),
  ]);
  return { topSales, ...shares, ...mints };
}

interface SaleRecord {
  id: string;
  token_id: string;
  price: string;
  currency: Buffer;
  from_addr: Buffer;
  to_addr: Buffer;
  ts: string;
  marketplace: string | null;
  tx: Buffer;
}

/**
 * Each currency's highest sales: the currencies sold in are found by skipping through the
 * price index (one look-up per currency), then each one's prices are read down that index.
 */
async function topSalesOf(pool: pg.Pool, contractId: number, span: MarketSpan) {
  const sql = new Sql();
  const contract = sql.param(contractId);
  const sales = saleRows(sql, 's', span);
  const { rows } = await pool.query<SaleRecord & { cur_rank: number; currency_assumed: boolean }>(
    `WITH RECURSIVE cur AS (
      (SELECT cur_rank, currency FROM idx_changes
        WHERE contract_id = ${contract} AND has_sale ORDER BY cur_rank, currency LIMIT 1)
      UNION ALL
      SELECT n.cur_rank, n.currency FROM cur CROSS JOIN LATERAL (
        SELECT cur_rank, currency FROM idx_changes
        WHERE contract_id = ${contract} AND has_sale
          AND (cur_rank, currency) > (cur.cur_rank, cur.currency)
        ORDER BY cur_rank, currency LIMIT 1) n
    )
    SELECT cur.cur_rank, s.id::text AS id, s.token_id::text AS token_id, s.price::text AS price,
      s.currency, s.currency_assumed, s.from_addr, s.to_addr, s.ts, s.marketplace, s.tx
    FROM cur CROSS JOIN LATERAL (
      SELECT * FROM idx_changes s
      WHERE s.contract_id = ${contract} AND s.has_sale AND s.cur_rank = cur.cur_rank
        AND s.currency = cur.currency AND s.price IS NOT NULL AND ${sales.where.join(' AND ')}
      ORDER BY s.price DESC, s.id DESC LIMIT ${TOP_SALES}) s
    ORDER BY cur.cur_rank, cur.currency, s.price DESC, s.id DESC`,
    sql.values,
  );
  const groups = new Map<string, MarketFigures['topSales'][number]>();
  for (const row of rows) {
    const key = row.currency.toString('hex');
    let group = groups.get(key);
    if (!group) {
      group = { currency: currencyRef(row.currency), sales: [] };
      groups.set(key, group);
    }
    group.sales.push({
      id: row.id,
      tokenId: row.token_id,
      tokenIdHex: tokenIdToHex(BigInt(row.token_id)),
      price: row.price,
      seller: hexOf(row.from_addr),
      buyer: hexOf(row.to_addr),
      timestamp: Number(row.ts),
      marketplace: row.marketplace,
      transactionHash: hexOf(row.tx),
      ...(row.currency_assumed && { currencyAssumed: true as const }),
    });
  }
  return [...groups.values()];
}

/**
 * Sales and volume per marketplace and currency: from the hourly totals when they can say
 * it (less their flagged part when flagged sales are left out).
 */
async function marketplaceShares(pool: pg.Pool, contractId: number, span: MarketSpan) {
  const rowsSql = new Sql();
  const sales = saleRows(rowsSql, 'c', span);
  const sql = sales.rollup ? new Sql() : rowsSql;
  const contract = sql.param(contractId);
  const less = (column: 'events' | 'volume') =>
    hourlyTotal(column, span.excludeWash ? 'exclude' : 'include');
  const text = sales.rollup
    ? `SELECT marketplace, currency, sum(${less('events')})::bigint AS sales,
         sum(${less('volume')})::text AS volume
       FROM idx_hourly WHERE contract_id = ${contract} AND kind = ${KIND_CODES.sale}
       ${span.from !== undefined ? `AND hour >= ${sql.param(span.from / HOUR)}` : ''}
       ${span.to !== undefined ? `AND hour < ${sql.param(span.to / HOUR)}` : ''}
       GROUP BY 1, 2 HAVING sum(${less('events')}) > 0`
    : `SELECT coalesce(marketplace, '') AS marketplace, currency, count(*)::bigint AS sales,
         coalesce(sum(price), 0)::text AS volume
       FROM idx_changes c WHERE c.contract_id = ${contract} AND ${sales.where.join(' AND ')}
       GROUP BY 1, 2`;
  const { rows } = await pool.query<{
    marketplace: string;
    currency: Buffer;
    sales: string;
    volume: string;
  }>(text, sql.values);
  return sharesOf(rows);
}

/** Shares of the totals, per marketplace and per currency. */
export function sharesOf(
  rows: readonly { marketplace: string; currency: Buffer; sales: string; volume: string }[],
): Pick<MarketFigures, 'sales' | 'volume' | 'marketplaces'> {
  const totals = new Map<string, { currency: Buffer; sales: number; volume: bigint }>();
  const markets = new Map<string, typeof rows>();
  let sales = 0;
  for (const row of rows) {
    const key = row.currency.toString('hex');
    const total = totals.get(key) ?? { currency: row.currency, sales: 0, volume: 0n };
    total.sales += Number(row.sales);
    total.volume += BigInt(row.volume);
    totals.set(key, total);
    sales += Number(row.sales);
    markets.set(row.marketplace, [...(markets.get(row.marketplace) ?? []), row]);
  }
  const byCurrency = (a: MarketVolume, b: MarketVolume) => b.sales - a.sales;
  return {
    sales,
    volume: [...totals.values()]
      .map((total) => ({
        currency: currencyRef(total.currency),
        sales: total.sales,
        volume: total.volume.toString(),
        share: 1,
      }))
      .sort(byCurrency),
    marketplaces: [...markets.entries()]
      .map(([name, list]) => {
        const count = list.reduce((sum, row) => sum + Number(row.sales), 0);
        return {
          name: name || null,
          sales: count,
          share: sales > 0 ? count / sales : 0,
          volume: list
            .map((row) => {
              const total = totals.get(row.currency.toString('hex'))!.volume;
              return {
                currency: currencyRef(row.currency),
                sales: Number(row.sales),
                volume: row.volume,
                share: ratio(BigInt(row.volume), total),
              };
            })
            .sort(byCurrency),
        };
      })
      .sort((a, b) => b.sales - a.sales || (a.name ?? '').localeCompare(b.name ?? '')),
  };
}

/** a / b of exact amounts, as a share (0 when b is 0). */
export function ratio(a: bigint, b: bigint): number {
  if (b === 0n) return 0;
  return Number((a * 1_000_000_000n) / b) / 1_000_000_000;
}

/**
 * The tokens first minted in the span, one range of the tokens' mint index (their first
 * mint and first sale are kept at ingest: mint-facts.ts); then, in one statement:
 * - the minters: each wallet a first mint went to, and whether it is among the holders now;
 * - each token held now by the wallet its first mint went to;
 * - each token's first sale at or after that mint (unflagged, when flagged sales are left
 *   out), whenever it came.
 */
async function mintFigures(
  pool: pg.Pool,
  contractId: number,
  span: MarketSpan,
): Promise<{ minters: MintersFigures; firstSale: FirstSaleFigures }> {
  const sql = new Sql();
  const contract = sql.param(contractId);
  const mints = [`t.contract_id = ${contract}`, 't.minted_at IS NOT NULL'];
  if (span.from !== undefined) mints.push(`t.minted_at >= ${sql.param(span.from)}`);
  if (span.to !== undefined) mints.push(`t.minted_at < ${sql.param(span.to)}`);
  const sale = span.excludeWash ? 't.first_clean_sale_at' : 't.first_sale_at';
  const { rows } = await pool.query<Record<string, string | null>>(
    `WITH m AS MATERIALIZED (
      SELECT t.minter, t.owner = t.minter AND NOT t.burned AS kept,
        ${sale} - t.minted_at AS wait
      FROM idx_tokens t WHERE ${mints.join(' AND ')}
    ), w AS (SELECT DISTINCT minter FROM m)
    SELECT (SELECT count(*) FROM w) AS minters,
      (SELECT count(*) FROM w JOIN idx_owners o
        ON o.contract_id = ${contract} AND o.owner = w.minter AND o.tokens > 0) AS holding,
      count(*) AS minted,
      count(*) FILTER (WHERE kept) AS kept,
      count(*) FILTER (WHERE wait IS NOT NULL) AS sold,
      count(*) FILTER (WHERE wait IS NULL) AS never,
      percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY wait)::text AS quartiles,
      ${FIRST_SALE_BUCKETS.map(
        ([, low, high], index) =>
          `count(*) FILTER (WHERE wait >= ${low}${high === null ? '' : ` AND wait < ${high}`}) AS b${index}`,
      ).join(', ')}
    FROM m`,
    sql.values,
  );
  const r = rows[0]!;
  const [minters, holding, minted, kept, sold] = [
    r.minters,
    r.holding,
    r.minted,
    r.kept,
    r.sold,
  ].map(Number) as [number, number, number, number, number];
  const quartiles =
    sold > 0 && r.quartiles ? (r.quartiles.slice(1, -1).split(',').map(Number) as number[]) : null;
  return {
    minters: {
      minters,
      holding,
      holdingShare: minters > 0 ? holding / minters : 0,
      minted,
      keptByMinter: kept,
      keptShare: minted > 0 ? kept / minted : 0,
    },
    firstSale: {
      sold,
      neverSold: Number(r.never),
      quartiles: quartiles ? [quartiles[0]!, quartiles[1]!, quartiles[2]!] : null,
      buckets: FIRST_SALE_BUCKETS.map(([range, from, to], index) => ({
        range,
        from,
        to,
        tokens: Number(r[`b${index}`]),
      })),
    },
  };
}

/** The market of a collection nothing of which is indexed yet: the same shape, all zero. */
export const noMarket = (): MarketFigures => ({
  topSales: [],
  ...sharesOf([]),
  minters: { minters: 0, holding: 0, holdingShare: 0, minted: 0, keptByMinter: 0, keptShare: 0 },
  firstSale: {
    sold: 0,
    neverSold: 0,
    quartiles: null,
    buckets: FIRST_SALE_BUCKETS.map(([range, from, to]) => ({ range, from, to, tokens: 0 })),
  },
});

/** What the market's figures count, in words (the answer's `counted`). */
export const marketCounted = (excludeWash: boolean) =>
  'Sales in the span; a sale naming no currency counts as ETH (ETH*) and prices in different currencies are never compared or added. ' +
  (excludeWash
    ? 'Sales flagged as possible wash trades are left out, of the first sales too. '
    : 'Sales flagged as possible wash trades are counted. ') +
  'Minters: the wallets a token’s first mint went to, for the tokens first minted in the span; still holding: those holding at least one token of the collection now. ' +
  'Tokens kept: tokens first minted in the span held now by the wallet their first mint went to. ' +
  'Time to first sale: from a token’s first mint to its first sale at or after it, whenever that came. ' +
  'Tokens held, not copies: the records carry no ERC1155 balances.';
