import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  EventRow,
  EventsAnswer,
  WalletAnswer,
  WalletInCollectionAnswer,
} from '../lib/answers';
import type { TaxYearAnswer } from '../lib/tax-year';
import type { TokenEvent } from '../lib/token-event';
import { getAnswer, pagePath } from './client';
import { INDEXING_POLL_MS } from './collection';
import { queryKeys } from './query-keys';
import type { ServerPage } from './use-server-list';

/**
 * A wallet as the query API tells it (`GET /api/wallets/:address` and its events): from
 * the event index, so only collections the index holds. The answers' types are the
 * server's (src/lib/answers.ts); `getAnswer` checks that their fields are there.
 */

/** The wallet's live stream of new changes of hands (Server-Sent Events). */
export const liveWalletPath = (address: string) => `/api/live/wallets/${address}`;

/** How many changes of hands a page of the wallet's events asks for. */
export const WALLET_PAGE_SIZE = 100;

export const walletQueryOptions = (address: string) =>
  queryOptions({
    queryKey: queryKeys.wallet(address),
    queryFn: ({ signal }) =>
      getAnswer<WalletAnswer>(`/api/wallets/${address}`, signal, ['address', 'collections']),
    staleTime: 60_000,
  });

/** One wallet inside one collection, with the collection's coverage. */
export const walletCollectionQueryOptions = (address: string, collection: string) =>
  queryOptions({
    queryKey: queryKeys.walletCollection(address, collection),
    queryFn: ({ signal }) =>
      getAnswer<WalletInCollectionAnswer>(
        `/api/wallets/${address}/collections/${collection}`,
        signal,
        ['held', 'counts', 'results', 'counterparties', 'coverage'],
      ),
    // The figures fill in as the indexer reads the collection's history.
    refetchInterval: (query) =>
      query.state.data?.coverage.indexing?.state === 'reading' ? INDEXING_POLL_MS : false,
    refetchIntervalInBackground: false,
    staleTime: 60_000,
  });

/** The tokens a wallet sold in a UTC year, with their results and totals per currency. */
export const walletTaxYearQueryOptions = (address: string, year: number) =>
  queryOptions({
    queryKey: queryKeys.walletTaxYear(address, year),
    queryFn: ({ signal }) =>
      getAnswer<TaxYearAnswer>(`/api/wallets/${address}/tax-year?year=${year}`, signal, [
        'sales',
        'totals',
        'gross',
      ]),
    staleTime: 60_000,
  });

/** The same year as a CSV file, made by the server. */
export const walletTaxYearExportHref = (address: string, year: number) =>
  `/api/wallets/${address}/tax-year/export?year=${year}`;

/** `?collection=…&limit=…&cursor=…` with only what is set. */
export function walletEventsPath(
  address: string,
  collection: string | null,
  cursor: string | null,
) {
  const search = collection ? `collection=${collection}` : '';
  return pagePath(`/api/wallets/${address}/events`, search, WALLET_PAGE_SIZE, cursor);
}

/**
 * A row of the index as the app's event shape, which the event table reads: the records
 * it was joined from are named, not carried, and a price that is no number in either
 * format is shown as sent.
 */
export function tokenEventOf(row: EventRow): TokenEvent {
  const { records: _records, priceText, ...event } = row;
  return event.price === undefined && priceText !== undefined
    ? { ...event, price: priceText }
    : event;
}

export async function fetchWalletEventsPage(
  address: string,
  collection: string | null,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ServerPage<TokenEvent>> {
  const answer = await getAnswer<EventsAnswer>(
    walletEventsPath(address, collection, cursor),
    signal,
    ['events', 'next'],
  );
  return { items: answer.events.map(tokenEventOf), next: answer.next };
}

/**
 * The wallet's changes of hands, newest first, one page per server cursor. The server's
 * cursors never die (keyset, bound to their query), so each page's param is its cursor.
 */
export const walletEventsQueryOptions = (address: string, collection: string | null) =>
  infiniteQueryOptions({
    queryKey: queryKeys.walletEvents(address, collection),
    queryFn: ({ pageParam, signal }) =>
      fetchWalletEventsPage(address, collection, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 60_000,
  });
