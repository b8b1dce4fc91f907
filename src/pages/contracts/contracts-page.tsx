import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type MouseEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { rankingsQueryOptions } from '../../api/rankings';
import { useServerList, type ServerList } from '../../api/use-server-list';
import { CanonicalRedirect, LeftOut } from '../../components/bad-param';
import { isPlainClick } from '../../components/plain-click';
import { ServerListTable } from '../../components/server-list-table';
import { useSettings } from '../../components/settings';
import {
  EmptyState,
  ErrorState,
  RetryingNotice,
  ServerFaults,
  SkeletonRows,
} from '../../components/states';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import type { RankedContract, RankingSortId } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import { CURRENCIES } from '../../lib/price';
import {
  DEFAULT_RANKING,
  parseRankingView,
  rankingSearch,
  readRankingSearch,
  type RankingView,
} from '../../lib/ranking-view';
import { hrefs } from '../../lib/routes';
import type { SortState } from '../../lib/view-state';
import { RankingCells } from './ranking-cells';
import { rankingColumns, rankingTableClass } from './ranking-columns';
import { RankingIntro } from './ranking-intro';
import { RankingToolbar } from './ranking-toolbar';
import { QuietWindow, WINDOW_PHRASES } from './quiet-window';
import { useRankingUpdates } from './use-ranking-updates';
import { WashSwitch } from '../../components/wash-switch';
import button from '../../components/button.module.css';
import status from '../../components/load-status.module.css';

/** `/contracts`: the canonical URL first (known values only, defaults left out). */
export function ContractsPage() {
  const location = useLocation();
  const reading = readRankingSearch(new URLSearchParams(location.search));
  if (reading.search !== location.search) {
    return <CanonicalRedirect to={hrefs.contracts(reading.search)} reading={reading} />;
  }
  return <RankingPage />;
}

const contractKey = (contract: RankedContract) => contract.address;
// The server sorts: the table shows its order as it comes.

/** The words of a sort for the status line. */
const SORT_NAMES: Record<RankingSortId, string> = {
  events: 'events',
  sales: 'sales',
  volume: 'volume',
  holders: 'holders',
  last: 'last activity',
  name: 'name',
};

/** "50 collections loaded · more available · by sales in the last 7 days · matching “x”". */
function loadedText(list: ServerList<RankedContract>, view: RankingView): string {
  const count = formatCount(list.items.length);
  const loaded = list.hasMore
    ? `${count} collections loaded · ${list.isLoadingMore ? 'loading more…' : 'more available'}`
    : `all ${count} collections`;
  const matching = view.q ? ` · matching “${view.q}”` : '';
  return `${loaded} · by ${SORT_NAMES[view.sort.id]} ${WINDOW_PHRASES[view.window]}${matching}`;
}

/**
 * Collections ranked by the query API over the whole index: the server sorts and filters,
 * the page asks for one page of the ranking at a time as the table nears its end.
 */
function RankingPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { timeZone, timeDisplay } = useSettings();
  const nowMs = useNow();
  const view = useMemo(() => parseRankingView(params), [params]);
  const search = rankingSearch(view);
  useTitle('Collections · NFT activity on Starknet');

  // The rows of the previous view stay while the next loads: the table (and the sort
  // header just pressed, with the focus) is not replaced by placeholders.
  const query = useInfiniteQuery({
    ...rankingsQueryOptions(search),
    placeholderData: keepPreviousData,
  });
  const list = useServerList(query);
  const updating = query.isPlaceholderData;
  const updated = useRankingUpdates(search);

  const setView = useCallback(
    (changes: Partial<RankingView>) =>
      setParams(new URLSearchParams(rankingSearch({ ...view, ...changes })), { replace: true }),
    [setParams, view],
  );
  const setSort = useCallback(
    (sort: SortState<RankingSortId> | null) => setView({ sort: sort ?? DEFAULT_RANKING.sort }),
    [setView],
  );
  const open = useCallback(
    (contract: RankedContract) => void navigate(hrefs.contractEvents(contract.address)),
    [navigate],
  );
  // A click anywhere on a row follows its link (a real one, for middle-click and copy).
  const openRowOf = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      if (!isPlainClick(event) || !(event.target instanceof Element)) return;
      const row = event.target.closest('tbody tr[data-index]');
      // A control of the row (its link, a copy button) does its own thing.
      const control = event.target.closest('a, button, input, select, label, [tabindex="0"]');
      if (!row || (control && row.contains(control))) return;
      const href = row.querySelector('a[data-row-link]')?.getAttribute('href');
      if (href) void navigate(href);
    },
    [navigate],
  );

  const columns = useMemo(() => rankingColumns(view.currency), [view.currency]);
  const cells = useMemo(
    () => ({ currency: view.currency, display: timeDisplay, zone: timeZone, nowMs, updated }),
    [view.currency, timeDisplay, timeZone, nowMs, updated],
  );
  const count = list.items.length;
  const firstPage = query.data?.pages[0];

  return (
    <section aria-labelledby="contracts-title">
      <RankingIntro assumedEth={view.currency === CURRENCIES[0]} />
      <LeftOut />
      <RankingToolbar view={view} onChange={setView} />
      <WashSwitch
        exclude={view.excludeWash}
        flagged={firstPage?.window.washSales}
        onChange={(excludeWash) => setView({ excludeWash })}
      />
      <QuietWindow
        window={view.window}
        answer={updating ? undefined : firstPage?.window}
        onWindow={(window) => setView({ window })}
      />
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      <ServerFaults faults={query.data?.pages.at(-1)?.faults} />
      {query.isPending ? (
        <SkeletonRows columns={6} />
      ) : query.isError && count === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : count === 0 && !list.hasMore ? (
        view.q ? (
          <EmptyState title={`No collection matches “${view.q}”`}>
            <span>The search looks through every collection’s name, symbol and address.</span>
            <button type="button" className={button.button} onClick={() => setView({ q: '' })}>
              Clear the search
            </button>
          </EmptyState>
        ) : (
          <EmptyState title="No collections yet">
            The index lists no collection yet: the service’s list of collections has not been read.
            Try again in a moment.
          </EmptyState>
        )
      ) : (
        <>
          <p className={status.status} role="status" aria-live="polite">
            {updating ? 'Loading the ranking…' : loadedText(list, view)}
          </p>
          <RankingCells.Provider value={cells}>
            {/* A click on a row is a mouse's shortcut to the link the row holds. */}
            <ServerListTable
              caption={`Collections ranked by ${SORT_NAMES[view.sort.id]}`}
              list={list}
              updating={updating}
              noun="collections"
              onClick={openRowOf}
              columns={columns}
              getRowKey={contractKey}
              sort={view.sort}
              onSortChange={setSort}
              rowHeight={56}
              className={rankingTableClass}
              onRowOpen={open}
            />
          </RankingCells.Provider>
        </>
      )}
    </section>
  );
}
