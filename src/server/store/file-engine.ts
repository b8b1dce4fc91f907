import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { decodeChunk, encodeChunk } from './chunk-codec';
import type { Chunk, ListMeta, StoreEngine } from './engine';
import { createKeyedMutex } from './exclusive';

interface StoredMeta extends ListMeta {
  usedAt: number;
}

type ChunkKey = [string, number, number];

/**
 * The embedded engine: one LMDB file under the data directory. LMDB ships prebuilt
 * binaries in its registry packages (N-API, so the same files load on Node 20 and 24):
 * nothing is compiled at install. Reads are memory-mapped and need no copy of a chunk
 * into the JavaScript heap beyond the page being served. One server process owns the
 * file; servers that share a store use the PostgreSQL engine.
 */
export function openFileEngine(dataDir: string): StoreEngine {
  mkdirSync(dataDir, { recursive: true });
  const root: RootDatabase = open({ path: join(dataDir, 'event-store.mdb'), maxDbs: 5 });
  const lists: Database<StoredMeta, string> = root.openDB('lists', { encoding: 'msgpack' });
  const chunks: Database<Buffer, ChunkKey> = root.openDB('chunks', { encoding: 'binary' });
  const settings: Database<string, string> = root.openDB('settings', { encoding: 'string' });
  const usage: Database<number, number> = root.openDB('usage', { encoding: 'msgpack' });
  const mutex = createKeyedMutex();

  const range = (list: string, generation: number) => ({
    start: [list, generation, -Infinity] as ChunkKey,
    end: [list, generation, Infinity] as ChunkKey,
  });
  // getRange yields values that stay valid; getBinaryFast's buffer is reused on the next read.
  const collect = (
    entries: Iterable<{ key: ChunkKey; value: Buffer }>,
    minBytes: number,
  ): Chunk[] => {
    const found: Chunk[] = [];
    let bytes = 0;
    for (const { key, value } of entries) {
      const chunk = decodeChunk(key[2], value);
      found.push(chunk);
      bytes += chunk.body.byteLength;
      if (bytes >= minBytes) break;
    }
    return found;
  };
  const dropChunks = (list: string) => {
    for (const key of chunks.getKeys({ start: [list, 0], end: [list, Infinity] })) {
      chunks.removeSync(key as ChunkKey);
    }
  };

  return {
    kind: 'file',
    async read(list) {
      const meta = lists.get(list);
      if (!meta) return undefined;
      const { usedAt: _usedAt, ...rest } = meta;
      return rest;
    },

    async chunksFrom(list, generation, seq, minBytes) {
      const { start, end } = range(list, generation);
      // The chunk holding `seq` is the last one starting at or before it, if it reaches it
      // (its record count is the value's first four bytes, read without copying the value).
      const [before] = chunks.getKeys({
        start: [list, generation, seq],
        end: start,
        reverse: true,
        limit: 1,
      });
      const key = before as ChunkKey | undefined;
      const holds = key && seq < key[2] + (chunks.getBinaryFast(key)?.readUInt32LE(0) ?? 0);
      const from: ChunkKey = holds ? key : [list, generation, seq];
      return collect(chunks.getRange({ start: from, end }), minBytes);
    },

    async chunksBefore(list, generation, seq, minBytes) {
      const { start } = range(list, generation);
      // Exclusive of a chunk starting at `seq` itself: it is not before it.
      const entries = chunks.getRange({
        start: [list, generation, seq],
        end: start,
        reverse: true,
      });
      return collect(
        (function* () {
          for (const entry of entries) if (entry.key[2] < seq) yield entry;
        })(),
        minBytes,
      );
    },

    async commit(list, meta, added, replace = false) {
      const usedAt = lists.get(list)?.usedAt ?? Date.now();
      await root.transaction(() => {
        if (replace) dropChunks(list);
        for (const chunk of added) {
          chunks.putSync([list, meta.generation, chunk.first], encodeChunk(chunk));
        }
        lists.putSync(list, { ...meta, usedAt });
      });
    },

    exclusive: mutex.run,

    async touch(list, at) {
      const meta = lists.get(list);
      if (meta && meta.usedAt < at) await lists.put(list, { ...meta, usedAt: at });
    },

    async evict(maxBytes, keep) {
      const all = [...lists.getRange()].map(({ key, value }) => ({ key, ...value }));
      let total = all.reduce((sum, meta) => sum + meta.bytes, 0);
      let dropped = 0;
      for (const meta of all.sort((a, b) => a.usedAt - b.usedAt)) {
        if (total <= maxBytes) break;
        // A list being read from the upstream is in use: its turn comes later.
        if (meta.key === keep || mutex.busy(meta.key)) continue;
        await root.transaction(() => {
          dropChunks(meta.key);
          lists.removeSync(meta.key);
        });
        total -= meta.bytes;
        dropped += 1;
      }
      return dropped;
    },

    async stats() {
      let count = 0;
      let bytes = 0;
      for (const { value } of lists.getRange()) {
        count += 1;
        bytes += value.bytes;
      }
      return { lists: count, bytes };
    },

    async addUsage(hour, requests) {
      await usage.transaction(() => usage.putSync(hour, (usage.get(hour) ?? 0) + requests));
    },

    async usageSince(hour) {
      let total = 0;
      for (const { value } of usage.getRange({ start: hour })) total += value;
      return total;
    },

    async setting(name, create) {
      const existing = settings.get(name);
      if (existing !== undefined) return existing;
      const value = create();
      await settings.ifNoExists(name, () => settings.putSync(name, value));
      return settings.get(name) ?? value;
    },

    async close() {
      await root.close();
    },
  };
}
