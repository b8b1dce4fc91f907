import { useCallback, useMemo } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { tokenEventRows } from '../../api/list-shapes';
import { readAheadTokenEvents, tokenEventsQueryOptions } from '../../api/token-events';
import { useWalkedList } from '../../api/use-walk';
import type { AddressFilter } from '../../components/address';
import { BadParam } from '../../components/bad-param';
import { tokenEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { ExportButtons } from '../../components/export-buttons';
import { ListFooter } from '../../components/list-footer';
import { LoadStatus } from '../../components/load-status';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { contractName, useContract } from '../../components/use-contract';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { parseAddress } from '../../lib/address';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import { EVENT_SORTS, sortByTime, sortEvents, type EventSort } from '../../lib/event-list';
import { buildProvenance } from '../../lib/provenance';
import { hrefs } from '../../lib/routes';
import { parseTokenId, tokenIdToDecimal } from '../../lib/token-id';
import {
  canonicalEventSearch,
  formatSort,
  formatTimeDisplay,
  parseSort,
  parseTimeDisplay,
  updateSearch,
  type SortState,
} from '../../lib/view-state';
import { ProvenanceSummary } from './provenance-summary';
import { ProvenanceTimeline } from './provenance-timeline';
import { shortTokenId, TokenHeader } from './token-header';
import button from '../../components/button.module.css';
import notice from '../../components/notice.module.css';
import toolbar from '../../components/toolbar.module.css';
import progress from '../../components/walk-progress.module.css';
import styles from './token-history-page.module.css';

/** `/contracts/:address/tokens/:tokenId`: decimal or hex ids; the canonical URL is decimal. */
export function TokenHistoryRoute() {
  const { address: rawAddress = '', tokenId: rawTokenId = '' } = useParams();
  const location = useLocation();
  const address = parseAddress(rawAddress);
  if (!address.ok) {
    return (
      <BadParam
        title="This is not a contract address"
        message={`“${rawAddress.slice(0, 100)}”: ${address.error}`}
      />
    );
  }
  const tokenId = parseTokenId(rawTokenId);
  if (!tokenId.ok) {
    return (
      <BadParam
        title="This is not a token id"
        message={`“${rawTokenId.slice(0, 100)}”: ${tokenId.error}`}
      />
    );
  }
  const decimal = tokenIdToDecimal(tokenId.value);
  const search = canonicalEventSearch(new URLSearchParams(location.search), EVENT_SORTS);
  if (address.value !== rawAddress || decimal !== rawTokenId || search !== location.search) {
    return <Navigate replace to={hrefs.tokenHistory(address.value, decimal, search)} />;
  }
  return (
    <TokenHistoryPage
      key={`${address.value}/${decimal}`}
      address={address.value}
      tokenId={decimal}
    />
  );
}

export function TokenHistoryPage({ address, tokenId }: { address: string; tokenId: string }) {
  const [params, setParams] = useSearchParams();
  const { timeZone, timeDisplay } = useSettings();
  const nowMs = useNow();
  // A token's history is short and unordered upstream, so every page is loaded.
  const readAhead = useCallback(() => readAheadTokenEvents(address, tokenId), [address, tokenId]);
  const { query, list, walk } = useWalkedList({
    query: (walking) => tokenEventsQueryOptions(address, tokenId, walking),
    shape: tokenEventRows,
    readAhead,
    auto: true,
  });
  const paused = !walk.on;

  const ordered = useMemo(() => sortByTime(list.items), [list.items]);
  const provenance = useMemo(() => buildProvenance(ordered), [ordered]);
  const sort = parseSort(params.get('sort'), EVENT_SORTS);
  const display = parseTimeDisplay(params.get('time')) ?? timeDisplay;
  const setSort = useCallback(
    (next: SortState<EventSort> | null) =>
      setParams((old) => updateSearch(old, { sort: formatSort(next) }), { replace: true }),
    [setParams],
  );
  const contract = useContract(address);
  const type = contract?.type ?? list.items[0]?.contractType;
  useTitle(`Token ${shortTokenId(tokenId)} · ${contractName(contract, address)}`);
  // An address leads to the contract's events with it, as it filters them there.
  const addressFilter = useMemo<AddressFilter>(
    () => ({
      href: (value) => hrefs.contractEvents(address, `?address=${value}`),
      title: 'show the contract’s events with this address',
    }),
    [address],
  );
  const view = useMemo(
    () => ({ display, zone: timeZone, nowMs, activeAddress: null, addressFilter }),
    [display, timeZone, nowMs, addressFilter],
  );
  const complete = !list.hasMore && !query.isPending;
  const loading = list.hasMore && !paused && !query.isFetchNextPageError;

  return (
    <section aria-labelledby="token-title">
      <TokenHeader address={address} contract={contract} tokenId={tokenId} type={type} />
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isPending ? (
        <SkeletonRows columns={6} rows={4} />
      ) : query.isError && list.items.length === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          {loading && (
            <div className={progress.progress} role="status">
              <progress aria-label="Loading the token's history" />
              <span>
                Loading the whole history: {list.items.length.toLocaleString('en')} events from{' '}
                {list.pages} page{list.pages === 1 ? '' : 's'} so far…
              </span>
              <button type="button" className={button.secondary} onClick={walk.cancel}>
                Cancel
              </button>
            </div>
          )}
          {paused && list.hasMore && (
            <div className={notice.notice} role="status">
              Loading was cancelled: the history below may be incomplete.
              <button type="button" className={button.button} onClick={walk.start}>
                Continue loading
              </button>
            </div>
          )}
          {list.items.length === 0 && !list.hasMore ? (
            <EmptyState title="No events for this token">
              The service has no events for token {tokenId} of this contract.
            </EmptyState>
          ) : (
            <>
              <ProvenanceSummary
                provenance={provenance}
                complete={complete}
                filter={addressFilter}
                quantities={type === 'ERC1155'}
              />
              <div className={styles.columns}>
                <div className={styles.events}>
                  <div className={toolbar.toolbar}>
                    <ExportButtons
                      rows={() => sortEvents(ordered, sort).map(eventExportRow)}
                      columns={eventExportColumns}
                      fileName={`token-${tokenId.slice(0, 20)}`}
                      meta={{ contract: address, tokenId, complete }}
                    />
                    <TimeDisplayToggle
                      display={display}
                      onChange={(next) =>
                        setParams((old) => updateSearch(old, { time: formatTimeDisplay(next) }), {
                          replace: true,
                        })
                      }
                    />
                  </div>
                  <LoadStatus noun="events" list={list} sortedBy={sort?.id} />
                  <EventTable
                    caption={`History of token ${tokenId}, oldest first`}
                    rows={ordered}
                    columns={tokenEventColumns}
                    sort={sort}
                    onSortChange={setSort}
                    view={view}
                  />
                </div>
                <ProvenanceTimeline
                  provenance={provenance}
                  complete={complete}
                  zone={timeZone}
                  filter={addressFilter}
                />
              </div>
            </>
          )}
          {(query.isFetchNextPageError || (paused && list.hasMore) || list.endUnsure) && (
            <ListFooter noun="events" list={list} />
          )}
        </>
      )}
    </section>
  );
}
