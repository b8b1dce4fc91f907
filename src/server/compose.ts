import { Hono } from 'hono';
import { createDownloads, DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from './api/download';
import { API_ROUTES, honoPath } from './api/api-routes';
import { notACollectionPage } from './api/collection-page';
import { createFeeds } from './api/feeds';
import { createOembed } from './api/oembed';
import { openApiDocument } from './api/openapi';
import { createQueryApi } from './api/query-api';
import { createReadPools, type ReadPools } from './database/read-pools';
import { createKeyset } from './index/keyset';
import { createIndexer, type Indexer } from './indexer/indexer';
import {
  createListReader,
  DEFAULT_READER_SETTINGS,
  type ListReaderSettings,
} from './log/list-reader';
import { createLiveApi } from './live/live-api';
import { createLiveHub } from './live/live-hub';
import { readListWith } from './log/read-list';
import type { RecordLog } from './log/record-log';
import { createImages, DEFAULT_IMAGES, type ImageOptions } from './images/images';
import { createPreviews, type PreviewOptions } from './preview/previews';
import type { OriginRule } from './preview/request-origin';
import { createServerFaults, watchForFaults, type ServerFaults } from './server-faults';
import type { UpstreamBudget } from './upstream/budget';
import { withDailyShare } from './upstream/daily-share';
import { createUpstreamGate, DEFAULT_GATE, type UpstreamGateSettings } from './upstream/gate';
import { createPageReader } from './upstream/page-read';
import type { Monitoring } from './monitoring';
import type { Upstream } from './upstream/service-client';
import { createDeliverer, DEFAULT_DELIVERER, type DelivererSettings } from './webhooks/deliverer';
import { createWebhookApi } from './webhooks/webhook-api';
import type { AddressCheck } from './network-address';
import { clientRateLimit, type ClientVariables } from './proxy/client-rate-limit';
import { internalErrorHandler, pageFailureError } from './proxy/error-response';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitSettings } from './proxy/rate-limit';
import { jsonEtag } from './proxy/json-etag';
import { openCors, preflight } from './proxy/open-cors';
import { requestLog, type RequestLog } from './proxy/request-log';
import { createWaitingRequests, listRoute, notFound } from './proxy/list-route';
import { createReadiness } from './readiness';

export type { RequestLog } from './proxy/request-log';
export type { Readiness } from './readiness';

