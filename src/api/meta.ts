import { queryOptions } from '@tanstack/react-query';
import { getJson } from './client';
import { queryKeys } from './query-keys';

export interface ServiceMeta {
  source: 'sample' | 'real';
  description: string;
  /** Whether the server serves contracts' images (`IMAGE_PROXY`); else none are shown. */
  images?: boolean;
}

/** Which service the proxy talks to, for the footer; whether it serves contract images. */
export const metaQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.meta(),
    queryFn: async ({ signal }) => (await getJson('/api/meta', signal)) as ServiceMeta,
    staleTime: Infinity,
    retry: false,
  });
