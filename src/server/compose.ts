import { Hono, type Context } from 'hono';
import { createDownloads, DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from './api/download';
import { API_ROUTES, honoPath } from './api/api-routes';
import { notACollectionPage } from './api/collection-page';
import { createFeeds } from './api/feeds';
import { createOembed } from './api/oembed';
import { openApiDocument } from './api/openapi';
import { createQueryApi } from './api/query-api';
import { DATABASE_FAILURE_MESSAGES, databaseFailure } from './database/database-error';
import { createReadPools, type ReadPools, type ReplicaStatus } from './database/read-pools';
import { createKeyset } from './index/keyset';
import { createIndexer, type Indexer } from './indexer/indexer';
import {
  createListReader,
  DEFAULT_READER_SETTINGS,
  type ListReaderSettings,
  type ListSpec,
} from './log/list-reader';
import { createLiveApi } from './live/live-api';
import { createLiveHub } from './live/live-hub';
import { readListWith } from './log/read-list';
import type { RecordLog } from './log/record-log';
import { createImages, DEFAULT_IMAGES, type ImageOptions } from './images/images';
import { createPreviews, type PreviewOptions } from './preview/previews';
import type { OriginRule } from './preview/request-origin';
import { BLOCKING, createServerFaults, type ServerFaults } from './server-faults';
import type { UpstreamBudget } from './upstream/budget';
import { withDailyShare } from './upstream/daily-share';
import { createUpstreamGate, DEFAULT_GATE, type UpstreamGateSettings } from './upstream/gate';
import { createPageReader, type PageFailure, type PageReader } from './upstream/page-read';
import type { Monitoring } from './monitoring';
import type { Upstream } from './upstream/service-client';
import { createDeliverer, DEFAULT_DELIVERER, type DelivererSettings } from './webhooks/deliverer';
import { createWebhookApi } from './webhooks/webhook-api';
import type { AddressCheck } from './network-address';
import { clientRateLimit, type ClientVariables } from './proxy/client-rate-limit';
import {
  errorResponse,
  internalErrorHandler,
  methodNotAllowed,
  pageFailureError,
  SHUTTING_DOWN,
} from './proxy/error-response';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitSettings } from './proxy/rate-limit';
import { jsonEtag } from './proxy/json-etag';
import { openCors, preflight } from './proxy/open-cors';
import { requestLog, type RequestLog } from './proxy/request-log';
import { matchApiRequest, type MatchedRequest } from './proxy/route-match';

export type { RequestLog } from './proxy/request-log';

