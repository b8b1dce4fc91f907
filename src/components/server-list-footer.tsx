import type { ServerList } from '../api/use-server-list';
import { formatCount } from '../lib/format';
import { ErrorState } from './states';
import button from './button.module.css';
import styles from './list-footer.module.css';

interface ServerListFooterProps {
  /** What the rows are, plural ("collections"). */
  noun: string;
  list: ServerList<unknown>;
}

/**
 * Below the last row of a list the query API pages: the error of a failed next page (the
 * loaded rows stay above it, Retry asks for the same page), a visible "Load more" for when
 * scrolling does not ask by itself, or the end of the list.
 */
export function ServerListFooter({ noun, list }: ServerListFooterProps) {
  if (list.nextPageError && list.hasMore) {
    return (
      <ErrorState
        compact
        error={list.nextPageError}
        onRetry={list.loadMore}
        context={`The ${formatCount(list.items.length)} ${noun} already loaded are kept; Retry continues from the same page.`}
      />
    );
  }
  if (!list.hasMore) return <p className={`${styles.end} muted`}>End of the list.</p>;
  return (
    <div className={styles.more}>
      {list.waiting && (
        <span className="muted">The server is still reading this list; more may follow.</span>
      )}
      <button
        type="button"
        className={button.button}
        onClick={list.loadMore}
        disabled={list.isLoadingMore}
      >
        {list.isLoadingMore ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
