import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Page } from '../lib/page';
import { ApiError } from './api-error';
import { createFlattener, type ListShape } from './flatten';
import { readAgainAfter } from './page-param';

/**
 * After this many pages in a row with no records the list stops loading by itself and
 * waits for a click: the upstream can send empty pages that still carry a cursor, and a
 * long run of them should cost the user a decision, not an unbounded loop.
 */
export const MAX_AUTO_EMPTY_PAGES = 25;

export type InfiniteList<T> = ReturnType<typeof useInfiniteList<T>>;

export function useInfiniteList<T>(
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>,
  shape: ListShape<T>,
) {
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, error } =
    query;
  const flatten = useMemo(() => createFlattener(shape), [shape]);
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

  // With nothing loaded yet there is no table to scroll, and while the list is read again
  // from its head the pages add no row until they pass the loaded ones: keep going.
  const nothingYet = list.items.length === 0;
  const rereading = list.rewalk !== null;
  useEffect(() => {
    if ((nothingYet || rereading) && data) loadMoreAuto();
  }, [nothingYet, rereading, data, loadMoreAuto]);

  /** A click: always tries, also after an error (retries the same cursor). */
  const loadMore = useCallback(() => {
    if (!hasNextPage || isFetchingNextPage) return;
    setManualFrom(data?.pages.length ?? 0);
    void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, data, fetchNextPage]);

  /**
   * Reads the list again from its head, skipping the rows already loaded, and carries on
   * after the last of them: for a cursor the service has forgotten, or an end after a
   * full page that may not be the end.
   */
  const continueFromNewest = useCallback(() => {
    const last = data?.pages[data.pages.length - 1];
    if (!last || isFetchingNextPage) return;
    readAgainAfter(last);
    setManualFrom(data.pages.length);
    void fetchNextPage();
  }, [data, isFetchingNextPage, fetchNextPage]);

  const nextPageError = isFetchNextPageError ? error : null;
  return {
    ...list,
    hasMore: Boolean(hasNextPage),
    isLoadingMore: isFetchingNextPage,
    pausedOnEmptyPages: Boolean(hasNextPage) && trailingEmpty >= MAX_AUTO_EMPTY_PAGES,
    /** The error of a failed next page; the pages before it stay loaded. */
    nextPageError,
    /** The next page's cursor is dead: only reading again from the head goes on. */
    deadCursor: nextPageError instanceof ApiError && nextPageError.kind === 'expired_cursor',
    loadMoreAuto,
    loadMore,
    continueFromNewest,
  };
}
