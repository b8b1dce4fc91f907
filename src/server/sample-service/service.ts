import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type Next } from 'hono';
import { parseAddress } from '../../lib/address';
import { fail, ok, type Parsed } from '../../lib/result';
import { parseTokenId } from '../../lib/token-id';
import { createRateLimiter } from '../proxy/rate-limit';
import { createCursorCache, DEFAULT_CURSOR_CACHE_SIZE } from './cursor-cache';
import { createSignedCursors } from './cursor';
import { generateDataset, startAnchor, type Dataset } from './dataset';
import type { EventSource } from './event-source';
import {
  applyFault,
  createFaultSwitch,
  isDroppedConnection,
  jsonHeaders,
  parseFaultPlan,
  type FaultPlan,
  type SampleEnv,
} from './faults';
import { startLiveArrivals } from './live';
import { errorBody, type Profile } from './records';
import { createStore, DEFAULT_LIMIT, type PageRequest } from './store';

/** `D`: the data served, the in-memory dataset unless another source is given. */
export interface SampleServiceOptions<D extends EventSource = Dataset> {
  /** The `x-api-key` value every request must carry. */
  apiKey: string;
  /** Default `deployed`: the behaviour the dashboard meets in production. */
  profile?: Profile;
  /**
   * Default: `generateDataset({ seed, anchor })`, the full-size dataset; or the scale data
   * (scale.ts), which takes no live arrivals.
   */
  dataset?: D;
  seed?: number;
  /** When the service generates its dataset: where its timeline ends. Default `startAnchor()`. */
  anchor?: number;
  /**
   * New events keep arriving on a few contracts while the service runs (live.ts); only on
   * an in-memory dataset. Default off.
   */
  live?: boolean;
  /** Deployed profile: cursors kept before the least recently issued is forgotten. */
  cursorCacheSize?: number;
  faults?: FaultPlan;
  /**
   * The usage plan's throttle, as API Gateway applies it to the key: a token bucket of
   * `burst` refilled at `perSecond`; a request beyond it is answered 429 "Too Many Requests"
   * (without Retry-After). Default: none.
   */
  throttle?: { perSecond: number; burst: number };
  /**
   * Adds `/_control/faults`, `/_control/stats` and `/_control/cursors/forget` (for the
   * standalone CLI and tests).
   */
  control?: boolean;
}

export interface SampleService<D extends EventSource = Dataset> {
  app: Hono<SampleEnv>;
  /** Like global `fetch`: a dropped connection rejects with TypeError, an abort with the signal's reason. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  dataset: D;
  profile: Profile;
  setFaults(plan: FaultPlan | null): void;
  /** Data requests received (the three `/v1` endpoints), whatever their outcome. */
  requestCount(): number;
  /**
   * Deployed profile: forgets every cursor issued so far, as the real service's cache may at
   * any time; each is then answered 502 for ever. Returns how many there were (the
   * documented profile's signed cursors cannot be forgotten: 0).
   */
  forgetCursors(): number;
  /** Stops the live arrivals, if any. */
  close(): void;
}

export const DATA_ROUTES = [
  '/v1/contracts',
  '/v1/events/:contract_address',
  '/v1/events/:contract_address/:token_id',
] as const;

const MAX_ARRIVALS_KEPT = 100_000;

/** Base for relative URLs given to `SampleService.fetch`. */
const IN_PROCESS_ORIGIN = 'http://sample-service.internal';

