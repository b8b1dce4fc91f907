import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  collectionEventsQueryOptions,
  collectionQueryOptions,
  collectionSeriesQueryOptions,
  collectionViewFiguresQueryOptions,
} from '../../api/collection';
import { ApiError } from '../../api/api-error';
import { useServerList } from '../../api/use-server-list';
import type { AddressFilter } from '../../components/address';
import { CoverageNote } from '../../components/coverage-note';
import { contractEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { ListFooter } from '../../components/list-footer';
import { LeftOut } from '../../components/bad-param';
import { LoadStatus } from '../../components/load-status';
import { paramRoute } from '../../components/param-route';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { useViewSearch } from '../../components/use-view-search';
import { activeSpan, chartRange } from '../../lib/activity';
import { parseAddress, shortenHex } from '../../lib/address';
import { MAX_PAGE_SIZE } from '../../lib/answers';
import { collectionTitle } from '../../lib/collection-title';
import {
  isFiltered,
  NEWEST_FIRST,
  NO_FILTERS,
  parseEventView,
  readEventSearch,
  viewApiParams,
} from '../../lib/event-view';
import { hrefs } from '../../lib/routes';
import { formatSpanEnd } from '../../lib/time-span';
import { updateSearch } from '../../lib/view-state';
import { FoldedCharts } from './collection-charts';
import { CollectionHeader } from './collection-header';
import { EventFilters } from './event-filters';
import { EventsToolbar } from './events-toolbar';
import { NotACollection } from './not-a-collection';
import { useIndexRefresh } from './use-index-refresh';
import { useNewEvents } from './use-new-events';
import { ViewFiguresLine } from './view-figures';
import button from '../../components/button.module.css';

/** `/contracts/:address`: validates and canonicalises the URL, then shows the collection. */
export const ContractEventsRoute = paramRoute({
  params: { address: ['This is not a contract address', parseAddress] },
  search: readEventSearch,
  href: ({ address }, search) => hrefs.contractEvents(address, search),
  Page: ContractEventsPage,
});

export function ContractEventsPage({ address }: { address: string }) {
  const { params, set, setSort, display, setDisplay } = useViewSearch();
  const navigate = useNavigate();
  const { timeZone, pageSize } = useSettings();
  const nowMs = useNow();
  const nowSeconds = Math.floor(nowMs / 1000);
  const view = useMemo(() => parseEventView(params), [params]);
  const apiSearch = viewApiParams(view, true).toString();
  const filterSearch = viewApiParams(view, false).toString();

  const collectionQuery = useQuery(collectionQueryOptions(address, view.wash === 'exclude'));
  const collection = collectionQuery.data;
  const eventsOptions = collectionEventsQueryOptions(
    address,
    apiSearch,
    Math.min(pageSize, MAX_PAGE_SIZE),
  );
  const eventsQuery = useInfiniteQuery(eventsOptions);
  const list = useServerList(eventsQuery);
  const range = chartRange(view.span, activeSpan(collection?.figures), nowSeconds);
  const seriesQuery = useQuery({
    ...collectionSeriesQueryOptions(address, filterSearch, range.interval),
    enabled: collection !== undefined,
  });
  const filtered = isFiltered(view);
  const priceSort = view.sort?.id === 'price';
  // The view's own figures: only a filter or a price sort (its priced sales) needs them.
  const viewFiguresQuery = useQuery(
    collectionViewFiguresQueryOptions(address, filterSearch, filtered || priceSort),
  );
  const viewCounts = viewFiguresQuery.data?.figures;
  useIndexRefresh(address, collection?.coverage);
  const live = useNewEvents(address, eventsOptions.queryKey, view, (span) =>
    set({ from: formatSpanEnd(span.from), to: formatSpanEnd(span.to) }),
  );
  const missing = collectionQuery.error;
  const notACollection =
    missing instanceof ApiError && missing.kind === 'not_found' && !collection ? missing : null;
  useTitle(
    notACollection
      ? `Not a collection: ${shortenHex(address)}`
      : `${collectionTitle(collection, address)} · activity`,
  );
  const [traced, setTraced] = useState<string | null>(null);

  const openToken = useCallback(
    (event: { contractAddress: string; tokenId: string }) =>
      void navigate(hrefs.tokenHistory(event.contractAddress, event.tokenId)),
    [navigate],
  );
  const addressFilter = useMemo<AddressFilter>(() => {
    // The link keeps the view's other choices (kinds, sort, time display).
    const rest = updateSearch(params, { address: null }).toString();
    return {
      href: (value) => hrefs.contractEvents(address, `?address=${value}${rest ? `&${rest}` : ''}`),
      apply: (value) => set({ address: value }),
    };
  }, [params, address, set]);
  const cellView = useMemo(
    () => ({
      display,
      zone: timeZone,
      nowMs,
      activeAddress: view.address,
      addressFilter,
      tracedAddress: traced,
      onTrace: setTraced,
      onOpenToken: openToken,
      freshSince: live.freshSince,
    }),
    [display, timeZone, nowMs, view.address, addressFilter, traced, openToken, live.freshSince],
  );
  const knownAddresses = useCallback(() => {
    const known = new Set<string>();
    for (const event of list.items) known.add(event.from).add(event.to);
    return known;
  }, [list.items]);
  const firstPage = eventsQuery.data?.pages[0];
  const coverage = collection?.coverage ?? firstPage?.coverage ?? undefined;
  // How many rows the whole list holds: a price sort lists the priced sales alone.
  const total = priceSort
    ? (viewCounts?.priced ?? null)
    : filtered
      ? (viewCounts?.events ?? null)
      : (collection?.figures?.events ?? null);

  if (notACollection) return <NotACollection address={address} message={notACollection.message} />;
  return (
    <section aria-labelledby="contract-title">
      <CollectionHeader address={address} collection={collection} />
      <CoverageNote coverage={coverage} nowMs={nowMs} />
      {collectionQuery.isError && !collection && (
        <ErrorState
          compact
          error={collectionQuery.error}
          onRetry={() => void collectionQuery.refetch()}
        />
      )}
      <LeftOut />
      <EventFilters
        view={view}
        onChange={set}
        figures={collection?.figures}
        knownAddresses={knownAddresses}
        display={display}
        onDisplayChange={setDisplay}
      />
      {filtered && <ViewFiguresLine figures={viewCounts} whole={collection?.figures} />}
      <FoldedCharts
        address={address}
        series={seriesQuery.data}
        coverage={coverage}
        range={range}
        filterSearch={filterSearch}
        onSelectSpan={(span) => set({ from: formatSpanEnd(span.from), to: formatSpanEnd(span.to) })}
        onOpenToken={openToken}
      />
      <EventsToolbar
        address={address}
        apiSearch={apiSearch}
        fresh={live.fresh}
        onShowFresh={live.show}
      />
      <RetryingNotice error={eventsQuery.failureReason} failureCount={eventsQuery.failureCount} />
      {eventsQuery.isPending ? (
        <SkeletonRows columns={7} />
      ) : eventsQuery.isError && list.items.length === 0 ? (
        <ErrorState error={eventsQuery.error} onRetry={() => void eventsQuery.refetch()} />
      ) : list.items.length === 0 && !list.hasMore ? (
        filtered ? (
          <EmptyState title="No event matches the filters">
            <span>
              {coverage?.complete
                ? 'Over the whole history.'
                : 'Among the events indexed so far; the indexer is still reading older ones.'}
            </span>
            <button type="button" className={button.button} onClick={() => set(NO_FILTERS)}>
              Reset filters
            </button>
          </EmptyState>
        ) : (
          <EmptyState title="No events">
            {coverage?.complete
              ? 'The service lists no mints, transfers or sales for this collection.'
              : 'None indexed yet: the indexer is reading this collection’s history.'}
          </EmptyState>
        )
      ) : (
        <>
          <LoadStatus
            noun={priceSort ? 'priced sale' : 'event'}
            list={list}
            total={total}
            order={view.sort && view.sort.id !== 'time' ? (firstPage?.order ?? null) : null}
          />
          <EventTable
            caption="Events of this collection"
            rows={list.items}
            columns={contractEventColumns}
            sort={view.sort}
            defaultSort={NEWEST_FIRST}
            onSortChange={setSort}
            serverSorted
            onNearEnd={list.loadMoreAuto}
            onRowOpen={openToken}
            view={cellView}
          />
          <ListFooter
            noun="events"
            list={list}
            waitingNote="The indexer has not reached older events yet; more come as it reads."
          />
        </>
      )}
    </section>
  );
}
