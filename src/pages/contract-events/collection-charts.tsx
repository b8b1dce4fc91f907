import { useInfiniteQuery } from '@tanstack/react-query';
import { collectionEventsQueryOptions } from '../../api/collection';
import { ActivityChart } from '../../components/activity-chart';
import { SalesChart } from '../../components/sales-chart';
import { chooseInterval } from '../../lib/activity';
import type { Coverage, EventRow, Interval, SeriesAnswer } from '../../lib/answers';
import { formatDay } from '../../lib/time';
import type { TimeSpan } from '../../lib/time-span';

/** How many of the view's latest sales the sales chart draws: one page of the query API. */
const SALES_DRAWN = 500;

export interface ChartRange extends TimeSpan {
  interval: Interval;
}

/**
 * The span the charts cover — the view's, else the collection's first activity to now,
 * never past now — and the size of its buckets.
 */
export function chartRange(span: TimeSpan | null, first: number | null, now: number): ChartRange {
  const from = span?.from ?? first ?? now - 30 * 86_400;
  const to = Math.max(from + 3600, Math.min(span?.to ?? now, now));
  return { from, to, interval: chooseInterval({ from, to }) };
}

interface CollectionChartsProps {
  address: string;
  series: SeriesAnswer | undefined;
  coverage: Coverage | undefined;
  range: ChartRange;
  /** The view's filters as the query API's parameters (the sales chart narrows them to sales). */
  filterSearch: string;
  onSelectSpan: (span: TimeSpan) => void;
  onOpenToken: (row: EventRow) => void;
}

/**
 * The view's activity over its span (counts per kind, volume per currency, from the
 * server's series; a bar narrows the table to its time) and its latest sales as prices
 * over time. Both hold their place while they load.
 */
export function CollectionCharts(props: CollectionChartsProps) {
  const { address, series, coverage, range } = props;
  const sales = new URLSearchParams(props.filterSearch);
  const kinds = sales.get('kind')?.split(',');
  const salesShown = !kinds || kinds.includes('sale');
  sales.set('kind', 'sale');
  const salesQuery = useInfiniteQuery({
    ...collectionEventsQueryOptions(address, sales.toString(), SALES_DRAWN),
    enabled: salesShown,
  });
  const saleRows = salesQuery.data?.pages[0]?.items ?? [];
  const partial =
    coverage && !coverage.complete
      ? coverage.indexedBack === null
        ? 'Nothing indexed yet: the chart fills in as the indexer reads.'
        : `Indexed back to ${formatDay(coverage.indexedBack)} so far: older events are not drawn yet.`
      : null;
  return (
    <>
      <ActivityChart
        buckets={series?.buckets ?? []}
        interval={series?.interval ?? range.interval}
        range={range}
        onSelect={props.onSelectSpan}
        burnsUnlisted
        partial={partial}
        loading={series === undefined}
      />
      {salesShown && (
        <SalesChart
          sales={saleRows}
          onOpen={props.onOpenToken}
          loading={salesQuery.isPending}
          caption={
            salesQuery.data?.pages[0]?.next
              ? `The latest ${SALES_DRAWN} sales of this view.`
              : `Every sale of this view${coverage?.complete ? '' : ' indexed so far'} (${saleRows.length}).`
          }
        />
      )}
    </>
  );
}
