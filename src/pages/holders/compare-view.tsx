import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { compareExportHref, compareQueryOptions } from '../../api/holders';
import { useServerList } from '../../api/use-server-list';
import { countFigures, FigureList } from '../../components/figure-list';
import { LoadStatus } from '../../components/load-status';
import { ServerListTable } from '../../components/server-list-table';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { useNow } from '../../components/use-now';
import type { ListColumn, RowCellProps } from '../../components/table-features';
import type { HolderChange } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import {
  compareApiSearch,
  comparedDays,
  formatCompare,
  type CompareDays,
} from '../../lib/holders-view';
import { formatDay } from '../../lib/time';
import { updateSearch } from '../../lib/view-state';
import { CompareDaysField } from './compare-days-field';
import { CompareFigures } from './compare-figures';
import button from '../../components/button.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import { rankAndOwnerColumns } from './holder-columns';
import styles from './holders-page.module.css';

type CellProps = RowCellProps<HolderChange>;

const CHANGE_WORDS = { joined: 'Joined', left: 'Left', grew: 'Grew', shrank: 'Shrank' } as const;

function ChangeCell({ row }: CellProps) {
  const { from, to, change } = row.original;
  const difference = to - from;
  return (
    <>
      {CHANGE_WORDS[change]} ({difference > 0 ? '+' : '−'}
      {formatCount(Math.abs(difference))})
    </>
  );
}

const columnsOf = (fromLabel: string, toLabel: string): ListColumn<HolderChange>[] => [
  ...rankAndOwnerColumns<HolderChange>(),

  {
    id: 'from',
    header: fromLabel,
    enableSorting: false,
    meta: { className: styles.number, width: 9, priority: 2 },
    cell: ({ row }: CellProps) => <>{formatCount(row.original.from)}</>,
  },
  {
    id: 'to',
    header: toLabel,
    enableSorting: false,
    meta: { className: styles.number, width: 9, priority: 2 },
    cell: ({ row }: CellProps) => <>{formatCount(row.original.to)}</>,
  },
  {
    id: 'change',
    header: 'Change',
    enableSorting: false,
    meta: { width: 9 },
    cell: ChangeCell,
  },
];

const ownerKey = (row: HolderChange) => row.owner;

/**
 * The holders at the ends of two UTC days (the second may be now): who joined, who left,
 * who grew or shrank, the largest change first; the collection's figures at both; a CSV
 * file of each. The days live in the URL (`compare=2025-06-01..2025-06-29`); with none,
 * the last 30 days are compared.
 */
export function CompareView({ address, days }: { address: string; days: CompareDays | null }) {
  const [, setParams] = useSearchParams();
  const nowMs = useNow();
  const shown = comparedDays(days, nowMs);
  const search = compareApiSearch(shown);
  const query = useInfiniteQuery({
    ...compareQueryOptions(address, search),
    placeholderData: keepPreviousData,
  });
  const list = useServerList(query);
  const updating = query.isPlaceholderData;
  const answer = updating ? undefined : query.data?.pages[0]?.answer;
  const fromLabel = `End of ${formatDay(shown.from)}`;
  const toLabel = shown.to === null ? 'Now' : `End of ${formatDay(shown.to)}`;
  const choose = useCallback(
    (next: CompareDays) =>
      setParams((old) => updateSearch(old, { view: 'compare', compare: formatCompare(next) }), {
        replace: true,
      }),
    [setParams],
  );
  const count = list.items.length;
  const changed = answer?.changed;
  return (
    <>
      <div className={toolbar.toolbar}>
        <CompareDaysField days={shown} nowMs={nowMs} onChange={choose} />
        <a
          className={button.secondary}
          href={compareExportHref(address, search, 'holders')}
          download
        >
          Download holders CSV
        </a>
        <a
          className={button.secondary}
          href={compareExportHref(address, search, 'figures')}
          download
        >
          Download figures CSV
        </a>
      </div>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isError && count === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : !answer || !changed ? (
        <SkeletonRows columns={4} />
      ) : (
        <>
          <div className={`${section.figuresArea} ${styles.compareArea}`}>
            <FigureList
              figures={countFigures({
                Joined: changed.joined,
                Left: changed.left,
                Grew: changed.grew,
                Shrank: changed.shrank,
                Stayed: changed.stayed,
              })}
              busy={false}
              className={styles.changedFigures}
              label={`Holders from ${fromLabel.toLowerCase()} to ${toLabel.toLowerCase()}`}
            />
            <CompareFigures figures={answer.figures} fromLabel={fromLabel} toLabel={toLabel} />
          </div>
          <p className={`${styles.counted} muted small`}>
            {answer.counted} {answer.coverage.statement}
          </p>
        </>
      )}
      <h2 className={section.heading}>Holders whose count changed, largest change first</h2>
      {query.isPending ? (
        <SkeletonRows columns={5} />
      ) : query.isError && count === 0 ? null : count === 0 && !list.hasMore ? (
        <EmptyState title="No holder’s count changed">
          Every holder held as many tokens at both moments.
        </EmptyState>
      ) : (
        <>
          {updating ? (
            <p className={section.status} role="status" aria-live="polite">
              Loading the comparison…
            </p>
          ) : (
            <LoadStatus
              noun="holder"
              list={list}
              total={changed ? changed.joined + changed.left + changed.grew + changed.shrank : null}
            />
          )}
          <ServerListTable
            caption={`Holders whose count changed from ${fromLabel.toLowerCase()} to ${toLabel.toLowerCase()}`}
            list={list}
            updating={updating}
            noun="holders"
            columns={columnsOf(fromLabel, toLabel)}
            getRowKey={ownerKey}
            className={styles.list}
          />
        </>
      )}
    </>
  );
}
