import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server that can cut every connection through it, as a load
 * balancer or a lost network does, and hold the connections that come next until
 * released: what a page's live stream meets when it is dropped.
 */
export async function startDropProxy(target: string) {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  /** Held connections, with what each sent so far. */
  let held: { socket: Socket; head: Buffer[] }[] | null = null;
  let heldChanged: () => void = () => {};

  const pass = (client: Socket, head: Buffer[]) => {
    const upstream = connect(Number(port), hostname);
    open.add(client).add(upstream);
    for (const chunk of head) upstream.write(chunk);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  };

  const server = createServer((client) => {
    if (!held) return pass(client, []);
    // Held: what the browser sends is kept, to be sent on when released.
    const entry = { socket: client, head: [] as Buffer[] };
    held.push(entry);
    client.on('data', (chunk: Buffer) => {
      entry.head.push(chunk);
      heldChanged();
    });
    client.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    /** Cuts every connection through the proxy, and holds the ones that come next. */
    drop() {
      held = [];
      for (const socket of open) socket.destroy();
      open.clear();
    },
    /** The first held request whose request line and headers match `pattern`. */
    async heldRequest(pattern: RegExp): Promise<string> {
      for (;;) {
        const waiting = new Promise<void>((resolve) => (heldChanged = resolve));
        for (const { head } of held ?? []) {
          const request = Buffer.concat(head).toString('latin1');
          if (pattern.test(request)) return request;
        }
        await waiting;
      }
    },
    /** Lets the held connections through, and every later one. */
    release() {
      const waiting = held ?? [];
      held = null;
      for (const { socket, head } of waiting) {
        socket.removeAllListeners('data');
        pass(socket, head);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        for (const { socket } of held ?? []) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
