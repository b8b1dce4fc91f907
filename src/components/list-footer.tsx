import { DeadCursorNotice, EndUnsureNotice } from './list-recovery';
import { ErrorState } from './states';
import type { InfiniteList } from '../api/use-infinite-list';
import button from './button.module.css';
import styles from './list-footer.module.css';

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
  if (list.deadCursor) return <DeadCursorNotice noun={noun} list={list} />;
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
  if (!hasMore && list.endUnsure) return <EndUnsureNotice noun={noun} list={list} />;
  if (!hasMore) return <p className={`${styles.end} muted`}>End of the list.</p>;
  return (
    <div className={styles.more}>
      {pausedOnEmptyPages && (
        <span className="muted">The service sent many empty pages in a row; more may follow.</span>
      )}
      <button type="button" className={button.button} onClick={onLoadMore} disabled={isLoadingMore}>
        {isLoadingMore ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
