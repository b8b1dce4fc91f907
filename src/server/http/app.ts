import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { securityHeaders } from './security-headers';

export interface ServerAppOptions {
  /** The API proxy app; it handles `/api/*`. */
  proxy: Hono;
  /** The built client (`dist/client`). */
  clientDir: string;
}

/** The production server: security headers, health, the API proxy and the built app. */
export function createServerApp({ proxy, clientDir }: ServerAppOptions) {
  const app = new Hono();
  // Read once: the shell of the single-page app, served for every page route.
  const indexHtml = readFileSync(join(clientDir, 'index.html'), 'utf8');

  app.use('*', securityHeaders());
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/', proxy);

  app.use('*', compress());
  // Hashed file names change with their content, so they can be cached for a year.
  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      onFound: (_path, c) => {
        c.header('cache-control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use(
    '*',
    serveStatic({
      root: clientDir,
      onFound: (path, c) => {
        c.header(
          'cache-control',
          path.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600',
        );
      },
    }),
  );
  // Every other GET is a page route of the app: the router in the browser takes it from here.
  app.get('*', (c) => {
    if (c.req.path.startsWith('/assets/')) return c.text('Not found', 404);
    c.header('cache-control', 'no-cache');
    return c.html(indexHtml);
  });
  return app;
}
