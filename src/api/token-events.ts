import { infiniteQueryOptions } from '@tanstack/react-query';
import { getListPage, startWalk } from './read-ahead';
import { readPage } from './read-page';
import { normaliseEvent } from './normalise';
import { queryKeys } from './query-keys';
import type { Page, TokenEvent } from './types';

export async function fetchTokenEventsPage(
  address: string,
  tokenId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<TokenEvent>> {
  const body = await getListPage(tokenPath(address, tokenId), cursor, undefined, signal);
  return readPage(body, (item) => normaliseEvent(item, address));
}

const tokenPath = (address: string, tokenId: string) => `/api/v1/events/${address}/${tokenId}`;

/** While a token's history is loaded to the end: the largest pages, each asked for early. */
export const walkTokenEvents = (address: string, tokenId: string) =>
  startWalk(tokenPath(address, tokenId));

/** One token's events; the page loads every page of it (a history is short). */
export const tokenEventsQueryOptions = (address: string, tokenId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.tokenEvents(address, tokenId),
    queryFn: ({ pageParam, signal }) => fetchTokenEventsPage(address, tokenId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<TokenEvent>) => last.cursor ?? undefined,
    staleTime: 5 * 60_000,
    gcTime: 30 * 60_000,
  });
