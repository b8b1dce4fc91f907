import { Hono, type Context } from 'hono';
import { accepts } from 'hono/accepts';
import { apiErrorResponse } from './error-response';
import { clientAddress } from './client-address';
import { DEFAULT_PAGE_CACHE, type PageCacheSettings } from './page-cache';
import { createPageLoader, type PageLoader } from './page-loader';
import { failureResponse, pageResponse } from './page-response';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitSettings } from './rate-limit';
import { requestLog, type LogVariables, type RequestLog } from './request-log';
import { matchApiRequest } from './route-match';
import type { Upstream } from '../upstream/service-client';
import { createUpstreamGate, DEFAULT_GATE, type UpstreamGateSettings } from '../upstream/gate';

export type { RequestLog } from './request-log';

export interface ProxyOptions {
  upstream: Upstream;
  /** Deadline for one upstream call, headers and body together. */
  timeoutMs?: number;
  /** One structured line per request; the key is never part of it. */
  log?: (line: RequestLog) => void;
  cache?: PageCacheSettings;
  gate?: UpstreamGateSettings;
  /** Per client; `perMinute: 0` turns it off. */
  rateLimit?: RateLimitSettings;
  /** Proxies of the operator in front of this server, whose `X-Forwarded-For` is believed. */
  trustedProxyHops?: number;
  /** Deadline of the readiness check, shorter than a page's so probes fail fast. */
  readyTimeoutMs?: number;
  /** Gzip for cached pages (Node passes zlib; the default works on any Web runtime). */
  gzip?: (body: Uint8Array) => Promise<Uint8Array>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_READY_TIMEOUT_MS = 3_000;
// The smallest real request: proves the address, the key and the service all work.
const READY_PATH = '/v1/contracts?limit=1';

export type Readiness = { ready: true; note?: string } | { ready: false; reason: string };

/**
 * The API proxy: one Hono app behind `vite` dev, `vite preview` and the production
 * server. It answers `/api/meta` itself and forwards only the three read-only routes of
 * the Token Events Service, adding the server's key. It never forwards a browser header.
 * Pages go through one shared cache and one gate to the upstream, so the upstream sees
 * the same load however many people are browsing.
 */
export function createProxy(options: ProxyOptions) {
  const {
    upstream,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    log,
    rateLimit = DEFAULT_RATE_LIMIT,
    trustedProxyHops = 0,
    readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS,
  } = options;
  const gate = createUpstreamGate(options.gate ?? DEFAULT_GATE);
  const pages = createPageLoader({
    upstream,
    gate,
    timeoutMs,
    cache: options.cache ?? DEFAULT_PAGE_CACHE,
    gzip: options.gzip,
  });
  const limiter = rateLimit.perMinute > 0 ? createRateLimiter(rateLimit) : undefined;
  const app = new Hono<{ Variables: LogVariables }>();

  if (log) app.use('/api/*', requestLog(log, 'unmatched'));
  if (limiter) {
    // Every API request counts, cached or not: the limit is on what one client asks of us.
    app.use('/api/*', async (c, next) => {
      const client = clientAddress(c, trustedProxyHops);
      const retryAfter = client === undefined ? 0 : limiter.take(client);
      if (retryAfter === 0) return next();
      c.set('route', 'rate-limited');
      return apiErrorResponse(
        'rate_limited',
        429,
        'Too many requests from your address. Wait a moment and try again.',
        retryAfter,
      );
    });
  }
  app.all('/api/*', async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const response = apiErrorResponse(
        'method_not_allowed',
        405,
        'Only GET and HEAD are allowed.',
      );
      response.headers.set('allow', 'GET, HEAD');
      return response;
    }
    const url = new URL(c.req.url);
    if (url.pathname === '/api/meta') {
      c.set('route', 'meta');
      return c.json({ source: upstream.source, description: upstream.description });
    }
    const match = matchApiRequest(url);
    if (match.kind === 'not_found') return apiErrorResponse('not_found', 404, 'No such API route.');
    if (match.kind === 'bad_request') return apiErrorResponse('bad_request', 400, match.message);
    c.set('route', match.request.route.name);
    return servePage(c, pages, match.request.upstreamPath, timeoutMs);
  });

  // Paths that normalise to somewhere outside /api/ (`/api/v1/events/%2e%2e/…`).
  app.notFound(() => apiErrorResponse('not_found', 404, 'No such API route.'));

  return {
    app,
    /** Whether the upstream answers a real request now, through the same cache and gate. */
    async checkReady(): Promise<Readiness> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), readyTimeoutMs);
      });
      const outcome = await Promise.race([pages.load(READY_PATH), late]).finally(() =>
        clearTimeout(timer),
      );
      if (outcome === 'late') {
        return {
          ready: false,
          reason: `The Token Events Service did not answer within ${readyTimeoutMs} ms.`,
        };
      }
      if (outcome.kind === 'page') return { ready: true };
      const response = failureResponse(outcome.failure, timeoutMs);
      const { error } = (await response.json()) as { error: { message: string } };
      // Throttling is shared by every instance: failing readiness for it would take them all out.
      if (response.status === 429) return { ready: true, note: error.message };
      return { ready: false, reason: error.message };
    },
    stats: () => ({
      pages: pages.stats(),
      gate: gate.stats(),
      rateLimitTrackedClients: limiter?.clients() ?? 0,
    }),
  };
}

export function createProxyApp(options: ProxyOptions) {
  return createProxy(options).app;
}

async function servePage(
  c: Context<{ Variables: LogVariables }>,
  pages: PageLoader,
  upstreamPath: string,
  timeoutMs: number,
): Promise<Response> {
  const outcome = await pages.load(upstreamPath, () => clientGone(c));
  c.set('cache', outcome.cache);
  if (outcome.upstreamStatus !== undefined) c.set('upstreamStatus', outcome.upstreamStatus);
  if (outcome.kind === 'failed') {
    const response = failureResponse(outcome.failure, timeoutMs);
    response.headers.set('x-cache', outcome.cache);
    return response;
  }
  const encoding = accepts(c, {
    header: 'Accept-Encoding',
    supports: ['gzip'],
    default: 'identity',
  });
  // Compressed on the first request that asks for it, then kept with the cached page.
  const gzip = encoding === 'gzip' ? await pages.gzipOf(outcome.page) : undefined;
  return pageResponse(outcome.page, {
    head: c.req.method === 'HEAD',
    gzip,
    cache: outcome.cache,
  });
}

/** What the proxy needs of Node's response object, when it runs on Node. */
interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/**
 * Aborts when the client leaves before its answer is sent. On Node the response object
 * says so; asking @hono/node-server for the request's signal instead makes it build a
 * whole WHATWG Request on every call, a cost the cache-miss benchmark shows.
 */
function clientGone(c: Context): AbortSignal {
  const outgoing = (c.env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
  if (!outgoing) return c.req.raw.signal;
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort(new Error('client gone'));
  });
  return controller.signal;
}
