import { formatCount } from '../lib/format';
import type { InfiniteList } from '../api/use-infinite-list';
import styles from './load-status.module.css';

interface LoadStatusProps {
  noun: string;
  list: InfiniteList<unknown>;
  /** Rows on hand when more than the list's pages (events added live); default the list's. */
  loaded?: number;
  /** Rows shown after filters, when a filter is on. */
  shown?: number;
  sortedBy?: string | null;
}

/**
 * Honest about what is on screen: how many rows are loaded, whether more exist, how
 * many records could not be read, and that sorting covers only the loaded rows.
 */
export function LoadStatus(props: LoadStatusProps) {
  const { noun, list, shown, sortedBy } = props;
  const { hasMore, isLoadingMore, skipped, rewalk, endUnsure } = list;
  const loaded = props.loaded ?? list.items.length;
  const parts: string[] = [];
  parts.push(
    rewalk
      ? `${formatCount(loaded)} ${noun} loaded · reading the list again from the newest: ${formatCount(rewalk.met)} of the ${formatCount(rewalk.of)} records read before passed…`
      : hasMore
        ? `${formatCount(loaded)} ${noun} loaded · ${isLoadingMore ? 'loading more…' : 'more available'}`
        : endUnsure
          ? `${formatCount(loaded)} ${noun} loaded · the service reported no more after a full page`
          : `all ${formatCount(loaded)} ${noun} loaded`,
  );
  if (shown !== undefined && shown !== loaded)
    parts.push(`${formatCount(shown)} match the filters among the ${formatCount(loaded)} scanned`);
  if (sortedBy && hasMore)
    parts.push(`sorted by ${sortedBy} among ${formatCount(loaded)} loaded ${noun}`);
  return (
    <p className={styles.status} role="status" aria-live="polite">
      {parts.join(' · ')}
      {skipped > 0 && (
        <span className={styles.warning}>
          {' '}
          · {formatCount(skipped)} record{skipped === 1 ? '' : 's'} could not be read and
          {skipped === 1 ? ' was' : ' were'} skipped
        </span>
      )}
    </p>
  );
}
