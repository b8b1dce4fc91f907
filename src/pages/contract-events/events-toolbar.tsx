import { exportHref } from '../../api/collection';
import { FeedLink } from '../../components/feed-link';
import { formatCount } from '../../lib/format';
import button from '../../components/button.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './events-toolbar.module.css';

interface EventsToolbarProps {
  address: string;
  /** The view's API parameters: the export is the same answer, whole. */
  apiSearch: string;
  /** Events that came in since the rows were loaded, where they can belong (use-new-events). */
  fresh: number;
  onShowFresh: () => void;
}

/**
 * Above the table, in a row that keeps its height: the export of the view (streamed by
 * the server, the whole answer, named for the view), its feed and, when new events came in, the
 * button that adds them.
 */
export function EventsToolbar({ address, apiSearch, fresh, onShowFresh }: EventsToolbarProps) {
  return (
    <div className={`${toolbar.toolbar} ${styles.row}`}>
      <div role="group" aria-label="Export or follow this view" className={styles.exports}>
        <a className={button.secondary} href={exportHref(address, apiSearch, 'csv')} download>
          Export CSV
        </a>
        <a className={button.secondary} href={exportHref(address, apiSearch, 'json')} download>
          Export JSON
        </a>
        <FeedLink />
      </div>
      <div role="status" aria-live="polite">
        {fresh > 0 && (
          <button type="button" className={button.button} onClick={onShowFresh}>
            Show {formatCount(fresh)} new event{fresh === 1 ? '' : 's'}
          </button>
        )}
      </div>
    </div>
  );
}
