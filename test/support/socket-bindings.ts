/** The bindings @hono/node-server passes an app: the socket the request came on. */
export const fromSocket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
