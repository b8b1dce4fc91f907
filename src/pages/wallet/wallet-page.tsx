import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useId, useMemo, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useServerList } from '../../api/use-server-list';
import { walletEventsQueryOptions, walletQueryOptions } from '../../api/wallets';
import { contractEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { LeftOut } from '../../components/bad-param';
import { isPlainClick } from '../../components/plain-click';
import { ListFooter } from '../../components/list-footer';
import { paramRoute } from '../../components/param-route';
import { useSettings } from '../../components/settings';
import {
  EmptyState,
  ErrorState,
  RetryingNotice,
  ServerFaults,
  SkeletonRows,
} from '../../components/states';
import type { ListColumn } from '../../components/table-features';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { useViewSearch } from '../../components/use-view-search';
import { canonicalAddress, parseAddress, shortenHex } from '../../lib/address';
import type { WalletCollection } from '../../lib/answers';
import { EVENT_SORTS } from '../../lib/event-list';
import { formatCount } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import type { TokenEvent } from '../../lib/token-event';
import {
  readAddress,
  readSort,
  readTimeDisplay,
  Reasons,
  searchReading,
} from '../../lib/param-reading';
import { readTaxYear, utcYear } from '../../lib/tax-year';
import { formatSort, formatTimeDisplay, parseSort, updateSearch } from '../../lib/view-state';
import { collectionName, WalletCollections } from './wallet-collections';
import { WalletHeader } from './wallet-header';
import { WalletInCollection } from './wallet-in-collection';
import { WalletTaxYear } from './wallet-tax-year';
import { WalletTotals } from './wallet-totals';
import { useNewWalletEvents } from './use-new-wallet-events';
import field from '../../components/field.module.css';
import status from '../../components/load-status.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './wallet-page.module.css';

/** The wallet's view read: its collection filter, sort and time display. */
export function readWalletSearch(params: URLSearchParams, nowMs = Date.now()) {
  const reasons = new Reasons();
  const collection = readAddress(
    'collection',
    params.get('collection'),
    'every collection of the wallet is shown',
  );
  const sort = readSort(params.get('sort'), EVENT_SORTS, 'newest first');
  const year = readTaxYear(params.get('year'), utcYear(nowMs));
  return searchReading(
    params,
    [
      ['collection', reasons.take(collection)],
      ['year', reasons.take(year)?.toString() ?? null],
      ['sort', formatSort(reasons.take(sort))],
      ['time', formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))))],
    ],
    reasons,
  );
}

/** `/addresses/:address`: any address in any case; the canonical URL is lowercase, padded. */
export const WalletRoute = paramRoute({
  params: { address: ['This is not a wallet address', parseAddress] },
  search: readWalletSearch,
  href: ({ address }, search) => hrefs.wallet(address, search),
  Page: WalletPage,
});

/** What the collection cells read: names (the wallet answer's) and the way into the app. */
interface CollectionsView {
  collections: ReadonlyMap<string, WalletCollection>;
  open: (href: string) => void;
}
const CollectionsContext = createContext<CollectionsView>({
  collections: new Map(),
  open: () => {},
});

function CollectionCell({ row }: { row: { original: TokenEvent } }) {
  const { collections, open } = useContext(CollectionsContext);
  const address = row.original.contractAddress;
  const name = collectionName(collections.get(address), address);
  const href = hrefs.contractEvents(address);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    open(href);
  };
  return (
    <a className={styles.collectionLink} href={href} title={name} onClick={follow}>
      {name}
    </a>
  );
}

const collectionColumn: ListColumn<TokenEvent> = {
  id: 'collection',
  header: 'Collection',
  enableSorting: false,
  meta: { className: styles.collectionCell, width: 11.5, priority: 3, cardLabel: false },
  cell: CollectionCell,
};

/**
 * Every collection: the contract's columns with the collection after the token; on a
 * narrow table it gives way after the transaction and the price.
 */
const allCollectionsColumns: ListColumn<TokenEvent>[] = contractEventColumns.flatMap((column) =>
  column.id === 'token' ? [column, collectionColumn] : [column],
);

