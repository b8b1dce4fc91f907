import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import type { Registry } from 'prom-client';
import type { Readiness } from '../compose';
import type { ClientVariables } from '../proxy/client-rate-limit';
import { internalErrorHandler, methodNotAllowed } from '../proxy/error-response';
import { openCors } from '../proxy/open-cors';
import { requestLog, type RequestLog } from '../proxy/request-log';
import { feedLinkTag } from '../api/feeds';
import { oembedLinkTag } from '../api/oembed';
import { LIVE_PREFIX } from '../live/live-api';
import { withAddedTags, withHeadTags } from '../preview/page-head';
import { pageOrigin, type OriginRule } from '../preview/request-origin';
import { warnForwardedFromOutside } from './forwarded-warning';
import { clientShare, type ClientShareSettings } from './client-share';
import { pageShells } from './page-code';
import { securityHeaders } from './security-headers';

export interface ServerAppOptions {
  /** The API proxy; it handles `/api/*` and knows whether the upstream is ready. */
  proxy: {
    app: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };
    checkReady: () => Promise<Readiness>;
    /** The proxy's per-client rate limit, applied to `/readyz` too. */
    limitClients: MiddlewareHandler<{ Variables: ClientVariables }>;
    /** A page's link-preview `<head>` tags, or null for the plain shell (src/server/preview). */
    pageHead?: ((path: string, origin: string) => Promise<string | null>) | undefined;
    /** Whether a page names an address that is no collection (src/server/api/collection-page.ts). */
    notACollection?: ((path: string) => Promise<boolean>) | undefined;
  };
  /** The built client (`dist/client`). */
  clientDir: string;
  /** One line per request outside `/api/` (the proxy logs its own). */
  log?: (line: RequestLog) => void;
  /** Proxies of the operator in front, whose `X-Forwarded-Proto` is believed. */
  trustedProxyHops?: number;
  /** `PUBLIC_URL`: the origin of pages' preview links (see preview/request-origin.ts). */
  publicUrl?: string | undefined;
  /** Where the server listens (`HOST`, `PORT`); the configuration's defaults when not given. */
  listen?: OriginRule['listen'];
  /** Said once when something is likely misconfigured; `console.warn` when not given. */
  warn?: (message: string) => void;
  /** Metrics served on `/metrics` in Prometheus text (see monitoring.ts). */
  metrics?: Registry;
  /** Each client's share of the server's time, for everything but health (client-share.ts). */
  share?: ClientShareSettings;
}

