import { infiniteQueryOptions } from '@tanstack/react-query';
import { getJson, withPageParams } from './client';
import { readPage } from './contracts';
import { normaliseEvent } from './normalise';
import { queryKeys } from './query-keys';
import type { Page, TokenEvent } from './types';

export async function fetchContractEventsPage(
  address: string,
  cursor: string | null,
  signal?: AbortSignal,
  limit?: number,
): Promise<Page<TokenEvent>> {
  const body = await getJson(withPageParams(`/api/v1/events/${address}`, cursor, limit), signal);
  return readPage(body, (item) => normaliseEvent(item, address));
}

/**
 * A contract's events, newest first, one page per cursor. Events are immutable, so
 * loaded pages never go stale: going back and forth shows them at once. New events at
 * the head are fetched separately (`contractHead`) so loaded pages never shift.
 */
export const contractEventsQueryOptions = (address: string, limit?: number) =>
  infiniteQueryOptions({
    queryKey: queryKeys.contractEvents(address),
    queryFn: ({ pageParam, signal }) => fetchContractEventsPage(address, pageParam, signal, limit),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<TokenEvent>) => last.cursor ?? undefined,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });
