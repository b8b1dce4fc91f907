import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getListPage, startWalk } from './read-ahead';
import { readPage } from './read-page';
import { normaliseEvent } from './normalise';
import { queryKeys } from './query-keys';
import type { Page, TokenEvent } from './types';

const eventsPath = (address: string) => `/api/v1/events/${address}`;

export async function fetchContractEventsPage(
  address: string,
  cursor: string | null,
  signal?: AbortSignal,
  limit?: number,
): Promise<Page<TokenEvent>> {
  const body = await getListPage(eventsPath(address), cursor, limit, signal);
  return readPage(body, (item) => normaliseEvent(item, address));
}

/** While a contract's events are loaded to the end: the largest pages, each asked for early. */
export const walkContractEvents = (address: string, limit?: number) =>
  startWalk(eventsPath(address), limit);

/**
 * A contract's events, newest first, one page per cursor. Events are immutable, so
 * loaded pages never go stale: going back and forth shows them at once. New events at
 * the head are fetched separately (`contractHead`) so loaded pages never shift.
 */
export const contractEventsQueryOptions = (address: string, limit = 100) =>
  infiniteQueryOptions({
    queryKey: queryKeys.contractEvents(address, limit),
    queryFn: ({ pageParam, signal }) => fetchContractEventsPage(address, pageParam, signal, limit),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<TokenEvent>) => last.cursor ?? undefined,
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
    queryKey: queryKeys.contractHead(address),
    queryFn: ({ signal }) => fetchContractEventsPage(address, null, signal, limit),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: LIVE_POLL_MS,
  });
