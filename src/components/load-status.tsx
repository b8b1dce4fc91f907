import { formatCount } from '../lib/format';

interface LoadStatusProps {
  noun: string;
  loaded: number;
  hasMore: boolean;
  isLoadingMore: boolean;
  skipped: number;
  /** Rows shown after filters, when a filter is on. */
  shown?: number;
  sortedBy?: string | null;
}

/**
 * Honest about what is on screen: how many rows are loaded, whether more exist, how
 * many records could not be read, and that sorting covers only the loaded rows.
 */
export function LoadStatus(props: LoadStatusProps) {
  const { noun, loaded, hasMore, isLoadingMore, skipped, shown, sortedBy } = props;
  const parts: string[] = [];
  parts.push(
    hasMore
      ? `${formatCount(loaded)} ${noun} loaded · ${isLoadingMore ? 'loading more…' : 'more available'}`
      : `all ${formatCount(loaded)} ${noun} loaded`,
  );
  if (shown !== undefined && shown !== loaded)
    parts.push(`${formatCount(shown)} match the filters`);
  if (sortedBy && hasMore)
    parts.push(`sorted by ${sortedBy} among ${formatCount(loaded)} loaded ${noun}`);
  return (
    <p className="load-status" role="status" aria-live="polite">
      {parts.join(' · ')}
      {skipped > 0 && (
        <span className="warning">
          {' '}
          · {formatCount(skipped)} record{skipped === 1 ? '' : 's'} could not be read and
          {skipped === 1 ? ' was' : ' were'} skipped
        </span>
      )}
    </p>
  );
}
