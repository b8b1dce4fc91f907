import { createCoalescer } from '../upstream/coalesce';
import type { PageFailure, PageReader } from '../upstream/page-read';
import {
  createPageCache,
  GZIP_THRESHOLD_BYTES,
  type Page,
  type PageCacheSettings,
} from './page-cache';

export type { PageFailure } from '../upstream/page-read';

/** What a miss comes to: a page (kept in the cache when it may be reused) or a failure. */
export type Loaded =
  | { kind: 'page'; page: Page; upstreamStatus?: number }
  | { kind: 'failed'; failure: PageFailure; upstreamStatus?: number | string };

export type CacheState = 'hit' | 'miss' | 'coalesced';
export type PageOutcome =
  | { kind: 'page'; page: Page; cache: CacheState; upstreamStatus?: number }
  | { kind: 'failed'; failure: PageFailure; cache: CacheState; upstreamStatus?: number | string };

/** Where a missing page comes from: the upstream (see `upstreamPages`) or the event store. */
export type PageSource = (signal: AbortSignal) => Promise<Loaded>;

export interface PageLoaderOptions {
  cache: PageCacheSettings;
  now?: () => number;
  /** Gzip of cached pages; the Web-standard CompressionStream unless the host has better. */
  gzip?: (body: Uint8Array) => Promise<Uint8Array>;
}

const CURSOR_QUERY = /[?&]cursor=/;
// Visible ASCII only, and bounded: anything else stays in the body alone.
const HEADER_SAFE = /^[\x21-\x7e]{1,2048}$/;

/**
 * Pages by request path: the shared cache, and one run of the source for concurrent
 * identical requests. Only valid pages are kept; failures are shared by the callers
 * waiting at that moment and never reused after.
 */
export function createPageLoader(options: PageLoaderOptions) {
  const { cache: settings, now = Date.now, gzip = streamGzip } = options;
  const cache = createPageCache(settings.maxBytes, now);
  const flights = createCoalescer<Loaded>();

  return {
    /**
     * The page at `key`, from memory or else from `source`. `clientGone` is asked for on
     * a miss only: a page served from memory needs none.
     */
    async load(
      key: string,
      source: PageSource,
      clientGone?: () => AbortSignal,
    ): Promise<PageOutcome> {
      const page = cache.get(key);
      if (page) return { kind: 'page', page, cache: 'hit' };
      const signal = clientGone?.();
      const { value, joined } = await flights.run(
        key,
        async (s) => {
          const loaded = await source(s);
          if (loaded.kind === 'page' && settings.maxBytes > 0) cache.set(key, loaded.page);
          return loaded;
        },
        signal,
      );
      return { ...value, cache: joined ? 'coalesced' : 'miss' };
    },
    /**
     * A page ready to keep and send. What follows a cursor and is followed by another
     * page does not change (`settled`): it is reused long, and marked immutable for
     * caches in front; anything else briefly (the head of a list grows).
     */
    page(body: Uint8Array, next: string | null | undefined, settled: boolean): Page {
      const ttlMs = settled ? settings.cursorPageTtlMs : settings.firstPageTtlMs;
      const page: Page = { body, expiresAt: now() + ttlMs, immutable: settled };
      if (next && HEADER_SAFE.test(next)) page.nextCursor = next;
      return page;
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

/** A miss read from the upstream as it is: the page the service sent for `path`. */
export function upstreamPages(pages: PageLoader, read: PageReader) {
  return (path: string, client: string): PageSource =>
    async (signal) => {
      const result = await read(path, client, signal);
      if (result.kind === 'failed') return result;
      const { status, body, next } = result;
      // The last page of a list can still grow; only a page followed by another is settled.
      const settled = status === 200 && CURSOR_QUERY.test(path) && next !== undefined;
      const page = pages.page(body, next, settled);
      // Other 2xx answers are passed on but not kept.
      if (status !== 200) page.expiresAt = 0;
      return { kind: 'page', page, upstreamStatus: status };
    };
}

export async function streamGzip(body: Uint8Array): Promise<Uint8Array> {
  // Response rather than Blob: jsdom (component tests) replaces Blob with one lacking stream().
  const stream = new Response(body as Uint8Array<ArrayBuffer>).body!.pipeThrough(
    new CompressionStream('gzip'),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
