import { Hono, type Context } from 'hono';
import { accepts } from 'hono/accepts';
import type pg from 'pg';
import { createQueryApi } from '../api/query-api';
import { DATABASE_FAILURE_MESSAGES, databaseFailure } from '../database/database-error';
import { createKeyset } from '../index/keyset';
import { createIndexer, type Indexer } from '../indexer/indexer';
import { createPreviews, type PreviewOptions } from '../preview/previews';
import { createEventStore, type EventStoreOptions } from '../store/event-store';
import { readListWith } from '../store/read-list';
import type { UpstreamBudget } from '../upstream/budget';
import { createUpstreamGate, DEFAULT_GATE, type UpstreamGateSettings } from '../upstream/gate';
import { createPageReader, type PageFailure } from '../upstream/page-read';
import type { Monitoring } from '../monitoring';
import type { Upstream } from '../upstream/service-client';
import { clientRateLimit, type ClientVariables } from './client-rate-limit';
import {
  errorResponse,
  internalErrorHandler,
  methodNotAllowed,
  pageFailureError,
  SHUTTING_DOWN,
} from './error-response';
import { DEFAULT_PAGE_CACHE, type PageCacheSettings } from './page-cache';
import { createPageLoader, upstreamPages, type PageLoader, type PageSource } from './page-loader';
import { pageResponse } from './page-response';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitSettings } from './rate-limit';
import { requestLog, type RequestLog } from './request-log';
import { matchApiRequest } from './route-match';
import { storePages } from './store-pages';

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
  /** How long a readiness answer, good or bad, is given again without asking anew. */
  readyCacheMs?: number;
  /** Gzip for cached pages (Node passes zlib; the default works on any Web runtime). */
  gzip?: (body: Uint8Array) => Promise<Uint8Array>;
  /**
   * The event store's engine and settings, when it serves the lists (see
   * src/server/store); without it, every page is the upstream's own, through the cache.
   */
  store?: Omit<EventStoreOptions<PageFailure>, 'read'>;
  /**
   * The event index on the store's database: the query API under /api/ answers from it,
   * and its indexer reads what the answers need (see src/server/index, src/server/indexer).
   */
  index?: {
    pool: pg.Pool;
    /** Upstream requests a second the background indexer may spend (0: none). */
    backgroundRate: number;
    /** Whether the month's usage leaves room for background work. */
    quotaAllows?: () => boolean;
    log?: (message: string) => void;
  };
  /** Link previews' settings (src/server/preview); they are on with the index. */
  preview?: Omit<PreviewOptions, 'pool'>;
  /** The upstream's request rate kept for several servers (in PostgreSQL); default: ours. */
  budget?: UpstreamBudget;
  /** Counts upstream requests (usage, quota, latency) and where pages came from. */
  monitoring?: Pick<Monitoring, 'upstreamRequest' | 'pageServed' | 'recovered'>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_READY_TIMEOUT_MS = 3_000;
const DEFAULT_READY_CACHE_MS = 5_000;
// The smallest real request: proves the address, the key and the service all work.
const READY_PATH = '/v1/contracts?limit=1';
// Who asks, for the gate: readiness checks and callers without a socket share a turn each.
const READINESS_CLIENT = 'readiness';
const NO_ADDRESS_CLIENT = 'local';

export type Readiness =
  { ready: true; note?: string; coolingDownUntil?: string } | { ready: false; reason: string };