/** The production server: security headers, health, readiness, the API proxy and the built app. */
export function createServerApp(options: ServerAppOptions) {
  const { proxy, clientDir, log, trustedProxyHops, metrics, share } = options;
  const origins: OriginRule = {
    publicUrl: options.publicUrl,
    listen: options.listen ?? { host: '127.0.0.1', port: 4173 },
  };
  const app = new Hono<{ Variables: ClientVariables }>();
  // Read once: the shell of the single-page app, served for every page route, naming the
  // code of the page it is for.
  const shellFor = pageShells(clientDir, readFileSync(join(clientDir, 'index.html'), 'utf8'));

  app.onError(internalErrorHandler(log !== undefined));
  app.use('*', securityHeaders(trustedProxyHops));
  app.use(
    '*',
    warnForwardedFromOutside(
      trustedProxyHops ?? 0,
      options.warn ?? ((m) => console.warn(`Warning: ${m}`)),
    ),
  );
  if (log) {
    const logged = requestLog(log, 'static');
    app.use('*', (c, next) => (c.req.path.startsWith('/api/') ? next() : logged(c, next)));
  }
  // Liveness: answers as long as the process serves requests, whatever the upstream does.
  app.get('/healthz', (c) => {
    c.set('route', 'healthz');
    c.header('cache-control', 'no-store');
    return c.json({ status: 'ok' });
  });
  // Readiness: only when a real request to the upstream succeeds (answered from a recent
  // check, and limited per client like the API, so probes cost the upstream nothing).
  app.get('/readyz', proxy.limitClients, async (c) => {
    c.set('route', 'readyz');
    c.header('cache-control', 'no-store');
    const readiness = await proxy.checkReady();
    if (!readiness.ready) return c.json({ status: 'not_ready', reason: readiness.reason }, 503);
    const { note, coolingDownUntil, replicas } = readiness;
    return c.json({
      status: 'ready',
      ...(note && { note }),
      ...(coolingDownUntil && { coolingDownUntil }),
      ...(replicas && { replicas }),
    });
  });
  // Metrics for monitoring (upstream usage against the quota, store, latency), limited
  // per client like the API: reading them costs the upstream nothing.
  if (metrics) {
    app.get('/metrics', proxy.limitClients, async (c) => {
      c.set('route', 'metrics');
      c.header('cache-control', 'no-store');
      c.header('content-type', metrics.contentType);
      return c.body(await metrics.metrics());
    });
  }
  // Past this point every request spends its client's share: health and readiness never do.
  // The API's refusals here are as readable from another origin as its answers.
  app.use('/api/*', openCors);
  if (share) {
    const limit = clientShare(share, trustedProxyHops ?? 0);
    app.use('*', async (c, next) => {
      // A live stream stays open while its page does: it holds no turn and spends no share
      // of the server's time (its reads are the hub's, one per collection); it has its
      // own bound per client (LIVE_STREAMS_PER_ADDRESS).
      if (c.req.path.startsWith(LIVE_PREFIX)) return next();
      const started = performance.now();
      let passed = false;
      const answer = await limit(c, () => ((passed = true), next()));
      // The proxy logs the /api/ requests it answers; one refused here is logged here.
      if (log && answer && !passed && c.req.path.startsWith('/api/')) {
        const durationMs = Math.round((performance.now() - started) * 10) / 10;
        const bytes = (await answer.clone().arrayBuffer()).byteLength;
        log({
          method: c.req.method,
          route: c.get('route'),
          status: answer.status,
          durationMs,
          bytes,
        });
      }
      return answer;
    });
  }
  // Passing `env` on keeps the socket, and so the client's address, visible to the proxy.
  app.all('/api/*', (c) => proxy.app.fetch(c.req.raw, c.env));
  // Everything else is files and pages: they can only be read.
  app.use('*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    c.set('route', 'method-not-allowed');
    return methodNotAllowed();
  });

  app.use('*', compress());
  // Hashed file names change with their content, so they can be cached for a year.
  app.use(
    '/assets/*',
    staticFiles(clientDir, () => 'public, max-age=31536000, immutable'),
  );
  // The HTML shell names the current hashed assets: browsers must check it every time.
  app.use(
    '*',
    staticFiles(clientDir, (type) =>
      type.startsWith('text/html') ? 'no-cache' : 'public, max-age=3600',
    ),
  );
  // Every other GET is a page route of the app: the router in the browser takes it from here.
  // A collection's (events, holders, market), a token's or a wallet's page carries its link
  // preview for chats' crawlers, which run no script; any other page, or one the index cannot describe in
  // time, is the plain shell. Pages count against the per-client limit like the API.
  app.get('*', proxy.limitClients, async (c) => {
    if (c.req.path.startsWith('/assets/')) return c.text('Not found', 404);
    c.set('route', 'page');
    c.header('cache-control', 'no-cache');
    const indexHtml = shellFor(c.req.path);
    // An address that is no collection: the app says so, the status too, and no card.
    if (await proxy.notACollection?.(c.req.path)) return c.html(indexHtml, 404);
    const { origin, fromHost } = pageOrigin(c, origins);
    // A collection's page names its feed and, for sites that embed it, its oEmbed answer.
    const oembed = oembedLinkTag(c.req.path, origin);
    const added = [feedLinkTag(c.req.path, new URL(c.req.url).search), oembed];
    const tags = added.filter((tag) => tag !== null).join('\n    ');
    const shell = tags ? withAddedTags(indexHtml, tags) : indexHtml;
    // Absolute links name the Host the request came with: a cache must not give them to another.
    const named = () => fromHost && c.header('vary', 'Host', { append: true });
    if (oembed) named();
    const { pageHead } = proxy;
    if (!pageHead) return c.html(shell);
    const head = await pageHead(c.req.path, origin);
    if (!head) return c.html(shell);
    if (!oembed) named();
    return c.html(withHeadTags(shell, head));
  });
  return app;
}

/**
 * Files of the built client with their caching rule. Set on the response itself:
 * serveStatic's `onFound` runs after the response is built, too late for `c.header`.
 */
function staticFiles(
  root: string,
  cacheControl: (contentType: string) => string,
): MiddlewareHandler {
  const serve = serveStatic({ root });
  return async (c, next) => {
    const found = await serve(c, next);
    // Without a file, serveStatic hands on to the next handler and returns what it gets.
    if (!(found instanceof Response)) return;
    found.headers.set('cache-control', cacheControl(found.headers.get('content-type') ?? ''));
    return found;
  };
}
