import { ApiError } from './api-error';

/**
 * Which failures are retried by themselves, and after how long. A rate limit is always
 * worth waiting out (the real service sends no Retry-After, so we back off
 * exponentially). A busy 503 that says how long to wait (the server's queue is full, it
 * restarts, its database comes back) is asked again after that time, a few times; one
 * that does not say is shown at once, so a struggling server is not hammered. A passing
 * network or gateway fault gets one more try; anything else is shown at once with a
 * Retry button.
 */
export const MAX_RATE_LIMIT_RETRIES = 6;
export const MAX_BUSY_RETRIES = 3;
const MAX_DELAY_MS = 30_000;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  // The service's limit and this server's own are waited out alike.
  if (error.kind === 'rate_limited' || error.kind === 'client_rate_limited') {
    return failureCount < MAX_RATE_LIMIT_RETRIES;
  }
  if (error.status === 503) {
    return error.retryAfterSeconds !== undefined && failureCount < MAX_BUSY_RETRIES;
  }
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'unreachable') {
    return failureCount < 1;
  }
  return false;
}

/**
 * The wait before the next try, after `failureCount` failures less one (React Query counts
 * from 0 here): Retry-After when the server sent one, else 1 s, 2 s, 4 s… capped at 30 s.
 */
export function retryDelayMs(failureCount: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
    return Math.min(error.retryAfterSeconds * 1000, MAX_DELAY_MS);
  }
  return Math.min(1000 * 2 ** Math.max(0, failureCount), MAX_DELAY_MS);
}
