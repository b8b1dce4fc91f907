import type { ErrorHandler } from 'hono';
import type { ApiErrorBody, ApiErrorKind } from '../../lib/error-body';
import {
  DATABASE_FAILURE_MESSAGES,
  databaseFailure,
  type DatabaseFailure,
} from '../database/database-error';
import { parseRetryAfter } from '../upstream/retry-after';
import type { PageFailure } from '../upstream/page-read';
import type { LogVariables } from './request-log';

/**
 * What an error answer says, as a plain value: the response is built from it, and
 * readiness reads its message without a response to parse back.
 */
export interface ApiErrorInfo {
  kind: ApiErrorKind;
  status: number;
  message: string;
  retryAfterSeconds?: number;
}

/** The one JSON error shape the browser client understands. */
export function errorResponse(
  { kind, status, message, retryAfterSeconds }: ApiErrorInfo,
  headers: Record<string, string> = {},
): Response {
  const body: ApiErrorBody = { error: { kind, message, status } };
  const sent = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  if (retryAfterSeconds !== undefined) {
    body.error.retryAfterSeconds = retryAfterSeconds;
    sent.set('retry-after', String(retryAfterSeconds));
  }
  return new Response(JSON.stringify(body), { status, headers: sent });
}

/** Everything the server serves can only be read. */
export const methodNotAllowed = () =>
  errorResponse(
    { kind: 'method_not_allowed', status: 405, message: 'Only GET and HEAD are allowed.' },
    { allow: 'GET, HEAD' },
  );

const SERVICE = 'The Token Events Service';

/**
 * A non-2xx upstream answer as our error. Each status gets a fixed message of ours: the
 * upstream's own text never reaches the browser or `/readyz`. Its body is only looked at
 * to tell a spent monthly quota (`Limit Exceeded`) from throttling, and never parsed.
 */
export function upstreamStatusError(
  status: number,
  bodyText: string,
  retryAfter: string | null,
  maxRetryAfterSeconds = Infinity,
): ApiErrorInfo {
  if (status === 403) {
    return {
      kind: 'bad_key',
      status: 403,
      message: `${SERVICE} refused the server’s API key. Check TOKEN_EVENTS_API_KEY.`,
    };
  }
  if (status === 429) {
    const quota = /limit exceeded/i.test(bodyText.slice(0, 1000));
    return {
      kind: 'rate_limited',
      status: 429,
      message: quota
        ? 'The API key’s monthly quota is spent.'
        : `${SERVICE} is throttling requests.`,
      // No longer than the server itself will wait (the gate's cool-down cap).
      retryAfterSeconds: capped(parseRetryAfter(retryAfter), maxRetryAfterSeconds),
    };
  }
  if (status === 400) {
    return { kind: 'bad_request', status: 400, message: `${SERVICE} rejected the request.` };
  }
  if (status === 404) return { kind: 'not_found', status: 404, message: 'Not found.' };
  return { kind: 'upstream', status: 502, message: `${SERVICE} failed (status ${status}).` };
}

const capped = (seconds: number | undefined, max: number) =>
  seconds === undefined ? undefined : Math.min(seconds, max);

/** What an upstream failure's words say of time: the page's deadline, the longest wait. */
export interface ErrorLimits {
  timeoutMs: number;
  maxRetryAfterSeconds?: number;
}

/** Why no page could be served, in words for the browser. */
export function pageFailureError(
  failure: PageFailure,
  { timeoutMs, maxRetryAfterSeconds }: ErrorLimits,
): ApiErrorInfo {
  switch (failure.kind) {
    case 'status':
      return upstreamStatusError(
        failure.status,
        failure.body,
        failure.retryAfter,
        maxRetryAfterSeconds,
      );
    case 'throttled':
      return {
        kind: 'rate_limited',
        status: 429,
        message: `${SERVICE} is throttling requests; the server is waiting before it asks again.`,
        retryAfterSeconds: failure.retryAfterSeconds,
      };
    case 'busy':
      return {
        kind: 'busy',
        status: 503,
        message: `The server is busy: too many requests are waiting for ${SERVICE}. Try again shortly.`,
        retryAfterSeconds: 1,
      };
    case 'timeout':
      return {
        kind: 'timeout',
        status: 504,
        message: `${SERVICE} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
      };
    case 'unreachable':
    case 'aborted':
      return { kind: 'unreachable', status: 502, message: `${SERVICE} cannot be reached.` };
    case 'broken':
      return {
        kind: 'upstream',
        status: 502,
        message: `${SERVICE} closed the connection before the page was complete.`,
      };
    case 'too_large':
      return invalidPage('larger than its 1MB limit');
    case 'invalid':
      return invalidPage('that is not valid JSON');
    case 'daily_share':
      return {
        kind: 'client_rate_limited',
        status: 429,
        message:
          'Your share of today’s requests to the Token Events Service is spent: what is ' +
          'stored is still answered, and new reads resume tomorrow (UTC).',
        retryAfterSeconds: failure.secondsLeft,
      };
  }
}

/** The upstream sent a page that cannot be served: what is wrong with it, in words. */
const invalidPage = (what: string): ApiErrorInfo => ({
  kind: 'invalid_response',
  status: 502,
  message: `${SERVICE} sent a page ${what}.`,
});

/** The server stops: requests still waiting for the upstream get this instead. */
export const SHUTTING_DOWN: ApiErrorInfo = {
  kind: 'busy',
  status: 503,
  message: 'The server is restarting. Try again in a moment.',
  retryAfterSeconds: 1,
};

/**
 * A thrown error (a bug of ours) as our JSON error with a fixed message: nothing of the
 * error reaches the client. Its stack goes into the request's log line when there is a
 * request log, else to stderr; the request's headers never do.
 */
export function internalErrorHandler(logged: boolean): ErrorHandler<{ Variables: LogVariables }> {
  return (error, c) => {
    const text = (error.stack ?? `${error.name}: ${error.message}`).slice(0, 4000);
    if (logged) c.set('error', text);
    else console.error(`Internal error on ${c.req.method} ${c.req.path}: ${text}`);
    const failure = databaseFailure(error);
    return errorResponse(failure ? databaseError(failure) : INTERNAL_ERROR);
  };
}

/** The database failed: 503, naming it, with a short wait (it restarts, or frees space). */
export const databaseError = (failure: DatabaseFailure): ApiErrorInfo => ({
  kind: 'database',
  status: 503,
  message: DATABASE_FAILURE_MESSAGES[failure],
  retryAfterSeconds: 5,
});

const INTERNAL_ERROR: ApiErrorInfo = {
  kind: 'internal',
  status: 500,
  message: 'The dashboard’s server failed to answer this request. Try again.',
};
