import { memo, useMemo } from 'react';
import { activityTransform, createActivityBuilder, type ActivityBucket } from '../lib/activity';
import { formatCount } from '../lib/format';
import { formatAbsolute } from '../lib/time';
import { EVENT_KINDS, type EventKind, type TokenEvent } from '../lib/token-event';
import styles from './activity-chart.module.css';

/** Each kind's colour, for its bars and its swatch in the legend. */
const KIND_CLASSES: Record<EventKind, string | undefined> = {
  mint: styles.mint,
  transfer: styles.transfer,
  sale: styles.sale,
  burn: styles.burn,
  other: styles.other,
};
const WIDTH = 800;
const HEIGHT = 120;

interface ActivityChartProps {
  events: readonly Pick<TokenEvent, 'kind' | 'timestamp'>[];
  /** True while older events exist that are not loaded: the chart says it is partial. */
  partial: boolean;
}

/**
 * Events per day (or hour) by kind, drawn as stacked bars in plain SVG: a few dozen
 * lines, no charting library in the bundle. It covers exactly the loaded events.
 *
 * The chart follows a list that grows a page at a time ("Load full history" redraws it
 * some twenty times), so a new page costs what it adds: its events are counted on top of
 * the last counts (createActivityBuilder), the bars are drawn in their own units (see
 * activityTransform) and each is memoised on its counts, so the bars the page changed are
 * redrawn and the rest move with one transform.
 */
export function ActivityChart({ events, partial }: ActivityChartProps) {
  const build = useMemo(() => createActivityBuilder(), []);
  const activity = useMemo(() => build(events), [build, events]);
  if (!activity) return null;
  const { buckets, max, unit, from, to, size } = activity;
  const span = `${day(from)} – ${day(to)}`;
  const summary = `${formatCount(events.length)} events per ${unit} from ${span}; busiest ${unit}: ${formatCount(max)}.`;
  return (
    <figure className={styles.chart}>
      <figcaption>
        <strong>Activity per {unit}</strong>{' '}
        <span className="muted">
          {span}
          {partial
            ? ' · loaded events only: older events are not loaded yet'
            : ' · the whole history'}
        </span>
      </figcaption>
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
        </g>
      </svg>
      <ul className={styles.legend} aria-hidden="true">
        {EVENT_KINDS.map((kind) => (
          <li key={kind}>
            <span className={`${styles.swatch} ${KIND_CLASSES[kind]}`} /> {kind}
          </li>
        ))}
      </ul>
    </figure>
  );
}

function day(seconds: number): string {
  return formatAbsolute(seconds).replace(/, \d\d:\d\d:\d\d UTC$/, '');
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
        <title>{`${formatAbsolute(bucket.start)}: ${bucket.total} events`}</title>
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
