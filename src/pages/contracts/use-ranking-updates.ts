import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLiveChanges } from '../../api/use-live-changes';
import { queryKeys } from '../../api/query-keys';

const NONE: ReadonlySet<string> = new Set();

/** The ranking is asked again this often at most, however busy the collections are. */
export const RANKING_REFRESH_MS = 10_000;

/**
 * The ranking follows new changes of hands: told by the server which collections have new
 * rows, the page asks for its ranking again (at most every `RANKING_REFRESH_MS`, the first
 * notice at once), and the collections told of since the last time are marked updated.
 */
export function useRankingUpdates(search: string): ReadonlySet<string> {
  const queryClient = useQueryClient();
  const [updated, setUpdated] = useState<{ search: string; set: ReadonlySet<string> }>({
    search,
    set: NONE,
  });
  const pending = useRef(new Set<string>());
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const refresh = () => {
    timer.current = undefined;
    last.current = Date.now();
    const told = pending.current;
    pending.current = new Set();
    void queryClient
      .invalidateQueries({ queryKey: queryKeys.rankings(search) })
      .then(() => setUpdated({ search, set: told }));
  };

  useLiveChanges((collections) => {
    for (const address of collections) pending.current.add(address);
    if (timer.current !== undefined || pending.current.size === 0) return;
    const wait = Math.max(0, last.current + RANKING_REFRESH_MS - Date.now());
    timer.current = setTimeout(refresh, wait);
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  return updated.search === search ? updated.set : NONE;
}
