import { useMemo, useState } from 'react';
import type { EventRow } from '../lib/answers';
import { formatAxisAmount } from '../lib/chart-currency';
import { timeTicks, valueTicks } from '../lib/chart-ticks';
import { plural } from '../lib/format';
import { formatPrice } from '../lib/price';
import { medianWindow, rollingMedian } from '../lib/rolling-median';
import { groupSales, priceAxisTop, type SalePoint } from '../lib/sale-points';
import { formatMinute } from '../lib/time';
import type { TimeSpan } from '../lib/time-span';
import { ChartFrame, CurrencyChoice, Plot, usePlotSlider, ValueAxis } from './chart-parts';
import { useElementWidth } from './use-element-width';
import styles from './sales-chart.module.css';

const FALLBACK_WIDTH = 800;
const HEIGHT = 160;
const DOT_RADIUS = 3.5;
/** Room kept at each end of the time axis, so the first and last dots are whole. */
const END_PX = 8;
/** How far from a dot the pointer may be and still point at it. */
const REACH_PX = 14;
const HALF_HOUR = 1800;
const KEYS_HINT =
  'The arrow keys, Home and End move between sales, oldest to newest; Enter opens the token.';

export interface SalesChartProps {
  /** The sales to draw (rows of other kinds and without a price are left out). */
  sales: readonly EventRow[];
  /** Opens a sale's token (a click, a tap or Enter on its dot). */
  onOpen?: (row: EventRow) => void;
  /** Which sales these are, in words: "the latest 500 sales of the view". */
  caption?: string;
  /** True while the sales are asked for: the chart's frame, the same size, without dots. */
  loading?: boolean;
  /** The time axis, when the sales are all of a span (the other charts'); else their own. */
  range?: TimeSpan;
}

/**
 * Sale prices over time, one currency at a time (a button each: prices in different
 * currencies never share an axis), each sale a dot and a line through the median of the
 * last few sales. Plain SVG. Every dot is a pointer, a tap or a key away: over the plot
 * lies a slider (← → Home End) over the sales in time order, whose value is read out
 * below; a click, a tap or Enter opens the sale's token.
 */
export function SalesChart({
  sales,
  onOpen,
  caption,
  loading = false,
  range: span,
}: SalesChartProps) {
  const [areaRef, measured] = useElementWidth();
  const width = measured || FALLBACK_WIDTH;
  const { groups, unreadable } = useMemo(
    () => (loading ? { groups: [], unreadable: 0 } : groupSales(sales)),
    [loading, sales],
  );
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const group = groups.find((entry) => entry.currency.key === chosenKey) ?? groups[0];
  const points = useMemo(() => group?.points ?? [], [group]);
  const slider = usePlotSlider(points, describe);
  const { shown } = slider;

  const range = useMemo(
    () =>
      timeRange(
        groups.flatMap((entry) => entry.points),
        width,
        span,
      ),
    [groups, width, span],
  );
  const time = drawnTicks(range, width, groups.length > 0);
  const xOf = (seconds: number) => ((seconds - range.from) / (range.to - range.from)) * width;
  const values = points.map((point) => point.value);
  const priceTicks = valueTicks(priceAxisTop(values));
  const top = priceTicks[priceTicks.length - 1]!;
  const yOf = (value: number) => HEIGHT - (Math.min(value, top) / top) * HEIGHT;
  const window = medianWindow(points.length);
  const medians = useMemo(
    () =>
      window > 0
        ? rollingMedian(
            points.map((point) => point.value),
            window,
          )
        : [],
    [points, window],
  );
  const above = values.filter((value) => value > top).length;
  const drawn = groups.reduce((sum, entry) => sum + entry.points.length, 0);

  const pointAt = (event: { currentTarget: HTMLElement; clientX: number; clientY: number }) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return null;
    const x = ((event.clientX - box.left) / box.width) * width;
    const y = ((event.clientY - box.top) / box.height) * HEIGHT;
    return nearest(points, x, y, xOf, yOf, REACH_PX);
  };
  const onChoose = onOpen && ((point: SalePoint) => onOpen(point.row));
  const note =
    unreadable > 0
      ? `${plural(unreadable, 'sale')} with a price that cannot be read ${unreadable === 1 ? 'is' : 'are'} not drawn.`
      : null;

  return (
    <ChartFrame
      loading={loading}
      title="Sale prices"
      subtitle={
        loading
          ? `Loading ${caption ?? 'sales'}…`
          : `${plural(drawn, 'sale')} drawn${caption ? `: ${caption}` : ''}`
      }
      note={note}
      axes={
        <ValueAxis
          ticks={group ? priceTicks : []}
          format={(value) => formatAxisAmount(value, priceTicks[1] ?? 1)}
          unit={group?.currency.unit}
          className={styles.axis}
        />
      }
      areaRef={areaRef}
      slider={{
        ...slider,
        label: `Sales in ${group?.currency.label}, oldest to newest`,
        pointAt,
        onChoose,
      }}
      empty="No sales to draw."
      time={{ range, step: time.step, ticks: time.ticks, width }}
      choice={
        <CurrencyChoice
          title={groups.length === 0 ? 'Prices' : 'Prices in'}
          currencies={groups.map((entry) => ({
            currency: entry.currency,
            sales: entry.points.length,
          }))}
          chosen={group?.currency.key ?? null}
          onChoose={(key) => {
            setChosenKey(key);
            slider.onShow(null);
          }}
        />
      }
      hint="Point at or tap a dot for its sale; a click or Enter opens its token."
      keysHint={KEYS_HINT}
      legend={
        <>
          <li>
            <svg className={styles.key} viewBox="-5 -5 10 10" aria-hidden="true">
              <circle className={styles.dot} r={DOT_RADIUS} />
            </svg>{' '}
            A sale
          </li>
          <li>
            <svg className={styles.key} viewBox="-8 -5 16 10" aria-hidden="true">
              <line className={styles.median} x1={-8} x2={8} y1={0} y2={0} />
            </svg>{' '}
            {window > 0
              ? `Median of the last ${window} sales`
              : loading || points.length === 0
                ? 'Median line'
                : 'Too few sales for a median line'}
          </li>
          {above > 0 && (
            <li>
              <svg className={styles.key} viewBox="-5 -5 10 10" aria-hidden="true">
                <circle className={styles.cut} r={DOT_RADIUS} />
              </svg>{' '}
              {plural(above, 'sale')} above the axis, drawn at its top
            </li>
          )}
        </>
      }
    >
      <Plot
        className={styles.prices}
        label={summary(points, group?.currency.label, window)}
        grid={{ width, height: HEIGHT, values: priceTicks, xs: time.ticks.map(xOf) }}
      >
        {points.map((point) => {
          const cut = point.value > top;
          return (
            <circle
              key={point.row.id}
              className={cut ? styles.cut : styles.dot}
              cx={xOf(point.time)}
              cy={yOf(point.value)}
              r={DOT_RADIUS}
            />
          );
        })}
        {window > 0 && <path className={styles.median} d={medianPath(points, medians, xOf, yOf)} />}
        {shown !== null && (
          <circle
            className={styles.ring}
            cx={xOf(points[shown]!.time)}
            cy={yOf(points[shown]!.value)}
            r={DOT_RADIUS * 2.2}
          />
        )}
      </Plot>
    </ChartFrame>
  );
}

