import type { Walk } from '../../api/use-walk';
import { useNow } from '../../components/use-now';
import { formatCount } from '../../lib/format';
import { formatAbsolute, formatDuration } from '../../lib/time';
import button from '../../components/button.module.css';
import progress from '../../components/walk-progress.module.css';

interface LoadAllProps {
  walk: Walk;
  loaded: number;
  pages: number;
  hasMore: boolean;
  oldestLoaded: number | undefined;
}

/**
 * "Load full history": starts the walk to the end (useWalkedList) and shows it with a
 * count, the rate, the span reached so far, and Cancel. The service reports no totals, so
 * the time left cannot be known; the bar moves with the pages and says so rather than
 * inventing an end. A failure or the end stops the run; the button then offers to start
 * (or resume) again.
 */
export function LoadAll({ walk, loaded, pages, hasMore, oldestLoaded }: LoadAllProps) {
  const nowMs = useNow(1000);
  if (!hasMore) return null;
  if (!walk.running || walk.startedAt === null) {
    return (
      <button type="button" className={button.secondary} onClick={walk.start}>
        Load full history
      </button>
    );
  }
  const seconds = Math.max((nowMs - walk.startedAt) / 1000, 1);
  const rate = (loaded - walk.loadedAtStart) / seconds;
  return (
    <div className={progress.progress} role="status">
      <progress aria-label="Loading the full history" max={pages + 1} value={pages} />
      <span>
        {formatCount(loaded)} events from {formatCount(pages)} pages ·{' '}
        {formatCount(Math.round(rate))} events/s · {formatDuration(seconds)} so far
        {oldestLoaded !== undefined && <> · back to {formatAbsolute(oldestLoaded)}</>} · time left
        unknown (the service does not report totals)
      </span>
      <button type="button" className={button.secondary} onClick={walk.cancel}>
        Cancel
      </button>
    </div>
  );
}
