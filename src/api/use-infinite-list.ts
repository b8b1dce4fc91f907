import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Page } from '../lib/page';
import { createFlattener } from './flatten';

/**
 * After this many pages in a row with no records the list stops loading by itself and
 * waits for a click: the upstream can send empty pages that still carry a cursor, and a
 * long run of them should cost the user a decision, not an unbounded loop.
 */
export const MAX_AUTO_EMPTY_PAGES = 25;

export type InfiniteList<T> = ReturnType<typeof useInfiniteList<T>>;

export function useInfiniteList<T>(
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>,
  keyOf: (item: T) => string,
) {
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, error } =
    query;
  const flatten = useMemo(() => createFlattener(keyOf), [keyOf]);
  const list = useMemo(() => flatten(data), [flatten, data]);
  const [manualFrom, setManualFrom] = useState(0);

  const trailingEmpty = useMemo(() => {
    const pages = data?.pages ?? [];
    let count = 0;
    for (
      let index = pages.length - 1;
      index >= manualFrom && pages[index]?.items.length === 0;
      index--
    ) {
      count += 1;
    }
    return count;
  }, [data, manualFrom]);

  const canAutoLoad =
    hasNextPage &&
    !isFetchingNextPage &&
    !isFetchNextPageError &&
    trailingEmpty < MAX_AUTO_EMPTY_PAGES;

  const loadMoreAuto = useCallback(() => {
    // cancelRefetch: false — a second call while a page is in flight must not restart it.
    if (canAutoLoad) void fetchNextPage({ cancelRefetch: false });
  }, [canAutoLoad, fetchNextPage]);

  // With nothing loaded yet there is no table to scroll: keep going through empty pages.
  const nothingYet = list.items.length === 0;
  useEffect(() => {
    if (nothingYet && data) loadMoreAuto();
  }, [nothingYet, data, loadMoreAuto]);

  /** A click: always tries, also after an error (retries the same cursor). */
  const loadMore = useCallback(() => {
    if (!hasNextPage || isFetchingNextPage) return;
    setManualFrom(data?.pages.length ?? 0);
    void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, data, fetchNextPage]);

  return {
    ...list,
    hasMore: Boolean(hasNextPage),
    isLoadingMore: isFetchingNextPage,
    pausedOnEmptyPages: Boolean(hasNextPage) && trailingEmpty >= MAX_AUTO_EMPTY_PAGES,
    /** The error of a failed next page; the pages before it stay loaded. */
    nextPageError: isFetchNextPageError ? error : null,
    loadMoreAuto,
    loadMore,
  };
}
