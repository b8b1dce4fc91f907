import type pg from 'pg';
import { CURRENCIES } from '../../lib/price';
import { EVENT_KINDS, type EventKind } from '../../lib/token-event';
import type { CurrencyRef, Overview, Volume } from '../../lib/answers';
import { hexOf } from './sql';

export function currencyRef(bytes: Buffer | null): CurrencyRef {
  const address = bytes && bytes.length > 0 ? hexOf(bytes) : null;
  if (address === null) return { address, state: 'assumed', symbol: 'ETH', decimals: 18 };
  const known = CURRENCIES.find((currency) => currency.address === address);
  return known
    ? { address, state: 'known', symbol: known.symbol, decimals: known.decimals }
    : { address, state: 'unknown' };
}

export const emptyCounts = (): Record<EventKind, number> =>
  Object.fromEntries(EVENT_KINDS.map((kind) => [kind, 0])) as Record<EventKind, number>;

export const kindOf = (code: number): EventKind => EVENT_KINDS[code] ?? 'other';

/** Volumes from rows of (currency, sales, volume), largest first within known currencies. */
export function volumesOf(rows: { currency: Buffer; sales: string; volume: string }[]): Volume[] {
  return rows
    .map((row) => ({
      currency: currencyRef(row.currency),
      sales: Number(row.sales),
      volume: row.volume,
    }))
    .sort((a, b) => b.sales - a.sales);
}

/** Whole-history figures of one contract, from the hourly rollup and the tokens. */
export async function overview(pool: pg.Pool, contractId: number): Promise<Overview> {
  const [byKind, tokens, span] = await Promise.all([
    pool.query<{
      kind: number;
      marketplace: string;
      currency: Buffer;
      events: string;
      volume: string;
    }>(
      `SELECT kind, marketplace, currency, sum(events)::bigint AS events, sum(volume)::text AS volume
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
  ]);
  const counts = emptyCounts();
  const volume = new Map<string, { currency: Buffer; sales: bigint; volume: bigint }>();
  const markets = new Map<string, { sales: number; volume: typeof volume }>();
  for (const row of byKind.rows) {
    const kind = kindOf(row.kind);
    counts[kind] += Number(row.events);
    if (kind !== 'sale') continue;
    const add = (into: typeof volume) => {
      const key = row.currency.toString('hex');
      const entry = into.get(key) ?? { currency: row.currency, sales: 0n, volume: 0n };
      entry.sales += BigInt(row.events);
      entry.volume += BigInt(row.volume);
      into.set(key, entry);
    };
    add(volume);
    const market = markets.get(row.marketplace) ?? { sales: 0, volume: new Map() };
    market.sales += Number(row.events);
    add(market.volume);
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
      .sort((a, b) => b.sales - a.sales),
    firstActivity: span.rows[0]?.first ? Number(span.rows[0].first) : null,
    lastActivity: span.rows[0]?.last ? Number(span.rows[0].last) : null,
  };
}
