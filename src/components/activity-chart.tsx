import { memo, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import {
  activityTransform,
  bucketName,
  createActivityBuilder,
  type Activity,
  type ActivityBucket,
} from '../lib/activity';
import { BURNS_NOT_LISTED } from '../lib/event-list';
import { formatCount, plural } from '../lib/format';
import { formatAxisDate } from '../lib/time';
import { formatSpan, type TimeSpan } from '../lib/time-span';
import { EVENT_KIND_NAMES, EVENT_KINDS, type EventKind, type TokenEvent } from '../lib/token-event';
import { useElementWidth } from './use-element-width';
import styles from './activity-chart.module.css';

/** Each kind's colour, for its bars and its swatch in the legend. */
const KIND_CLASSES: Record<EventKind, string | undefined> = {
  mint: styles.mint,
  transfer: styles.transfer,
  sale: styles.sale,
  burn: styles.burn,
  other: styles.other,
};
const HINT = 'Point at or tap a bar for its numbers; a click or Enter shows its events below.';
const KEYS_HINT =
  'The arrow keys, Home and End move between bars; Enter shows the events of the bar in the table.';
const WIDTH = 800;
const HEIGHT = 120;
/** A bar narrower than this cannot be told apart, pointed at or tapped: buckets grow instead. */
const MIN_BAR_PX = 6;
/** Room for one date under the axis. */
const TICK_PX = 110;

type ChartEvent = Pick<TokenEvent, 'kind' | 'timestamp'>;

interface ActivityChartProps {
  /** The events shown in the table: the chart follows its filters. */
  events: readonly ChartEvent[];
  /** True while older events exist that are not loaded: the chart says it is partial. */
  partial: boolean;
  /** True when the events are filtered (kind, address or time span). */
  filtered?: boolean;
  /** Shows one bar's events in the table (a click or Enter on it). */
  onSelect?: (span: TimeSpan) => void;
  /** The service lists no burns for a contract: the legend says where a burn shows. */
  burnsUnlisted?: boolean;
}

/**
 * Events per hour, day or week by kind, drawn as stacked bars in plain SVG with a count
 * axis and a date axis: no charting library in the bundle. It covers exactly the events
 * the table shows, in as many bars as its width has room for.
 *
 * Every bar's numbers are a pointer, a tap or a key away: over the bars lies a slider
 * (← → Home End) whose value is the bar in focus, read out below the chart and to screen
 * readers; a click, a tap or Enter shows that bar's events in the table.
 *
 * The chart follows a list that grows a page at a time ("Load full history" redraws it
 * some twenty times), so a new page costs what it adds: its events are counted on top of
 * the last counts (createActivityBuilder), the bars are drawn in their own units (see
 * activityTransform) and each is memoised on its counts, so the bars the page changed are
 * redrawn and the rest move with one transform.
 */
export function ActivityChart({
  events,
  partial,
  filtered = false,
  onSelect,
  burnsUnlisted = false,
}: ActivityChartProps) {
  const [areaRef, plotWidth] = useElementWidth();
  const room = plotWidth > 0 ? Math.floor(plotWidth / MIN_BAR_PX) : undefined;
  const build = useMemo(() => createActivityBuilder(), []);
  const activity = useMemo(() => build(events, room), [build, events, room]);
  const [active, setActive] = useState<number | null>(null);
  if (!activity) return null;
  const { buckets, max, size } = activity;
  const shown = active !== null && active < buckets.length ? active : null;
  const name = bucketName(size);
  const range = rangeOf(activity);
  const busiest = buckets.reduce((best, bucket) => (bucket.total > best.total ? bucket : best));
  const summary =
    `${formatCount(events.length)} events per ${name} from ${formatSpan(range)} (UTC); ` +
    `busiest ${name}: ${formatSpan(spanOf(busiest, size))}, ${plural(busiest.total, 'event')}.`;
  const totals = kindTotals(buckets);
  const detail = shown === null ? null : describe(buckets[shown]!, size);

  const indexAt = (event: MouseEvent<HTMLElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const index = Math.floor(((event.clientX - box.left) / box.width) * buckets.length);
    return Math.min(buckets.length - 1, Math.max(0, index));
  };
  const choose = (index: number) => {
    const bucket = buckets[index];
    if (bucket && onSelect) onSelect(spanOf(bucket, size));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const last = buckets.length - 1;
    const from = shown ?? last;
    const moves: Record<string, number> = {
      ArrowLeft: from - 1,
      ArrowDown: from - 1,
      ArrowRight: from + 1,
      ArrowUp: from + 1,
      PageDown: from - 10,
      PageUp: from + 10,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(Math.min(last, Math.max(0, moves[event.key]!)));
    } else if ((event.key === 'Enter' || event.key === ' ') && shown !== null) {
      event.preventDefault();
      choose(shown);
    }
  };

  return (
    <figure className={styles.chart}>
      <figcaption className={styles.head}>
        <strong>Events per {name}</strong>
        <span className="muted">
          {partial ? 'loaded events only' : 'the whole history'}
          {filtered && ', filtered'}
        </span>
        <span>{formatSpan(range)} UTC</span>
      </figcaption>
      <div className={styles.plot}>
        <div className={styles.counts} aria-hidden="true">
          <span>{formatCount(max)}</span>
          <span>{max >= 2 ? formatCount(max / 2) : ''}</span>
          <span>0</span>
        </div>
        <div className={styles.area} ref={areaRef}>
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={summary}
          >
            <g transform={activityTransform(activity, WIDTH, HEIGHT)}>
              {buckets.map((bucket) => (
                <Bar key={bucket.start} bucket={bucket} size={size} />
              ))}
              {shown !== null && (
                <rect
                  className={styles.cursor}
                  x={buckets[shown]!.start / size}
                  y={0}
                  width={1}
                  height={Math.max(max, 1) * 1.05}
                />
              )}
            </g>
          </svg>
          <div
            className={styles.slider}
            role="slider"
            tabIndex={0}
            aria-label={`Bars, one per ${name}`}
            aria-valuemin={1}
            aria-valuemax={buckets.length}
            aria-valuenow={(shown ?? buckets.length - 1) + 1}
            aria-valuetext={detail ?? describe(buckets[buckets.length - 1]!, size)}
            aria-describedby="chart-keys"
            onKeyDown={onKeyDown}
            onFocus={() => setActive((old) => old ?? buckets.length - 1)}
            onBlur={() => setActive(null)}
            onPointerMove={(event) => setActive(indexAt(event))}
            onPointerLeave={(event) => {
              if (document.activeElement !== event.currentTarget) setActive(null);
            }}
            onClick={(event) => choose(indexAt(event))}
          />
        </div>
      </div>
      <Ticks activity={activity} room={plotWidth} />
      <p className={styles.readout}>{detail ?? <span className="muted">{HINT}</span>}</p>
      <p id="chart-keys" className="visually-hidden">
        {KEYS_HINT}
      </p>
      <ul className={styles.legend}>
        {EVENT_KINDS.map((kind) => (
          <li key={kind}>
            <span className={`${styles.swatch} ${KIND_CLASSES[kind]}`} aria-hidden="true" />{' '}
            {EVENT_KIND_NAMES[kind]} {formatCount(totals[kind] ?? 0)}
            {kind === 'burn' && burnsUnlisted && (
              <span className={styles.note}> ({BURNS_NOT_LISTED})</span>
            )}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** From the first bar's start to the last bar's end. */
function rangeOf({ buckets, size }: Activity): TimeSpan {
  return { from: buckets[0]!.start, to: buckets[buckets.length - 1]!.start + size };
}

const spanOf = (bucket: ActivityBucket, size: number): TimeSpan => ({
  from: bucket.start,
  to: bucket.start + size,
});

/** "29 Jun 2025: 412 events (300 transfers, 80 sales, 32 mints)". */
function describe(bucket: ActivityBucket, size: number): string {
  const kinds = EVENT_KINDS.filter((kind) => bucket.counts[kind]).map((kind) =>
    plural(bucket.counts[kind]!, EVENT_KIND_NAMES[kind].toLowerCase()),
  );
  const parts = kinds.length > 1 ? ` (${kinds.join(', ')})` : '';
  const what = kinds.length === 1 ? kinds[0] : plural(bucket.total, 'event');
  return `${formatSpan(spanOf(bucket, size))}: ${what}${parts}`;
}

function kindTotals(buckets: readonly ActivityBucket[]): Partial<Record<EventKind, number>> {
  const totals: Partial<Record<EventKind, number>> = {};
  for (const bucket of buckets) {
    for (const kind of EVENT_KINDS) totals[kind] = (totals[kind] ?? 0) + (bucket.counts[kind] ?? 0);
  }
  return totals;
}

/** Dates under the bars, as many as the width holds, the first and last at the ends. */
function Ticks({ activity, room }: { activity: Activity; room: number }) {
  const { buckets } = activity;
  const range = rangeOf(activity);
  const count = Math.min(buckets.length, Math.max(2, Math.floor((room || WIDTH) / TICK_PX)));
  const indexes = [
    ...new Set(
      Array.from({ length: count }, (_, k) =>
        Math.round((k * (buckets.length - 1)) / Math.max(count - 1, 1)),
      ),
    ),
  ];
  return (
    <div className={styles.ticks} aria-hidden="true">
      {indexes.map((index) => (
        <span
          key={index}
          style={{ left: `${((index + 0.5) / buckets.length) * 100}%` }}
          data-edge={index === 0 ? 'start' : index === buckets.length - 1 ? 'end' : undefined}
        >
          {formatAxisDate(buckets[index]!.start, range.to - range.from)}
        </span>
      ))}
    </div>
  );
}

// Of each bucket's width, the bar's share; the rest is the gap between bars. A share
// rather than a fixed gap, so a bar's width does not depend on how many there are.
const BAR_SHARE = 0.85;

/** One bucket's stacked bar, in bucket units across and event counts up. */
const Bar = memo(
  function Bar({ bucket, size }: { bucket: ActivityBucket; size: number }) {
    const x = bucket.start / size + (1 - BAR_SHARE) / 2;
    // Each kind stacked on the ones before it, from the baseline up.
    const segments: { kind: EventKind; from: number; count: number }[] = [];
    let from = 0;
    for (const kind of EVENT_KINDS) {
      const count = bucket.counts[kind] ?? 0;
      if (count === 0) continue;
      segments.push({ kind, from, count });
      from += count;
    }
    return (
      <g>
        {segments.map(({ kind, from: y, count }) => (
          <rect
            key={kind}
            className={KIND_CLASSES[kind]}
            x={x}
            y={y}
            width={BAR_SHARE}
            height={count}
          />
        ))}
      </g>
    );
  },
  // Buckets are rebuilt with the list; a bar is the same while its start and counts are.
  (before, after) =>
    before.size === after.size &&
    before.bucket.start === after.bucket.start &&
    before.bucket.total === after.bucket.total &&
    EVENT_KINDS.every((kind) => before.bucket.counts[kind] === after.bucket.counts[kind]),
);
