import { useMemo, useState } from 'react';
import { barAt, kindTotals, layoutBars, ofKind, type BarSlot } from '../lib/activity';
import type { Interval, SeriesBucket } from '../lib/answers';
import {
  currencyOfRef,
  formatAxisAmount,
  formatCurrencyAmount,
  plotAmount,
  type ChartCurrency,
} from '../lib/chart-currency';
import { timeTicks, valueTicks } from '../lib/chart-ticks';
import { BURNS_NOT_LISTED } from '../lib/event-list';
import { formatCount, plural } from '../lib/format';
import { formatSpan, type TimeSpan } from '../lib/time-span';
import { EVENT_KIND_NAMES, EVENT_KINDS, type EventKind } from '../lib/token-event';
import { kindTones } from './badge';
import { ChartFrame, CurrencyChoice, Plot, usePlotSlider, ValueAxis } from './chart-parts';
import { useElementWidth } from './use-element-width';
import chart from './chart.module.css';
import styles from './activity-chart.module.css';

const hintOf = (chosen: string) =>
  `Point at or tap a bar for its numbers; a click or Enter shows ${chosen}.`;
const keysHintOf = (chosen: string) =>
  `The arrow keys, Home and End move between bars; Enter shows ${chosen}.`;
/** The plot's width until it is measured (and where nothing is laid out). */
const FALLBACK_WIDTH = 800;
const COUNTS_HEIGHT = 120;
const VOLUME_HEIGHT = 44;
/** How far from a thin bar the pointer may be and still point at it. */
const REACH_PX = 8;

export interface ActivityChartProps {
  /** The series answer's buckets, in any order: only buckets with events. */
  buckets: readonly SeriesBucket[];
  /** The buckets' size. */
  interval: Interval;
  /** The time the chart spans, unix seconds: the view's span, or first activity to now. */
  range: TimeSpan;
  /** Narrows the table to a bar's time (a click or Enter on it). */
  onSelect?: (span: TimeSpan) => void;
  /** What a click or Enter on a bar shows, in words. */
  selects?: string;
  /** The service lists no burns for the contract: the legend says where a burn shows. */
  burnsUnlisted?: boolean;
  /** What the index does not cover of the range yet, in words; null when it covers it. */
  partial?: string | null;
  /** True while the series is asked for: the chart's frame, the same size, without bars. */
  loading?: boolean;
  /**
   * The one kind the chart counts, when one is asked for (`mint`): its bars, title, axis
   * and legend are of that kind alone.
   */
  kind?: EventKind;
  /** The sales volume below the bars; left out where the series holds no sales. */
  withVolume?: boolean;
}

/**
 * Events per hour, day, week or month by kind, as stacked bars on a time axis, and the
 * sales volume per bucket in one currency at a time below them (a button per currency:
 * amounts of different currencies are never added). Plain SVG, no charting library.
 *
 * Bars stand where their time is on the axis, from `range.from` to `range.to`: buckets
 * without events are gaps, and a bar is as wide as its interval over the range (never
 * wider than a few tens of pixels), so a lone bucket does not fill the chart.
 *
 * Every bar's numbers are a pointer, a tap or a key away: over the plots lies a slider
 * (← → Home End) whose value is the bar in focus, read out below the chart and to screen
 * readers; a click, a tap or Enter narrows the table to that bar's time.
 */
