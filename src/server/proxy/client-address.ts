import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * Who a request comes from, for the per-client rate limit.
 *
 * The socket's peer address is the only value a client cannot forge. `X-Forwarded-For`
 * is read only when the operator says how many proxies of theirs sit in front
 * (`trustedHops`), and then the entry those proxies appended is used: the entries to its
 * left were written by the client and prove nothing.
 */
export function clientAddress(c: Context, trustedHops: number): string | undefined {
  if (trustedHops > 0) {
    const forwarded = c.req.header('x-forwarded-for');
    if (forwarded) {
      const hops = forwarded.split(',').map((part) => part.trim());
      const entry = hops[Math.max(0, hops.length - trustedHops)];
      if (entry) return clientKey(entry);
    }
  }
  // Set by @hono/node-server (production server and the Vite plugin); absent elsewhere.
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress;
  return peer ? clientKey(peer) : undefined;
}

/**
 * One key per client: IPv4-mapped IPv6 becomes plain IPv4, and an IPv6 address is
 * reduced to its /64 network, since one host is routinely given a whole /64 and could
 * otherwise take a fresh bucket per address.
 */
export function clientKey(address: string): string {
  const text = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped?.[1]) return mapped[1];
  if (!text.includes(':')) return text.slice(0, 64);
  const groups = expandIpv6(text.replace(/%.*$/, ''));
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : text.slice(0, 64);
}

function expandIpv6(text: string): string[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => group.replace(/^0+(?=.)/, ''));
}
