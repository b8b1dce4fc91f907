import type pg from 'pg';
import { CURRENCIES, saleCurrency } from '../../lib/price';
import { EVENT_KINDS, type EventKind } from '../../lib/token-event';
import type { CurrencyRef, Overview, Volume } from '../../lib/answers';
import { hexOf } from './sql';

/** A sale's stored currency as answers name it (the index stores ETH for none named). */
export function currencyRef(bytes: Buffer | null): CurrencyRef {
  const { address } = saleCurrency(bytes && bytes.length > 0 ? hexOf(bytes) : undefined);
  const known = CURRENCIES.find((currency) => currency.address === address);
  return known
    ? { address, state: 'known', symbol: known.symbol, decimals: known.decimals }
    : { address, state: 'unknown' };
}

export const emptyCounts = (): Record<EventKind, number> =>
  Object.fromEntries(EVENT_KINDS.map((kind) => [kind, 0])) as Record<EventKind, number>;

export const kindOf = (code: number): EventKind => EVENT_KINDS[code] ?? 'other';

/**
 * Volumes from rows of (currency, sales, volume), most sales first; ties by currency address,
 * so one history always gets one answer whatever order the database grouped its rows in.
 */
export function volumesOf(rows: { currency: Buffer; sales: string; volume: string }[]): Volume[] {
  return rows
    .map((row) => ({
      currency: currencyRef(row.currency),
      sales: Number(row.sales),
      volume: row.volume,
    }))
    .sort((a, b) => b.sales - a.sales || a.currency.address.localeCompare(b.currency.address));
}

/**
 * Whole-history figures of one contract, from the hourly rollup and the tokens; with
 * `excludeWash`, the sales flagged as wash trades left out of the counts and volumes (the
 * hourly totals less their flagged part). The flagged sales are counted either way.
 */
export async function overview(
  pool: pg.Pool,
  contractId: number,
  { excludeWash = false }: { excludeWash?: boolean } = {},
): Promise<Overview> {
  const { byKind, tokens, span, assumed } = await overviewRows(pool, contractId, excludeWash);
  const { counts, volume, washed, markets } = sumHourly(byKind, excludeWash);
  const events = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    events,
    counts,
    sales: counts.sale,
    mints: counts.mint,
    knownBurns: Number(tokens.burned),
    tokens: Number(tokens.tokens),
    holders: Number(tokens.holders),
    volume: asVolumes(volume),
    marketplaces: [...markets.entries()]
      .map(([name, market]) => ({
        name: name || null,
        sales: market.sales,
        share: counts.sale > 0 ? market.sales / counts.sale : 0,
        volume: asVolumes(market.volume),
      }))
      .sort((a, b) => b.sales - a.sales || (a.name ?? '').localeCompare(b.name ?? '')),
    washSales: [...washed.values()].reduce((sum, entry) => sum + Number(entry.sales), 0),
    washVolume: asVolumes(washed),
    washExcluded: excludeWash,
    assumedSales: Number(assumed.sales),
    firstActivity: span?.first ? Number(span.first) : null,
    lastActivity: span?.last ? Number(span.last) : null,
  };
}

interface HourlyRow {
  kind: number;
  marketplace: string;
  currency: Buffer;
  events: string;
  volume: string;
  wash_events: string;
  wash_volume: string;
}

/** What the overview reads: the hourly rollup by kind, the tokens, the span, assumed sales. */
async function overviewRows(pool: pg.Pool, contractId: number, excludeWash: boolean) {
  const [byKind, tokens, span, assumed] = await Promise.all([
    pool.query<HourlyRow>(
      `SELECT kind, marketplace, currency, sum(events)::bigint AS events, sum(volume)::text AS volume,
         sum(wash_events)::bigint AS wash_events, sum(wash_volume)::text AS wash_volume
       FROM idx_hourly WHERE contract_id = $1 GROUP BY kind, marketplace, currency`,
      [contractId],
    ),
    // Three counts, each read from an index of its own.
    pool.query<{ tokens: string; holders: string; burned: string }>(
      `SELECT (SELECT count(*) FROM idx_tokens WHERE contract_id = $1) AS tokens,
         (SELECT count(*) FROM idx_owners WHERE contract_id = $1) AS holders,
         (SELECT count(*) FROM idx_tokens WHERE contract_id = $1 AND burned) AS burned`,
      [contractId],
    ),
    pool.query<{ first: string | null; last: string | null }>(
      'SELECT oldest_ts AS first, newest_ts AS last FROM idx_contracts WHERE id = $1',
      [contractId],
    ),
    // Read from the index of such sales alone (idx_changes_assumed).
    pool.query<{ sales: string }>(
      `SELECT count(*) AS sales FROM idx_changes
       WHERE contract_id = $1 AND currency_assumed${excludeWash ? ' AND wash = 0' : ''}`,
      [contractId],
    ),
  ]);
  return {
    byKind: byKind.rows,
    tokens: tokens.rows[0]!,
    span: span.rows[0],
    assumed: assumed.rows[0]!,
  };
}

type Sums = Map<string, { currency: Buffer; sales: bigint; volume: bigint }>;

/** Adds a currency's sales and amount to `into` (nothing for no sales). */
function addSales(into: Sums, currency: Buffer, sales: bigint, amount: bigint) {
  if (sales === 0n) return;
  const key = currency.toString('hex');
  const entry = into.get(key) ?? { currency, sales: 0n, volume: 0n };
  entry.sales += sales;
  entry.volume += amount;
  into.set(key, entry);
}

/**
 * The hourly rollup summed: counts by kind, volume per currency, the flagged sales' volume
 * and each marketplace's; flagged sales taken out of all but their own with `excludeWash`.
 */
function sumHourly(rows: readonly HourlyRow[], excludeWash: boolean) {
  const counts = emptyCounts();
  const volume: Sums = new Map();
  const washed: Sums = new Map();
  const markets = new Map<string, { sales: number; volume: Sums }>();
  for (const row of rows) {
    const kind = kindOf(row.kind);
    const flagged = { events: BigInt(row.wash_events), volume: BigInt(row.wash_volume) };
    const events = BigInt(row.events) - (excludeWash ? flagged.events : 0n);
    counts[kind] += Number(events);
    if (kind !== 'sale') continue;
    addSales(washed, row.currency, flagged.events, flagged.volume);
    if (events === 0n) continue;
    const amount = BigInt(row.volume) - (excludeWash ? flagged.volume : 0n);
    addSales(volume, row.currency, events, amount);
    const market = markets.get(row.marketplace) ?? { sales: 0, volume: new Map() };
    market.sales += Number(events);
    addSales(market.volume, row.currency, events, amount);
    markets.set(row.marketplace, market);
  }
  return { counts, volume, washed, markets };
}

const asVolumes = (sums: Sums) =>
  volumesOf(
    [...sums.values()].map((entry) => ({
      currency: entry.currency,
      sales: entry.sales.toString(),
      volume: entry.volume.toString(),
    })),
  );
