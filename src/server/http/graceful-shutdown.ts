import type { Server, ServerResponse } from 'node:http';

/**
 * Lets a server stop without cutting anyone off: it stops accepting connections, answers
 * the requests it already has, and closes each keep-alive connection as soon as its last
 * response is out. `server.close()` alone closes only the connections idle at that
 * moment, so a connection busy then would stay open until its keep-alive timeout.
 */
export function trackForShutdown(server: Server) {
  const open = new Set<ServerResponse>();
  let closing = false;
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    else response.once('finish', () => response.socket?.end());
  };
  server.on('request', (_request, response: ServerResponse) => {
    open.add(response);
    response.once('close', () => open.delete(response));
    if (closing) closeAfter(response);
  });

  return {
    /** Resolves once every request has been answered and the server is closed. */
    shutdown(): Promise<void> {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const response of open) closeAfter(response);
      return closed;
    },
    inFlight: () => open.size,
  };
}
