import type { Interval, SeriesAnswer } from '../../lib/answers';
import type { EventView } from '../../lib/event-view';
import type { TimeSpan } from '../../lib/time-span';

export interface ChartRange {
  from: number;
  to: number;
  interval: Interval;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The span the charts cover: the view's, else first activity to now; and its buckets' size. */
export function chartRange(span: TimeSpan | null, first: number | null, now: number): ChartRange {
  const from = span?.from ?? first ?? now - 30 * DAY;
  const to = Math.min(span?.to ?? now, Math.max(now, from + HOUR));
  const length = to - from;
  const interval: Interval =
    length <= 2 * DAY
      ? 'hour'
      : length <= 120 * DAY
        ? 'day'
        : length <= 2 * 365 * DAY
          ? 'week'
          : 'month';
  return { from, to, interval };
}

interface CollectionChartsProps {
  series: SeriesAnswer | undefined;
  range: ChartRange;
  view: EventView;
  address: string;
  filterSearch: string;
  onSelectSpan: (span: TimeSpan | null) => void;
  onOpenToken: (event: { contractAddress: string; tokenId: string }) => void;
}

/** The activity chart and the sales chart of the view. */
export function CollectionCharts(_props: CollectionChartsProps) {
  return null;
}
