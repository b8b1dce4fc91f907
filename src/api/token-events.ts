import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Page } from '../lib/page';
import type { TokenEvent } from '../lib/token-event';
import { normaliseEvent } from '../lib/normalise';
import { firstPage, nextPage, type PageParam } from './page-param';
import { queryKeys } from './query-keys';
import { startReadAhead } from './read-ahead';
import { fetchListPage } from './read-page';

const tokenPath = (address: string, tokenId: string) => `/api/v1/events/${address}/${tokenId}`;

export async function fetchTokenEventsPage(
  address: string,
  tokenId: string,
  page: PageParam,
  signal?: AbortSignal,
): Promise<Page<TokenEvent>> {
  const path = tokenPath(address, tokenId);
  return fetchListPage(path, page, (item) => normaliseEvent(item, address), signal);
}

/** While a token's history is walked to the end: its walked pages read ahead. */
export const readAheadTokenEvents = (address: string, tokenId: string) =>
  startReadAhead(tokenPath(address, tokenId));

/**
 * One token's events; the page walks every page of it (a history is short), the first
 * at the service's default size, the next ones the largest while `walking`.
 */
export const tokenEventsQueryOptions = (address: string, tokenId: string, walking = false) =>
  infiniteQueryOptions({
    queryKey: queryKeys.tokenEvents(address, tokenId),
    queryFn: ({ pageParam, signal }) => fetchTokenEventsPage(address, tokenId, pageParam, signal),
    initialPageParam: firstPage(),
    getNextPageParam: nextPage(undefined, walking),
    staleTime: 5 * 60_000,
    gcTime: 30 * 60_000,
  });
