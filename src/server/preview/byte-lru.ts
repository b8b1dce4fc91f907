/**
 * A map bounded by bytes, least recently used out first: `sizeOf` says what an entry
 * costs, and one larger than the bound is never kept. A Map keeps insertion order, so a
 * read re-inserts its entry as the most recently used. The page cache and the preview
 * images keep their entries in one.
 */
export function createByteLru<V>(maxBytes: number, sizeOf: (key: string, value: V) => number) {
  const entries = new Map<string, V>();
  let bytes = 0;

  const remove = (key: string, value: V) => {
    entries.delete(key);
    bytes -= sizeOf(key, value);
  };

  return {
    /** The entry, made the most recently used. */
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },

    delete(key: string) {
      const value = entries.get(key);
      if (value !== undefined) remove(key, value);
    },

    set(key: string, value: V) {
      const size = sizeOf(key, value);
      if (size > maxBytes) return;
      const previous = entries.get(key);
      if (previous !== undefined) remove(key, previous);
      for (const [oldKey, oldValue] of entries) {
        if (bytes + size <= maxBytes) break;
        remove(oldKey, oldValue);
      }
      entries.set(key, value);
      bytes += size;
    },

    stats: () => ({ entries: entries.size, bytes }),
  };
}
