import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '../../api/query-keys';
import { useWholeRefresh } from '../../api/use-whole-refresh';
import type { Coverage } from '../../lib/answers';

const EVENTS = ['events'] as const;

/**
 * The views fill in as the indexer reads: each time the polled coverage says more was
 * read, the charts' series are asked again (cheap, from the hourly rollup); when the
 * whole history is in, the events too (their pages were answers over part of it).
 */
export function useIndexRefresh(address: string, coverage: Coverage | undefined) {
  const queryClient = useQueryClient();
  const seen = useRef<{ records: number; complete: boolean } | null>(null);
  const records = coverage?.records;
  const complete = coverage?.complete;
  useEffect(() => {
    if (records === undefined || complete === undefined) return;
    const before = seen.current;
    seen.current = { records, complete };
    if (before && (records !== before.records || complete !== before.complete)) {
      void queryClient.invalidateQueries({
        queryKey: queryKeys.collectionAll(address, 'series'),
      });
    }
  }, [address, records, complete, queryClient]);
  useWholeRefresh(address, complete, EVENTS);
}
