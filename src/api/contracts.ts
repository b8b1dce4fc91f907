import { infiniteQueryOptions } from '@tanstack/react-query';
import { getJson, withPageParams } from './client';
import { ApiError } from './api-error';
import { InvalidPageError, normaliseContract, parsePage } from './normalise';
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

/** Turns an unreadable envelope into the data layer's one error type. */
export function readPage<T>(body: unknown, normalise: (item: unknown) => T | null): Page<T> {
  try {
    return parsePage(body, normalise);
  } catch (error) {
    if (error instanceof InvalidPageError) throw new ApiError('invalid_response', error.message);
    throw error;
  }
}
