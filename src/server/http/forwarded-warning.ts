import type { MiddlewareHandler } from 'hono';
import { isInternalAddress } from '../network-address';
import { peerAddress } from '../proxy/client-address';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

/**
 * With `TRUST_PROXY` set, says once in the log when forwarded headers arrive straight
 * from an address on the open internet: a proxy of one's own is reached from this machine
 * or a private network, so such a peer is likely a client writing the headers itself,
 * and with them choosing the address it is limited as.
 */
export function warnForwardedFromOutside(
  trustedProxyHops: number,
  warn: (message: string) => void,
): MiddlewareHandler {
  let warned = trustedProxyHops === 0;
  return async (c, next) => {
    if (!warned && FORWARDED.some((name) => c.req.header(name) !== undefined)) {
      const peer = peerAddress(c);
      if (peer !== undefined && !isInternalAddress(peer)) {
        warned = true;
        warn(
          `TRUST_PROXY is ${trustedProxyHops}, but a request with forwarded headers came straight from ${peer}, not a loopback or private address. If clients reach this server directly, they can write X-Forwarded-For (and escape the per-client limit): set TRUST_PROXY only when every request comes through your proxies.`,
        );
      }
    }
    await next();
  };
}
