import type pg from 'pg';
import { type RankedContract, type RankingSortId, type RankingWindow } from '../../lib/answers';
import { addressMatcher } from '../../lib/address-match';
import { notIndexed, volumeIn, windowHolding, windowStartHour } from '../../lib/ranking-view';
import { volumesOf } from './figures';
import { hourlyTotal } from './hourly';

/**
 * Every indexed contract with its activity over a window (events, sales, volume per
 * currency, flagged sales), its holders and last activity, from the hourly rollup and the
 * tokens; with `excludeWash`, the flagged sales left out of the events, sales and volume.
 */

export async function rankings(
  pool: pg.Pool,
  window: RankingWindow,
  nowSeconds: number,
  { excludeWash = false }: { excludeWash?: boolean } = {},
): Promise<RankedContract[]> {
  const since = windowStartHour(window, nowSeconds);
  const wash = excludeWash ? 'exclude' : 'include';
  const [contracts, activity, holders] = await Promise.all([
    pool.query<{
      id: number;
      address: string;
      name: string | null;
      symbol: string | null;
      image: string | null;
      contract_type: string | null;
      newest_ts: string | null;
      oldest_ts: string | null;
      complete: boolean;
    }>(
      `SELECT id, address, name, symbol, image, contract_type, newest_ts, oldest_ts, complete
       FROM idx_contracts WHERE listed OR newest_ts IS NOT NULL`,
    ),
    pool.query<ActivityRow>(
      `SELECT contract_id, kind, currency, sum(${hourlyTotal('events', wash)})::bigint AS events,
         sum(${hourlyTotal('volume', wash)})::text AS volume, sum(wash_events)::bigint AS wash_events
       FROM idx_hourly WHERE hour >= $1 GROUP BY contract_id, kind, currency`,
      [since],
    ),
    pool.query<{ contract_id: number; holders: string }>(
      'SELECT contract_id, count(*) AS holders FROM idx_owners GROUP BY contract_id',
    ),
  ]);
  const byContract = activityByContract(activity.rows);
  const holdersOf = new Map(holders.rows.map((row) => [row.contract_id, Number(row.holders)]));
  return contracts.rows.map((row) => {
    const entry = byContract.get(row.id);
    return {
      address: row.address,
      name: row.name,
      symbol: row.symbol,
      image: row.image,
      type: row.contract_type,
      events: entry?.events ?? 0,
      sales: entry?.sales ?? 0,
      volume: volumesOf(
        (entry?.volume ?? []).map((v) => ({
          currency: v.currency,
          sales: v.events,
          volume: v.volume,
        })),
      ),
      holders: holdersOf.get(row.id) ?? 0,
      lastActivity: row.newest_ts === null ? null : Number(row.newest_ts),
      complete: row.complete,
      indexedBack: row.oldest_ts === null ? null : Number(row.oldest_ts),
      washSales: entry?.washSales ?? 0,
    };
  });
}

interface ActivityRow {
  contract_id: number;
  kind: number;
  currency: Buffer;
  events: string;
  volume: string;
  wash_events: string;
}

/** Each contract's events, sales, flagged sales and sales' rows per currency in the window. */
function activityByContract(rows: readonly ActivityRow[]) {
  const byContract = new Map<
    number,
    { events: number; sales: number; washSales: number; volume: ActivityRow[] }
  >();
  for (const row of rows) {
    const entry = byContract.get(row.contract_id) ?? {
      events: 0,
      sales: 0,
      washSales: 0,
      volume: [],
    };
    entry.events += Number(row.events);
    if (row.kind === 2) {
      entry.sales += Number(row.events);
      entry.washSales += Number(row.wash_events);
      if (row.events !== '0') entry.volume.push(row);
    }
    byContract.set(row.contract_id, entry);
  }
  return byContract;
}

/**
 * What a ranking's answer says of its whole window: how many collections were active in
 * it, their newest activity, and, when none was, the shortest window that holds it (a
 * quiet window offers it rather than a ranking of zeros); the flagged sales in it.
 */
export function windowSummary(rows: readonly RankedContract[], nowSeconds: number) {
  const active = rows.filter((row) => row.events > 0).length;
  const times = rows.flatMap((row) => (row.lastActivity === null ? [] : [row.lastActivity]));
  const newest = times.length > 0 ? Math.max(...times) : null;
  return {
    active,
    newest,
    nearest: active === 0 && newest !== null ? windowHolding(newest, nowSeconds) : null,
    washSales: rows.reduce((sum, row) => sum + row.washSales, 0),
  };
}

export type RankingSort = { id: RankingSortId; desc: boolean };

/**
 * Contracts in a ranking's order, ties by address. Volume is that of one currency, in its
 * exact base units (never another currency's, never rounded; see volumeIn for ETH). Contracts with no activity
 * in the window come after every active one whichever way a column is sorted: an
 * ascending sort means the least active collections, not the ones with nothing at all;
 * and contracts not indexed yet (figures unknown, not zero) after every indexed one.
 */
export function rankedBy(
  rows: readonly RankedContract[],
  sort: RankingSort,
  currency: string,
): RankedContract[] {
  const value = (row: RankedContract): number | string | bigint => {
    switch (sort.id) {
      case 'events':
        return row.events;
      case 'sales':
        return row.sales;
      case 'holders':
        return row.holders;
      case 'last':
        return row.lastActivity ?? -1;
      case 'name':
        return (row.name ?? '').toLowerCase();
      case 'volume':
        return volumeIn(row.volume, currency);
    }
  };
  const direction = sort.desc ? -1 : 1;
  const empty = (row: RankedContract) => (notIndexed(row) ? 2 : row.events === 0 ? 1 : 0);
  return [...rows].sort((a, b) => {
    const emptiness = empty(a) - empty(b);
    if (emptiness !== 0) return emptiness;
    const [va, vb] = [value(a), value(b)];
    const order = va < vb ? -1 : va > vb ? 1 : 0;
    return order !== 0 ? order * direction : a.address < b.address ? -1 : 1;
  });
}

/**
 * The contracts whose name, symbol or address contains the text, ignoring case; an
 * address also as people type it: its first digits with or without leading zeros, or the
 * app's short form ("0x6058…44b8", see address-match.ts). Blank text keeps them all.
 */
export function matchingRanking(
  rows: readonly RankedContract[],
  text: string | undefined,
): readonly RankedContract[] {
  const needle = text?.trim().toLowerCase() ?? '';
  if (!needle) return rows;
  const address = addressMatcher(needle);
  return rows.filter(
    (row) =>
      address?.(row.address) ||
      [row.name, row.symbol, row.address].some((field) => field?.toLowerCase().includes(needle)),
  );
}
