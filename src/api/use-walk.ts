import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Page } from '../lib/page';
import type { PageParam } from './page-param';
import { useInfiniteList } from './use-infinite-list';

type ListQueryOptions<T, K extends QueryKey> = UseInfiniteQueryOptions<
  Page<T>,
  Error,
  InfiniteData<Page<T>, unknown>,
  K,
  PageParam
>;

interface WalkOptions<T, K extends QueryKey> {
  /** The list's query options; while `walking`, its next pages are the walk's (see page-param.ts). */
  query: (walking: boolean) => ListQueryOptions<T, K>;
  keyOf: (item: T) => string;
  /**
   * Lets the list's walked pages read ahead until the function returned is called; the
   * same function from render to render (useCallback), as read-ahead restarts when it changes.
   */
  readAhead: () => () => void;
  /** Walks from the start (a token's history) instead of when asked (a contract's events). */
  auto?: boolean;
}

/**
 * A list that can be walked to its end, page after page, with Cancel: "Load full
 * history" of a contract's events, and a token's history. While the walk is on the next
 * pages are the largest and read ahead; a failure, a run of empty pages or the end stops
 * it, and Cancel drops the page in flight and goes back to browsing.
 */
export function useWalkedList<T, K extends QueryKey>({
  query: options,
  keyOf,
  readAhead,
  auto = false,
}: WalkOptions<T, K>) {
  const queryClient = useQueryClient();
  // When the walk was asked for, and how much was loaded then (for the rate shown).
  const [started, setStarted] = useState<{ at: number; loaded: number } | null>(() =>
    auto ? { at: Date.now(), loaded: 0 } : null,
  );
  const queryOptions = options(started !== null);
  const query = useInfiniteQuery(queryOptions);
  const list = useInfiniteList(query, keyOf);
  const failed = query.isFetchNextPageError || list.pausedOnEmptyPages;
  const running = started !== null && list.hasMore && !failed;

  useEffect(() => (running ? readAhead() : undefined), [running, readAhead]);
  // Runs again for every page that arrives: a fetch can start and end between two renders,
  // so "the fetch went back to idle" alone is not a signal to rely on.
  const { loadMoreAuto } = list;
  useEffect(() => {
    if (running) loadMoreAuto();
  }, [running, loadMoreAuto, list.pages]);

  const walk = {
    /** Asked for and not cancelled: the walk goes on once a failure is retried. */
    on: started !== null,
    /** Loading page after page right now. */
    running,
    startedAt: started?.at ?? null,
    loadedAtStart: started?.loaded ?? 0,
    start: () => setStarted({ at: Date.now(), loaded: list.items.length }),
    cancel: () => {
      setStarted(null);
      void queryClient.cancelQueries({ queryKey: queryOptions.queryKey });
    },
  };
  return { query, list, walk };
}

export type Walk = ReturnType<typeof useWalkedList>['walk'];
