import { Agent } from 'node:http';
import { preview } from 'vite';

/**
 * The reference: Vite's own `preview.proxy` (http-proxy, streaming, no validation, no
 * cache) forwarding `/api/*` to the sample service and adding the key header, over the
 * same client build. `configFile: false`, so our own proxy plugin is not mounted.
 */
const { CLIENT_DIR, UPSTREAM_URL, UPSTREAM_KEY, PORT, KEEP_ALIVE } = process.env;
if (!CLIENT_DIR || !UPSTREAM_URL || !UPSTREAM_KEY || !PORT) {
  throw new Error('CLIENT_DIR, UPSTREAM_URL, UPSTREAM_KEY and PORT are required.');
}

const server = await preview({
  configFile: false,
  root: process.cwd(),
  logLevel: 'error',
  build: { outDir: CLIENT_DIR },
  preview: {
    host: '127.0.0.1',
    port: Number(PORT),
    strictPort: true,
    proxy: {
      '/api': {
        target: UPSTREAM_URL,
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/api/, ''),
        headers: { 'x-api-key': UPSTREAM_KEY },
        // http-proxy's default is `agent: false`: a new upstream connection per request,
        // whose `connection: close` it passes on, closing the browser's connection too.
        ...(KEEP_ALIVE === '1' && { agent: new Agent({ keepAlive: true }) }),
      },
    },
  },
});
const address = server.httpServer.address();
if (address && typeof address === 'object') {
  process.send?.({ type: 'listening', port: address.port });
}
