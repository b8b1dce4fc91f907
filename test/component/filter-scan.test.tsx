import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { InfiniteList } from '../../src/api/use-infinite-list';
import { SCREENFUL_ROWS, useFilterScan } from '../../src/pages/contract-events/use-filter-scan';

/** Just what the scan reads of a loaded list. */
function listOf(loaded: number, loadMoreAuto: () => void) {
  return {
    items: Array.from({ length: loaded }),
    hasMore: true,
    pages: Math.ceil(loaded / 100),
    loadMoreAuto,
  } as unknown as InfiniteList<unknown>;
}

describe('reading on under a filter', () => {
  it('wants a screenful of matches in all when a filter is applied, as when a link opens it', () => {
    const loadMore = vi.fn();
    const list = listOf(100, loadMore);
    const { rerender, result } = renderHook(
      ({ filter, matches }) => useFilterScan(list, filter, matches),
      { initialProps: { filter: '', matches: 100 } },
    );
    // Applied in the page: 41 matches among the 100 loaded are a screenful already.
    rerender({ filter: 'kind=transfer', matches: SCREENFUL_ROWS + 11 });
    expect(result.current.scanning).toBe(false);
    expect(loadMore).not.toHaveBeenCalled();
    // Fewer than a screenful: it reads on.
    rerender({ filter: 'kind=burn', matches: SCREENFUL_ROWS - 1 });
    expect(result.current.scanning).toBe(true);
    expect(loadMore).toHaveBeenCalled();
  });

  it('asks for a screenful more when the reader nears the end', () => {
    const loadMore = vi.fn();
    const list = listOf(100, loadMore);
    const { result, rerender } = renderHook(
      ({ matches }) => useFilterScan(list, 'kind=transfer', matches),
      { initialProps: { matches: SCREENFUL_ROWS + 11 } },
    );
    expect(result.current.scanning).toBe(false);
    result.current.more();
    rerender({ matches: SCREENFUL_ROWS + 11 });
    expect(result.current.scanning).toBe(true);
    expect(loadMore).toHaveBeenCalled();
  });
});