export interface ServerOptions {
  upstream: Upstream;
  /** Deadline for one upstream call, headers and body together. */
  timeoutMs?: number;
  /** One structured line per request; the key is never part of it. */
  log?: (line: RequestLog) => void;
  gate?: UpstreamGateSettings;
  /** Per client; `perMinute: 0` turns it off. */
  rateLimit?: RateLimitSettings;
  /** Proxies of the operator in front of this server, whose `X-Forwarded-For` is believed. */
  trustedProxyHops?: number;
  /** Requests to the service one visitor may cause a UTC day (0: no bound). */
  dailyShare?: number;
  /** The clock of the log's and the indexer's decisions (tests move it on). */
  now?: () => number;
  /** Deadline of the readiness check, shorter than a page's so probes fail fast. */
  readyTimeoutMs?: number;
  /** How long a readiness answer, good or bad, is given again without asking anew. */
  readyCacheMs?: number;
  /**
   * The record log (src/server/log) and its reading settings: the service's lists are
   * read into it, /api/v1 is served from it, and its commits feed the index.
   */
  log_: {
    log: RecordLog;
    /** Signs the log's and the query API's cursors; the same for every server. */
    secret: string;
    settings?: Partial<ListReaderSettings>;
  };
  /** The indexer's shares of the budget (see src/server/indexer). */
  index?: {
    /** Upstream requests a second the background indexer may spend (0: none). */
    backgroundRate: number;
    /** Upstream requests a second the verification pass may spend (0: none). */
    verifyRate?: number;
    verifyEveryMs?: number;
    /** Whether the month's usage leaves room for background work. */
    quotaAllows?: () => boolean;
    log?: (message: string) => void;
  };
  /** Where the index's reads go: streaming replicas, when there are; default: the primary. */
  reads?: ReadPools;
  /** Faults of the whole server, shared with what opened the database. */
  faults?: ServerFaults;
  /** Where feeds' links point (`PUBLIC_URL`, the listen address); else each request's origin. */
  origins?: OriginRule;
  /** Link previews' settings (src/server/preview). */
  preview?: Omit<PreviewOptions, 'pool' | 'reads'>;
  /** Contracts' images fetched and served from our origin (src/server/images). */
  images?: ImageOptions;
  /** The upstream's request rate kept for several servers (in PostgreSQL); default: ours. */
  budget?: UpstreamBudget;
  /** Exports (downloads) sent at once, per client and in all. */
  downloads?: DownloadLimits;
  /** Live pages' streams one client may hold open at once (0: no bound); default 10. */
  liveStreamsPerClient?: number;
  /** Counts upstream requests (usage, quota, latency), recoveries and verifications. */
  monitoring?: Pick<Monitoring, 'upstreamRequest' | 'pageServed' | 'recovered' | 'verified'>;
  /** Webhooks (src/server/webhooks): off without the operator's token. */
  webhooks?: {
    token: string | undefined;
    deliverer?: Partial<DelivererSettings>;
    /** Receivers' host names' addresses (default: the system's resolver). */
    resolve?: AddressCheck['resolve'];
  };
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_READY_TIMEOUT_MS = 3_000;
const DEFAULT_READY_CACHE_MS = 5_000;
// Who asks, for the gate: live pages' head reads, one per collection for all of them, are
// asked in one name.
const LIVE_CLIENT = 'live';
export const DEFAULT_LIVE_STREAMS_PER_CLIENT = 10;
// The API document's version: the answers' shape, raised when one changes incompatibly.
const API_VERSION = '1.0.0';

type Env = { Variables: ClientVariables };

/**
 * The server's composition root: what reads the service (the gate, the record log's
 * reader, the indexer), and the one Hono app under `/api/` it feeds, behind `vite` dev,
 * `vite preview` and the production server: the query API, link previews, images, live
 * pages, feeds, oEmbed, webhooks, `/api/meta`, the OpenAPI document and the service's own
 * three list routes (`/api/v1`, proxy/list-route.ts). Every read of the service goes
 * through one gate, so it sees the same load however many people are browsing.
 */
export function composeServer(options: ServerOptions) {
  const { rateLimit = DEFAULT_RATE_LIMIT, trustedProxyHops = 0 } = options;
  const faults = options.faults ?? createServerFaults(options.index?.log);
  const service = readService(options, faults);
  const { indexer, pool } = service;
  const limiter = rateLimit.perMinute > 0 ? createRateLimiter(rateLimit) : undefined;
  const limitClients = clientRateLimit(limiter, trustedProxyHops);
  const waiting = createWaitingRequests();
  const reads = options.reads ?? createReadPools(pool);
  const app = new Hono<Env>();
  app.onError(internalErrorHandler(options.log !== undefined));
  if (options.log) app.use('/api/*', requestLog(options.log, 'unmatched'));
  app.use('/api/*', openCors);
  app.use('/api/*', limitClients);
  app.use('/api/*', preflight);
  app.use('/api/*', jsonEtag);
  const parts = mountRoutes(app, options, { ...service, faults, reads });
  app.all(
    '/api/*',
    listRoute({
      ...service,
      timeoutMs: service.errorLimits.timeoutMs,
      waiting,
      monitoring: options.monitoring,
    }),
  );
  // Paths that normalise to somewhere outside /api/ (`/api/v1/events/%2e%2e/…`).
  app.notFound(notFound);
  const { live, previews, images, downloads, deliverer } = parts;
  return {
    app,
    /** Whether the server can do its work (`/readyz`; see readiness.ts). */
    checkReady: createReadiness({
      pool,
      reads,
      read: service.read,
      gate: service.gate,
      faults,
      errorLimits: service.errorLimits,
      timeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      cacheMs: options.readyCacheMs ?? DEFAULT_READY_CACHE_MS,
    }),
    /** A page's link-preview tags (see src/server/preview). */
    pageHead: previews.pageHead,
    /** Whether a page names an address that is no collection: a 404 without a card. */
    notACollection: notACollectionPage(pool, indexer),
    /** The proxy's per-client limit, for other routes of the server (`/readyz`). */
    limitClients,
    /** Live pages' streams: ended when the server stops (before its deadline). */
    live,
    /** The server is stopping: requests waiting for the upstream are answered 503 now. */
    stop: async () => {
      waiting.stop();
      live.close();
      await Promise.all([indexer.stop(), deliverer?.stop()]);
    },
    indexer,
    /** Sends webhooks' deliveries once started; absent when webhooks are off. */
    deliverer,
    reader: service.reader,
    faults,
    stats: () => ({
      gate: service.gate.stats(),
      rateLimitTrackedClients: limiter?.clients() ?? 0,
      previews: previews.stats(),
      images: images.stats(),
      downloads: downloads.running(),
      live: live.stats(),
    }),
  };
}

/**
 * What reads the service: one gate for every request to it, the page reader (watched for
 * the server's faults, within each visitor's daily share), the record log's list reader
 * and the indexer fed by it.
 */
function readService(options: ServerOptions, faults: ServerFaults) {
  const { upstream, timeoutMs = DEFAULT_TIMEOUT_MS, monitoring } = options;
  const gate = createUpstreamGate({
    ...(options.gate ?? DEFAULT_GATE),
    ...(options.budget && { budget: options.budget }),
  });
  const errorLimits = {
    timeoutMs,
    maxRetryAfterSeconds: Math.ceil(
      (options.gate?.maxCoolDownMs ?? DEFAULT_GATE.maxCoolDownMs) / 1000,
    ),
  };
  const read = withDailyShare(
    watchForFaults(
      createPageReader({ upstream, gate, timeoutMs, onRequest: monitoring?.upstreamRequest }),
      faults,
      errorLimits,
    ),
    options.dailyShare ?? 0,
  );
  const { log: recordLog, secret } = options.log_;
  const reader = createListReader({
    log: recordLog,
    secret,
    read: readListWith(read),
    ...(options.log_.settings && { settings: options.log_.settings }),
    recovered: (_list, pages) => monitoring?.recovered(pages),
    ...(options.now && { now: options.now }),
    faulted: (path, fault) => options.index?.log?.(`${path}: ${fault}`),
  });
  const indexer: Indexer = createIndexer({
    reader,
    pool: recordLog.pool,
    describe: (failure) => pageFailureError(failure, errorLimits).message,
    permanent: (failure) => failure.kind === 'status' && failure.status === 403,
    personal: (failure) => failure.kind === 'daily_share',
    ...(options.now && { now: options.now }),
    backgroundRate: options.index?.backgroundRate ?? 0,
    verifyRate: options.index?.verifyRate ?? 0,
    ...(options.index?.verifyEveryMs !== undefined && {
      verifyEveryMs: options.index.verifyEveryMs,
    }),
    ...(options.index?.quotaAllows && { quotaAllows: options.index.quotaAllows }),
    ...(options.index?.log && { log: options.index.log }),
    ...(monitoring && { verified: (_path: string, found) => monitoring.verified(found) }),
  });
  return { gate, errorLimits, read, reader, indexer, pool: recordLog.pool, secret };
}

type Service = ReturnType<typeof readService> & { faults: ServerFaults; reads: ReadPools };

/** Every route under `/api/` but the service's own lists, mounted on `app` in order. */
function mountRoutes(app: Hono<Env>, options: ServerOptions, service: Service) {
  const { pool, reads, indexer, faults, secret } = service;
  // Link previews need only the index's tables: they never ask the service.
  const previews = createPreviews({ ...options.preview, pool, reads });
  const downloads = createDownloads(options.downloads ?? DEFAULT_DOWNLOAD_LIMITS);
  app.route('/', previews.app);
  const imageOptions = options.images ?? DEFAULT_IMAGES;
  const images = createImages({ ...imageOptions, pool });
  app.route('/', images.app);
  const queryApi = createQueryApi({
    pool,
    reads,
    indexer,
    faults: () => faults.list().map((fault) => fault.message),
    keyset: createKeyset(`query-api/${secret}`),
    downloads,
  });
  app.route('/', queryApi);
  const live = createLiveHub({
    pool,
    head: (contract) => indexer.head(contract, LIVE_CLIENT),
    intervalMs: options.log_.settings?.headIntervalMs ?? DEFAULT_READER_SETTINGS.headIntervalMs,
  });
  const liveApi = createLiveApi({
    hub: live,
    indexer,
    streamsPerClient: options.liveStreamsPerClient ?? DEFAULT_LIVE_STREAMS_PER_CLIENT,
  });
  app.route('/', liveApi);
  app.route('/', createFeeds({ api: queryApi, pool, origins: options.origins }));
  app.route('/', createOembed({ pool, origins: options.origins }));
  const deliverer = mountWebhooks(app, options, pool);
  app.get(honoPath(API_ROUTES.meta), (c) => {
    c.set('route', 'meta');
    const { source, description } = options.upstream;
    return c.json({ source, description, images: imageOptions.enabled });
  });
  // Made once, on the first request: from the same table and schemas the routes use.
  let document: string | undefined;
  app.get(honoPath(API_ROUTES.openApi), (c) => {
    c.set('route', 'openapi');
    document ??= JSON.stringify(openApiDocument(API_ROUTES, API_VERSION));
    return c.body(document, 200, { 'content-type': 'application/json; charset=utf-8' });
  });
  return { live, previews, images, downloads, deliverer };
}

/** The webhooks' routes, and their deliverer where webhooks are on (started with the server). */
function mountWebhooks(app: Hono<Env>, options: ServerOptions, pool: Service['pool']) {
  const hooks = { ...DEFAULT_DELIVERER, ...options.webhooks?.deliverer };
  const resolve = options.webhooks?.resolve;
  app.route(
    '/',
    createWebhookApi({
      pool,
      token: options.webhooks?.token,
      allowPrivate: hooks.allowPrivate,
      ...(resolve && { resolve }),
    }),
  );
  return options.webhooks?.token
    ? createDeliverer(pool, hooks, {
        ...(resolve && { resolve }),
        ...(options.index?.log && { log: options.index.log }),
      })
    : undefined;
}
