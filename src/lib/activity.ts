import type { Coverage, Interval, SeriesBucket } from './answers';
import { formatDay } from './time';
import type { TimeSpan } from './time-span';
import { EVENT_KINDS, type EventKind } from './token-event';
import { DAY, FIRST_MONDAY, HOUR, WEEK } from './utc';

/**
 * The activity chart's geometry over the query API's time series: which interval to ask
 * for a range, where each bucket's bar stands on a time axis, and the totals its legend
 * and readout say. Buckets are UTC hours, days, weeks from Monday or calendar months, as
 * the server makes them (only buckets with events are sent).
 */

/**
 * The interval that gives a range a useful number of bars: hours for up to two days,
 * days for up to three months, weeks for up to two years, months beyond.
 */
export function chooseInterval(range: TimeSpan): Interval {
  const span = range.to - range.from;
  if (span <= 2 * DAY) return 'hour';
  if (span <= 92 * DAY) return 'day';
  if (span <= 2 * 366 * DAY) return 'week';
  return 'month';
}

/** The start of the bucket holding `seconds`: its UTC hour, day, week from Monday or month. */
export function intervalStart(seconds: number, interval: Interval): number {
  switch (interval) {
    case 'hour':
      return Math.floor(seconds / HOUR) * HOUR;
    case 'day':
      return Math.floor(seconds / DAY) * DAY;
    case 'week':
      return Math.floor((seconds - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;
    case 'month': {
      const date = new Date(seconds * 1000);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
    }
  }
}

export interface ChartRange extends TimeSpan {
  interval: Interval;
}

/** The first and last activity of a collection (unix seconds), null when it has none. */
export interface ActiveSpan {
  first: number | null;
  last: number | null;
}

/** A collection's active span from its figures (none while they load). */
export const activeSpan = (
  figures: { firstActivity: number | null; lastActivity: number | null } | null | undefined,
): ActiveSpan => ({ first: figures?.firstActivity ?? null, last: figures?.lastActivity ?? null });

/**
 * The span the charts cover — the view's, else the collection's own active span, from its
 * first event to its last (not to today: a collection quiet for years would be one bar at
 * the edge) — never past now, at least an hour long; and the size of its buckets.
 */
export function chartRange(span: TimeSpan | null, active: ActiveSpan, now: number): ChartRange {
  const from = span?.from ?? active.first ?? now - 30 * DAY;
  // The last event's own second is in the span: it ends just after.
  const end = span?.to ?? (active.first === null ? now : (active.last ?? now) + 1);
  const to = Math.max(from + HOUR, Math.min(end, now));
  return { from, to, interval: chooseInterval({ from, to }) };
}

/** What the index does not cover yet, in words for a chart; null once it has it all. */
export function uncoveredNote(coverage: Coverage | undefined): string | null {
  if (!coverage || coverage.complete) return null;
  return coverage.indexedBack === null
    ? 'Nothing indexed yet: the chart fills in as the indexer reads.'
    : `Indexed back to ${formatDay(coverage.indexedBack)} so far: older events are not drawn yet.`;
}

/** When the bucket starting at `start` ends: the next one's start. */
export function intervalEnd(start: number, interval: Interval): number {
  switch (interval) {
    case 'hour':
      return start + HOUR;
    case 'day':
      return start + DAY;
    case 'week':
      return start + WEEK;
    case 'month': {
      const date = new Date(start * 1000);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
    }
  }
}

/** The events of a bucket, all kinds. */
export function bucketTotal(bucket: Pick<SeriesBucket, 'counts'>): number {
  return EVENT_KINDS.reduce((sum, kind) => sum + (bucket.counts[kind] ?? 0), 0);
}

/** The buckets as counts of one kind alone: those with none of it left out. */
export function ofKind(buckets: readonly SeriesBucket[], kind: EventKind): SeriesBucket[] {
  return buckets.flatMap((bucket) => {
    const count = bucket.counts[kind] ?? 0;
    if (count === 0) return [];
    const counts = Object.fromEntries(EVENT_KINDS.map((k) => [k, k === kind ? count : 0]));
    return [{ ...bucket, counts: counts as SeriesBucket['counts'] }];
  });
}

/** One bucket placed on the chart, in pixels across a plot `width` wide. */
export interface BarSlot {
  bucket: SeriesBucket;
  /** The bucket's time within the range: a click narrows the table to it. */
  span: TimeSpan;
  total: number;
  /** The bucket's stretch of the axis. */
  slotX: number;
  slotWidth: number;
  /** The bar drawn in it, centred. */
  x: number;
  width: number;
}

/** Of a slot, the bar's share; the rest is the gap that tells neighbours apart. */
const BAR_SHARE = 0.8;
/** However long the bucket, a bar is never wider than this: one bar never fills the chart. */
export const MAX_BAR_PX = 40;
/** However short, it stays visible. */
export const MIN_BAR_PX = 1;

/**
 * Each bucket's bar on an axis from `range.from` to `range.to` (pixels 0 to `width`):
 * its slot is its time clipped to the range, so a bar's width comes from the interval
 * over the range and a bucket with no neighbours stays as thin as the others. Buckets
 * outside the range are left out; the time between buckets stays empty.
 */
export function layoutBars(
  buckets: readonly SeriesBucket[],
  interval: Interval,
  range: TimeSpan,
  width: number,
): BarSlot[] {
  const span = Math.max(range.to - range.from, 1);
  const at = (time: number) => ((time - range.from) / span) * width;
  return [...buckets]
    .sort((a, b) => a.start - b.start)
    .flatMap((bucket) => {
      const from = Math.max(bucket.start, range.from);
      const to = Math.min(intervalEnd(bucket.start, interval), range.to);
      if (to <= from) return [];
      const slotX = at(from);
      const slotWidth = at(to) - slotX;
      const barWidth = Math.min(MAX_BAR_PX, Math.max(MIN_BAR_PX, slotWidth * BAR_SHARE));
      return [
        {
          bucket,
          span: { from, to },
          total: bucketTotal(bucket),
          slotX,
          slotWidth,
          x: slotX + (slotWidth - barWidth) / 2,
          width: barWidth,
        },
      ];
    });
}

/** The bar at `x` pixels: the one whose slot holds it, else the nearest within `reach`. */
export function barAt(bars: readonly BarSlot[], x: number, reach: number): number | null {
  let best: number | null = null;
  let bestDistance = reach;
  bars.forEach((bar, index) => {
    const distance = Math.max(bar.slotX - x, x - (bar.slotX + bar.slotWidth), 0);
    if (distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

/** Events per kind over the buckets. */
export function kindTotals(buckets: readonly Pick<SeriesBucket, 'counts'>[]) {
  const totals = Object.fromEntries(EVENT_KINDS.map((kind) => [kind, 0])) as Record<
    EventKind,
    number
  >;
  for (const bucket of buckets) {
    for (const kind of EVENT_KINDS) totals[kind] += bucket.counts[kind] ?? 0;
  }
  return totals;
}
