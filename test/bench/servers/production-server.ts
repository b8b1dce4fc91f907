import { startServer } from '../../../src/server/main';

/**
 * The production server exactly as `npm start` runs it (`startServer`), on a client
 * build of the benchmark's own (CLIENT_DIR) so that a build never replaces the
 * `dist/client` other tools are serving. Configured by the environment like production;
 * reports its port over IPC. One JSON log line per request goes to stdout, as in production.
 */
const { server } = await startServer(process.env.CLIENT_DIR);

server.once('listening', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    process.send?.({ type: 'listening', port: address.port });
  }
});
