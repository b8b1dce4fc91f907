import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { trustedEntry } from '../proxy/client-address';

// Half a year, as Hono's default; subdomains too, since they share the name's trust.
const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * Headers for every response of the production server. Images may come from https
 * (contract images live on many hosts) or data: URIs; everything else is same-origin.
 * Inline scripts are never allowed, so a hostile contract name cannot run code even if
 * it ever reached the DOM as markup.
 *
 * `Strict-Transport-Security` only on a request that came over HTTPS, directly or, with
 * `trustedProxyHops`, as `X-Forwarded-Proto: https` from a proxy of ours: sent over plain
 * HTTP it means nothing, and a browser reaching the server by HTTP has no HTTPS to keep.
 */
export function securityHeaders(trustedProxyHops = 0): MiddlewareHandler {
  const common = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'https:', 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    crossOriginEmbedderPolicy: false,
    // Contract images are cross-origin <img> loads; they need no CORP from us.
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    strictTransportSecurity: false,
  });
  return async (c, next) => {
    await common(c, next);
    const forwardedProto = trustedEntry(c.req.header('x-forwarded-proto'), trustedProxyHops);
    const https = c.req.url.startsWith('https:') || forwardedProto?.toLowerCase() === 'https';
    if (https) c.res.headers.set('strict-transport-security', HSTS);
  };
}
