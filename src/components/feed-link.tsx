import { Link, useLocation } from 'react-router';
import { feedHref, webhookForViewHref } from '../lib/routes';
import button from './button.module.css';
import styles from './feed-link.module.css';

/**
 * The Atom feed of the view shown: its path and search, so a feed reader follows the rows
 * with the same filters (`/api/feed/…`, src/server/api/feeds.ts); beside it, the webhooks
 * page with its form set to the same view, for a receiver to be told instead.
 */
export function FeedLink() {
  const { pathname, search } = useLocation();
  return (
    <>
      <a
        className={`${button.secondary} ${styles.feed}`}
        href={feedHref(pathname, search)}
        type="application/atom+xml"
        title="This view's newest changes of hands, for a feed reader"
      >
        Atom feed
      </a>
      <Link
        className={`${button.secondary} ${styles.feed}`}
        to={webhookForViewHref(pathname, search)}
        title="This view's new changes of hands posted to a URL of yours (the operator's token needed)"
      >
        Get a webhook for this view
      </Link>
    </>
  );
}
