import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ApiError } from '../api/api-error';
import { errorMessage, errorNext, errorTitle, SkeletonRows } from '../components/states';
import { useTitle } from '../components/use-title';
import { PageCodeError, reloadForNewCode } from './load-page';
import { useOnline } from './use-online';
import button from '../components/button.module.css';
import notice from '../components/notice.module.css';

const reload = () => window.location.reload();

/** Title, what happened, what happens next. */
function describe(error: unknown, online: boolean): [string, string, string] {
  if (error instanceof ApiError) return [errorTitle(error), errorMessage(error), errorNext(error)];
  if (error instanceof PageCodeError) {
    // Offline, the layout says the connection is gone; this says what it means here.
    return online
      ? [
          'This page could not be loaded',
          'Its code did not come from the dashboard’s server: the server may be down, or a new version of the dashboard replaced it.',
          'Retry loads the page again.',
        ]
      : [
          'This page could not be loaded',
          'Its code could not be fetched without a connection.',
          'It opens by itself when the connection is back.',
        ];
  }
  return ['This page failed', errorMessage(error), 'Retry loads the page again.'];
}

/**
 * The pages' error screen, inside the layout (the header and its lookup still work): a
 * page whose code did not load, or that failed while showing. Whatever the failure, the
 * page loads again by itself when the browser comes back online (an `online` event
 * follows an `offline` one). Retry loads
 * the page afresh: the router keeps a route whose code failed to load failed until then.
 */
export function PageError() {
  const error = useRouteError();
  const [title, message, next] = describe(error, useOnline());
  // New code after a deploy: the page goes at once, its place held meanwhile.
  const reloading = error instanceof PageCodeError && error.reload;
  useTitle(title);
  useEffect(() => {
    if (reloading) return reloadForNewCode();
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [reloading]);
  if (reloading) return <SkeletonRows columns={5} />;
  return (
    <section className={notice.error} role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>{next}</p>
      <button type="button" className={button.button} onClick={reload}>
        Retry
      </button>
    </section>
  );
}
