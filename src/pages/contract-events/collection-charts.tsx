import { useInfiniteQuery } from '@tanstack/react-query';
import { collectionEventsQueryOptions } from '../../api/collection';
import { ActivityChart } from '../../components/activity-chart';
import { SalesChart } from '../../components/sales-chart';
import { useSettings } from '../../components/settings';
import { uncoveredNote, type ChartRange } from '../../lib/activity';
import type { Coverage, EventRow, SeriesAnswer } from '../../lib/answers';
import { formatDay } from '../../lib/time';
import type { TimeSpan } from '../../lib/time-span';
import styles from './collection-charts.module.css';

/** How many of the view's latest sales the sales chart draws: one page of the query API. */
const SALES_DRAWN = 500;

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
 * The charts, folded under a summary so that the first rows of the table are on the first
 * screen; opened or folded, they stay so in this browser. Folded, nothing is drawn or asked.
 */
export function FoldedCharts(props: CollectionChartsProps) {
  const { chartsOpen, update } = useSettings();
  return (
    <details
      className={styles.fold}
      open={chartsOpen}
      onToggle={(event) => {
        const open = event.currentTarget.open;
        if (open !== chartsOpen) update({ chartsOpen: open });
      }}
    >
      <summary className={styles.summary}>Charts: activity and sale prices</summary>
      {chartsOpen && <CollectionCharts {...props} />}
    </details>
  );
}

/**
 * The view's activity over its span (counts per kind, volume per currency, from the
 * server's series; a bar narrows the table to its time) and its latest sales as prices
 * over time. Both hold their place while they load.
 */
function CollectionCharts(props: CollectionChartsProps) {
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
  const allSales = salesQuery.data !== undefined && !salesQuery.data.pages[0]?.next;
  const oldest = saleRows[saleRows.length - 1]?.timestamp;
  const partial = uncoveredNote(coverage);
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
          range={allSales ? range : undefined}
          caption={
            allSales || oldest === undefined
              ? `Every sale of this view${coverage?.complete ? '' : ' indexed so far'} (${saleRows.length}), over the span of the activity chart.`
              : `The latest ${SALES_DRAWN} sales of this view, since ${formatDay(oldest)}.`
          }
        />
      )}
    </>
  );
}
