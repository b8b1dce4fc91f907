import type { ImageSource } from '../../lib/image-url';
import { createByteLru } from '../preview/byte-lru';
import type { Fetched } from './fetch-image';
import { sniffImageType } from './sniff-image';

export interface ImageCacheOptions {
  /** Pictures kept in memory at most (bytes). */
  maxBytes: number;
  /** Largest picture taken (bytes). */
  maxPictureBytes: number;
  /** How long a picture is served before its host is asked again. */
  keepMs: number;
  /** How long a failure is given again without asking: a bad host is not asked per visitor. */
  failureMs: number;
  fetch: (url: string) => Promise<Fetched>;
  now?: () => number;
}

type Entry = Fetched & { until: number };

// What an entry costs besides its picture: its key, the failure's words, the Map's own.
const ENTRY_OVERHEAD = 200;

/**
 * Contracts' pictures in memory, keyed by their source, least recently used out first
 * past `maxBytes`; failures are kept too, for less time. Concurrent requests for one
 * source share one fetch.
 */
export function createImageCache(options: ImageCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = createByteLru<Entry>(
    options.maxBytes,
    (key, entry) => key.length + ENTRY_OVERHEAD + (entry.ok ? entry.bytes.byteLength : 0),
  );
  const inFlight = new Map<string, Promise<Fetched>>();
  let fetches = 0;

  const load = async (key: string, source: ImageSource): Promise<Fetched> => {
    fetches++;
    const fetched =
      source.kind === 'data'
        ? decodeData(source, options.maxPictureBytes)
        : await options.fetch(source.url);
    entries.set(key, {
      ...fetched,
      until: now() + (fetched.ok ? options.keepMs : options.failureMs),
    });
    return fetched;
  };

  return {
    /** The source's picture, or why there is none. */
    get(source: ImageSource): Promise<Fetched> {
      const key = source.kind === 'https' ? source.url : `data:${source.type},${source.payload}`;
      const entry = entries.get(key);
      if (entry && entry.until > now()) return Promise.resolve(entry);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = load(key, source).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    stats: () => ({ ...entries.stats(), fetches }),
  };
}

function decodeData(source: Extract<ImageSource, { kind: 'data' }>, maxBytes: number): Fetched {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(
      source.base64
        ? Buffer.from(source.payload, 'base64')
        : Buffer.from(decodeURIComponent(source.payload), 'latin1'),
    );
  } catch {
    return { ok: false, reason: 'an inline picture that does not decode' };
  }
  if (bytes.byteLength > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, reason: 'not a PNG, JPEG, GIF, WebP or AVIF picture' };
  return { ok: true, bytes, type };
}