export function WalletPage({ address }: { address: string }) {
  const { params, set, setSort, display, setDisplay } = useViewSearch();
  const navigate = useNavigate();
  const { timeZone } = useSettings();
  const nowMs = useNow();
  const collection = canonicalAddress(params.get('collection') ?? '');
  const sort = parseSort(params.get('sort'), EVENT_SORTS);
  useTitle(`Wallet ${shortenHex(address)}`);

  const wallet = useQuery(walletQueryOptions(address));
  const events = useInfiniteQuery(walletEventsQueryOptions(address, collection));
  const list = useServerList(events);
  const rows = list.items;
  const freshSince = useNewWalletEvents(address, collection);
  const collections = useMemo(
    () => new Map((wallet.data?.collections ?? []).map((item) => [item.address, item])),
    [wallet.data],
  );

  const eventsSearch = useCallback(
    (value: string) => `?${updateSearch(params, { collection: value }).toString()}`,
    [params],
  );
  const open = useCallback((href: string) => void navigate(href), [navigate]);
  // Another wallet in the same collection, with the same view.
  const walletInCollectionHref = useCallback(
    (other: string) => hrefs.wallet(other, `?${params.toString()}`),
    [params],
  );
  const openToken = useCallback(
    (event: TokenEvent) => open(hrefs.tokenHistory(event.contractAddress, event.tokenId)),
    [open],
  );
  const view = useMemo(
    () => ({
      display,
      zone: timeZone,
      nowMs,
      activeAddress: null,
      onOpenToken: openToken,
      freshSince,
    }),
    [display, timeZone, nowMs, openToken, freshSince],
  );
  const cells = useMemo(() => ({ collections, open }), [collections, open]);

  const empty = wallet.data?.collections.length === 0;
  const selectId = useId();
  const options = wallet.data?.collections ?? [];
  const selected = collection ? collections.get(collection) : undefined;

  return (
    <section aria-labelledby="wallet-title">
      <WalletHeader address={address} />
      <LeftOut />
      <RetryingNotice error={wallet.failureReason} failureCount={wallet.failureCount} />
      {collection ? (
        <WalletInCollection
          key={collection}
          address={address}
          collection={collection}
          name={collectionName(selected, collection)}
          display={display}
          zone={timeZone}
          nowMs={nowMs}
          walletHref={walletInCollectionHref}
          onOpen={open}
        />
      ) : (
        <>
          {wallet.data && wallet.data.collections.length > 0 && (
            <WalletTotals
              collections={wallet.data.collections}
              collectionsId="wallet-collections"
            />
          )}
          <WalletTaxYear
            address={address}
            year={Number(params.get('year') ?? '') || utcYear(nowMs)}
            currentYear={utcYear(nowMs)}
            onYear={(year) => set({ year: year === utcYear(nowMs) ? null : String(year) })}
          />
          <h2 className={section.heading} id="wallet-collections">
            Collections
          </h2>
        </>
      )}
      {collection ? null : wallet.isPending ? (
        <SkeletonRows columns={4} rows={2} />
      ) : wallet.isError ? (
        <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} />
      ) : empty ? (
        <EmptyState title="No activity for this wallet">
          The index holds no token that changed hands to or from this address, in any of the
          collections it has read.
        </EmptyState>
      ) : (
        <>
          <WalletCollections
            collections={wallet.data.collections}
            display={display}
            zone={timeZone}
            nowMs={nowMs}
            eventsSearch={eventsSearch}
          />
          {wallet.data.covers && <p className="muted small">{wallet.data.covers}</p>}
          <ServerFaults faults={wallet.data.faults} />
        </>
      )}
      {(!empty || collection) && (
        <>
          <h2 className={section.heading} id="wallet-events">
            {collection ? `Events in ${collectionName(selected, collection)}` : 'Events'}
          </h2>
          <div className={toolbar.toolbar}>
            <div className={field.field}>
              <label htmlFor={selectId}>Collection</label>
              <select
                id={selectId}
                value={collection ?? ''}
                onChange={(event) => set({ collection: event.target.value || null })}
              >
                <option value="">All collections</option>
                {collection && !selected && (
                  <option value={collection}>{`Contract ${shortenHex(collection)}`}</option>
                )}
                {options.map((item) => (
                  <option key={item.address} value={item.address}>
                    {collectionName(item, item.address)}
                  </option>
                ))}
              </select>
            </div>
            <TimeDisplayToggle display={display} onChange={setDisplay} />
          </div>
          <RetryingNotice error={events.failureReason} failureCount={events.failureCount} />
          {events.isPending ? (
            <SkeletonRows columns={6} rows={6} />
          ) : events.isError && rows.length === 0 ? (
            <ErrorState error={events.error} onRetry={() => void events.refetch()} />
          ) : rows.length === 0 ? (
            <EmptyState title="No events">
              {collection
                ? 'This wallet has no change of hands in this collection that the index holds.'
                : 'The index holds no change of hands to or from this wallet.'}
            </EmptyState>
          ) : (
            <>
              <p className={status.status} role="status" aria-live="polite">
                {list.hasMore
                  ? `${formatCount(rows.length)} events loaded · ${list.isLoadingMore ? 'loading more…' : 'more available'}`
                  : `all ${formatCount(rows.length)} events loaded`}
                {sort && list.hasMore
                  ? ` · sorted by ${sort.id} among ${formatCount(rows.length)} loaded events`
                  : ''}
              </p>
              <CollectionsContext.Provider value={cells}>
                <EventTable
                  caption="Events of this wallet"
                  rows={rows}
                  columns={collection ? contractEventColumns : allCollectionsColumns}
                  sort={sort}
                  onSortChange={setSort}
                  onNearEnd={list.loadMoreAuto}
                  onRowOpen={openToken}
                  view={view}
                />
              </CollectionsContext.Provider>
              <ListFooter noun="events" list={list} />
            </>
          )}
        </>
      )}
    </section>
  );
}
