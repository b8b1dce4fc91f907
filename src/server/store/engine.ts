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
  ends: ArrayLike<number>;
  /** Each record's time (unix seconds), for the head and the frontier. */
  ts: ArrayLike<number>;
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
  commit(
    list: string,
    meta: ListMeta,
    chunks: Chunk[],
    replace?: boolean,
    /** The added records' identities, kept for `storedKeys` (stable lists only). */
    keys?: readonly string[],
  ): Promise<void>;
  /**
   * Which of `keys` are identities of records committed to this generation of the list
   * (with `keys`): an index lookup, whatever the list's length.
   */
  storedKeys(list: string, generation: number, keys: readonly string[]): Promise<Set<string>>;
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

/**
 * Records cut into chunks of about `maxBytes` (at least one record each). A page served
 * from the store reads whole chunks from the one holding its first record: with one
 * chunk per 1 MB upstream page, a page starting half-way through one read and copied
 * 2 MB to send 1 MB; with 128 KB chunks it reads at most 128 KB more than it sends.
 */
export const CHUNK_BYTES = 128 * 1024;

export function chunksOf(
  first: number,
  records: readonly { json: Uint8Array; ts: number }[],
  maxBytes = CHUNK_BYTES,
): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  let bytes = 0;
  records.forEach(({ json }, index) => {
    bytes += json.byteLength + 1;
    if (bytes < maxBytes && index < records.length - 1) return;
    chunks.push(chunkOf(first + start, records.slice(start, index + 1)));
    start = index + 1;
    bytes = 0;
  });
  return chunks;
}

/**
 * The chunk holding some records, their JSON joined by commas. Records cut side by side
 * out of one page (the usual case: a page read on from the frontier) are already so
 * joined there, and are taken as one slice.
 */
export function chunkOf(
  first: number,
  records: readonly { json: Uint8Array; ts: number }[],
): Chunk {
  const ends = new Uint32Array(records.length);
  let offset = -1;
  let together = true;
  records.forEach(({ json }, index) => {
    offset += 1 + json.byteLength;
    ends[index] = offset;
    const before = records[index - 1]?.json;
    if (before) together &&= followsWithComma(before, json);
  });
  const ts = Float64Array.from(records, (record) => record.ts);
  const [head, tail] = [records[0]?.json, records.at(-1)?.json];
  if (together && head && tail) {
    const start = head.byteOffset;
    const body = Buffer.from(head.buffer, start, tail.byteOffset + tail.byteLength - start);
    return { first, body, ends, ts };
  }
  const parts: Uint8Array[] = [];
  records.forEach(({ json }, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(json);
  });
  return { first, body: Buffer.concat(parts), ends, ts };
}

/** Whether `next` starts right after `json` and a comma, in the same bytes. */
function followsWithComma(json: Uint8Array, next: Uint8Array): boolean {
  const comma = json.byteOffset + json.byteLength;
  return (
    json.buffer === next.buffer &&
    next.byteOffset === comma + 1 &&
    new Uint8Array(json.buffer, comma, 1)[0] === 0x2c
  );
}

const COMMA = Buffer.from(',');

/** The text of record `index` of a chunk. */
export function recordText(chunk: Chunk, index: number): string {
  const [start, end] = recordBytes(chunk, index);
  return Buffer.from(chunk.body.buffer, chunk.body.byteOffset + start, end - start).toString();
}