export interface ProxyOptions {
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
// The smallest real request: proves the address, the key and the service all work.
const READY_PATH = '/v1/contracts?limit=1';
// Who asks, for the gate: readiness checks and callers without a socket share a turn each;
// live pages' head reads, one per collection for all of them, are asked in one name.
const READINESS_CLIENT = 'readiness';
const LIVE_CLIENT = 'live';
export const DEFAULT_LIVE_STREAMS_PER_CLIENT = 10;
const NO_ADDRESS_CLIENT = 'local';
// The API document's version: the answers' shape, raised when one changes incompatibly.
const API_VERSION = '1.0.0';
/** The service's page size when a request names none. */
export const SERVICE_DEFAULT_LIMIT = 100;

export type Readiness =
  | { ready: true; note?: string; coolingDownUntil?: string; replicas?: ReplicaStatus[] }
  | { ready: false; reason: string };

type Env = { Variables: ClientVariables };

/** Where a list route's records are kept in the log, and how they are ordered. */
export function listSpecOf({ route, list }: MatchedRequest): ListSpec {
  return {
    path: list,
    order: route.name === 'contract-events' ? 'newest-first' : 'stable',
    identity: route.name === 'contracts' ? 'contract' : 'event',
  };
}

/**
 * The server's one Hono app under `/api/`, behind `vite` dev, `vite preview` and the
 * production server: the query API, link previews, `/api/meta`, and the service's own
 * three list routes (`/api/v1`) served from the record log. Every read of the service
 * goes through one gate, so it sees the same load however many people are browsing.
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
  const faults = options.faults ?? createServerFaults(options.index?.log);
  const gate = createUpstreamGate({
    ...(options.gate ?? DEFAULT_GATE),
    ...(options.budget && { budget: options.budget }),
  });
  const { monitoring } = options;
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
  const { pool } = recordLog;
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
    pool,
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
  const limiter = rateLimit.perMinute > 0 ? createRateLimiter(rateLimit) : undefined;
  const limitClients = clientRateLimit(limiter, trustedProxyHops);
  // Requests waiting for the upstream, answered at once when the server stops.
  const waiting = createWaitingRequests();
  const app = new Hono<Env>();

  app.onError(internalErrorHandler(log !== undefined));
  if (log) app.use('/api/*', requestLog(log, 'unmatched'));
  app.use('/api/*', openCors);
  app.use('/api/*', limitClients);
  app.use('/api/*', preflight);
  app.use('/api/*', jsonEtag);
  // Link previews need only the index's tables: they never ask the service.
  const reads = options.reads ?? createReadPools(pool);
  const previews = createPreviews({ ...options.preview, pool, reads });
  const downloads = createDownloads(options.downloads ?? DEFAULT_DOWNLOAD_LIMITS);
  app.route('/', previews.app);
  const images = createImages({ ...(options.images ?? DEFAULT_IMAGES), pool });
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
  // Deliveries are sent only where webhooks are on; started with the server (`start`).
  const deliverer = options.webhooks?.token
    ? createDeliverer(pool, hooks, {
        ...(resolve && { resolve }),
        ...(options.index?.log && { log: options.index.log }),
      })
    : undefined;
  app.get(honoPath(API_ROUTES.meta), (c) => {
    c.set('route', 'meta');
    return c.json({
      source: upstream.source,
      description: upstream.description,
      images: (options.images ?? DEFAULT_IMAGES).enabled,
    });
  });
  // Made once, on the first request: from the same table and schemas the routes use.
  let document: string | undefined;
  app.get(honoPath(API_ROUTES.openApi), (c) => {
    c.set('route', 'openapi');
    document ??= JSON.stringify(openApiDocument(API_ROUTES, API_VERSION));
    return c.body(document, 200, { 'content-type': 'application/json; charset=utf-8' });
  });
  app.all('/api/*', async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return methodNotAllowed();
    }
    const url = new URL(c.req.url);
    const match = matchApiRequest(url);
    if (match.kind === 'not_found') return notFound();
    if (match.kind === 'bad_request') {
      return errorResponse({ kind: 'bad_request', status: 400, message: match.message });
    }
    const { request } = match;
    c.set('route', request.route.name);
    const client = c.get('client') ?? NO_ADDRESS_CLIENT;
    // Nothing more is sent upstream once the server stops.
    if (waiting.stopped()) return errorResponse(SHUTTING_DOWN);
    // Only contracts the service lists are read: any other address is an empty list, as
    // the service answers it, without a walk. Reading the contracts list for it is waited
    // for within the same deadline, and answered at once when the server stops.
    const listedThenServed = async () => {
      if (request.route.name !== 'contracts') {
        const listing = await indexer.listingOf(request.route.address);
        if (listing !== 'listed') return { kind: 'unlisted' as const, listing };
      }
      return reader.serve(
        listSpecOf(request),
        request.cursor ?? null,
        request.limit ?? SERVICE_DEFAULT_LIMIT,
        client,
      );
    };
    const served = await settleBy(listedThenServed(), timeoutMs, clientGone(c, waiting));
    if (served === 'late' || served === 'aborted') {
      return pageFailed({ kind: served === 'late' ? 'timeout' : 'aborted' });
    }
    if (served.kind === 'unlisted') return emptyList(served.listing);
    if (served.kind === 'foreign_cursor') {
      return errorResponse({
        kind: 'bad_request',
        status: 400,
        message:
          'cursor is not one this server gave for this list: pass back the cursor of the previous page unchanged.',
      });
    }
    if (served.upstreamReads > 0) c.set('upstreamStatus', served.kind === 'page' ? 200 : 'failed');
    if (served.kind === 'failed') return pageFailed(served.failure);
    monitoring?.pageServed(served.upstreamReads > 0 ? 'upstream' : 'log');
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    };
    // Lets a client walking the whole list ask for the next page before parsing this one.
    if (served.next) headers['x-next-cursor'] = served.next;
    if (served.fault) headers['x-list-stopped'] = served.fault;
    return new Response(c.req.method === 'HEAD' ? null : (served.body as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers,
    });
  });

  /** A page that could not be served; once the server stops, every such answer is its 503. */
  const pageFailed = (failure: PageFailure) =>
    errorResponse(waiting.stopped() ? SHUTTING_DOWN : pageFailureError(failure, errorLimits));

