import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/**
 * Who a request comes from, as a key: one per client for the per-client rate limit and
 * the upstream gate's fair share.
 *
 * The socket's peer address is the only value a client cannot forge. `X-Forwarded-For`
 * is read only when the operator says how many proxies of theirs sit in front
 * (`trustedHops`), and then the entry those proxies appended is used: the entries to its
 * left were written by the client and prove nothing. A forwarded entry that is not an IP
 * address is not believed either: the peer's address is used instead.
 *
 * Undefined when there is no socket: the app called in-process (tests, `app.request`).
 */
export function clientAddress(c: Context, trustedHops: number): string | undefined {
  if (trustedHops > 0) {
    const forwarded = trustedEntry(c.req.header('x-forwarded-for'), trustedHops);
    const key = forwarded === undefined ? undefined : clientKey(forwarded);
    if (key !== undefined) return key;
  }
  const peer = peerAddress(c);
  return peer === undefined ? undefined : (clientKey(peer) ?? peer);
}

/** The socket's peer address via @hono/node-server; undefined when called without a socket. */
export function peerAddress(c: Context): string | undefined {
  const bindings = c.env as { incoming?: unknown; server?: { incoming?: unknown } } | undefined;
  if (!bindings?.incoming && !bindings?.server?.incoming) return undefined;
  return getConnInfo(c).remote.address;
}

/**
 * The entry of a comma-separated forwarding header (`X-Forwarded-For`,
 * `X-Forwarded-Proto`) written by the outermost of `trustedHops` proxies of ours: each
 * appends one, so it is the `trustedHops`-th from the right (or the only one).
 */
export function trustedEntry(header: string | undefined, trustedHops: number): string | undefined {
  if (!header || trustedHops <= 0) return undefined;
  const entries = header.split(',');
  const entry = entries[Math.max(0, entries.length - trustedHops)]?.trim();
  return entry || undefined;
}

/**
 * One key per client, or undefined when `address` is not an IP address. Ports and
 * brackets (`1.2.3.4:80`, `[2001:db8::1]:443`) and leading zeros (`001.002.003.004`) are
 * dropped, IPv4-mapped IPv6 becomes plain IPv4, and an IPv6 address is reduced to its /64
 * network, since one host is routinely given a whole /64 and could otherwise take a fresh
 * bucket per address.
 */
export function clientKey(address: string): string | undefined {
  const parsed = parseAddress(address.trim());
  if (!parsed) return undefined;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  return `${ipv6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/;

/**
 * Only the plain written forms of an address: four decimal parts, or IPv6. ipaddr.js's
 * general parser also reads octal, hexadecimal and shortened IPv4 (`0x7f.1`, `10.1`),
 * which no proxy writes; refusing them keeps one address one spelling.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const ipv4 = IPV4_WITH_PORT.exec(text)?.[1];
  if (ipv4 !== undefined) {
    const decimal = ipv4.replace(/\b0+(?=\d)/g, '');
    return ipaddr.IPv4.isValidFourPartDecimal(decimal) ? ipaddr.IPv4.parse(decimal) : undefined;
  }
  const ipv6 = BRACKETED_IPV6.exec(text)?.[1] ?? text;
  return ipaddr.IPv6.isValid(ipv6) ? ipaddr.IPv6.parse(ipv6) : undefined;
}
