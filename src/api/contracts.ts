import { infiniteQueryOptions } from '@tanstack/react-query';
import { getJson, withPageParams } from './client';
import { normaliseContract } from './normalise';
import { readPage } from './read-page';
import { queryKeys } from './query-keys';
import type { Contract, Page } from './types';

export async function fetchContractsPage(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Contract>> {
  const body = await getJson(withPageParams('/api/v1/contracts', cursor), signal);
  return readPage(body, normaliseContract);
}

/** Contracts change rarely: a loaded list stays fresh for ten minutes. */
export const contractsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.contracts(),
    queryFn: ({ pageParam, signal }) => fetchContractsPage(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<Contract>) => last.cursor ?? undefined,
    staleTime: 10 * 60_000,
  });
