import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
} from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Page } from '../lib/page';
import { ApiError } from './api-error';
import type { ListShape } from './flatten';
import type { PageParam } from './page-param';
import { useInfiniteList } from './use-infinite-list';

/**
 * Times in a row a walk reads its list again from the head by itself without a new row
 * in between; then it stops and leaves the choice to the reader, rather than loop.
 */
const MAX_UNFRUITFUL_CONTINUES = 2;

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
  shape: ListShape<T>;
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
 * it, and Cancel drops the page in flight and goes back to browsing. A cursor the service
 * has forgotten does not stop it: a first 502 is asked again, and a dead cursor is
 * walked round from the list's head (see useInfiniteList's `continueFromNewest`).
 */
export function useWalkedList<T, K extends QueryKey>({
  query: options,
  shape,
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
  const list = useInfiniteList(query, shape);
  const failed = query.isFetchNextPageError || list.pausedOnEmptyPages;
  const running = started !== null && list.hasMore && !failed;

  useEffect(() => (running ? readAhead() : undefined), [running, readAhead]);
  // Runs again for every page that arrives: a fetch can start and end between two renders,
  // so "the fetch went back to idle" alone is not a signal to rely on.
  const { loadMoreAuto } = list;
  useEffect(() => {
    if (running) loadMoreAuto();
  }, [running, loadMoreAuto, list.pages]);

  // A dead cursor, or a first 502 that may be one (a second makes it dead, see
  // read-page.ts), while the walk is on: it goes on by itself, asking once more, then
  // from the head, as long as that gets it somewhere.
  const tries = useRef({ retriedAfter: null as unknown, rows: -1, times: 0 });
  const { nextPageError, deadCursor, continueFromNewest, loadMore } = list;
  const rows = list.items.length;
  const lastPage = query.data?.pages[query.data.pages.length - 1];
  const busy = query.isFetchingNextPage;
  const on = started !== null;
  useEffect(() => {
    if (!on || busy || !nextPageError) return;
    const done = tries.current;
    if (isUpstream502(nextPageError)) {
      if (done.retriedAfter === lastPage) return;
      done.retriedAfter = lastPage;
      loadMore();
      return;
    }
    if (!deadCursor || (done.rows === rows && done.times >= MAX_UNFRUITFUL_CONTINUES)) return;
    done.times = done.rows === rows ? done.times + 1 : 1;
    done.rows = rows;
    continueFromNewest();
  }, [on, busy, nextPageError, deadCursor, rows, lastPage, loadMore, continueFromNewest]);

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

const isUpstream502 = (error: unknown) =>
  error instanceof ApiError && error.kind === 'upstream' && error.status === 502;
