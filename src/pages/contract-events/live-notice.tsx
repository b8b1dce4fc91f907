import { restoreRow, rowInView } from '../../components/virtual-body';
import { formatCount } from '../../lib/format';
import button from '../../components/button.module.css';
import notice from '../../components/notice.module.css';

interface LiveNoticeProps {
  count: number;
  gap: boolean;
  onAdd: () => void;
}

/**
 * "N new events": adds them above the loaded rows on request. When the reader has
 * scrolled down, the row they read is put back where it was on the screen.
 */
export function LiveNotice({ count, gap, onAdd }: LiveNoticeProps) {
  if (count === 0) return null;
  const add = () => {
    const place = window.scrollY > 0 ? rowInView() : null;
    onAdd();
    if (place) requestAnimationFrame(() => restoreRow(place));
  };
  return (
    <div className={notice.live} role="status">
      <button type="button" className={button.button} onClick={add}>
        {formatCount(count)}
        {gap ? '+' : ''} new event{count === 1 ? '' : 's'}
      </button>
      {gap && (
        <span className="muted">More arrived than one page holds; reload to see all of them.</span>
      )}
    </div>
  );
}
