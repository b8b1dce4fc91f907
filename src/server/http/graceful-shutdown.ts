import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lets a server stop without cutting anyone off and without waiting on anyone idle. On
 * `shutdown()` it stops accepting connections, closes at once every connection with no
 * request being answered (idle keep-alive connections, and those still sending their
 * headers: neither has anything to lose), and closes each remaining connection as soon
 * as its response is out (`Connection: close`). `server.close()` alone closes only the
 * connections Node counts as idle, so a connection with half-sent headers would keep the
 * process alive until its headers timeout.
 *
 * What is still running when the caller's deadline comes is the caller's to answer (the
 * proxy answers its waiting requests 503); the promise resolves once every connection is
 * closed, that is, once every request has been answered.
 */
export function trackForShutdown(server: Server) {
  // Each open connection, with the number of its requests not yet answered.
  const connections = new Map<Socket, number>();
  const responses = new Set<ServerResponse>();
  let closing = false;

  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    else response.once('finish', () => response.socket?.end());
  };

  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response: ServerResponse) => {
    const { socket } = request;
    connections.set(socket, (connections.get(socket) ?? 0) + 1);
    responses.add(response);
    if (closing) closeAfter(response);
    response.once('close', () => {
      responses.delete(response);
      if (!connections.has(socket)) return;
      const left = (connections.get(socket) ?? 1) - 1;
      connections.set(socket, left);
      if (closing && left === 0) socket.destroySoon();
    });
  });

  return {
    shutdown(): Promise<void> {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, unanswered] of connections) if (unanswered === 0) socket.destroy();
      for (const response of responses) closeAfter(response);
      return closed;
    },
    /** Requests being answered now. */
    inFlight: () => responses.size,
  };
}
