import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Contract } from '../lib/contract';
import type { Page } from '../lib/page';
import { getJson, withPageParams } from './client';
import { normaliseContract } from './normalise';
import { firstPage, nextPage, type PageParam } from './page-param';
import { queryKeys } from './query-keys';
import { readPage } from './read-page';

export async function fetchContractsPage(
  page: PageParam,
  signal?: AbortSignal,
): Promise<Page<Contract>> {
  const body = await getJson(withPageParams('/api/v1/contracts', page.cursor, page.limit), signal);
  return readPage(body, normaliseContract);
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