export function createSampleService<D extends EventSource = Dataset>(
  options: SampleServiceOptions<D>,
): SampleService<D> {
  if (options.apiKey === '') throw new TypeError('The sample service needs a non-empty apiKey.');
  const profile = options.profile ?? 'deployed';
  // Without a dataset D is the default, Dataset.
  const dataset =
    options.dataset ??
    (generateDataset({
      seed: options.seed ?? 1,
      anchor: options.anchor ?? startAnchor(),
    }) as EventSource as D);
  const cursorCache =
    profile === 'deployed'
      ? createCursorCache(options.cursorCacheSize ?? DEFAULT_CURSOR_CACHE_SIZE)
      : null;
  const store = createStore(
    dataset,
    profile,
    cursorCache ?? createSignedCursors(`sample-service/${dataset.seed}`),
  );
  const live = options.live ? startLiveArrivals(inMemory(dataset)) : null;
  const faults = createFaultSwitch(options.faults ?? null);
  const expectedKey = digest(options.apiKey);
  const throttle =
    options.throttle &&
    createRateLimiter({
      perMinute: options.throttle.perSecond * 60,
      burst: options.throttle.burst,
    });
  let requests = 0;
  let throttled = 0;
  // When each data request arrived (epoch ms), the latest ones: benchmarks count them per second.
  const arrivals: number[] = [];

  const message = (c: Context, status: 400 | 403 | 404 | 409 | 500 | 502, text: string): Response =>
    c.body(errorBody(text), status, jsonHeaders());
  // The deployment answers every bad parameter as an internal error; the document's clean
  // behaviour is a 400 that says what is wrong.
  const badParameter = (c: Context, reason: string): Response =>
    profile === 'deployed' ? message(c, 502, 'Internal server error') : message(c, 400, reason);
  const requireKey = async (c: Context, next: Next): Promise<Response | void> => {
    const key = c.req.header('x-api-key');
    if (key === undefined || !timingSafeEqual(digest(key), expectedKey)) {
      return message(c, 403, 'Forbidden');
    }
    await next();
  };
  const page = (c: Context, query: (request: PageRequest) => Parsed<string>): Response => {
    const limit = parseLimit(c.req.query('limit'), profile);
    if (!limit.ok) return badParameter(c, limit.error);
    const outcome = query({ cursor: c.req.query('cursor') || undefined, limit: limit.value });
    return outcome.ok ? c.body(outcome.value, 200, jsonHeaders()) : badParameter(c, outcome.error);
  };
  const address = (c: Context): Parsed<string> => {
    const parsed = parseAddress(c.req.param('contract_address') ?? '');
    return parsed.ok ? parsed : fail(`contract_address: ${parsed.error}`);
  };

  const app = new Hono<SampleEnv>();
  app.on(
    'GET',
    [...DATA_ROUTES],
    async (c, next) => {
      requests += 1;
      arrivals.push(Date.now());
      if (arrivals.length > MAX_ARRIVALS_KEPT) arrivals.splice(0, arrivals.length / 2);
      const url = new URL(c.req.url);
      const plan = faults.select(url.pathname + url.search);
      return plan ? applyFault(c, next, plan) : next();
    },
    requireKey,
    async (c, next) => {
      if (throttle && throttle.take('key') > 0) {
        throttled += 1;
        return c.body(errorBody('Too Many Requests'), 429, jsonHeaders());
      }
      await next();
    },
  );

  app.get('/v1/contracts', (c) => page(c, (request) => store.contracts(request)));
  app.get('/v1/events/:contract_address', (c) => {
    const contract = address(c);
    if (!contract.ok) return badParameter(c, contract.error);
    return page(c, (request) => store.contractEvents(contract.value, request));
  });
  app.get('/v1/events/:contract_address/:token_id', (c) => {
    const contract = address(c);
    if (!contract.ok) return badParameter(c, contract.error);
    const tokenId = parseTokenId(c.req.param('token_id'));
    if (!tokenId.ok) return badParameter(c, `token_id: ${tokenId.error}`);
    return page(c, (request) => store.tokenEvents(contract.value, tokenId.value, request));
  });

  if (options.control) {
    app.get('/_control/faults', requireKey, (c) => c.json(faults.plan()));
    app.put('/_control/faults', requireKey, async (c) => {
      const plan = parseFaultPlan(await c.req.json<unknown>().catch(() => undefined));
      if (!plan.ok) return message(c, 400, plan.error);
      faults.set(plan.value);
      return c.json(faults.plan());
    });
    app.get('/_control/stats', requireKey, (c) => {
      const since = Number(c.req.query('since') ?? Infinity);
      return c.json({
        requests,
        throttled,
        ...(Number.isFinite(since) && { arrivals: arrivals.filter((time) => time >= since) }),
      });
    });
    app.post('/_control/cursors/forget', requireKey, (c) =>
      cursorCache
        ? c.json({ forgotten: cursorCache.forget() })
        : message(c, 409, 'The documented profile signs its cursors: none is kept to forget.'),
    );
  }

  // API Gateway answers an unknown route as if the key were missing.
  app.notFound((c) =>
    profile === 'deployed'
      ? message(c, 403, 'Missing Authentication Token')
      : message(c, 404, 'Not Found'),
  );
  app.onError((_error, c) =>
    message(c, profile === 'deployed' ? 502 : 500, 'Internal server error'),
  );

  return {
    app,
    dataset,
    profile,
    setFaults: (plan) => faults.set(plan),
    requestCount: () => requests,
    forgetCursors: () => cursorCache?.forget() ?? 0,
    close: () => live?.stop(),
    async fetch(input, init) {
      const request = new Request(
        typeof input === 'string' && input.startsWith('/') ? `${IN_PROCESS_ORIGIN}${input}` : input,
        init,
      );
      const { signal } = request;
      signal.throwIfAborted();
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
      const response = await Promise.race([app.fetch(request), aborted]);
      if (isDroppedConnection(response)) {
        throw new TypeError('fetch failed', { cause: new Error('other side closed') });
      }
      return response;
    },
  };
}

/**
 * The deployment parses limit as an integer, falls back to 100 when it cannot, and fails
 * on 0 or less; the documented profile accepts only a positive integer.
 */
export function parseLimit(raw: string | undefined, profile: Profile): Parsed<number> {
  if (raw === undefined || raw === '') return ok(DEFAULT_LIMIT);
  const value =
    profile === 'deployed' ? Number.parseInt(raw, 10) : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (Number.isNaN(value)) {
    return profile === 'deployed' ? ok(DEFAULT_LIMIT) : fail('limit must be a positive integer.');
  }
  return value > 0 ? ok(value) : fail('limit must be a positive integer.');
}

function inMemory(source: EventSource): Dataset {
  if (!('addMint' in source)) throw new TypeError('Live arrivals need an in-memory dataset.');
  return source as Dataset;
}

/** Keys are compared as digests, in constant time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
