import { ErrorState } from './states';
import type { InfiniteList } from '../api/use-infinite-list';

interface ListFooterProps {
  noun: string;
  list: InfiniteList<unknown>;
}

/**
 * Below the last row: the error of a failed next page (the loaded rows stay above it),
 * a visible "Load more" for when scrolling does not trigger loading, or the end.
 */
export function ListFooter(props: ListFooterProps) {
  const { noun, list } = props;
  const {
    hasMore,
    isLoadingMore,
    pausedOnEmptyPages,
    nextPageError: error,
    loadMore: onLoadMore,
  } = list;
  const loaded = list.items.length;
  if (error && hasMore) {
    return (
      <ErrorState
        compact
        error={error}
        onRetry={onLoadMore}
        context={`The ${loaded.toLocaleString('en')} ${noun} already loaded are kept; Retry continues from the same page.`}
      />
    );
  }
  if (!hasMore) return <p className="list-end muted">End of the list.</p>;
  return (
    <div className="list-more">
      {pausedOnEmptyPages && (
        <span className="muted">The service sent many empty pages in a row; more may follow.</span>
      )}
      <button type="button" className="button" onClick={onLoadMore} disabled={isLoadingMore}>
        {isLoadingMore ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
