import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { contractEventsQueryOptions, readAheadContractEvents } from '../../api/contract-events';
import { contractEventRows } from '../../api/list-shapes';
import { useWalkedList } from '../../api/use-walk';
import { ActivityChart } from '../../components/activity-chart';
import type { AddressFilter } from '../../components/address';
import { BadParam } from '../../components/bad-param';
import { contractEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { ExportButtons } from '../../components/export-buttons';
import { ListFooter } from '../../components/list-footer';
import { LoadStatus } from '../../components/load-status';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { contractName, useContract } from '../../components/use-contract';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { parseAddress } from '../../lib/address';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import {
  BURNS_NOT_LISTED,
  EVENT_SORTS,
  filterEvents,
  holdsBurn,
  sortEvents,
  type EventSort,
} from '../../lib/event-list';
import { formatCount } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import { formatSpanEnd, inSpan, parseTimeSpan, type TimeSpan } from '../../lib/time-span';
import type { TokenEvent } from '../../lib/token-event';
import {
  canonicalEventSearch,
  formatKinds,
  formatSort,
  formatTimeDisplay,
  parseAddressFilter,
  parseKinds,
  parseSort,
  parseTimeDisplay,
  updateSearch,
  type SortState,
  type TimeDisplay,
} from '../../lib/view-state';
import { ContractHeader } from './contract-header';
import { EventFilters } from './event-filters';
import { LiveNotice } from './live-notice';
import { LoadAll } from './load-all';
import { SCAN_BUDGET_EVENTS, useFilterScan } from './use-filter-scan';
import { useLiveEvents } from './use-live-events';
import button from '../../components/button.module.css';
import toolbar from '../../components/toolbar.module.css';

/** `/contracts/:address`: validates and canonicalises the URL, then shows the events. */
export function ContractEventsRoute() {
  const { address: raw = '' } = useParams();
  const location = useLocation();
  const parsed = parseAddress(raw);
  if (!parsed.ok) {
    return (
      <BadParam
        title="This is not a contract address"
        message={`“${raw.slice(0, 100)}”: ${parsed.error}`}
      />
    );
  }
  const search = canonicalEventSearch(new URLSearchParams(location.search), EVENT_SORTS);
  if (parsed.value !== raw || search !== location.search) {
    return <Navigate replace to={hrefs.contractEvents(parsed.value, search)} />;
  }
  // Keyed on the address: another contract is another page, with none of this one's
  // state (events added live, filter drafts, the walk, tracing).
  return <ContractEventsPage key={parsed.value} address={parsed.value} />;
}

export function ContractEventsPage({ address }: { address: string }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { timeZone, timeDisplay, pageSize } = useSettings();
  const nowMs = useNow();
  const readAhead = useCallback(() => readAheadContractEvents(address), [address]);
  const { query, list, walk } = useWalkedList({
    query: (walking) => contractEventsQueryOptions(address, pageSize, walking),
    shape: contractEventRows,
    readAhead,
  });
  const live = useLiveEvents(address, list.items, pageSize);
  const contract = useContract(address);
  useTitle(`${contractName(contract, address)} · activity`);
  const [traced, setTraced] = useState<string | null>(null);

  const kindParam = params.get('kind');
  const kinds = useMemo(() => parseKinds(kindParam), [kindParam]);
  const filterAddress = parseAddressFilter(params.get('address'));
  const fromParam = params.get('from');
  const toParam = params.get('to');
  const span = useMemo(() => parseTimeSpan(fromParam, toParam), [fromParam, toParam]);
  const sort = parseSort(params.get('sort'), EVENT_SORTS);
  const display = parseTimeDisplay(params.get('time')) ?? timeDisplay;
  // The table, chart and filters follow the loaded events at a lower priority: while
  // "Load full history" brings page after page, React renders them with the newest
  // events when it can instead of once per page, and the progress line stays current.
  const items = useDeferredValue(list.items);
  const loaded = useMemo(
    () => (live.added.length ? [...live.added, ...items] : items),
    [live.added, items],
  );
  const rows = useMemo(() => {
    const matching = filterEvents(loaded, kinds, filterAddress);
    return span ? matching.filter(inSpan(span)) : matching;
  }, [loaded, kinds, filterAddress, span]);
  // The service lists no burns by contract: where the loaded events hold none, the Burn
  // filter (and the chart's legend) say where burns are found.
  const burnsListed = useMemo(() => holdsBurn(loaded), [loaded]);
  const filterKey =
    kinds.length > 0 || filterAddress || span
      ? `${kindParam}|${filterAddress}|${fromParam}|${toParam}`
      : '';
  const scan = useFilterScan(list, filterKey, rows.length);

  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams((old) => updateSearch(old, changes), { replace: true }),
    [setParams],
  );
  const setSort = useCallback(
    (next: SortState<EventSort> | null) => set({ sort: formatSort(next) }),
    [set],
  );
  const setAddress = useCallback((next: string | null) => set({ address: next }), [set]);
  const setSpan = useCallback(
    (next: TimeSpan | null) =>
      set({
        from: next && formatSpanEnd(next.from),
        to: next && formatSpanEnd(next.to),
      }),
    [set],
  );
  const openToken = useCallback(
    (event: TokenEvent) => void navigate(hrefs.tokenHistory(event.contractAddress, event.tokenId)),
    [navigate],
  );
  const addressFilter = useMemo<AddressFilter>(() => {
    // The link keeps the view's other choices (kinds, sort, time display).
    const rest = updateSearch(params, { address: null }).toString();
    return {
      href: (value) => hrefs.contractEvents(address, `?address=${value}${rest ? `&${rest}` : ''}`),
      apply: setAddress,
    };
  }, [params, address, setAddress]);
  const view = useMemo(
    () => ({
      display,
      zone: timeZone,
      nowMs,
      activeAddress: filterAddress,
      addressFilter,
      tracedAddress: traced,
      onTrace: setTraced,
      onOpenToken: openToken,
    }),
    [display, timeZone, nowMs, filterAddress, addressFilter, traced, openToken],
  );
  const knownAddresses = useCallback(() => {
    const known = new Set<string>();
    for (const event of loaded) known.add(event.from).add(event.to);
    return known;
  }, [loaded]);
  const filtered = kinds.length > 0 || filterAddress !== null || span !== null;
  const firstType = list.items[0]?.contractType;
  const exportRows = () => sortEvents(rows, sort).map(eventExportRow);

  return (
    <section aria-labelledby="contract-title">
      <ContractHeader address={address} contract={contract} fallbackType={firstType} />
      <EventFilters
        kinds={kinds}
        onKindsChange={(next) => set({ kind: formatKinds(next) })}
        address={filterAddress}
        onAddressChange={setAddress}
        knownAddresses={knownAddresses}
        span={span}
        onSpanChange={setSpan}
        display={display}
        onDisplayChange={(next: TimeDisplay) => set({ time: formatTimeDisplay(next) })}
        burnsUnlisted={!burnsListed}
      />
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isPending ? (
        <SkeletonRows columns={7} />
      ) : query.isError && list.items.length === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : list.items.length === 0 && live.added.length === 0 && !list.hasMore ? (
        // One statement for an empty contract: no count of nothing, no end of nothing.
        <EmptyState title="No events">
          The service lists no mints, transfers or sales for this contract.
        </EmptyState>
      ) : (
        <>
          <ActivityChart
            events={rows}
            partial={list.hasMore}
            filtered={filtered}
            onSelect={setSpan}
            burnsUnlisted={!burnsListed}
          />
          <div className={toolbar.toolbar}>
            <LoadAll
              walk={walk}
              loaded={list.items.length}
              pages={list.pages}
              hasMore={list.hasMore}
              oldestLoaded={list.items[list.items.length - 1]?.timestamp}
            />
            {rows.length > 0 && (
              <ExportButtons
                rows={exportRows}
                columns={eventExportColumns}
                fileName={`events-${address.slice(0, 10)}`}
                meta={{
                  contract: address,
                  filters: Object.fromEntries(params),
                  exportedAt: new Date(nowMs).toISOString(),
                }}
              />
            )}
          </div>
          <LiveNotice count={live.fresh.length} gap={live.gap} onAdd={live.addFresh} />
          <LoadStatus
            noun="events"
            list={list}
            loaded={live.added.length + list.items.length}
            shown={filtered ? rows.length : undefined}
            sortedBy={sort?.id}
          />
          {scan.paused && (
            <p className="muted small" role="status">
              No screenful of matches in the last {formatCount(SCAN_BUDGET_EVENTS)} events read.{' '}
              <button type="button" className={button.secondary} onClick={scan.more}>
                Keep looking
              </button>
            </p>
          )}
          {loaded.length > 0 && rows.length === 0 && (
            <EmptyState title="No loaded event matches the filters">
              {kinds.includes('burn') && !burnsListed && <span>{BURNS_NOT_LISTED}</span>}
              <button
                type="button"
                className={button.button}
                onClick={() => set({ kind: null, address: null, from: null, to: null })}
              >
                Reset filters
              </button>
            </EmptyState>
          )}
          {rows.length > 0 && (
            <EventTable
              caption="Events of this contract"
              rows={rows}
              columns={contractEventColumns}
              sort={sort}
              onSortChange={setSort}
              onNearEnd={filtered ? scan.more : list.loadMoreAuto}
              onRowOpen={openToken}
              view={view}
            />
          )}
          <ListFooter noun="events" list={list} />
        </>
      )}
    </section>
  );
}
