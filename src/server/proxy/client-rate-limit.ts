import type { MiddlewareHandler } from 'hono';
import { clientAddress } from './client-address';
import { errorResponse } from './error-response';
import type { RateLimiter } from './rate-limit';
import type { LogVariables } from './request-log';

/** What the middleware tells later handlers: the client's key, when it has one. */
export type ClientVariables = LogVariables & { client?: string };

/**
 * Names the client of each request (`c.get('client')`) and, with a limiter, holds it to
 * its share: a client over its limit is answered 429 with `Retry-After` here. Every
 * request it sees counts, cached or not: the limit is on what one client asks of us.
 * Requests without a socket (the app called in-process) have no client and no limit.
 */
export function clientRateLimit(
  limiter: RateLimiter | undefined,
  trustedProxyHops: number,
): MiddlewareHandler<{ Variables: ClientVariables }> {
  return async (c, next) => {
    const client = clientAddress(c, trustedProxyHops);
    c.set('client', client);
    const retryAfter = limiter === undefined || client === undefined ? 0 : limiter.take(client);
    if (retryAfter === 0) return next();
    c.set('route', 'rate-limited');
    return errorResponse({
      kind: 'client_rate_limited',
      status: 429,
      message:
        'This dashboard answers each address a limited number of requests a minute, and yours has asked for more.',
      retryAfterSeconds: retryAfter,
    });
  };
}
