import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Page } from '../lib/page';
import type { TokenEvent } from '../lib/token-event';
import { normaliseEvent } from '../lib/normalise';
import { firstPage, nextPage, type PageParam } from './page-param';
import { queryKeys } from './query-keys';
import { startReadAhead } from './read-ahead';
import { fetchListPage } from './read-page';

const eventsPath = (address: string) => `/api/v1/events/${address}`;

export async function fetchContractEventsPage(
  address: string,
  page: PageParam,
  signal?: AbortSignal,
): Promise<Page<TokenEvent>> {
  return fetchListPage(eventsPath(address), page, (item) => normaliseEvent(item, address), signal);
}

/** While a contract's events are walked to the end: their walked pages read ahead. */
export const readAheadContractEvents = (address: string) => startReadAhead(eventsPath(address));

/**
 * A contract's events, newest first, one page per cursor: `limit` events a page, or the
 * largest pages from the next one on while `walking` ("Load full history"). Events are
 * immutable, so loaded pages never go stale: going back and forth shows them at once. New
 * events at the head are fetched separately (`contractHead`) so loaded pages never shift.
 */
export const contractEventsQueryOptions = (address: string, limit = 100, walking = false) =>
  infiniteQueryOptions({
    queryKey: queryKeys.contractEvents(address, limit),
    queryFn: ({ pageParam, signal }) => fetchContractEventsPage(address, pageParam, signal),
    initialPageParam: firstPage(limit),
    getNextPageParam: nextPage(limit, walking),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });

/** How often the newest page is checked for new events while the page is visible. */
export const LIVE_POLL_MS = 30_000;

/**
 * The newest page, polled for the "N new events" notice. A key of its own, so polling
 * never disturbs the loaded pages the reader is looking at. React Query pauses the
 * interval while the tab is hidden.
 */
export const contractHeadQueryOptions = (address: string, limit = 100) =>
  queryOptions({
    queryKey: queryKeys.contractHead(address, limit),
    queryFn: ({ signal }) => fetchContractEventsPage(address, firstPage(limit), signal),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: LIVE_POLL_MS,
  });