export function ActivityChart({
  buckets,
  interval,
  range,
  onSelect,
  selects = 'the events of the bar in the table',
  burnsUnlisted = false,
  partial = null,
  loading = false,
  kind,
  withVolume = true,
}: ActivityChartProps) {
  const [areaRef, measured] = useElementWidth();
  const width = measured || FALLBACK_WIDTH;
  const noun = kind ? `${EVENT_KIND_NAMES[kind].toLowerCase()}s` : 'events';
  const drawn = kind ? [kind] : EVENT_KINDS;
  const counted = useMemo(() => (kind ? ofKind(buckets, kind) : buckets), [buckets, kind]);
  const span = useMemo<TimeSpan>(
    () => ({ from: range.from, to: Math.max(range.to, range.from + 1) }),
    [range.from, range.to],
  );
  const bars = useMemo(
    () => (loading ? [] : layoutBars(counted, interval, span, width)),
    [loading, counted, interval, span, width],
  );
  const currencies = useMemo(() => volumeCurrencies(bars), [bars]);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const chosen = currencies.find((entry) => entry.currency.key === chosenKey) ?? currencies[0];
  const slider = usePlotSlider(bars, describe);
  const { shown } = slider;

  const countTicks = valueTicks(Math.max(0, ...bars.map((bar) => bar.total)), { whole: true });
  const volumes = chosen ? bars.map((bar) => volumeOf(bar, chosen.currency)) : [];
  const volumeTicks = valueTicks(Math.max(0, ...volumes), { count: 2 });
  const time = timeTicks(span, width);
  const tickXs = time.ticks.map((tick) => ((tick - span.from) / (span.to - span.from)) * width);
  const countGrid = { width, height: COUNTS_HEIGHT, values: countTicks, xs: tickXs };
  const volumeGrid = { width, height: VOLUME_HEIGHT, values: volumeTicks, xs: tickXs };
  const totals = kindTotals(bars.map((bar) => bar.bucket));

  const pointAt = (event: { currentTarget: HTMLElement; clientX: number }) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return null;
    const x = ((event.clientX - box.left) / box.width) * width;
    return barAt(bars, x, (REACH_PX * width) / box.width);
  };
  const onChoose = onSelect && ((bar: BarSlot) => onSelect(bar.span));

  return (
    <ChartFrame
      loading={loading}
      title={`${noun[0]!.toUpperCase()}${noun.slice(1)} per ${interval}`}
      subtitle={`${formatSpan(span)} UTC`}
      note={partial}
      axes={
        <div className={withVolume ? styles.axes : styles.countsOnly}>
          <ValueAxis
            ticks={loading ? [] : countTicks}
            format={formatCount}
            unit={noun}
            className={styles.countAxis}
          />
          {withVolume && (
            <ValueAxis
              ticks={chosen ? volumeTicks : []}
              format={(value) => formatAxisAmount(value, volumeTicks[1] ?? 1)}
              unit={chosen?.currency.unit}
              className={styles.volumeAxis}
            />
          )}
        </div>
      }
      areaRef={areaRef}
      slider={{ ...slider, label: `Bars, one per ${interval}`, pointAt, onChoose }}
      empty="No events in this span."
      time={{ range: span, step: time.step, ticks: time.ticks, width }}
      choice={
        withVolume && (
          <CurrencyChoice
            title={
              loading
                ? 'Sales volume'
                : currencies.length === 0
                  ? 'No sales volume in this span'
                  : `Sales volume per ${interval}${currencies.length > 1 ? ' in' : ','}`
            }
            currencies={currencies}
            chosen={chosen?.currency.key ?? null}
            onChoose={setChosenKey}
          />
        )
      }
      hint={hintOf(selects)}
      keysHint={keysHintOf(selects)}
      legend={drawn.map((series) => (
        <li key={series}>
          <span className={`${styles.swatch} ${kindTones[series]}`} aria-hidden="true" />{' '}
          {EVENT_KIND_NAMES[series]} {loading ? '…' : formatCount(totals[series])}
          {series === 'burn' && burnsUnlisted && (
            <span className={chart.muted}> ({BURNS_NOT_LISTED})</span>
          )}
        </li>
      ))}
    >
      <Plot className={styles.counts} label={summary(bars, interval, span, noun)} grid={countGrid}>
        {shown !== null && <Cursor bar={bars[shown]!} height={COUNTS_HEIGHT} />}
        {bars.map((bar) => (
          <Bar key={bar.bucket.start} bar={bar} top={countTicks[countTicks.length - 1]!} />
        ))}
      </Plot>
      {withVolume && (
        <Plot className={styles.volume} grid={volumeGrid}>
          {shown !== null && <Cursor bar={bars[shown]!} height={VOLUME_HEIGHT} />}
          {chosen &&
            bars.map((bar, index) => {
              const height =
                (volumes[index]! / volumeTicks[volumeTicks.length - 1]!) * VOLUME_HEIGHT;
              return height > 0 ? (
                <rect
                  key={bar.bucket.start}
                  className={styles.volumeBar}
                  x={bar.x}
                  y={VOLUME_HEIGHT - height}
                  width={bar.width}
                  height={height}
                />
              ) : null;
            })}
        </Plot>
      )}
    </ChartFrame>
  );
}

