import type { Walk } from '../../api/use-walk';
import { useNow } from '../../components/use-now';
import { formatCount } from '../../lib/format';
import { formatDay, formatDuration } from '../../lib/time';
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
 * neither the share done nor the time left can be known: the bar only says that loading
 * goes on. A failure or the end stops the run; the button then offers to start (or
 * resume) again. Both states are one line of the same height (the details are cut short
 * on a narrow screen, whole in the tooltip), so nothing below moves when the walk starts.
 */
export function LoadAll({ walk, loaded, pages, hasMore, oldestLoaded }: LoadAllProps) {
  const nowMs = useNow(1000);
  if (!hasMore) return null;
  if (!walk.running || walk.startedAt === null) {
    return (
      <div className={progress.walk}>
        <button type="button" className={button.secondary} onClick={walk.start}>
          Load full history
        </button>
        <span className={`${progress.details} muted`}>
          reads every page, back to the first event
        </span>
      </div>
    );
  }
  const seconds = Math.max((nowMs - walk.startedAt) / 1000, 1);
  const rate = (loaded - walk.loadedAtStart) / seconds;
  const details =
    `${formatCount(loaded)} events · ${formatCount(Math.round(rate))} a second · ` +
    `${formatDuration(seconds)}` +
    (oldestLoaded !== undefined ? ` · back to ${formatDay(oldestLoaded)}` : '') +
    ` · ${formatCount(pages)} pages; how many are left the service does not say`;
  return (
    <div className={progress.walk} role="status">
      <button type="button" className={button.secondary} onClick={walk.cancel}>
        Cancel
      </button>
      {/* No value: the end is not known, so the bar does not pretend to measure a share. */}
      <progress className={progress.bar} aria-label="Loading the full history" />
      <span className={progress.details} title={details}>
        {details}
      </span>
    </div>
  );
}
