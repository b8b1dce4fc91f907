import { queryOptions } from '@tanstack/react-query';
import { getJson } from './client';
import { queryKeys } from './query-keys';

export interface ServiceMeta {
  source: 'sample' | 'real';
  description: string;
}

/** Which service the proxy talks to, for the footer. */
export const metaQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.meta(),
    queryFn: async ({ signal }) => (await getJson('/api/meta', signal)) as ServiceMeta,
    staleTime: Infinity,
    retry: false,
  });
