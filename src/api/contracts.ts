import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Contract } from '../lib/contract';
import type { Page } from '../lib/page';
import { normaliseContract } from '../lib/normalise';
import { firstPage, nextPage, type PageParam } from './page-param';
import { queryKeys } from './query-keys';
import { fetchListPage } from './read-page';

export async function fetchContractsPage(
  page: PageParam,
  signal?: AbortSignal,
): Promise<Page<Contract>> {
  return fetchListPage('/api/v1/contracts', page, normaliseContract, signal);
}

/** Contracts change rarely: a loaded list stays fresh for ten minutes. */
export const contractsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.contracts(),
    queryFn: ({ pageParam, signal }) => fetchContractsPage(pageParam, signal),
    initialPageParam: firstPage(),
    getNextPageParam: nextPage(undefined, false),
    staleTime: 10 * 60_000,
  });
