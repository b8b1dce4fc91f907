import type { ReactNode } from 'react';
import { ApiError, failedSide, type ClientErrorKind } from '../api/api-error';
import { retryDelayMs, shouldRetry } from '../api/retry-policy';
import button from './button.module.css';
import notice from './notice.module.css';
import styles from './states.module.css';

const SOMETHING_WRONG = 'Something went wrong';
const SERVER = 'The dashboard’s server';

/** Each names the side that failed: the service, the dashboard's server or database, the connection. */
const TITLES: Record<ClientErrorKind, string> = {
  bad_key: 'The service refused our key',
  rate_limited: 'The service is busy',
  client_rate_limited: 'This dashboard is limiting your requests',
  bad_request: 'That request is not valid',
  // The app's pages never ask for a route that needs the operator's token.
  unauthorized: 'The operator’s token is needed',
  not_found: 'Not found',
  // The browser only ever sends GET: a method refused is a fault of ours, not the reader's.
  method_not_allowed: `${SERVER} refused the request`,
  upstream: 'The service failed',
  busy: `${SERVER} is busy`,
  timeout: 'The service took too long',
  unreachable: 'The service cannot be reached',
  invalid_response: 'The service sent something unreadable',
  unreadable_answer: `${SERVER} sent something unreadable`,
  database: 'The dashboard’s database is down',
  internal: `${SERVER} failed`,
  network: `No connection to ${SERVER.toLowerCase()}`,
};

export function errorTitle(error: unknown): string {
  if (!(error instanceof ApiError)) return SOMETHING_WRONG;
  return TITLES[error.kind];
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'An unexpected error happened.';
}

/** What happens next, or what the reader can do, for each side that fails. */
export function errorNext(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Retry, or reload the page.';
  if (error.kind === 'client_rate_limited') {
    const seconds = error.retryAfterSeconds;
    return seconds === undefined ? 'Wait a moment, then Retry.' : `Wait ${seconds} s, then Retry.`;
  }
  switch (failedSide(error)) {
    case 'connection':
      return 'Retry when it is back; a lost connection tries again by itself when it returns.';
    case 'database':
      return 'It usually comes back within seconds: Retry then.';
    case 'server':
      return error.status === 503
        ? 'It is busy or restarting: Retry in a few seconds.'
        : 'Retry; if it keeps failing, the server’s log says why.';
    case 'request':
      return 'Check the address of this page.';
  }
  if (error.kind === 'bad_key') {
    return 'Only the dashboard’s operator can fix this (TOKEN_EVENTS_API_KEY).';
  }
  if (error.kind === 'rate_limited') return 'Wait a moment, then Retry.';
  return 'The dashboard itself is fine: Retry asks the service again.';
}

interface ErrorStateProps {
  error: unknown;
  onRetry?: () => void;
  /** What stays on screen, e.g. "The 200 events already loaded are kept." */
  context?: string;
  compact?: boolean;
}

/** Says who failed, what happened and what happens next, and offers a retry; announced to screen readers. */
export function ErrorState({ error, onRetry, context, compact }: ErrorStateProps) {
  return (
    <div className={compact ? `${notice.error} ${notice.compact}` : notice.error} role="alert">
      <strong>{errorTitle(error)}</strong>
      <span>
        {errorMessage(error)} {errorNext(error)}
      </span>
      {context && <span className="muted">{context}</span>}
      {onRetry && (
        <button type="button" className={button.button} onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * Shown while a query waits to try again by itself (a rate limit, a busy server), with
 * the wait React Query is sleeping: `failureCount` failures so far, the last of them
 * still to be retried.
 */
export function RetryingNotice({ error, failureCount }: { error: unknown; failureCount: number }) {
  if (failureCount === 0 || !shouldRetry(failureCount - 1, error)) return null;
  const seconds = Math.ceil(retryDelayMs(failureCount - 1, error) / 1000);
  const rateLimited = error instanceof ApiError && error.kind === 'rate_limited';
  return (
    <div className={notice.wait} role="status">
      {rateLimited ? 'The service asked us to slow down' : errorTitle(error)}. Retrying
      automatically in {seconds} s (attempt {failureCount + 1}).
    </div>
  );
}

/**
 * Faults of the whole server that the answer came with (a refused key, a full disk…):
 * what is shown comes from stored data, and why nothing is fresh.
 */
export function ServerFaults({ faults }: { faults: readonly string[] | undefined }) {
  if (!faults || faults.length === 0) return null;
  return (
    <div className={notice.wait} role="note">
      <strong>Not fresh: the server cannot read new data now</strong>
      {faults.map((fault) => (
        <span key={fault}>{fault}</span>
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={notice.notice} role="status">
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** Placeholder rows shaped like real ones, while the first page loads. */
export function SkeletonRows({ columns, rows = 8 }: { columns: number; rows?: number }) {
  return (
    <div aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, row) => (
        <div className={styles.row} key={row}>
          {Array.from({ length: columns }, (_, column) => (
            <span className={styles.cell} key={column} />
          ))}
        </div>
      ))}
    </div>
  );
}
