import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from '../proxy/client-address';

export interface ConnectionLimits {
  /** Open connections at most; more are closed as they arrive. */
  maxConnections: number;
  /** Open connections from one address at most (an IPv6 /64 counts as one); 0: no cap. */
  maxConnectionsPerAddress: number;
  /** How long a connection may stay open between requests. */
  keepAliveTimeoutMs: number;
  /** How long a client may take to send a request's headers. */
  headersTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 1000,
  maxConnectionsPerAddress: 50,
  keepAliveTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
};

/**
 * Options for `http.createServer`: how often Node looks for connections past their
 * headers timeout. Its default (30 s) would let a silent connection outlive a 10 s
 * headers timeout threefold.
 */
export const connectionCheckOptions = (limits: ConnectionLimits) => ({
  connectionsCheckingInterval: Math.max(250, Math.min(1_000, limits.headersTimeoutMs / 4)),
});

/**
 * Keeps one address from holding the server's connections, and so its file descriptors:
 * a cap in total and one per address, and idle or silent connections closed early
 * (between requests after `keepAliveTimeoutMs`; before or during a request's headers
 * after `headersTimeoutMs`).
 *
 * The per-address cap counts the socket's peer address, the only one known when a
 * connection opens (`X-Forwarded-For` comes later, with a request). Behind proxies of
 * ours (`perAddress: false`) every connection comes from a proxy, so only the total
 * applies, and limiting connections per visitor is the proxy's job.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, perAddress: boolean) {
  server.maxConnections = limits.maxConnections;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires the whole request to be allowed at least as long as its headers.
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
  closeSilentConnections(server, limits.headersTimeoutMs);
  const cap = limits.maxConnectionsPerAddress;
  if (!perAddress || cap <= 0) return;

  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const key = clientKey(address) ?? address;
    const count = (open.get(key) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/**
 * Node's headers timeout counts only once a request has begun: a connection that sends
 * nothing at all is kept for ever. Such a connection gets the same time as the headers of
 * a request to start its first one; after that, Node's own timeouts take over.
 */
function closeSilentConnections(server: Server, timeoutMs: number) {
  const silent = new WeakMap<Socket, ReturnType<typeof setTimeout>>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    timer.unref();
    silent.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('request', (request: IncomingMessage) => {
    const timer = silent.get(request.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    silent.delete(request.socket);
  });
}
