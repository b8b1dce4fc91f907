import { ApiError } from './api-error';

/**
 * Which failures are retried by themselves, and after how long. A rate limit is always
 * worth waiting out (the real service sends no Retry-After, so we back off
 * exponentially); a passing network or gateway fault gets one more try; anything
 * else is shown at once with a Retry button.
 */
export const MAX_RATE_LIMIT_RETRIES = 6;
const MAX_DELAY_MS = 30_000;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'rate_limited') return failureCount < MAX_RATE_LIMIT_RETRIES;
  // Our own database restarts by itself (or frees space): worth a few waits of its Retry-After.
  if (error.kind === 'database') return failureCount < 3;
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'unreachable') {
    return failureCount < 1;
  }
  return false;
}

/** Retry-After when the server sent one, else 1 s, 2 s, 4 s… capped at 30 s. */
export function retryDelayMs(failureCount: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
    return Math.min(error.retryAfterSeconds * 1000, MAX_DELAY_MS);
  }
  return Math.min(1000 * 2 ** Math.max(0, failureCount - 1), MAX_DELAY_MS);
}
