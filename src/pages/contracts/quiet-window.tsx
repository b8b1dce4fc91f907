import type { RankingWindow } from '../../lib/answers';
import { formatDay } from '../../lib/time';
import type { RankingPage } from '../../api/rankings';
import button from '../../components/button.module.css';
import notice from '../../components/notice.module.css';

/** The window in words. */
export const WINDOW_PHRASES: Record<RankingWindow, string> = {
  '24h': 'in the last 24 hours',
  '7d': 'in the last 7 days',
  '30d': 'in the last 30 days',
  all: 'over their whole history',
};

/**
 * A window in which no collection was active says so, rather than a ranking of zeros, with
 * when the newest activity was and the windows that hold it: the shortest, and all time.
 */
export function QuietWindow({
  window,
  answer,
  onWindow,
}: {
  window: RankingWindow;
  answer: RankingPage['window'] | undefined;
  onWindow: (window: RankingWindow) => void;
}) {
  if (window === 'all' || !answer || answer.active > 0 || typeof answer.newest !== 'number')
    return null;
  const offers = [...new Set([answer.nearest ?? 'all', 'all' as const])];
  return (
    <div className={notice.notice} role="status">
      <span>
        No activity {WINDOW_PHRASES[window]}: the newest is from {formatDay(answer.newest)} (UTC).
      </span>
      {offers.map((offer) => (
        <button
          key={offer}
          type="button"
          className={button.secondary}
          onClick={() => onWindow(offer)}
        >
          Show activity {offer === 'all' ? 'over the whole history' : WINDOW_PHRASES[offer]}
        </button>
      ))}
    </div>
  );
}
