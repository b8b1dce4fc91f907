import type { ServerList } from '../api/use-server-list';
import { ErrorState } from './states';
import button from './button.module.css';
import styles from './list-footer.module.css';

interface ListFooterProps {
  noun: string;
  list: ServerList<unknown>;
  /** While a list in time order waits for the indexer to read older events: what it says. */
  waitingNote?: string;
}

/**
 * Below the last row: the error of a failed next page (the loaded rows stay above it), a
 * visible "Load more" for when scrolling does not load (or the list waits for the
 * indexer), or the end.
 */
export function ListFooter({ noun, list, waitingNote }: ListFooterProps) {
  const { hasMore, isLoadingMore, nextPageError: error, loadMore } = list;
  if (error && hasMore) {
    return (
      <ErrorState
        compact
        error={error}
        onRetry={loadMore}
        context={`The ${list.items.length.toLocaleString('en')} ${noun} already loaded are kept; Retry continues from the same place.`}
      />
    );
  }
  if (!hasMore) return <p className={`${styles.end} muted`}>End of the list.</p>;
  return (
    <div className={styles.more}>
      {list.waiting && waitingNote && <span className="muted">{waitingNote}</span>}
      <button type="button" className={button.button} onClick={loadMore} disabled={isLoadingMore}>
        {isLoadingMore ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
