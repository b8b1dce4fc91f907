import { useEffect, useState } from 'react';
import { useNow } from '../../components/use-now';
import { formatCount } from '../../lib/format';
import { formatAbsolute, formatDuration } from '../../lib/time';

interface LoadAllProps {
  loaded: number;
  pages: number;
  hasMore: boolean;
  isFetching: boolean;
  failed: boolean;
  oldestLoaded: number | undefined;
  fetchNext: () => void;
  cancelFetch: () => void;
  /** Starts asking for each next page early (read-ahead); returns the way to stop. */
  walk: () => () => void;
}

/**
 * "Load full history": fetches page after page until the end, with a count, the rate,
 * the span reached so far, and Cancel. The service reports no totals, so the time left
 * cannot be known; the bar moves with the pages and says so rather than inventing an end.
 */
export function LoadAll(props: LoadAllProps) {
  const { loaded, pages, hasMore, isFetching, failed, oldestLoaded, fetchNext, cancelFetch, walk } =
    props;
  const [started, setStarted] = useState<{ at: number; loaded: number } | null>(null);
  // A failure or the end stops the run; the button then offers to start (or resume) again.
  const running = started !== null && hasMore && !failed;
  const nowMs = useNow(1000);

  useEffect(() => (running ? walk() : undefined), [running, walk]);

  // Runs again for every page that arrives: a fetch can start and end between two renders,
  // so "isFetching went back to false" alone is not a signal to rely on.
  useEffect(() => {
    if (running && !isFetching) fetchNext();
  }, [running, isFetching, fetchNext, pages]);

  if (!hasMore) return null;
  if (!running) {
    return (
      <button
        type="button"
        className="button secondary"
        onClick={() => setStarted({ at: Date.now(), loaded })}
      >
        Load full history
      </button>
    );
  }
  const seconds = Math.max((nowMs - started.at) / 1000, 1);
  const rate = (loaded - started.loaded) / seconds;
  return (
    <div className="progress load-all" role="status">
      <progress aria-label="Loading the full history" max={pages + 1} value={pages} />
      <span>
        {formatCount(loaded)} events from {formatCount(pages)} pages ·{' '}
        {formatCount(Math.round(rate))} events/s · {formatDuration(seconds)} so far
        {oldestLoaded !== undefined && <> · back to {formatAbsolute(oldestLoaded)}</>} · time left
        unknown (the service does not report totals)
      </span>
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          setStarted(null);
          cancelFetch();
        }}
      >
        Cancel
      </button>
    </div>
  );
}