type Env = { Variables: ClientVariables };

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
    readyCacheMs = DEFAULT_READY_CACHE_MS,
  } = options;
  const gate = createUpstreamGate({
    ...(options.gate ?? DEFAULT_GATE),
    ...(options.budget && { budget: options.budget }),
  });
  const { monitoring } = options;
  const read = createPageReader({
    upstream,
    gate,
    timeoutMs,
    onRequest: monitoring?.upstreamRequest,
  });
  const pages = createPageLoader({
    cache: options.cache ?? DEFAULT_PAGE_CACHE,
    gzip: options.gzip,
  });
  const fromUpstream = upstreamPages(pages, read);
  const store =
    options.store &&
    createEventStore({
      ...options.store,
      read: readListWith(read),
      events: {
        ...options.store.events,
        recovered: (_list, pages) => monitoring?.recovered(pages),
      },
    });
  const fromStore = store && storePages(pages, store, timeoutMs);
  const errorLimitsForIndex = {
    timeoutMs,
    maxRetryAfterSeconds: Math.ceil(
      (options.gate?.maxCoolDownMs ?? DEFAULT_GATE.maxCoolDownMs) / 1000,
    ),
  };
  const indexer: Indexer | undefined =
    store && options.index
      ? createIndexer({
          store,
          pool: options.index.pool,
          describe: (failure) => pageFailureError(failure, errorLimitsForIndex).message,
          backgroundRate: options.index.backgroundRate,
          ...(options.index.quotaAllows && { quotaAllows: options.index.quotaAllows }),
          ...(options.index.log && { log: options.index.log }),
        })
      : undefined;
  const limiter = rateLimit.perMinute > 0 ? createRateLimiter(rateLimit) : undefined;
  const limitClients = clientRateLimit(limiter, trustedProxyHops);
  const errorLimits = {
    timeoutMs,
    maxRetryAfterSeconds: Math.ceil(
      (options.gate?.maxCoolDownMs ?? DEFAULT_GATE.maxCoolDownMs) / 1000,
    ),
  };
  // Requests waiting for the upstream, answered at once when the server stops.
  const waiting = createWaitingRequests();
  const app = new Hono<Env>();

  app.onError(internalErrorHandler(log !== undefined));
  if (log) app.use('/api/*', requestLog(log, 'unmatched'));
  app.use('/api/*', limitClients);
  // Link previews need only the index's tables: they never ask the service.
  const previews =
    options.index && createPreviews({ ...options.preview, pool: options.index.pool });
  if (previews) app.route('/', previews.app);
  if (indexer && options.store && options.index) {
    app.route(
      '/api',
      createQueryApi({
        pool: options.index.pool,
        indexer,
        keyset: createKeyset(`query-api/${options.store.secret}`),
      }),
    );
  }
  app.all('/api/*', async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return methodNotAllowed();
    }
    const url = new URL(c.req.url);
    if (url.pathname === '/api/meta') {
      c.set('route', 'meta');
      return c.json({ source: upstream.source, description: upstream.description });
    }
    const match = matchApiRequest(url);
    if (match.kind === 'not_found') return notFound();
    if (match.kind === 'bad_request') {
      return errorResponse({ kind: 'bad_request', status: 400, message: match.message });
    }
    const { request } = match;
    c.set('route', request.route.name);
    const client = c.get('client') ?? NO_ADDRESS_CLIENT;
    const source = fromStore
      ? fromStore(request, client)
      : fromUpstream(request.upstreamPath, client);
    return servePage(c, pages, request.upstreamPath, source, errorLimits, waiting, monitoring);
  });

  // Paths that normalise to somewhere outside /api/ (`/api/v1/events/%2e%2e/…`).
  app.notFound(notFound);

  /** The database answers a query within the readiness deadline. */
  async function checkDatabase(): Promise<Readiness | null> {
    const pool = options.index?.pool;
    if (!pool) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), readyTimeoutMs);
    });
    const answer = await Promise.race([
      pool.query('SELECT 1').then(
        () => 'ok' as const,
        (error: unknown) => error,
      ),
      late,
    ]).finally(() => clearTimeout(timer));
    if (answer === 'ok') return null;
    const failure = answer === 'late' ? 'down' : (databaseFailure(answer) ?? 'down');
    return { ready: false, reason: DATABASE_FAILURE_MESSAGES[failure] };
  }

  async function checkUpstream(): Promise<Readiness> {
    const database = await checkDatabase();
    if (database) return database;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), readyTimeoutMs);
    });
    // Asked of the upstream itself, even when a store keeps the lists.
    const outcome = await Promise.race([
      pages.load(READY_PATH, fromUpstream(READY_PATH, READINESS_CLIENT)),
      late,
    ]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      return {
        ready: false,
        reason: `The Token Events Service did not answer within ${readyTimeoutMs} ms.`,
      };
    }
    const until = gate.stats().coolingDownUntil;
    const cooling = until === undefined ? {} : { coolingDownUntil: new Date(until).toISOString() };
    if (outcome.kind === 'page') return { ready: true, ...cooling };
    const error = pageFailureError(outcome.failure, errorLimits);
    // Throttling is shared by every instance: failing readiness for it would take them all out.
    if (error.status === 429) return { ready: true, note: error.message, ...cooling };
    return { ready: false, reason: error.message };
  }

  let readiness: { answer: Promise<Readiness>; settledAt?: number } | undefined;

  return {
    app,
    /**
     * Whether the upstream answers a real request, through the same cache and gate. An
     * answer, good or bad, is given again for `readyCacheMs`, and concurrent checks share
     * one, so probes cannot turn into upstream calls.
     */
    checkReady(): Promise<Readiness> {
      const time = Date.now();
      const fresh =
        readiness &&
        (readiness.settledAt === undefined || time - readiness.settledAt < readyCacheMs);
      if (readiness && fresh) return readiness.answer;
      const current: { answer: Promise<Readiness>; settledAt?: number } = {
        answer: checkUpstream(),
      };
      const settled = () => (current.settledAt = Date.now());
      current.answer.then(settled, settled);
      readiness = current;
      return current.answer;
    },
    /** A page's link-preview tags, when the index is on (see src/server/preview). */
    pageHead: previews?.pageHead,
    /** The proxy's per-client limit, for other routes of the server (`/readyz`). */
    limitClients,
    /** The server is stopping: requests waiting for the upstream are answered 503 now. */
    stop: () => {
      waiting.stop();
      return indexer?.stop();
    },
    /** The indexer, when the index is on (its background work is started by the server). */
    indexer,
    stats: () => ({
      pages: pages.stats(),
      gate: gate.stats(),
      rateLimitTrackedClients: limiter?.clients() ?? 0,
      previews: previews?.stats(),
    }),
  };
}

