import { createHash } from 'node:crypto';

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
  const entries = new Map<string, CachedPng>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  return {
    etagOf: (key: string) =>
      `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`,
    get(key: string): CachedPng | undefined {
      const entry = entries.get(key);
      if (!entry) {
        misses++;
        return undefined;
      }
      hits++;
      // Map keeps insertion order: re-inserting makes it the most recently used.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key: string, entry: CachedPng) {
      if (entry.png.byteLength > maxBytes) return;
      const old = entries.get(key);
      if (old) bytes -= old.png.byteLength;
      entries.set(key, entry);
      bytes += entry.png.byteLength;
      for (const [oldest, value] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= value.png.byteLength;
      }
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
