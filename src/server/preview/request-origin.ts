import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { isLoopback } from '../network-address';

/** Where a page's absolute links (a card's image, its canonical URL) point. */
export interface OriginRule {
  /** `PUBLIC_URL`'s origin: the only one used when set, whatever a request says. */
  publicUrl?: string | undefined;
  /** Where the server listens (`HOST`, `PORT`), for a request that comes with no socket. */
  listen: { host: string; port: number };
}

// A host name or an address, with a port: anything else in a Host header is not a host.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a page's links name, and whether it came from the request's `Host` (so the
 * answer must say `Vary: Host`).
 *
 * `PUBLIC_URL` when set. Without it, the `Host` a visitor sent only when it names this
 * server as this machine reaches it: a loopback name (`localhost`, `127.0.0.1`, `[::1]`)
 * or the address the connection arrived at, with the port it arrived on. Any other Host
 * gives the address and port the server listens on: a stranger's Host must not make a
 * card point elsewhere (a shared cache would keep it). Forwarded headers are never read
 * here, since a client that reaches the server directly could write them: behind a proxy,
 * set `PUBLIC_URL`.
 */
export function pageOrigin(c: Context, rule: OriginRule): { origin: string; fromHost: boolean } {
  if (rule.publicUrl) return { origin: rule.publicUrl, fromHost: false };
  const local = localAddress(c) ?? rule.listen;
  const localHost = hostPart(local.host);
  const host = c.req.header('host')?.toLowerCase();
  if (host && HOST.test(host)) {
    const { hostname, port } = new URL(`http://${host}`);
    const named = hostname === localHost || isLoopback(hostname);
    if (named && Number(port || 80) === local.port)
      return { origin: `http://${host}`, fromHost: true };
  }
  return { origin: `http://${localHost}:${local.port}`, fromHost: true };
}

/** The address and port the request's connection arrived at; undefined without a socket. */
function localAddress(c: Context): { host: string; port: number } | undefined {
  const bindings = c.env as
    { incoming?: { socket?: { localAddress?: string; localPort?: number } } } | undefined;
  const socket = bindings?.incoming?.socket;
  if (!socket?.localAddress || !socket.localPort) return undefined;
  return { host: socket.localAddress, port: socket.localPort };
}

/** An address as a URL's host: IPv6 in brackets, an IPv4-mapped one as plain IPv4. */
function hostPart(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!ipaddr.isValid(bare)) return bare;
  const address = ipaddr.process(bare);
  return address.kind() === 'ipv6' ? `[${address.toString()}]` : address.toString();
}