export function createProxyApp(options: ProxyOptions) {
  return createProxy(options).app;
}

function notFound(): Response {
  return errorResponse({ kind: 'not_found', status: 404, message: 'No such API route.' });
}

async function servePage(
  c: Context<Env>,
  pages: PageLoader,
  key: string,
  source: PageSource,
  errorLimits: Parameters<typeof pageFailureError>[1],
  waiting: WaitingRequests,
  monitoring?: ProxyOptions['monitoring'],
): Promise<Response> {
  const outcome = await pages.load(key, source, () => clientGone(c, waiting));
  if (outcome.kind === 'page') {
    const upstream = outcome.cache === 'miss' && outcome.upstreamStatus !== undefined;
    monitoring?.pageServed(outcome.cache !== 'miss' ? 'memory' : upstream ? 'upstream' : 'store');
  }
  c.set('cache', outcome.cache);
  if (outcome.upstreamStatus !== undefined) c.set('upstreamStatus', outcome.upstreamStatus);
  if (outcome.kind === 'failed') {
    const error = waiting.stopped()
      ? SHUTTING_DOWN
      : pageFailureError(outcome.failure, errorLimits);
    return errorResponse(error, { 'x-cache': outcome.cache });
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
 * The cache misses being waited for, each by its abort controller, so that stopping the
 * server can answer them all at once. A set rather than listeners on one shared signal,
 * which Node warns about past ten.
 */
function createWaitingRequests() {
  const controllers = new Set<AbortController>();
  let stopped = false;
  return {
    stopped: () => stopped,
    /** Aborts `controller` when the server stops (at once if it has); returns the untrack. */
    track(controller: AbortController): () => void {
      if (stopped) controller.abort(new Error('server stopping'));
      else controllers.add(controller);
      return () => controllers.delete(controller);
    },
    stop() {
      stopped = true;
      for (const controller of controllers) controller.abort(new Error('server stopping'));
      controllers.clear();
    },
  };
}

type WaitingRequests = ReturnType<typeof createWaitingRequests>;

/**
 * Aborts when the client leaves before its answer is sent, or when the server stops.
 * On Node the response object says when the client leaves; asking @hono/node-server for
 * the request's signal instead makes it build a whole WHATWG Request on every call, a
 * cost the cache-miss benchmark shows.
 */
function clientGone(c: Context, waiting: WaitingRequests): AbortSignal {
  const outgoing = (c.env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
  // Called in-process (tests): no socket, and no server to stop.
  if (!outgoing) return c.req.raw.signal;
  const controller = new AbortController();
  const untrack = waiting.track(controller);
  outgoing.once('close', () => {
    untrack();
    if (!outgoing.writableFinished) controller.abort(new Error('client gone'));
  });
  return controller.signal;
}
