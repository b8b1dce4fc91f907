import { createGrowingFold } from './arrays';
import type { EventKind, TokenEvent } from './token-event';

/**
 * Events per time bucket and kind, for the activity chart. Buckets are days, or hours
 * when the loaded events span less than three days, so a short burst still has shape.
 */
export interface ActivityBucket {
  start: number;
  counts: KindCounts;
  total: number;
}

export interface Activity {
  unit: 'day' | 'hour';
  from: number;
  to: number;
  /** Seconds per bucket: one unit, or several when the span has more than MAX_BUCKETS. */
  size: number;
  buckets: ActivityBucket[];
  max: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;
/** More buckets than this are merged, keeping the chart readable and cheap to draw. */
const MAX_BUCKETS = 400;

export type KindCounts = Partial<Record<EventKind, number>>;
type ChartEvent = Pick<TokenEvent, 'kind' | 'timestamp'>;

/** Counts per hour and kind of the events seen so far: what every bucketing is made from. */
interface Tally {
  hours: Map<number, KindCounts>;
  from: number;
  to: number;
}

const emptyTally = (): Tally => ({ hours: new Map(), from: Infinity, to: -Infinity });

function count(tally: Tally, event: ChartEvent): void {
  const hour = Math.floor(event.timestamp / HOUR);
  let counts = tally.hours.get(hour);
  if (!counts) tally.hours.set(hour, (counts = {}));
  counts[event.kind] = (counts[event.kind] ?? 0) + 1;
  if (event.timestamp < tally.from) tally.from = event.timestamp;
  if (event.timestamp > tally.to) tally.to = event.timestamp;
}

function activityOf({ hours, from, to }: Tally): Activity | null {
  if (hours.size === 0) return null;
  const unit = to - from < 3 * DAY ? 'hour' : 'day';
  const base = unit === 'hour' ? HOUR : DAY;
  const first = Math.floor(from / base) * base;
  const spans = Math.floor(to / base) - Math.floor(from / base) + 1;
  const size = base * Math.ceil(spans / MAX_BUCKETS);
  const length = Math.floor((to - first) / size) + 1;
  const buckets: ActivityBucket[] = Array.from({ length }, (_, index) => ({
    start: first + index * size,
    counts: {},
    total: 0,
  }));
  // Buckets are whole hours (days and their multiples start on an hour), so each hour's
  // counts fall in one bucket.
  for (const [hour, counts] of hours) {
    const bucket = buckets[Math.floor((hour * HOUR - first) / size)];
    if (!bucket) continue;
    for (const kind of Object.keys(counts) as EventKind[]) {
      const n = counts[kind] ?? 0;
      bucket.counts[kind] = (bucket.counts[kind] ?? 0) + n;
      bucket.total += n;
    }
  }
  const max = Math.max(...buckets.map((bucket) => bucket.total));
  return { unit, from, to, size, buckets, max };
}

/**
 * Counts a list's events into buckets, for a list that grows at its end, as "Load full
 * history" grows it a page at a time: when the new list begins with exactly the events of
 * the last one, only the new events are counted (the buckets are then made from per-hour
 * counts, a few thousand at most), instead of all of them again. Any other list is
 * counted afresh.
 */
export function createActivityBuilder(): (events: readonly ChartEvent[]) => Activity | null {
  // Only the last list's counts are kept, so they are counted on in place.
  const tally = createGrowingFold<ChartEvent, Tally>({
    start: emptyTally,
    resume: (earlier) => earlier,
    add: count,
  });
  return (events) => activityOf(tally(events));
}

/**
 * The SVG transform that draws the chart's bars into a `width` × `height` box when each
 * bar is drawn in its own units: x is the bucket's start divided by the bucket size (one
 * unit wide), y and height count events from the baseline up. The busiest bucket reaches
 * `topGap` below the top. Bars drawn this way keep their attributes when events are added
 * to other buckets, or older buckets appear: only this transform changes, so a chart
 * that follows a growing list redraws the bars that changed and nothing else.
 */
export function activityTransform(
  activity: Pick<Activity, 'buckets' | 'size' | 'max'>,
  width: number,
  height: number,
  topGap = 4,
): string {
  const first = (activity.buckets[0]?.start ?? 0) / activity.size;
  const xScale = width / Math.max(activity.buckets.length, 1);
  const yScale = (height - topGap) / Math.max(activity.max, 1);
  return `matrix(${xScale} 0 0 ${-yScale} ${-first * xScale} ${height})`;
}
