import type pg from 'pg';
import type { ViewFigures } from '../../lib/answers';
import { pricedCount, type EventFilters } from './events-query';
import { emptyCounts, kindOf, volumesOf } from './figures';
import { activityQuery, type ActivityRow } from './series';

/**
 * A view's own figures: the events its filters keep, counted per kind, their sales (with
 * a price: what a price sort lists) and volume per currency, and the flagged part of
 * them. Read as the time series reads, from the hourly rollup unless a filter needs the
 * rows, in one bucket.
 */
export async function viewFigures(
  pool: pg.Pool,
  contractId: number,
  filters: EventFilters,
): Promise<ViewFigures> {
  const query = activityQuery(contractId, null, filters);
  const [activity, priced] = await Promise.all([
    pool.query<ActivityRow>(query.text, query.values),
    pricedCount(pool, { ...filters, contractId }),
  ]);
  const counts = emptyCounts();
  const sales: ActivityRow[] = [];
  for (const row of activity.rows) {
    const kind = kindOf(row.kind);
    counts[kind] += Number(row.events);
    if (kind === 'sale') sales.push(row);
  }
  const washed = sales.filter((row) => row.wash_events !== '0');
  return {
    events: Object.values(counts).reduce((sum, count) => sum + count, 0),
    counts,
    sales: counts.sale,
    priced,
    volume: volumesOf(sales.map((row) => ({ ...row, sales: row.events }))),
    washSales: washed.reduce((sum, row) => sum + Number(row.wash_events), 0),
    washVolume: volumesOf(
      washed.map((row) => ({
        currency: row.currency,
        sales: row.wash_events,
        volume: row.wash_volume,
      })),
    ),
  };
}
