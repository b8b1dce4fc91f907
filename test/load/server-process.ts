import { startServer } from '../../src/server/main';

/**
 * The production server as the load test runs it: a process of its own, so its memory is
 * measured apart from the load generator's. It reports its port and, on request, its
 * memory once the load generator's connections are closed and after a full garbage
 * collection (node --expose-gc), over the IPC channel.
 */
const { server, proxy } = await startServer(process.env.CLIENT_DIR);
const gc = (globalThis as { gc?: () => void }).gc;

server.once('listening', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    process.send?.({ type: 'listening', port: address.port });
  }
});

const openConnections = () =>
  new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));

async function settledMemory() {
  // Sockets the client has just closed still hold their buffers until we see the close.
  for (let waited = 0; waited < 5_000 && (await openConnections()) > 0; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return {
    type: 'memory',
    rss,
    heapUsed,
    gcAvailable: gc !== undefined,
    openConnections: await openConnections(),
    proxy: proxy.stats(),
  };
}

process.on('message', (message: { type?: string }) => {
  if (message.type === 'memory') void settledMemory().then((memory) => process.send?.(memory));
});
