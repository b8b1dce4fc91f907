import { createGrowingFold } from './arrays';
import type { EventKind, TokenEvent } from './token-event';

/**
 * Events per time bucket and kind, for the activity chart. Buckets are days, or hours
 * when the events span less than three days, so a short burst still has shape; when the
 * chart has room for fewer bars than that, several hours or days make one bucket, in
 * sizes people count in (6 hours, a week, four weeks…).
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
  /** Seconds per bucket: one unit, or several when the span has more buckets than fit. */
  size: number;
  buckets: ActivityBucket[];
  max: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;
/** More buckets than this are merged whatever the room, keeping the chart cheap to draw. */
export const MAX_BUCKETS = 400;

/** Bucket sizes, in seconds, from the smallest: hours up to half a day, then days and weeks. */
const HOUR_SIZES = [1, 2, 3, 6, 12].map((hours) => hours * HOUR);
const DAY_SIZES = [1, 2, 7, 14, 28, 56, 91, 182, 364].map((days) => days * DAY);

/** The smallest size of the unit's series that keeps the span within `maxBuckets`. */
function bucketSize(unit: 'hour' | 'day', from: number, to: number, maxBuckets: number): number {
  const sizes = unit === 'hour' ? [...HOUR_SIZES, ...DAY_SIZES] : DAY_SIZES;
  const count = (size: number) => Math.floor(to / size) - Math.floor(from / size) + 1;
  for (const size of sizes) if (count(size) <= maxBuckets) return size;
  // Longer than the series: a multiple of its largest step.
  const largest = sizes[sizes.length - 1]!;
  for (let times = 2; ; times++) if (count(largest * times) <= maxBuckets) return largest * times;
}

/** "hour", "6 hours", "day", "week", "4 weeks", "364 days": what one bucket covers. */
export function bucketName(size: number): string {
  if (size < DAY) return size === HOUR ? 'hour' : `${size / HOUR} hours`;
  if (size % (7 * DAY) === 0 && size <= 28 * DAY) {
    return size === 7 * DAY ? 'week' : `${size / (7 * DAY)} weeks`;
  }
  return size === DAY ? 'day' : `${size / DAY} days`;
}

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

function activityOf({ hours, from, to }: Tally, maxBuckets: number): Activity | null {
  if (hours.size === 0) return null;
  const unit = to - from < 3 * DAY ? 'hour' : 'day';
  const size = bucketSize(unit, from, to, Math.max(1, Math.min(maxBuckets, MAX_BUCKETS)));
  // Buckets start at whole multiples of their size (days at midnight UTC, hours on the
  // hour), so they stay where they are when older events come in.
  const first = Math.floor(from / size) * size;
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
 * counted afresh. `maxBuckets` is how many bars the chart has room for.
 */
export function createActivityBuilder(): (
  events: readonly ChartEvent[],
  maxBuckets?: number,
) => Activity | null {
  // Only the last list's counts are kept, so they are counted on in place.
  const tally = createGrowingFold<ChartEvent, Tally>({
    start: emptyTally,
    resume: (earlier) => earlier,
    add: count,
  });
  return (events, maxBuckets = MAX_BUCKETS) => activityOf(tally(events), maxBuckets);
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
