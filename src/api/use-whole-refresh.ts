import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from './query-keys';

type Kind = Parameters<typeof queryKeys.collectionAll>[1];

/**
 * While the indexer reads a collection, whole-history answers cover part of it; once the
 * whole of it is in (`complete` turns true), the page's answers of these kinds are asked
 * again.
 */
export function useWholeRefresh(
  address: string,
  complete: boolean | undefined,
  kinds: readonly Kind[],
) {
  const queryClient = useQueryClient();
  const seen = useRef(complete);
  const asked = kinds.join(',');
  useEffect(() => {
    // An answer still loading (a new view's) says nothing: the last one known stands.
    if (complete === undefined) return;
    const before = seen.current;
    seen.current = complete;
    if (complete && before === false) {
      for (const kind of asked.split(',') as Kind[]) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.collectionAll(address, kind) });
      }
    }
  }, [address, complete, queryClient, asked]);
}
