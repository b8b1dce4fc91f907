import { randomUUID } from 'node:crypto';
import type { CursorPosition, CursorScheme } from './cursor';

/**
 * The deployed service's cursors: a random UUID for every page served, even for the same
 * position, naming a position kept in the service's own cache (Redis there, a Map here).
 * The cache forgets the least recently issued past its size, and `forget()` empties it, so
 * clients meet cursors that die: an unknown one is answered 502 for ever.
 */

/**
 * About 7 MB of heap when full; a walk of the busiest contract issues ~1,400 cursors at
 * limit 100, ~90 at the largest pages.
 */
export const DEFAULT_CURSOR_CACHE_SIZE = 50_000;

export interface CursorCache extends CursorScheme {
  /** Forgets every cursor issued so far; returns how many there were. */
  forget(): number;
  size(): number;
}

export function createCursorCache(capacity = DEFAULT_CURSOR_CACHE_SIZE): CursorCache {
  if (!Number.isSafeInteger(capacity) || capacity < 1) {
    throw new RangeError('the cursor cache needs room for at least one cursor');
  }
  // A Map keeps insertion order: its first key is the least recently issued.
  const positions = new Map<string, CursorPosition>();
  return {
    issue(position) {
      const cursor = flatCopy(randomUUID());
      positions.set(cursor, position);
      if (positions.size > capacity) {
        const oldest = positions.keys().next();
        if (!oldest.done) positions.delete(oldest.value);
      }
      return cursor;
    },
    resolve: (text) => positions.get(text) ?? null,
    forget() {
      const count = positions.size;
      positions.clear();
      return count;
    },
    size: () => positions.size,
  };
}

/**
 * Node builds a UUID as a chain of two-digit strings, ~500 bytes of heap as long as it is
 * kept; a flat copy of its 36 characters takes ~90.
 */
function flatCopy(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
