import { createByteLru } from './byte-lru';

export interface PageCacheSettings {
  /** How long a first page (no cursor) is reused: it changes as new events arrive. */
  firstPageTtlMs: number;
  /** How long a page fetched with a cursor, and followed by another, is reused. */
  cursorPageTtlMs: number;
  /** Bound on the bytes held (bodies plus their gzip form); 0 turns caching off. */
  maxBytes: number;
}

export const DEFAULT_PAGE_CACHE: PageCacheSettings = {
  firstPageTtlMs: 5_000,
  cursorPageTtlMs: 600_000,
  maxBytes: 64 * 1024 * 1024,
};

// Smaller bodies are sent as they are: gzip would save little and cost a round of CPU.
export const GZIP_THRESHOLD_BYTES = 1024;
// JSON pages of hex strings gzip to about a quarter of their size (measured: 0.22–0.25).
const GZIP_SIZE_ESTIMATE = 0.3;

/** A valid 200 page of the upstream, ready to send. */
export interface Page {
  body: Uint8Array;
  /**
   * The body gzip-compressed, made on the first request that accepts gzip (a client that
   * does not, or a page nobody asks twice for, never pays for it).
   */
  gzip?: Promise<Uint8Array>;
  /** When the page stops being reused; `Cache-Control` is derived from it. */
  expiresAt: number;
  /** Content behind a cursor does not change, so shared caches may keep it without asking. */
  immutable: boolean;
  /** The page's own `cursor`, when it is safe to repeat in a header (`X-Next-Cursor`). */
  nextCursor?: string;
}

// Map entries, the key and the object cost memory beyond the bytes themselves.
const ENTRY_OVERHEAD_BYTES = 256;

// The gzip form is made later, so its size is counted up front as an estimate.
const sizeOf = (key: string, page: Page) =>
  key.length * 2 +
  Math.ceil(page.body.byteLength * (1 + GZIP_SIZE_ESTIMATE)) +
  ENTRY_OVERHEAD_BYTES;

/**
 * Pages by upstream path, least recently used first, bounded by bytes. Expired pages
 * are dropped when looked up or when they reach the front; until then they only take
 * room that the byte bound accounts for.
 */
export function createPageCache(maxBytes: number, now: () => number = Date.now) {
  const pages = createByteLru<Page>(maxBytes, sizeOf);
  return {
    get(key: string): Page | undefined {
      const page = pages.get(key);
      if (!page || page.expiresAt > now()) return page;
      pages.delete(key);
      return undefined;
    },

    set(key: string, page: Page) {
      if (page.expiresAt > now()) pages.set(key, page);
    },

    stats: pages.stats,
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
