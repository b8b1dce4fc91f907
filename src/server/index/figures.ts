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
  const [byKind, tokens, span, assumed] = await Promise.all([
    pool.query<{
      kind: number;
      marketplace: string;
      currency: Buffer;
      events: string;
      volume: string;
      wash_events: string;
      wash_volume: string;
    }>(
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
  const counts = emptyCounts();
  const volume = new Map<string, { currency: Buffer; sales: bigint; volume: bigint }>();
  const washed: typeof volume = new Map();
  const markets = new Map<string, { sales: number; volume: typeof volume }>();
  for (const row of byKind.rows) {
    const kind = kindOf(row.kind);
    const flagged = { events: BigInt(row.wash_events), volume: BigInt(row.wash_volume) };
    const events = BigInt(row.events) - (excludeWash ? flagged.events : 0n);
    counts[kind] += Number(events);
    if (kind !== 'sale') continue;
    const add = (into: typeof volume, sales: bigint, amount: bigint) => {
      if (sales === 0n) return;
      const key = row.currency.toString('hex');
      const entry = into.get(key) ?? { currency: row.currency, sales: 0n, volume: 0n };
      entry.sales += sales;
      entry.volume += amount;
      into.set(key, entry);
    };
    add(washed, flagged.events, flagged.volume);
    if (events === 0n) continue;
    const amount = BigInt(row.volume) - (excludeWash ? flagged.volume : 0n);
    add(volume, events, amount);
    const market = markets.get(row.marketplace) ?? { sales: 0, volume: new Map() };
    market.sales += Number(events);
    add(market.volume, events, amount);
    markets.set(row.marketplace, market);
  }
  const asVolumes = (map: typeof volume) =>
    volumesOf(
      [...map.values()].map((entry) => ({
        currency: entry.currency,
        sales: entry.sales.toString(),
        volume: entry.volume.toString(),
      })),
    );
  const events = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const t = tokens.rows[0]!;
  return {
    events,
    counts,
    sales: counts.sale,
    mints: counts.mint,
    knownBurns: Number(t.burned),
    tokens: Number(t.tokens),
    holders: Number(t.holders),
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
    assumedSales: Number(assumed.rows[0]!.sales),
    firstActivity: span.rows[0]?.first ? Number(span.rows[0].first) : null,
    lastActivity: span.rows[0]?.last ? Number(span.rows[0].last) : null,
  };
}