  // Paths that normalise to somewhere outside /api/ (`/api/v1/events/%2e%2e/…`).
  app.notFound(notFound);

  /** The database answers a query within the readiness deadline. */
  async function checkDatabase(): Promise<Readiness | null> {
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
    const disk = faults.list().find((fault) => fault.kind === 'disk');
    if (disk) return { ready: false, reason: disk.message };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), readyTimeoutMs);
    });
    const outcome = await Promise.race([read(READY_PATH, READINESS_CLIENT), late]).finally(() =>
      clearTimeout(timer),
    );
    if (outcome === 'late') {
      return {
        ready: false,
        reason: `The Token Events Service did not answer within ${readyTimeoutMs} ms.`,
      };
    }
    const until = gate.stats().coolingDownUntil;
    const cooling = until === undefined ? {} : { coolingDownUntil: new Date(until).toISOString() };
    const notes = faults
      .list()
      .filter((fault) => !BLOCKING.includes(fault.kind))
      .map((fault) => fault.message);
    const note = notes.length > 0 ? { note: notes.join(' ') } : {};
    // Replicas down or behind leave the server ready: the primary answers their reads.
    const states = reads.states();
    const replicas = states.length > 0 ? { replicas: states } : {};
    if (outcome.kind === 'page') return { ready: true, ...note, ...cooling, ...replicas };
    const error = pageFailureError(outcome.failure, errorLimits);
    // Throttling is shared by every instance: failing readiness for it would take them all out.
    if (error.status === 429) return { ready: true, note: error.message, ...cooling };
    return { ready: false, reason: error.message };
  }

  let readiness: { answer: Promise<Readiness>; settledAt?: number } | undefined;

  return {
    app,
    /**
     * Whether the upstream answers a real request, through the same gate. An answer, good
     * or bad, is given again for `readyCacheMs`, and concurrent checks share one, so
     * probes cannot turn into upstream calls.
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
    reader,
    faults,
    stats: () => ({
      gate: gate.stats(),
      rateLimitTrackedClients: limiter?.clients() ?? 0,
      previews: previews.stats(),
      images: images.stats(),
      downloads: downloads.running(),
      live: live.stats(),
    }),
  };
}

/**
 * The page reader, telling the server's faults what the service's answers say of the
 * whole server: a refused key (403), a spent monthly quota (429 `Limit Exceeded`); any
 * page read ends them.
 */
function watchForFaults(
  read: PageReader,
  faults: ServerFaults,
  limits: Parameters<typeof pageFailureError>[1],
): PageReader {
  return async (path, client, signal) => {
    const result = await read(path, client, signal);
    if (result.kind === 'page') {
      faults.clear('key');
      faults.clear('quota');
    } else if (result.failure.kind === 'status' && result.failure.status === 403) {
      faults.set(
        'key',
        `${pageFailureError(result.failure, limits).message} Nothing new can be read; answers come from stored data.`,
      );
    } else if (
      result.failure.kind === 'status' &&
      result.failure.status === 429 &&
      /limit exceeded/i.test(result.failure.body.slice(0, 1000))
    ) {
      faults.set(
        'quota',
        'The API key’s monthly quota is spent: nothing new can be read until the service ' +
          'allows it again; answers come from stored data.',
      );
    }
    return result;
  };
}

/** What the service answers for a list it does not hold, with why in a header of ours. */
function emptyList(listing: 'not-listed' | 'unknown'): Response {
  return new Response('{"result":[],"cursor":null}', {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-list-stopped':
        listing === 'not-listed'
          ? 'Not a collection the Token Events Service lists.'
          : 'The contracts list could not be read from the Token Events Service yet.',
    },
  });
}

function notFound(): Response {
  return errorResponse({ kind: 'not_found', status: 404, message: 'No such API route.' });
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

/** The work's result, unless `ms` pass first or `signal` aborts (the client left, the server stops). */
function settleBy<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal,
): Promise<T | 'late' | 'aborted'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'late' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    onAbort = () => resolve('aborted');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stop]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort!);
  });
}