/**
 * The span given, or else the sales' times; widened so the first and last dots stand
 * clear of the plot's ends.
 */
function timeRange(points: readonly SalePoint[], width: number, span?: TimeSpan): TimeSpan {
  if (points.length === 0) return span ?? { from: 0, to: 1 };
  let from = span?.from ?? Infinity;
  let to = span?.to ?? -Infinity;
  if (!span) {
    for (const point of points) {
      from = Math.min(from, point.time);
      to = Math.max(to, point.time);
    }
  }
  if (to - from < HALF_HOUR) {
    from -= HALF_HOUR;
    to += HALF_HOUR;
  }
  const pad = ((to - from) * END_PX) / Math.max(width - 2 * END_PX, 1);
  return { from: from - pad, to: to + pad };
}

/** The dates under the plot; none while there is nothing drawn. */
function drawnTicks(range: TimeSpan, width: number, any: boolean) {
  const ticks = timeTicks(range, width);
  return any ? ticks : { ...ticks, ticks: [] };
}

/** The dot nearest to (x, y) within `reach`, by index. */
function nearest(
  points: readonly SalePoint[],
  x: number,
  y: number,
  xOf: (seconds: number) => number,
  yOf: (value: number) => number,
  reach: number,
): number | null {
  let best: number | null = null;
  let bestDistance = reach * reach;
  points.forEach((point, index) => {
    const distance = (xOf(point.time) - x) ** 2 + (yOf(point.value) - y) ** 2;
    if (distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

function medianPath(
  points: readonly SalePoint[],
  medians: readonly (number | null)[],
  xOf: (seconds: number) => number,
  yOf: (value: number) => number,
): string {
  const parts: string[] = [];
  medians.forEach((median, index) => {
    if (median === null) return;
    const command = parts.length === 0 ? 'M' : 'L';
    parts.push(`${command}${xOf(points[index]!.time).toFixed(1)} ${yOf(median).toFixed(1)}`);
  });
  return parts.join(' ');
}

/** "16 Jun 2025, 14:05 UTC: token 1234 sold for 1.25 ETH on Element". */
function describe({ row, price }: SalePoint): string {
  const where = row.marketplaceName ? ` on ${row.marketplaceName}` : '';
  const token =
    row.tokenId.length > 12 ? `${row.tokenId.slice(0, 4)}…${row.tokenId.slice(-4)}` : row.tokenId;
  return `${formatMinute(row.timestamp)} UTC: token ${token} sold for ${formatPrice(price)}${where}`;
}

function summary(points: readonly SalePoint[], currency: string | undefined, window: number) {
  if (points.length === 0 || currency === undefined) return 'No sales drawn.';
  const first = formatMinute(points[0]!.time);
  const last = formatMinute(points[points.length - 1]!.time);
  const line = window > 0 ? `, with the median of the last ${window} sales` : '';
  return `${plural(points.length, 'sale')} in ${currency} from ${first} to ${last} (UTC)${line}.`;
}
