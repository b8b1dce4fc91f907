import type { EventRow } from './answers';
import { currencyOfPrice, plotAmount, type ChartCurrency } from './chart-currency';
import { readPrice, type Price } from './price';

/**
 * The sales chart's points: each sale's price in its currency's units, grouped by
 * currency (each is drawn on its own axis), oldest first. The exact price stays with the
 * point for the readout; the float is for plotting only.
 */
export interface SalePoint {
  row: EventRow;
  price: Price;
  time: number;
  value: number;
}

export interface SaleGroup {
  currency: ChartCurrency;
  points: SalePoint[];
}

/** Sales by currency, the most sales first; and how many had a price no one can read. */
export function groupSales(rows: readonly EventRow[]): {
  groups: SaleGroup[];
  unreadable: number;
} {
  const groups = new Map<string, SaleGroup>();
  let unreadable = 0;
  for (const row of rows) {
    if (row.kind !== 'sale') continue;
    const price = readPrice(row);
    if (price === null) continue;
    const currency = currencyOfPrice(price);
    if (currency === null || price.kind === 'unreadable') {
      unreadable += 1;
      continue;
    }
    let group = groups.get(currency.key);
    if (!group) groups.set(currency.key, (group = { currency, points: [] }));
    group.points.push({
      row,
      price,
      time: row.timestamp,
      value: plotAmount(price.units, currency.decimals),
    });
  }
  const sorted = [...groups.values()].sort((a, b) => b.points.length - a.points.length);
  for (const group of sorted) group.points.sort((a, b) => a.time - b.time);
  return { groups: sorted, unreadable };
}

/** Fewer sales than this are all drawn on the axis, whatever their spread. */
const MIN_FOR_CUT = 20;
/** A highest price more than this many times the 95th percentile is an outlier. */
const OUTLIER_RATIO = 4;

/**
 * The price the axis should reach: the highest, unless a few prices (wash trades, a
 * mistyped listing) are so far above the rest that they would flatten every other dot;
 * then a little above the 95th percentile, and those few are drawn at the top edge.
 */
export function priceAxisTop(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1]!;
  if (sorted.length < MIN_FOR_CUT) return max;
  const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))]!;
  return p95 > 0 && max > OUTLIER_RATIO * p95 ? p95 * 1.25 : max;
}
