import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { alsoHoldQueryOptions, overlapExportHref, overlapQueryOptions } from '../../api/holders';
import { useServerList } from '../../api/use-server-list';
import { countFigures, FigureList } from '../../components/figure-list';
import { LoadStatus } from '../../components/load-status';
import { ServerListTable } from '../../components/server-list-table';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import type { ListColumn, RowCellProps } from '../../components/table-features';
import { shortenHex } from '../../lib/address';
import type { OverlapHolder } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import { updateSearch } from '../../lib/view-state';
import { OtherCollectionField } from './other-collection-field';
import button from '../../components/button.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import { rankAndOwnerColumns } from './holder-columns';
import styles from './holders-page.module.css';

type CellProps = RowCellProps<OverlapHolder>;

const columns: ListColumn<OverlapHolder>[] = [
  ...rankAndOwnerColumns<OverlapHolder>(),

  {
    id: 'tokens',
    header: 'Tokens here',
    enableSorting: false,
    meta: { className: styles.number, width: 9 },
    cell: ({ row }: CellProps) => <>{formatCount(row.original.tokens)}</>,
  },
  {
    id: 'otherTokens',
    header: 'Tokens there',
    enableSorting: false,
    meta: { className: styles.number, width: 9 },
    cell: ({ row }: CellProps) => <>{formatCount(row.original.otherTokens)}</>,
  },
];

const ownerKey = (holder: OverlapHolder) => holder.owner;

/**
 * Who holds this collection and another, now: how many hold each and both, as shares of
 * each's holders, and every wallet holding both (most tokens here first), as a CSV file
 * too. With no other collection named yet, a field for one and the collections its
 * holders also hold most, to pick from.
 */
export function OverlapView({ address, other }: { address: string; other: string | null }) {
  const [, setParams] = useSearchParams();
  const choose = useCallback(
    (next: string) =>
      setParams((old) => updateSearch(old, { view: 'overlap', with: next }), { replace: false }),
    [setParams],
  );
  return (
    <>
      <div className={toolbar.toolbar}>
        <OtherCollectionField key={other} other={other} onChange={choose} />
        {other && (
          <a className={button.secondary} href={overlapExportHref(address, other)} download>
            Download CSV
          </a>
        )}
      </div>
      {other === null ? (
        <Suggestions address={address} />
      ) : (
        <Overlap address={address} other={other} />
      )}
    </>
  );
}

function Overlap({ address, other }: { address: string; other: string }) {
  const query = useInfiniteQuery(overlapQueryOptions(address, other));
  const list = useServerList(query);
  const answer = query.data?.pages[0]?.answer;
  const otherName = answer?.other.name ?? shortenHex(other);
  const count = list.items.length;
  return (
    <>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      <h2 className={section.heading}>
        Who holds both this collection and{' '}
        <Link to={hrefs.contractEvents(other)} title={other}>
          {otherName}
        </Link>
        , now
      </h2>
      {query.isError && count === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending || !answer ? (
        <SkeletonRows columns={4} />
      ) : (
        <>
          <FigureList
            figures={[
              ...countFigures({
                'Its holders': answer.holders,
                [`Holders of ${otherName}`]: answer.otherHolders,
                'Hold both': answer.inCommon,
              }),
              ['Of its holders', formatShare(answer.share)],
              [`Of ${otherName}’s`, formatShare(answer.otherShare)],
            ]}
            busy={false}
            className={styles.figures}
            label="Holders of both"
          />
          {count === 0 && !list.hasMore ? (
            <EmptyState title="Nobody holds both">
              No wallet holds a token of both collections now, as far as the index holds them.
            </EmptyState>
          ) : (
            <>
              <LoadStatus noun="holder" list={list} total={answer.inCommon} />
              <ServerListTable
                caption={`Holders of both, most tokens here first`}
                list={list}
                updating={false}
                noun="holders"
                columns={columns}
                getRowKey={ownerKey}
                className={styles.list}
              />
            </>
          )}
          <p className={`${styles.counted} muted small`}>
            {answer.counted} This collection: {answer.coverage.statement} {otherName}:{' '}
            {answer.otherCoverage.statement}
          </p>
        </>
      )}
    </>
  );
}

/** The collections its holders also hold most: each a link to the overlap with it. */
function Suggestions({ address }: { address: string }) {
  const query = useQuery(alsoHoldQueryOptions(address));
  const shown = query.data?.collections.slice(0, 5) ?? [];
  if (shown.length === 0) return null;
  return (
    <>
      <h2 className={section.heading}>Or one its holders also hold</h2>
      <ul className={styles.suggestions}>
        {shown.map((held) => (
          <li key={held.address}>
            <Link to={hrefs.holders(address, `?view=overlap&with=${held.address}`)}>
              {held.name ?? shortenHex(held.address)}
            </Link>{' '}
            <span className="muted">({formatCount(held.inCommon)} holders in common)</span>
          </li>
        ))}
      </ul>
    </>
  );
}
