import { useId, useState } from 'react';
import { exportHref } from '../../api/collection';
import { FeedLink } from '../../components/feed-link';
import { formatCount } from '../../lib/format';
import { EmbedCode } from './embed-code';
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
 * the server, the whole answer, named for the view), its feed, the code that embeds the
 * collection on another site and, when new events came in, the button that adds them.
 */
export function EventsToolbar({ address, apiSearch, fresh, onShowFresh }: EventsToolbarProps) {
  const [embedding, setEmbedding] = useState(false);
  const embedId = useId();
  return (
    <>
      <div className={`${toolbar.toolbar} ${styles.row}`}>
        <div role="group" aria-label="Export or follow this view" className={styles.exports}>
          <a className={button.secondary} href={exportHref(address, apiSearch, 'csv')} download>
            Export CSV
          </a>
          <a className={button.secondary} href={exportHref(address, apiSearch, 'json')} download>
            Export JSON
          </a>
          <FeedLink />
          <button
            type="button"
            className={button.secondary}
            aria-expanded={embedding}
            aria-controls={embedding ? embedId : undefined}
            onClick={() => setEmbedding(!embedding)}
          >
            Embed
          </button>
        </div>
        <div role="status" aria-live="polite">
          {fresh > 0 && (
            <button type="button" className={button.button} onClick={onShowFresh}>
              Show {formatCount(fresh)} new event{fresh === 1 ? '' : 's'}
            </button>
          )}
        </div>
      </div>
      {embedding && <EmbedCode id={embedId} address={address} />}
    </>
  );
}
