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
 * scrolled down, the page is moved by what the page grew above them (the rows added, less
 * this notice, which goes), so the row they read stays put.
 */
export function LiveNotice({ count, gap, onAdd }: LiveNoticeProps) {
  if (count === 0) return null;
  const add = () => {
    const scrolled = window.scrollY > 0;
    const before = document.documentElement.scrollHeight;
    onAdd();
    if (scrolled) {
      requestAnimationFrame(() =>
        window.scrollBy(0, document.documentElement.scrollHeight - before),
      );
    }
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
