import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, failedSide, type FailedSide } from '../../../src/api/api-error';
import { errorMessage, errorNext, errorTitle } from '../../../src/components/states';
import { API_ERROR_KINDS } from '../../../src/lib/error-body';
import { Hono } from 'hono';
import { clientRateLimit } from '../../../src/server/proxy/client-rate-limit';
import { createRateLimiter } from '../../../src/server/proxy/rate-limit';
import {
  databaseError,
  errorResponse,
  pageFailureError,
  SHUTTING_DOWN,
  type ApiErrorInfo,
} from '../../../src/server/proxy/error-response';
import { fromSocket } from '../../support/socket-bindings';

afterEach(() => vi.useRealTimers());

/** What the reader reads of an answer of the server, as the browser's client builds it. */
async function shown(info: ApiErrorInfo) {
  const error = await ApiError.fromResponse(errorResponse(info));
  return {
    side: failedSide(error),
    text: [errorTitle(error), errorMessage(error), errorNext(error)].join(' | '),
  };
}

const page = (failure: Parameters<typeof pageFailureError>[0]) =>
  pageFailureError(failure, { timeoutMs: 10_000 });

const SERVICE_NAMED = /The service |Token Events Service/;
const SERVICE_BLAMED =
  /(The service|Token Events Service) (failed|took|cannot|sent|refused|is busy)/;

describe('every error says which side failed', () => {
  it.each<[string, ApiErrorInfo, FailedSide]>([
    ['a refused key', page({ kind: 'status', status: 403, body: '', retryAfter: null }), 'service'],
    ['a throttle', page({ kind: 'throttled', retryAfterSeconds: 3 }), 'service'],
    [
      'a spent quota',
      page({ kind: 'status', status: 429, body: 'Limit Exceeded', retryAfter: null }),
      'service',
    ],
    [
      'a 500 of the service',
      page({ kind: 'status', status: 500, body: '', retryAfter: null }),
      'service',
    ],
    ['a timeout', page({ kind: 'timeout' }), 'service'],
    ['an unreachable service', page({ kind: 'unreachable' }), 'service'],
    ['a cut connection', page({ kind: 'broken' }), 'service'],
    ['an oversized page', page({ kind: 'too_large' }), 'service'],
    ['an unreadable page', page({ kind: 'invalid' }), 'service'],
  ])('the service’s: %s names it', async (_what, info, side) => {
    const { side: said, text } = await shown(info);
    expect(said).toBe(side);
    expect(text).toMatch(SERVICE_NAMED);
  });

  it.each<[string, ApiErrorInfo, FailedSide]>([
    ['its database down', databaseError('down'), 'database'],
    ['its database full', databaseError('full'), 'database'],
    ['its database damaged', databaseError('damaged'), 'database'],
    [
      'a bug of ours',
      {
        kind: 'internal',
        status: 500,
        message: 'The dashboard’s server failed to answer this request. Try again.',
      },
      'server',
    ],
    ['its queue for the service full', page({ kind: 'busy' }), 'server'],
    ['a restart', SHUTTING_DOWN, 'server'],
    ['the visitor’s daily share spent', page({ kind: 'daily_share', secondsLeft: 60 }), 'server'],
  ])('our own: %s never blames the service', async (_what, info, side) => {
    const { side: said, text } = await shown(info);
    expect(said).toBe(side);
    expect(text).not.toMatch(SERVICE_BLAMED);
    expect(text).toMatch(/dashboard’s (server|database)|The server|This dashboard/);
  });

  it('an answer of our own server that cannot be read is the server’s, not the service’s', () => {
    for (const error of [
      new ApiError('unreadable_answer'),
      new ApiError('unreadable_answer', undefined, 200),
      new ApiError('unreadable_answer', 'The dashboard’s server sent a wallet it could not read.'),
    ]) {
      expect(failedSide(error)).toBe('server');
      expect(errorTitle(error)).toBe('The dashboard’s server sent something unreadable');
      expect(errorMessage(error)).toMatch(/^The dashboard’s server sent /);
    }
  });

  it('a lost connection names the connection and says what comes back by itself', () => {
    const error = new ApiError('network');
    expect(failedSide(error)).toBe('connection');
    expect(errorTitle(error)).toBe('No connection to the dashboard’s server');
    expect(errorMessage(error)).toMatch(/connection is gone/);
    expect(errorNext(error)).toMatch(/a lost connection tries again by itself when it returns/);
  });

  it('our own limit on a visitor’s requests says this dashboard limits them, and when to try again', async () => {
    // The limiter's clock stands still: the second request is over the limit.
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = new Hono();
    app.use('/api/*', clientRateLimit(createRateLimiter({ perMinute: 60, burst: 1 }), 0));
    app.get('/api/meta', (c) => c.json({ ok: true }));
    const ask = () => app.request('/api/meta', {}, fromSocket('1.2.3.4'));
    expect((await ask()).status).toBe(200);
    const error = await ApiError.fromResponse(await ask());
    expect(error).toMatchObject({ kind: 'client_rate_limited', status: 429, retryAfterSeconds: 1 });
    expect(failedSide(error)).toBe('server');
    expect(errorTitle(error)).toBe('This dashboard is limiting your requests');
    expect(errorMessage(error)).toMatch(/^This dashboard answers each address a limited number/);
    expect(errorNext(error)).toBe('Wait 1 s, then Retry.');
    // The service's throttling is the service's, in words of its own.
    const throttled = await ApiError.fromResponse(
      errorResponse(page({ kind: 'throttled', retryAfterSeconds: 3 })),
    );
    expect(errorTitle(throttled)).toBe('The service is busy');
    expect(errorTitle(throttled)).not.toBe(errorTitle(error));
  });

  it('every kind has a title, a message and what happens next', () => {
    for (const kind of [...API_ERROR_KINDS, 'network', 'unreadable_answer'] as const) {
      for (const status of [0, 502, 503]) {
        const error = new ApiError(kind, undefined, status);
        expect(errorTitle(error), kind).toMatch(/^[A-Z]/);
        expect(errorMessage(error), kind).toMatch(/\.$/);
        expect(errorNext(error), kind).toMatch(/\.$/);
        if (failedSide(error) !== 'service') {
          expect(errorTitle(error) + errorMessage(error), kind).not.toMatch(SERVICE_BLAMED);
        }
      }
    }
    expect(errorTitle(new Error('x'))).toBe('Something went wrong');
    expect(errorNext(new Error('x'))).toBe('Retry, or reload the page.');
  });
});
