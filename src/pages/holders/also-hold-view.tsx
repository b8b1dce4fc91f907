import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { alsoHoldExportHref, alsoHoldQueryOptions } from '../../api/holders';
import { DataTable } from '../../components/data-table';
import { countFigures, FigureList } from '../../components/figure-list';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { rankColumn, type ListColumn, type RowCellProps } from '../../components/table-features';
import { shortenHex } from '../../lib/address';
import type { AlsoHeld } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import button from '../../components/button.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './holders-page.module.css';

type CellProps = RowCellProps<AlsoHeld>;

/** A collection's name (or short address), to its page; and the way to who holds both. */
function CollectionCell({ row }: CellProps) {
  const held = row.original;
  return (
    <span className={styles.collection}>
      <Link to={hrefs.contractEvents(held.address)} title={held.address}>
        {held.name ?? shortenHex(held.address)}
      </Link>
    </span>
  );
}

function BothCell({ row, address }: CellProps & { address: string }) {
  return (
    <Link
      to={hrefs.holders(address, `?view=overlap&with=${row.original.address}`)}
      aria-label={`Who holds both: ${row.original.name ?? row.original.address}`}
    >
      Who holds both
    </Link>
  );
}

const number = (
  id: string,
  header: string,
  value: (held: AlsoHeld) => string,
  priority?: number,
): ListColumn<AlsoHeld> => ({
  id,
  header,
  enableSorting: false,
  meta: { className: styles.number, width: 9, ...(priority !== undefined && { priority }) },
  cell: ({ row }: CellProps) => <>{value(row.original)}</>,
});

const columnsOf = (address: string): ListColumn<AlsoHeld>[] => [
  rankColumn(styles.rank, ({ row }: CellProps) => <>{row.index + 1}</>),
  {
    id: 'collection',
    header: 'Collection',
    enableSorting: false,
    meta: { minWidth: 10, cardLabel: false, className: styles.owner },
    cell: CollectionCell,
  },
  number('inCommon', 'In common', (held) => formatCount(held.inCommon)),
  number('share', 'Share here', (held) => formatShare(held.share)),
  number('holders', 'Its holders', (held) => formatCount(held.holders), 2),
  number('theirShare', 'Share there', (held) => formatShare(held.theirShare), 3),
  {
    id: 'both',
    header: 'Overlap',
    enableSorting: false,
    meta: { width: 11, cardLabel: false },
    cell: (props: CellProps) => <BothCell {...props} address={address} />,
  },
];

const keyOf = (held: AlsoHeld) => held.address;
const asSent = (rows: readonly AlsoHeld[]) => rows;
const noSort = () => {};

/**
 * The collections this collection's holders hold most, now: how many of its holders hold
 * each, as a share of its holders and of that collection's own; each a way to the
 * wallets that hold both. The whole list as a CSV file.
 */
export function AlsoHoldView({ address }: { address: string }) {
  const query = useQuery(alsoHoldQueryOptions(address));
  const answer = query.data;
  return (
    <>
      <div className={toolbar.toolbar}>
        <a className={button.secondary} href={alsoHoldExportHref(address)} download>
          Download CSV
        </a>
      </div>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      <h2 className={section.heading}>What its holders also hold, now</h2>
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : !answer ? (
        <SkeletonRows columns={5} />
      ) : answer.collections.length === 0 ? (
        <EmptyState title="No other collection in common">
          {answer.holders === 0
            ? 'This collection has no holders indexed yet.'
            : 'None of its holders holds a token of another collection the index holds.'}
        </EmptyState>
      ) : (
        <>
          <FigureList
            figures={countFigures({
              'Its holders': answer.holders,
              'Collections shown': answer.collections.length,
            })}
            busy={false}
            className={styles.figures}
            label="What its holders also hold"
          />
          <DataTable
            caption="Collections its holders also hold, most holders in common first"
            rows={answer.collections}
            columns={columnsOf(address)}
            getRowKey={keyOf}
            sort={null}
            onSortChange={noSort}
            sortRows={asSent}
            className={styles.list}
          />
          <p className={`${styles.counted} muted small`}>
            {answer.counted} {answer.coverage.statement}
          </p>
        </>
      )}
    </>
  );
}
