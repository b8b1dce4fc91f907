/**
 * What the event store keeps, and the small interface both engines (a file on this
 * machine, PostgreSQL shared by several servers) implement. The logic of lists lives in
 * event-store.ts and is written once against this interface.
 *
 * A list (a contract's events, a token's events, the contracts list) is a run of
 * records numbered by position ("seq"), kept in chunks of consecutive records. Records
 * read from the head of a list later get numbers below the first ones, so a number never
 * moves and a walk resumed after one can neither skip nor repeat a record.
 */
export interface ListMeta {
  /** Bumped when the stored copy is dropped and started again; cursors name it. */
  generation: number;
  /** Number of the first stored record (the head). */
  first: number;
  /** One past the number of the last stored record. */
  next: number;
  /** The upstream said nothing follows the last stored record. */
  complete: boolean;
  /** The upstream cursor that reads on after the last stored record, when not complete. */
  frontier: string | null;
  /** When the head was last read from the upstream (ms since the epoch). */
  headCheckedAt: number;
  /** When this generation's first page was read: how old its depth may be. */
  fetchedAt: number;
  /** Bytes of record text held (the LRU bound counts these). */
  bytes: number;
}

export interface Chunk {
  /** Number of its first record; the others follow without gaps. */
  first: number;
  /** The records' JSON texts joined by commas, as they go into a page. */
  body: Uint8Array;
  /** Byte offset in `body` where each record ends (exclusive). */
  ends: number[];
  /** Each record's time (unix seconds), for the head and the frontier. */
  ts: number[];
}

export interface StoreEngine {
  /** Short name for logs and metrics: `file` or `postgres`. */
  readonly kind: string;
  read(list: string): Promise<ListMeta | undefined>;
  /**
   * Chunks of one generation in order, from the one holding `seq` (or else the first
   * after it), until they hold at least `minBytes` of records or the list ends.
   */
  chunksFrom(list: string, generation: number, seq: number, minBytes: number): Promise<Chunk[]>;
  /** The chunks before `seq`, last first, until they hold at least `minBytes`. */
  chunksBefore(list: string, generation: number, seq: number, minBytes: number): Promise<Chunk[]>;
  /**
   * Writes a list's new state and its new chunks in one transaction. With `replace`, the
   * list's earlier generations are dropped first (its chunks start again).
   */
  commit(list: string, meta: ListMeta, chunks: Chunk[], replace?: boolean): Promise<void>;
  /**
   * Runs `task` while no other caller for the same list runs one, in this process or (on
   * PostgreSQL) in any server sharing the database: one upstream read per list at a time,
   * the others wait and then find its result stored.
   */
  exclusive<T>(list: string, task: () => Promise<T>): Promise<T>;
  /** Marks the list used now, for least-recently-used eviction. */
  touch(list: string, at: number): Promise<void>;
  /** Drops least recently used lists until at most `maxBytes` are held; returns how many. */
  evict(maxBytes: number, keep?: string): Promise<number>;
  stats(): Promise<{ lists: number; bytes: number }>;
  /** Counts upstream requests made in an hour (hours since the epoch), for the quota. */
  addUsage(hour: number, requests: number): Promise<void>;
  /** Upstream requests counted from the start of `hour` on. */
  usageSince(hour: number): Promise<number>;
  /** A value kept with the store (the cursor secret), set once by whoever comes first. */
  setting(name: string, create: () => string): Promise<string>;
  close(): Promise<void>;
}

/** Records `from` (inclusive) on, across chunks, as [chunk, index] pairs. */
export function* recordsFrom(chunks: readonly Chunk[], from: number) {
  for (const chunk of chunks) {
    for (let index = Math.max(0, from - chunk.first); index < chunk.ends.length; index++) {
      yield { chunk, index, seq: chunk.first + index };
    }
  }
}

/** Byte range of record `index` in its chunk's body. */
export function recordBytes(chunk: Chunk, index: number): [number, number] {
  return [index === 0 ? 0 : (chunk.ends[index - 1] as number) + 1, chunk.ends[index] as number];
}

/** The chunk holding some records, from their texts (joined by commas). */
export function chunkOf(first: number, records: readonly { text: string; ts: number }[]): Chunk {
  const texts = records.map((record) => Buffer.from(record.text));
  const ends: number[] = [];
  let offset = -1;
  for (const text of texts) {
    offset += 1 + text.byteLength;
    ends.push(offset);
  }
  const parts: Buffer[] = [];
  texts.forEach((text, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(text);
  });
  return { first, body: Buffer.concat(parts), ends, ts: records.map((record) => record.ts) };
}

const COMMA = Buffer.from(',');

/** The text of record `index` of a chunk. */
export function recordText(chunk: Chunk, index: number): string {
  const [start, end] = recordBytes(chunk, index);
  return Buffer.from(chunk.body.buffer, chunk.body.byteOffset + start, end - start).toString();
}
