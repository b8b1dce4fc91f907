import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from '../proxy/client-address';

export interface ConnectionLimits {
  /**
   * Open connections at most; past it a new one takes the place of the oldest with no
   * request being answered, or is closed as it arrives when there is none.
   */
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
 * Keeps one address, or many, from holding the server's connections, and so its file
 * descriptors: a cap in total and one per address, and idle or silent connections closed
 * early (between requests after `keepAliveTimeoutMs`; before or during a request's headers
 * after `headersTimeoutMs`).
 *
 * At the total cap a new connection is not refused while some connection has no request
 * being answered (it has sent nothing, is still sending its headers, or is idle between
 * requests): the oldest such connection of the address holding the most connections is
 * closed to make room. So slow connections from many addresses, each under its own cap,
 * cannot fill the server and lock a new client out: they give way to it, and to each
 * other, the heaviest address first. Only when every place is answering a request is a
 * new connection closed as it arrives. A connection closed so has nothing to lose: no
 * request of it has been read, and an idle keep-alive one is closed as its timeout would.
 *
 * When every place is answering a request, an address holding more connections than it
 * may have requests in flight (`inFlightPerAddress`, see client-share.ts) has some only
 * waiting to be refused: the newest connection of the address holding the most gives way
 * then. So however many requests one address sends, a new client (a health probe) finds
 * a place.
 *
 * The per-address caps count the socket's peer address, the only one known when a
 * connection opens (`X-Forwarded-For` comes later, with a request). Behind proxies of
 * ours (`inFlightPerAddress` undefined) every connection comes from a proxy, so only the
 * total applies (the oldest idle connection gives way), and limiting connections per
 * visitor is the proxy's job.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  inFlightPerAddress: number | undefined,
) {
  const perAddress = inFlightPerAddress !== undefined;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires the whole request to be allowed at least as long as its headers.
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
  closeSilentConnections(server, limits.headersTimeoutMs);
  const cap = perAddress ? limits.maxConnectionsPerAddress : 0;

  interface Address {
    open: number;
    /** Its connections, oldest first. */
    sockets: Set<Socket>;
    /** Its connections with no request being answered, least recently active first. */
    idle: Set<Socket>;
  }
  interface Connection {
    address: Address;
    /** Requests read and not yet answered. */
    unanswered: number;
  }
  const addresses = new Map<string, Address>();
  const connections = new Map<Socket, Connection>();

  /** Forgets a connection (closed, or being closed to make room). */
  const release = (socket: Socket, key: string) => {
    const connection = connections.get(socket);
    if (!connection) return;
    connections.delete(socket);
    connection.address.sockets.delete(socket);
    connection.address.idle.delete(socket);
    connection.address.open -= 1;
    if (connection.address.open === 0) addresses.delete(key);
  };
  const keyOf = (socket: Socket) => {
    if (!perAddress) return '';
    const address = socket.remoteAddress ?? '';
    return clientKey(address) ?? address;
  };
  const keys = new WeakMap<Socket, string>();

  const close = (socket: Socket) => {
    release(socket, keys.get(socket) ?? '');
    socket.destroy();
  };
  /**
   * Closes the oldest idle connection of the address holding the most, else the newest
   * connection of the address holding the most when it holds more than it may use at
   * once; false if neither.
   */
  const makeRoom = () => {
    let heaviest: Address | undefined;
    let heaviestIdle: Address | undefined;
    for (const address of addresses.values()) {
      if (!heaviest || address.open > heaviest.open) heaviest = address;
      if (address.idle.size > 0 && (!heaviestIdle || address.open > heaviestIdle.open)) {
        heaviestIdle = address;
      }
    }
    const oldest = heaviestIdle?.idle.values().next().value;
    if (oldest) {
      close(oldest);
      return true;
    }
    if (!heaviest || !inFlightPerAddress || heaviest.open <= inFlightPerAddress) return false;
    let newest: Socket | undefined;
    for (const socket of heaviest.sockets) newest = socket;
    close(newest!);
    return true;
  };

  server.on('connection', (socket: Socket) => {
    const key = keyOf(socket);
    const address = addresses.get(key);
    if (cap > 0 && address && address.open >= cap) {
      socket.destroy();
      return;
    }
    if (connections.size >= limits.maxConnections && !makeRoom()) {
      socket.destroy();
      return;
    }
    // Looked up again: making room may have closed this address's last other connection.
    const own = addresses.get(key) ?? {
      open: 0,
      sockets: new Set<Socket>(),
      idle: new Set<Socket>(),
    };
    addresses.set(key, own);
    own.open += 1;
    own.sockets.add(socket);
    own.idle.add(socket);
    connections.set(socket, { address: own, unanswered: 0 });
    keys.set(socket, key);
    socket.once('close', () => release(socket, key));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    const connection = connections.get(socket);
    if (!connection) return;
    connection.unanswered += 1;
    connection.address.idle.delete(socket);
    response.once('close', () => {
      connection.unanswered -= 1;
      // Idle again, now the most recently active of its address.
      if (connection.unanswered === 0 && connections.has(socket)) {
        connection.address.idle.add(socket);
      }
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
