import { createHash } from 'node:crypto';
import { createByteLru } from './byte-lru';

export interface CachedPng {
  png: Uint8Array<ArrayBuffer>;
  /** A strong ETag made from the key: the same picture has the same tag on every server. */
  etag: string;
}

/**
 * Rendered previews kept in memory, keyed by what they show, least recently used dropped
 * first once they pass `maxBytes`. A picture changes only when its key does, so an entry
 * never goes stale: it is only pushed out.
 */
export function createPngCache(maxBytes: number) {
  const entries = createByteLru<CachedPng>(maxBytes, (_key, entry) => entry.png.byteLength);
  let hits = 0;
  let misses = 0;
  return {
    etagOf: (key: string) =>
      `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`,
    get(key: string): CachedPng | undefined {
      const entry = entries.get(key);
      if (entry) hits++;
      else misses++;
      return entry;
    },
    set: entries.set,
    stats: () => ({ ...entries.stats(), hits, misses }),
  };
}
