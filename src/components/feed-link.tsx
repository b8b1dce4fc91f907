import { useLocation } from 'react-router';
import { feedHref } from '../lib/routes';
import button from './button.module.css';
import styles from './feed-link.module.css';

/**
 * The Atom feed of the view shown: its path and search, so a feed reader follows the rows
 * with the same filters (`/api/feed/…`, src/server/api/feeds.ts).
 */
export function FeedLink() {
  const { pathname, search } = useLocation();
  return (
    <a
      className={`${button.secondary} ${styles.feed}`}
      href={feedHref(pathname, search)}
      type="application/atom+xml"
      title="This view's newest changes of hands, for a feed reader"
    >
      Atom feed
    </a>
  );
}
