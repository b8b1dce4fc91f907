import { readPageEnvelope } from '../../lib/page';
import { parseJsonBody } from '../upstream/json-body';
import { parseRetryAfter } from '../upstream/retry-after';
import { createCoalescer } from '../upstream/coalesce';
import {
  createPageCache,
  GZIP_THRESHOLD_BYTES,
  type Page,
  type PageCacheSettings,
} from './page-cache';
import { fetchUpstream, type Upstream } from '../upstream/service-client';
import type { UpstreamGate } from '../upstream/gate';

/** Why no page could be served; `pageFailureError` says each in our words. */
export type PageFailure =
  | { kind: 'timeout' | 'unreachable' | 'broken' | 'too_large' | 'invalid' | 'busy' | 'aborted' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'status'; status: number; body: string; retryAfter: string | null };

type Loaded =
  | { kind: 'page'; page: Page; upstreamStatus: number }
  | { kind: 'failed'; failure: PageFailure; upstreamStatus?: number | string };

export type CacheState = 'hit' | 'miss' | 'coalesced';
export type PageOutcome =
  | { kind: 'page'; page: Page; cache: CacheState; upstreamStatus?: number }
  | { kind: 'failed'; failure: PageFailure; cache: CacheState; upstreamStatus?: number | string };

export interface PageLoaderOptions {
  upstream: Upstream;
  gate: UpstreamGate;
  timeoutMs: number;
  cache: PageCacheSettings;
  now?: () => number;
  /** Gzip of cached pages; the Web-standard CompressionStream unless the host has better. */
  gzip?: (body: Uint8Array) => Promise<Uint8Array>;
}

const CURSOR_QUERY = /[?&]cursor=/;
// Visible ASCII only, and bounded: anything else stays in the body alone.
const HEADER_SAFE = /^[\x21-\x7e]{1,2048}$/;

/**
 * Everything between a validated upstream path and a page: the shared cache, one
 * upstream call for concurrent identical requests, the gate, and the checks that only
 * a complete JSON envelope counts as a page. Only valid 200 pages are kept; failures
 * are shared by the callers waiting at that moment and never reused after.
 */
export function createPageLoader(options: PageLoaderOptions) {
  const { upstream, gate, timeoutMs, cache: settings, now = Date.now, gzip = streamGzip } = options;
  const cache = createPageCache(settings.maxBytes, now);
  const flights = createCoalescer<Loaded>();

  async function fetchPage(path: string, client: string, signal: AbortSignal): Promise<Loaded> {
    const entry = await gate.enter(client, signal);
    if (entry.kind !== 'admitted') return { kind: 'failed', failure: entry };
    let result;
    try {
      result = await fetchUpstream(upstream, path, timeoutMs, signal);
    } finally {
      entry.release();
    }
    if (result.kind !== 'ok') {
      return { kind: 'failed', failure: { kind: result.kind }, upstreamStatus: result.kind };
    }
    const { status, body, retryAfter } = result;
    if (status === 429) gate.reportThrottled(parseRetryAfter(retryAfter));
    else gate.reportSuccess();
    if (status < 200 || status > 299) {
      const text = new TextDecoder().decode(body);
      return {
        kind: 'failed',
        failure: { kind: 'status', status, body: text, retryAfter },
        upstreamStatus: status,
      };
    }
    const shape = envelopeOf(body);
    if (!shape) return { kind: 'failed', failure: { kind: 'invalid' }, upstreamStatus: status };
    // The last page of a list can still grow; only a page followed by another is settled.
    const settled = status === 200 && CURSOR_QUERY.test(path) && shape.next !== undefined;
    const ttlMs = status !== 200 ? 0 : settled ? settings.cursorPageTtlMs : settings.firstPageTtlMs;
    const page: Page = { body, expiresAt: now() + ttlMs, immutable: settled };
    if (shape.next !== undefined && HEADER_SAFE.test(shape.next)) page.nextCursor = shape.next;
    if (settings.maxBytes > 0) cache.set(path, page);
    return { kind: 'page', page, upstreamStatus: status };
  }

  return {
    /**
     * `clientGone` is asked for on a miss only: a page served from memory needs none.
     * `client` is who asks, for the gate's fair share between clients.
     */
    async load(
      path: string,
      clientGone?: () => AbortSignal,
      client = 'local',
    ): Promise<PageOutcome> {
      const page = cache.get(path);
      if (page) return { kind: 'page', page, cache: 'hit' };
      const signal = clientGone?.();
      const { value, joined } = await flights.run(path, (s) => fetchPage(path, client, s), signal);
      return { ...value, cache: joined ? 'coalesced' : 'miss' };
    },
    /** The page gzip-compressed, or undefined when it is too small to be worth it. */
    async gzipOf(page: Page): Promise<Uint8Array | undefined> {
      if (page.body.byteLength < GZIP_THRESHOLD_BYTES) return undefined;
      page.gzip ??= gzip(page.body);
      return page.gzip;
    },
    stats: () => ({ ...cache.stats(), inFlight: flights.inFlight() }),
  };
}

export type PageLoader = ReturnType<typeof createPageLoader>;

/** A page is a list envelope, read as the browser reads it (lib/page.ts); `next` is its cursor. */
function envelopeOf(body: Uint8Array): { next: string | undefined } | null {
  try {
    const envelope = readPageEnvelope(parseJsonBody(body));
    return envelope && { next: envelope.cursor ?? undefined };
  } catch {
    return null;
  }
}

async function streamGzip(body: Uint8Array): Promise<Uint8Array> {
  // Response rather than Blob: jsdom (component tests) replaces Blob with one lacking stream().
  const stream = new Response(body as Uint8Array<ArrayBuffer>).body!.pipeThrough(
    new CompressionStream('gzip'),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
