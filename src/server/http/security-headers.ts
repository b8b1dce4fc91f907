import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { isEmbedPath } from '../../lib/routes';
import { trustedEntry } from '../proxy/client-address';

// Half a year, as Hono's default; subdomains too, since they share the name's trust.
const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * Headers for every response of the production server. Everything is same-origin: contract
 * images too, which the server fetches and serves itself (src/server/images), so no other
 * host sees a visitor; data: URIs only for pictures the app draws. Inline scripts are
 * never allowed, so a hostile contract name cannot run code even if it ever reached the
 * DOM as markup. A response with a policy of its own (a contract's image) keeps it.
 *
 * `Strict-Transport-Security` only on a request that came over HTTPS, directly or, with
 * `trustedProxyHops`, as `X-Forwarded-Proto: https` from a proxy of ours: sent over plain
 * HTTP it means nothing, and a browser reaching the server by HTTP has no HTTPS to keep.
 */
export function securityHeaders(trustedProxyHops = 0): MiddlewareHandler {
  const framed = (embedded: boolean) =>
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        // Only the pages made for it may sit in another site's frame (src/lib/routes.ts).
        frameAncestors: embedded ? ['*'] : ["'none'"],
      },
      xFrameOptions: embedded ? false : 'DENY',
      referrerPolicy: 'no-referrer',
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: 'same-origin',
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
      strictTransportSecurity: false,
    });
  const [common, embeddable] = [framed(false), framed(true)];
  return async (c, next) => {
    let own: string | null = null;
    const headers = isEmbedPath(c.req.path) ? embeddable : common;
    await headers(c, async () => {
      await next();
      own = c.res.headers.get('content-security-policy');
    });
    if (own !== null) c.res.headers.set('content-security-policy', own);
    const forwardedProto = trustedEntry(c.req.header('x-forwarded-proto'), trustedProxyHops);
    const https = c.req.url.startsWith('https:') || forwardedProto?.toLowerCase() === 'https';
    if (https) c.res.headers.set('strict-transport-security', HSTS);
  };
}
