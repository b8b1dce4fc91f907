import type pg from 'pg';
import type { Interval, SeriesBucket } from '../../lib/answers';
import { emptyCounts, currencyRef, kindOf } from './figures';
import { currencyConditions, type EventFilters } from './events-query';
import { hourlyTotal } from './hourly';
import { KIND_CODES } from './index-schema';
import { addressBytes, Sql } from './sql';
import { HOUR } from '../../lib/utc';

/**
 * Counts per kind and sales volume per currency per hour, day, week or month (UTC; weeks
 * start on Monday), over the whole history or a span, under the events' filters. Read
 * from the hourly rollup, unless a filter needs the rows themselves (an address, a
 * token, a price range).
 */

const bucketOf = (interval: Interval, seconds: string) =>
  `extract(epoch FROM date_trunc('${interval}', to_timestamp(${seconds}) AT TIME ZONE 'UTC'))::bigint`;

/** Rows of counts and volumes per bucket, kind and currency, with their flagged part. */
export interface ActivityRow {
  start: string;
  kind: number;
  currency: Buffer;
  events: string;
  volume: string;
  wash_events: string;
  wash_volume: string;
}

/**
 * The query of the activity under the filters, per bucket of `interval` (all in one
 * bucket, `start` 0, when null), kind and currency, each with its flagged part.
 */
export function activityQuery(
  contractId: number,
  interval: Interval | null,
  filters: EventFilters,
): { text: string; values: unknown[] } {
  const sql = new Sql();
  const fromRows =
    filters.address !== undefined ||
    filters.tokenId !== undefined ||
    filters.minPrice !== undefined ||
    filters.maxPrice !== undefined ||
    (filters.from ?? 0) % HOUR !== 0 ||
    (filters.to ?? 0) % HOUR !== 0 ||
    // The hours count sales naming no currency as ETH, not apart.
    filters.currency === 'none';
  const where = [`contract_id = ${sql.param(contractId)}`];
  if (filters.kinds?.length) {
    where.push(
      `kind = ANY(${sql.param(filters.kinds.map((kind) => KIND_CODES[kind]))}::smallint[])`,
    );
  }
  if (filters.marketplace !== undefined)
    where.push(`marketplace = ${sql.param(filters.marketplace)}`);
  const bucket = (seconds: string) => (interval ? bucketOf(interval, seconds) : '0');
  if (fromRows) {
    if (filters.from !== undefined) where.push(`ts >= ${sql.param(filters.from)}`);
    if (filters.to !== undefined) where.push(`ts < ${sql.param(filters.to)}`);
    if (filters.currency !== undefined) where.push(...currencyConditions(sql, filters.currency));
    if (filters.tokenId !== undefined)
      where.push(`token_id = ${sql.param(filters.tokenId)}::numeric`);
    if (filters.minPrice !== undefined)
      where.push(`price >= ${sql.param(filters.minPrice)}::numeric`);
    if (filters.maxPrice !== undefined)
      where.push(`price <= ${sql.param(filters.maxPrice)}::numeric`);
    if (filters.address !== undefined) {
      const address = sql.param(addressBytes(filters.address));
      where.push(`(from_addr = ${address} OR to_addr = ${address})`);
    }
    if (filters.excludeWash) where.push('wash = 0');
    if (filters.onlyWash) where.push('wash <> 0');
    const text = `SELECT ${bucket('ts')} AS start, kind, coalesce(currency, '\\x'::bytea) AS currency,
        count(*)::bigint AS events, coalesce(sum(price), 0)::text AS volume,
        count(*) FILTER (WHERE wash <> 0)::bigint AS wash_events,
        coalesce(sum(price) FILTER (WHERE wash <> 0), 0)::text AS wash_volume
      FROM idx_changes WHERE ${where.join(' AND ')} GROUP BY 1, 2, 3 ORDER BY 1`;
    return { text, values: sql.values };
  }
  // A span on whole hours (any other is read from the rows).
  if (filters.from !== undefined) where.push(`hour >= ${sql.param(filters.from / HOUR)}`);
  if (filters.to !== undefined) where.push(`hour < ${sql.param(filters.to / HOUR)}`);
  if (filters.currency !== undefined) {
    where.push(`kind = ${KIND_CODES.sale}`);
    // 'none' is read from the rows (above): the hours count those sales as ETH's.
    where.push(`currency = ${sql.param(addressBytes(filters.currency))}`);
  }
  // Without flagged sales: each hour's total less its flagged part; flagged alone: that part.
  const wash = filters.onlyWash ? 'only' : filters.excludeWash ? 'exclude' : 'include';
  const events = hourlyTotal('events', wash);
  const volume = hourlyTotal('volume', wash);
  const washed = (column: 'events' | 'volume') =>
    wash === 'exclude' ? '0' : `sum(wash_${column})`;
  const text = `SELECT ${bucket(`hour * ${HOUR}`)} AS start, kind, currency,
      sum(${events})::bigint AS events, sum(${volume})::text AS volume,
      ${washed('events')}::bigint AS wash_events, ${washed('volume')}::text AS wash_volume
    FROM idx_hourly WHERE ${where.join(' AND ')} GROUP BY 1, 2, 3
    HAVING sum(${events}) > 0 ORDER BY 1`;
  return { text, values: sql.values };
}

export async function series(
  pool: pg.Pool,
  contractId: number,
  interval: Interval,
  filters: EventFilters,
): Promise<SeriesBucket[]> {
  const query = activityQuery(contractId, interval, filters);
  const { rows } = await pool.query<ActivityRow>(query.text, query.values);
  const buckets = new Map<number, SeriesBucket>();
  for (const row of rows) {
    const start = Number(row.start);
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = { start, counts: emptyCounts(), volume: [] };
      buckets.set(start, bucket);
    }
    const kind = kindOf(row.kind);
    bucket.counts[kind] += Number(row.events);
    if (kind === 'sale') {
      bucket.volume.push({
        currency: currencyRef(row.currency),
        sales: Number(row.events),
        volume: row.volume,
      });
    }
  }
  return [...buckets.values()];
}
