import type { ReactNode } from 'react';
import { ApiError, type ClientErrorKind } from '../api/api-error';
import { retryDelayMs } from '../api/retry-policy';
import button from './button.module.css';
import notice from './notice.module.css';
import styles from './states.module.css';

const SOMETHING_WRONG = 'Something went wrong';

const TITLES: Record<ClientErrorKind, string> = {
  bad_key: 'The service refused our key',
  rate_limited: 'The service is busy',
  bad_request: 'That request is not valid',
  not_found: 'Not found',
  // The browser only ever sends GET: a method refused is a fault of ours, not the reader's.
  method_not_allowed: SOMETHING_WRONG,
  upstream: 'The service failed',
  timeout: 'The service took too long',
  unreachable: 'The service cannot be reached',
  invalid_response: 'The service sent something unreadable',
  expired_cursor: 'The service lost its place in this list',
  database: 'The dashboard’s database is down',
  internal: 'The dashboard’s server failed',
  network: 'No connection to the dashboard server',
};

export function errorTitle(error: unknown): string {
  return error instanceof ApiError ? TITLES[error.kind] : SOMETHING_WRONG;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'An unexpected error happened.';
}

interface ErrorStateProps {
  error: unknown;
  onRetry?: () => void;
  /** What stays on screen, e.g. "The 200 events already loaded are kept." */
  context?: string;
  compact?: boolean;
}

/** Says what happened and offers a retry; announced to screen readers. */
export function ErrorState({ error, onRetry, context, compact }: ErrorStateProps) {
  return (
    <div className={compact ? `${notice.error} ${notice.compact}` : notice.error} role="alert">
      <strong>{errorTitle(error)}</strong>
      <span>{errorMessage(error)}</span>
      {context && <span className="muted">{context}</span>}
      {onRetry && (
        <button type="button" className={button.button} onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** Shown while a query is retrying by itself after a rate limit. */
export function RetryingNotice({ error, failureCount }: { error: unknown; failureCount: number }) {
  if (!(error instanceof ApiError) || error.kind !== 'rate_limited' || failureCount === 0)
    return null;
  const seconds = Math.ceil(retryDelayMs(failureCount, error) / 1000);
  return (
    <div className={notice.wait} role="status">
      The service asked us to slow down. Retrying automatically in {seconds} s (attempt{' '}
      {failureCount + 1}).
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
