import type { Context } from 'hono';
import { trustedEntry } from '../proxy/client-address';

// A host name or an address, with a port: anything else in a Host header is not a host.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a visitor used (`https://dashboard.example`), for a page's absolute links: a
 * chat's card needs the image's whole URL. From the request's Host, and with
 * `trustedHops` proxies of ours in front, from the `X-Forwarded-Proto` and
 * `X-Forwarded-Host` they set (never believed otherwise: a client could write them).
 * Null when the host is not a plain host name or address.
 */
export function requestOrigin(c: Context, trustedHops: number): string | null {
  const url = new URL(c.req.url);
  const forwardedProto = trustedEntry(c.req.header('x-forwarded-proto'), trustedHops);
  const forwardedHost = trustedEntry(c.req.header('x-forwarded-host'), trustedHops);
  const proto = forwardedProto?.toLowerCase() ?? url.protocol.replace(/:$/, '');
  const host = forwardedHost ?? c.req.header('host') ?? url.host;
  if (proto !== 'http' && proto !== 'https') return null;
  return HOST.test(host) ? `${proto}://${host.toLowerCase()}` : null;
}