/** "80 events per day from 28 May 2025 – 16 Jun 2025 (UTC); busiest day: …, 4 events." */
function summary(bars: readonly BarSlot[], interval: Interval, span: TimeSpan, noun: string) {
  const total = bars.reduce((sum, bar) => sum + bar.total, 0);
  const head = `${formatCount(total)} ${noun} per ${interval} from ${formatSpan(span)} (UTC)`;
  if (bars.length === 0) return `${head}.`;
  const busiest = bars.reduce((best, bar) => (bar.total > best.total ? bar : best));
  return `${head}; busiest ${interval}: ${formatSpan(busiest.span)}, ${plural(busiest.total, 'event')}.`;
}

/** "16 Jun 2025: 4 events (2 transfers, 1 sale, 1 burn); volume 1.25 ETH". */
function describe(bar: BarSlot): string {
  const { counts, volume } = bar.bucket;
  const kinds = EVENT_KINDS.filter((kind) => counts[kind]).map((kind) =>
    plural(counts[kind], EVENT_KIND_NAMES[kind].toLowerCase()),
  );
  const parts = kinds.length > 1 ? ` (${kinds.join(', ')})` : '';
  const what = kinds.length === 1 ? kinds[0] : plural(bar.total, 'event');
  const amounts = volume
    .filter((entry) => entry.sales > 0)
    .map((entry) => formatCurrencyAmount(entry.volume, entry.currency));
  const sold = amounts.length > 0 ? `; volume ${amounts.join(', ')}` : '';
  return `${formatSpan(bar.span)}: ${what}${parts}${sold}`;
}

/** The currencies sold in the bars, the most sales first. */
function volumeCurrencies(bars: readonly BarSlot[]) {
  const found = new Map<string, { currency: ChartCurrency; sales: number }>();
  for (const bar of bars) {
    for (const entry of bar.bucket.volume) {
      const currency = currencyOfRef(entry.currency);
      const seen = found.get(currency.key);
      if (seen) seen.sales += entry.sales;
      else found.set(currency.key, { currency, sales: entry.sales });
    }
  }
  return [...found.values()].sort((a, b) => b.sales - a.sales);
}

/** A bar's volume in one currency, in its units (for plotting). */
function volumeOf(bar: BarSlot, currency: ChartCurrency): number {
  let units = 0n;
  for (const entry of bar.bucket.volume) {
    if (currencyOfRef(entry.currency).key === currency.key) units += BigInt(entry.volume);
  }
  return plotAmount(units, currency.decimals);
}

function Cursor({ bar, height }: { bar: BarSlot; height: number }) {
  const width = Math.max(bar.slotWidth, bar.width, 2);
  return (
    <rect
      className={chart.cursor}
      x={bar.slotX + (bar.slotWidth - width) / 2}
      y={0}
      width={width}
      height={height}
    />
  );
}

/** One bucket's stacked bar, each kind on the ones before it from the baseline up. */
function Bar({ bar, top }: { bar: BarSlot; top: number }) {
  const scale = COUNTS_HEIGHT / (top || 1);
  const segments = stack(bar.bucket.counts);
  return (
    <g className={styles.bar}>
      {segments.map(({ kind, below, count }) => (
        <rect
          key={kind}
          className={kindTones[kind]}
          x={bar.x}
          y={COUNTS_HEIGHT - (below + count) * scale}
          width={bar.width}
          height={count * scale}
        />
      ))}
    </g>
  );
}

/** The kinds with events, each with the count stacked below it. */
function stack(counts: SeriesBucket['counts']) {
  const segments: { kind: EventKind; below: number; count: number }[] = [];
  let below = 0;
  for (const kind of EVENT_KINDS) {
    const count = counts[kind] ?? 0;
    if (count === 0) continue;
    segments.push({ kind, below, count });
    below += count;
  }
  return segments;
}
