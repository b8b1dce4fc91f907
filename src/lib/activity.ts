/**
 * Events per time bucket and kind, for the activity chart. Buckets are days, or hours
 * when the loaded events span less than three days, so a short burst still has shape.
 */
export interface ActivityBucket {
  start: number;
  counts: Record<string, number>;
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

export function buildActivity(
  events: readonly { kind: string; timestamp: number }[],
): Activity | null {
  if (events.length === 0) return null;
  let from = Infinity;
  let to = -Infinity;
  for (const event of events) {
    if (event.timestamp < from) from = event.timestamp;
    if (event.timestamp > to) to = event.timestamp;
  }
  const unit = to - from < 3 * DAY ? 'hour' : 'day';
  const base = unit === 'hour' ? HOUR : DAY;
  const first = Math.floor(from / base) * base;
  const spans = Math.floor(to / base) - Math.floor(from / base) + 1;
  const size = base * Math.ceil(spans / MAX_BUCKETS);
  const count = Math.floor((to - first) / size) + 1;
  const buckets: ActivityBucket[] = Array.from({ length: count }, (_, index) => ({
    start: first + index * size,
    counts: {},
    total: 0,
  }));
  for (const event of events) {
    const bucket = buckets[Math.floor((event.timestamp - first) / size)];
    if (!bucket) continue;
    bucket.counts[event.kind] = (bucket.counts[event.kind] ?? 0) + 1;
    bucket.total += 1;
  }
  const max = Math.max(...buckets.map((bucket) => bucket.total));
  return { unit, from, to, size, buckets, max };
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
