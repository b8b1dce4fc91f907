import { randomBytes, randomInt } from 'node:crypto';
import {
  CHUNK_BYTES,
  chunksOf,
  recordsFrom,
  recordText,
  type Chunk,
  type ListMeta,
  type StoreEngine,
} from './engine';
import { readRecordKey, type ListPage, type RecordIdentity, type StoredRecord } from './list-page';
import { createStoreCursors, type StoreCursors } from './store-cursor';

/**
 * The event store: each list the upstream serves (a contract's events, a token's events,
 * the contracts list) kept by content, in the service's order, and walked with the
 * store's own cursors. The upstream is asked only for what the store lacks:
 * - the head, at most once per `headIntervalMs` per list, read until it overlaps what
 *   is stored (new events of a contract arrive there);
 * - depth beyond the stored frontier, from the upstream cursor kept there, once, by one
 *   caller while the others wait for its result (engine.exclusive);
 * - when that cursor has died (the service forgets its cursors), the list again from
 *   its head, skipping what is stored, to the frontier and on.
 * Depth older than `maxAgeMs` is dropped when a walk next starts, and read again as it
 * is walked.
 */
export interface ListSpec {
  /** The upstream path without query (`/v1/events/0x…`): the list's name in the store. */
  path: string;
  /**
   * `newest-first`: a contract's events, new ones arriving at the head. `stable`: the
   * contracts list and a token's events, whose order says nothing about age; a change
   * seen in their first page starts their stored copy again.
   */
  order: 'newest-first' | 'stable';
  identity: RecordIdentity;
}

/** One upstream page read, or why not. `F` is the proxy's own failure vocabulary. */
export type UpstreamRead<F> =
  | {
      kind: 'page';
      page: ListPage;
      /**
       * As long as asked for or cut at the byte cap: a missing cursor on such a page is
       * not proof of the end (the service leaves it out when its cursor cache fails).
       */
      full: boolean;
    }
  | {
      kind: 'failed';
      failure: F;
      /** The service answered the cursor with its "internal error": it may be dead. */
      cursorRefused: boolean;
    };

/** One upstream page of a list, at its largest size, after `cursor` (from its head: null). */
export type ReadList<F> = (
  spec: ListSpec,
  cursor: string | null,
  client: string | undefined,
) => Promise<UpstreamRead<F>>;

export type ServeOutcome<F> =
  | {
      kind: 'page';
      body: Buffer;
      /** The store cursor of the next page, when there is one. */
      next: string | null;
      /**
       * Nothing was cut short (a failure or a run of empty upstream pages): what follows
       * a cursor is then the same whoever asks, for as long as the cursor lives.
       */
      settled: boolean;
      /** Upstream pages read for this request. */
      upstreamReads: number;
    }
  | { kind: 'failed'; failure: F; upstreamReads: number }
  /** Not a cursor of this store for this list. */
  | { kind: 'foreign_cursor' }
  /** A cursor of a stored copy that has since been dropped (evicted, expired, changed). */
  | { kind: 'expired_cursor' };

export interface EventStoreSettings {
  headIntervalMs: number;
  maxAgeMs: number;
  maxBytes: number;
  /** The upstream's cap on one page, which the store's pages keep too. */
  pageByteCap: number;
  /** Upstream pages without a record read for one request before it is answered anyway. */
  maxEmptyReads: number;
  /** Head pages read without finding what is stored before the copy starts again. */
  maxHeadPages: number;
  /** Pages of a stable list read again when its head is due (see `recheck`). */
  stablePages: number;
  /** Bytes of records kept together in one chunk (see `chunksOf`). */
  chunkBytes: number;
}

export const DEFAULT_STORE_SETTINGS: EventStoreSettings = {
  headIntervalMs: 5_000,
  maxAgeMs: 24 * 3_600_000,
  maxBytes: 1024 * 1024 * 1024,
  pageByteCap: 1_048_576,
  maxEmptyReads: 25,
  maxHeadPages: 20,
  stablePages: 3,
  chunkBytes: CHUNK_BYTES,
};

export interface StoreEvents {
  /** A dead frontier cursor was replaced by walking from the head: what it cost. */
  recovered?: (path: string, upstreamPages: number) => void;
  evicted?: (lists: number) => void;
}

/**
 * A generation number unlike the list's last one. Random rather than counted, so that a
 * list dropped (evicted) and stored again never reuses the number of a copy whose
 * cursors are still out there.
 */
function newGeneration(old: number | undefined): number {
  for (;;) {
    const generation = randomInt(1, 2 ** 32);
    if (generation !== old) return generation;
  }
}

/** For a page of records, whether each is stored already. */
type Known = (records: StoredRecord[]) => Promise<(record: StoredRecord) => boolean>;

/** The records not known, each once. */
function withoutRepeats(records: StoredRecord[], known: (record: StoredRecord) => boolean) {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (known(record) || seen.has(record.key)) return false;
    seen.add(record.key);
    return true;
  });
}

const PREFIX = Buffer.from('{"result":[');
// Pages a walk to the end reads ahead of the one it stores (1 MB each at most).
const READ_AHEAD_PAGES = 3;
const COMMA = Buffer.from(',');
// The longest end of a page: `],"cursor":"` + a store cursor + `"}`.
const SUFFIX_BYTES = 64;
// Lists are marked used at most this often, so serving a page is not a write.
const TOUCH_EVERY_MS = 60_000;

export interface EventStoreOptions<F> {
  engine: StoreEngine;
  /** Signs the store's cursors; every server sharing the engine must use the same one. */
  secret: string;
  read: ReadList<F>;
  settings?: Partial<EventStoreSettings>;
  now?: () => number;
  events?: StoreEvents;
}

/** The secret kept in the engine: made by the first server, read by all the others. */
export const storeSecret = (engine: StoreEngine) =>
  engine.setting('cursor-secret', () => randomBytes(32).toString('hex'));

export function createEventStore<F>(options: EventStoreOptions<F>) {
  const { engine, secret, read, now = Date.now, events = {} } = options;
  const settings = { ...DEFAULT_STORE_SETTINGS, ...options.settings };
  const cursors: StoreCursors = createStoreCursors(secret);
  const touched = new Map<string, number>();

  type Step =
    { kind: 'meta'; meta: ListMeta; reads: number } | { kind: 'failed'; failure: F; reads: number };

  const headIsStale = (meta: ListMeta, time: number) =>
    time - meta.headCheckedAt >= settings.headIntervalMs ||
    time - meta.fetchedAt >= settings.maxAgeMs;

  const commit = async (
    spec: ListSpec,
    meta: ListMeta,
    chunks: Chunk[],
    replace = false,
    records: readonly StoredRecord[] = [],
  ) => {
    // A stable list's records are told apart by identity: those are kept in an index.
    const keys = spec.order === 'stable' ? records.map((record) => record.key) : [];
    await engine.commit(spec.path, meta, chunks, replace, keys);
    if (chunks.length > 0) {
      const dropped = await engine.evict(settings.maxBytes, spec.path);
      if (dropped > 0) events.evicted?.(dropped);
    }
  };

  const bytesOf = (chunks: readonly Chunk[]) =>
    chunks.reduce((sum, chunk) => sum + chunk.body.byteLength, 0);

  /** A new stored copy starting with `records`; earlier copies of the list are dropped. */
  const startCopy = async (
    spec: ListSpec,
    old: ListMeta | undefined,
    records: StoredRecord[],
    cursor: string | null,
    endCertain: boolean,
  ): Promise<ListMeta> => {
    const time = now();
    const chunks = chunksOf(0, records, settings.chunkBytes);
    const meta: ListMeta = {
      generation: newGeneration(old?.generation),
      first: 0,
      next: records.length,
      complete: cursor === null && endCertain,
      frontier: cursor,
      headCheckedAt: time,
      fetchedAt: time,
      bytes: bytesOf(chunks),
    };
    await commit(spec, meta, chunks, true, records);
    return meta;
  };

  /** Keys of the stored records at one end that share that end's time. */
  /**
   * The stored records at one end that share that end's time: the time, their keys, and
   * the key of the record at the very end (`edge`).
   */
  const edgeGroup = async (spec: ListSpec, meta: ListMeta, end: 'head' | 'tail') => {
    const keys = new Set<string>();
    let time: number | undefined;
    let edge: string | undefined;
    let seq = end === 'head' ? meta.first : meta.next;
    for (;;) {
      const chunks =
        end === 'head'
          ? await engine.chunksFrom(spec.path, meta.generation, seq, 1)
          : await engine.chunksBefore(spec.path, meta.generation, seq, 1);
      const chunk = chunks[0];
      if (!chunk) return { time, keys, edge };
      const order = Array.from(chunk.ts, (_ts, index) => index);
      if (end === 'tail') order.reverse();
      for (const index of order) {
        const ts = chunk.ts[index] as number;
        if (end === 'head' && chunk.first + index < seq) continue;
        time ??= ts;
        if (ts !== time) return { time, keys, edge };
        const key = readRecordKey(recordText(chunk, index), spec.identity);
        edge ??= key;
        keys.add(key);
      }
      seq = end === 'head' ? chunk.first + chunk.ts.length : chunk.first;
    }
  };

  /**
   * A walk of a list from its head, a page at a time, counting its reads: `next()` reads
   * the page at `cursor` and moves `cursor` on to that page's own; a failure comes back as
   * the step that ends the walk, with the reads so far.
   */
  const walkFromHead = (spec: ListSpec, client?: string) => {
    const walk = {
      cursor: null as string | null,
      reads: 0,
      next: async () => {
        const outcome = await read(spec, walk.cursor, client);
        walk.reads += 1;
        if (outcome.kind === 'failed') return { ...outcome, reads: walk.reads };
        walk.cursor = outcome.page.cursor;
        return outcome;
      },
    };
    return walk;
  };

  /** Reads the head again; inserts what is new above the stored records. */
  async function refreshHead(spec: ListSpec, client?: string): Promise<Step> {
    return engine.exclusive(spec.path, async () => {
      const meta = await engine.read(spec.path);
      const time = now();
      if (meta && !headIsStale(meta, time)) return { kind: 'meta', meta, reads: 0 };
      if (!meta || time - meta.fetchedAt >= settings.maxAgeMs || meta.next === meta.first) {
        const first = await read(spec, null, client);
        if (first.kind === 'failed') return { ...first, reads: 1 };
        const { records, cursor } = first.page;
        return {
          kind: 'meta',
          meta: await startCopy(spec, meta, records, cursor, !first.full),
          reads: 1,
        };
      }
      return spec.order === 'stable'
        ? recheck(spec, meta, client)
        : insertAtHead(spec, meta, client);
    });
  }

  /**
   * A stable list (a token's events, the contracts list) is read again from its start, up
   * to `stablePages` pages: whole for most (a token's history is usually one page). What
   * it has beyond the stored records is appended (the contracts list grows at its end);
   * any other difference starts the stored copy again. A longer list is compared on its
   * first pages only; a change further on shows once its copy is older than `maxAgeMs`.
   */
  async function recheck(spec: ListSpec, meta: ListMeta, client?: string): Promise<Step> {
    const records: StoredRecord[] = [];
    const walk = walkFromHead(spec, client);
    let full: boolean;
    do {
      const outcome = await walk.next();
      if (outcome.kind === 'failed') return outcome;
      records.push(...outcome.page.records);
      full = outcome.full;
    } while (walk.cursor !== null && walk.reads < settings.stablePages);
    const { cursor, reads } = walk;
    const whole = cursor === null;
    // Only as many stored records as were read are compared, however long the list.
    const storedCount = meta.next - meta.first;
    const shared = Math.min(records.length, storedCount);
    const stored = await firstKeys(spec, meta, shared);
    const prefix =
      stored.length === shared &&
      records.slice(0, shared).every((record, index) => record.key === stored[index]);
    const checked = { ...meta, headCheckedAt: now() };
    if (prefix && records.length <= storedCount && !(whole && records.length < storedCount)) {
      await commit(spec, checked, []);
      return { kind: 'meta', meta: checked, reads };
    }
    if (prefix) {
      // Reads past the stored records: they are kept, and the read's end is the frontier.
      const more = records.slice(storedCount);
      return {
        kind: 'meta',
        meta: await append(spec, checked, more, cursor, !(whole && full)),
        reads,
      };
    }
    return {
      kind: 'meta',
      meta: await startCopy(spec, meta, records, cursor, !(whole && full)),
      reads,
    };
  }

  /** The keys of the first `count` stored records, in order: chunks read as far as needed. */
  async function firstKeys(spec: ListSpec, meta: ListMeta, count: number): Promise<string[]> {
    const keys: string[] = [];
    let seq = meta.first;
    while (keys.length < count && seq < meta.next) {
      const chunks = await engine.chunksFrom(spec.path, meta.generation, seq, 1);
      const last = chunks.at(-1);
      if (!last) break;
      for (const { chunk, index, seq: at } of recordsFrom(chunks, seq)) {
        if (keys.length >= count || at >= meta.next) break;
        keys.push(readRecordKey(recordText(chunk, index), spec.identity));
      }
      seq = last.first + last.ends.length;
    }
    return keys;
  }

  /** A contract's events: new records are those newer than the stored head. */
  async function insertAtHead(spec: ListSpec, meta: ListMeta, client?: string): Promise<Step> {
    const head = await edgeGroup(spec, meta, 'head');
    const tail = await edgeGroup(spec, meta, 'tail');
    const newest = head.time ?? -Infinity;
    // Records of the head's time that are not stored are new, unless everything stored
    // shares that time and more follows: then only those the service lists before the
    // last stored record are new, and those after it are depth, which the walk on from
    // the frontier brings. (The service sets no order among equal times, but keeps the
    // order it has.)
    const undecided = !meta.complete && tail.time === newest;
    let pastTail = false;
    const found: StoredRecord[] = [];
    const everything: StoredRecord[] = [];
    const seen = new Set<string>();
    const walk = walkFromHead(spec, client);
    for (;;) {
      const outcome = await walk.next();
      if (outcome.kind === 'failed') return outcome;
      everything.push(...outcome.page.records);
      let overlapped = false;
      for (const record of outcome.page.records) {
        if (record.ts < newest || (undecided && record.key === tail.edge)) {
          overlapped = true;
          pastTail = record.key === tail.edge;
          break;
        }
        if (!head.keys.has(record.key) && !seen.has(record.key)) {
          seen.add(record.key);
          found.push(record);
        }
      }
      const { cursor, reads } = walk;
      if (!overlapped && cursor !== null && reads < settings.maxHeadPages) continue;
      const lost = undecided && !pastTail;
      if (lost || (!overlapped && cursor !== null)) {
        // So much is new that the stored copy no longer joins the head, or the service no
        // longer lists its last record: start again from what was just read, so none of
        // it is read twice.
        const whole = cursor === null;
        const started = await startCopy(spec, meta, everything, cursor, whole || !lost);
        return { kind: 'meta', meta: started, reads };
      }
      break;
    }
    const time = now();
    const chunks = chunksOf(meta.first - found.length, found, settings.chunkBytes);
    const next: ListMeta = {
      ...meta,
      first: meta.first - found.length,
      headCheckedAt: time,
      bytes: meta.bytes + bytesOf(chunks),
    };
    await commit(spec, next, chunks);
    return { kind: 'meta', meta: next, reads: walk.reads };
  }

  /** Reads on from the frontier until the list holds record `wanted` or is complete. */
  /**
   * Pages read ahead for walks that go on to the end (the indexer's): up to
   * READ_AHEAD_PAGES pages past the one being stored are asked for, each as soon as the
   * one before names its cursor, so storing and indexing pages does not hold up the
   * upstream's requests. Kept per list, by the cursor each page follows.
   */
  const readAhead = new Map<string, Map<string, Promise<UpstreamRead<F>>>>();

  function readOnAhead(spec: ListSpec, cursor: string, client?: string) {
    let pages = readAhead.get(spec.path);
    if (!pages) readAhead.set(spec.path, (pages = new Map()));
    let page = pages.get(cursor);
    if (!page) {
      if (pages.size >= READ_AHEAD_PAGES) return;
      page = read(spec, cursor, client);
      pages.set(cursor, page);
    }
    // Each page read on from the one before, along the chain to its end.
    page.then(
      (outcome) => {
        const next = outcome.kind === 'page' ? outcome.page.cursor : null;
        if (next !== null && readAhead.get(spec.path) === pages) readOnAhead(spec, next, client);
      },
      () => undefined,
    );
  }

  const readFrontier = (spec: ListSpec, cursor: string, client?: string) => {
    const page = readAhead.get(spec.path)?.get(cursor);
    if (page) {
      readAhead.get(spec.path)!.delete(cursor);
      return page;
    }
    // Read ahead along another path (another server moved the list on): dropped.
    readAhead.delete(spec.path);
    return read(spec, cursor, client);
  };

  async function extend(
    spec: ListSpec,
    generation: number,
    wanted: number,
    client?: string,
    ahead = false,
  ) {
    return engine.exclusive(spec.path, async (): Promise<Step> => {
      const meta = await engine.read(spec.path);
      if (!meta || meta.generation !== generation || meta.next > wanted || meta.complete) {
        return meta
          ? { kind: 'meta', meta, reads: 0 }
          : { kind: 'meta', meta: gone(generation), reads: 0 };
      }
      let reads = 0;
      let outcome: UpstreamRead<F> | undefined;
      if (meta.frontier !== null) {
        // The service forgets cursors: a refused one is asked once more, then given up.
        for (let attempt = 0; attempt < 2; attempt++) {
          outcome = await (attempt === 0
            ? readFrontier(spec, meta.frontier, client)
            : read(spec, meta.frontier, client));
          reads += 1;
          if (outcome.kind !== 'failed' || !outcome.cursorRefused) break;
        }
      }
      if (outcome?.kind === 'failed' && !outcome.cursorRefused) return { ...outcome, reads };
      if (outcome?.kind === 'page') {
        // A full page without cursor is kept, but does not end the list: reading on from
        // it then walks from the head to see whether anything follows.
        const { records, cursor } = outcome.page;
        const endCertain = !(cursor === null && outcome.full);
        // Not awaited: a failure is met by whoever reads that cursor next.
        if (ahead && cursor !== null) readOnAhead(spec, cursor, client);
        const fresh = await unstored(spec, meta, records);
        return { kind: 'meta', meta: await append(spec, meta, fresh, cursor, endCertain), reads };
      }
      // No usable frontier: a dead cursor, or a last page whose end was not certain.
      const recovered = await resumeFromHead(spec, meta, client);
      return { ...recovered, reads: reads + recovered.reads };
    });
  }

  const gone = (generation: number): ListMeta => ({
    generation: generation + 1,
    first: 0,
    next: 0,
    complete: true,
    frontier: null,
    headCheckedAt: 0,
    fetchedAt: 0,
    bytes: 0,
  });

  /**
   * Whether a record read after the stored ones is one of them after all. A contract's
   * events go by time: the service sets no order among records of equal time, and a walk
   * resumed from the head reads past the stored ones; so anything newer than the last
   * stored record, and the stored ones of its time, are known. Other lists go by identity.
   */
  async function storedPredicate(spec: ListSpec, meta: ListMeta): Promise<Known> {
    if (spec.order === 'newest-first') {
      const tail = await edgeGroup(spec, meta, 'tail');
      const last = tail.time ?? Infinity;
      const known = (record: StoredRecord) =>
        record.ts > last || (record.ts === last && tail.keys.has(record.key));
      return () => Promise.resolve(known);
    }
    // By the index of the stored identities: the cost of a page, not of the list's length.
    return async (records) => {
      const keys = await engine.storedKeys(
        spec.path,
        meta.generation,
        records.map((record) => record.key),
      );
      return (record) => keys.has(record.key);
    };
  }

  /** The records of a page read on from the frontier that the list does not hold yet. */
  const unstored = async (spec: ListSpec, meta: ListMeta, records: StoredRecord[]) =>
    records.length === 0
      ? records
      : withoutRepeats(records, await (await storedPredicate(spec, meta))(records));

  async function append(
    spec: ListSpec,
    meta: ListMeta,
    records: StoredRecord[],
    cursor: string | null,
    endCertain: boolean,
  ): Promise<ListMeta> {
    const chunks = chunksOf(meta.next, records, settings.chunkBytes);
    const next: ListMeta = {
      ...meta,
      next: meta.next + records.length,
      frontier: cursor,
      complete: cursor === null && endCertain,
      bytes: meta.bytes + bytesOf(chunks),
    };
    await commit(spec, next, chunks, false, records);
    return next;
  }

  /**
   * Walks the list from its head past what is stored, and stores what follows with the
   * new cursor as the frontier. A contract's events skip by time (everything newer than
   * the last stored record, and the stored ones of its time); other lists by identity.
   */
  async function resumeFromHead(spec: ListSpec, meta: ListMeta, client?: string): Promise<Step> {
    const known = await resumePredicate(spec, meta);
    const walk = walkFromHead(spec, client);
    for (;;) {
      const outcome = await walk.next();
      if (outcome.kind === 'failed') return outcome;
      const records = withoutRepeats(outcome.page.records, await known(outcome.page.records));
      const { cursor, reads } = walk;
      if (records.length > 0 || cursor === null) {
        events.recovered?.(spec.path, reads);
        // A full page without cursor met again at the same place is the end after all.
        return { kind: 'meta', meta: await append(spec, meta, records, cursor, true), reads };
      }
    }
  }

  /**
   * What to skip walking a list from its head to beyond the stored records. A contract's
   * events: everything up to the last stored record (or, should the service no longer
   * list it, to the first record older than it). Other lists: what is stored.
   */
  async function resumePredicate(spec: ListSpec, meta: ListMeta): Promise<Known> {
    if (spec.order === 'stable') return storedPredicate(spec, meta);
    const tail = await edgeGroup(spec, meta, 'tail');
    const last = tail.time ?? Infinity;
    let depth = tail.edge === undefined;
    const known = (record: StoredRecord) => {
      if (depth) return tail.keys.has(record.key);
      if (record.key === tail.edge) {
        depth = true;
        return true;
      }
      if (record.ts < last) depth = true;
      return !depth;
    };
    return () => Promise.resolve(known);
  }

  /** The records after `after` (up to `limit` and the byte cap), reading on as needed. */
  async function collect(
    spec: ListSpec,
    start: ListMeta,
    after: number,
    limit: number,
    client: string | undefined,
    reads: number,
  ): Promise<ServeOutcome<F>> {
    const { generation } = start;
    const parts: Uint8Array[] = [PREFIX];
    let bytes = PREFIX.byteLength + SUFFIX_BYTES;
    let count = 0;
    let last = after;
    let meta = start;
    let more = false;
    let settled = true;
    let emptyReads = 0;
    fill: for (;;) {
      const room = settings.pageByteCap - bytes;
      const chunks = await engine.chunksFrom(spec.path, generation, last + 1, room);
      const before = last;
      // A chunk's records lie side by side in its body, commas between: the page takes
      // each chunk's run of them as one slice, however many records it holds.
      for (const chunk of chunks) {
        const { ends } = chunk;
        const first = Math.max(0, last + 1 - chunk.first);
        const begin = first === 0 ? 0 : (ends[first - 1] as number) + 1;
        let index = first;
        for (; index < ends.length && chunk.first + index < meta.next; index++) {
          // The record's bytes, and its comma when it follows another on the page.
          const size = (ends[index] as number) - (index === 0 ? -1 : (ends[index - 1] as number));
          const added = count > 0 ? size : size - 1;
          if (count >= limit || (count > 0 && bytes + added > settings.pageByteCap)) {
            more = true;
            break;
          }
          bytes += added;
          count += 1;
        }
        if (index > first) {
          last = chunk.first + index - 1;
          if (parts.length > 1) parts.push(COMMA);
          parts.push(chunk.body.subarray(begin, ends[index - 1]));
        }
        if (more) break fill;
        if (index < chunk.ends.length) break;
      }
      if (last + 1 < meta.next) {
        if (last !== before) continue;
        throw new Error(`The store lacks records ${last + 1}… of ${spec.path}.`);
      }
      if (meta.complete) break;
      if (count >= limit) {
        more = true;
        break;
      }
      const step = await extend(spec, generation, last + 1, client);
      reads += step.reads;
      if (step.kind === 'failed') {
        if (count === 0) return { kind: 'failed', failure: step.failure, upstreamReads: reads };
        // What was found is served; the next request reads on from the same place.
        more = true;
        settled = false;
        break;
      }
      if (step.meta.generation !== generation) {
        if (count === 0) return { kind: 'expired_cursor' };
        more = true;
        settled = false;
        break;
      }
      if (step.meta.next <= last + 1 && !step.meta.complete) {
        emptyReads += step.reads;
        if (emptyReads >= settings.maxEmptyReads) {
          more = true;
          settled = false;
          break;
        }
      }
      meta = step.meta;
    }
    const next = more ? cursors.encode(spec.path, { generation, after: last }) : null;
    parts.push(Buffer.from(`],"cursor":${JSON.stringify(next)}}`));
    return {
      kind: 'page',
      body: Buffer.concat(parts),
      next,
      settled,
      upstreamReads: reads,
    };
  }

  const touch = async (path: string, time: number) => {
    if (time - (touched.get(path) ?? 0) < TOUCH_EVERY_MS) return;
    touched.set(path, time);
    await engine.touch(path, time);
  };

  return {
    engine,
    /**
     * One page of a list: from its head when `cursor` is null (after reading the head
     * again when it is due), else after the position the store cursor names.
     */
    async serve(
      spec: ListSpec,
      cursor: string | null,
      limit: number,
      client?: string,
    ): Promise<ServeOutcome<F>> {
      const time = now();
      let meta = await engine.read(spec.path);
      let after: number;
      let reads = 0;
      if (cursor === null) {
        if (!meta || headIsStale(meta, time)) {
          const step = await refreshHead(spec, client);
          reads = step.reads;
          if (step.kind === 'failed') {
            // A stored copy still answers while the upstream cannot: stale beats nothing.
            if (!meta || time - meta.fetchedAt >= settings.maxAgeMs) {
              return { kind: 'failed', failure: step.failure, upstreamReads: reads };
            }
          } else {
            meta = step.meta;
          }
        }
        after = meta!.first - 1;
      } else {
        const position = cursors.decode(spec.path, cursor);
        if (!position) return { kind: 'foreign_cursor' };
        if (!meta || meta.generation !== position.generation) return { kind: 'expired_cursor' };
        after = position.after;
      }
      await touch(spec.path, time);
      return collect(spec, meta!, after, limit, client, reads);
    },
    /**
     * For the indexer: the list's head read again when it is due (or the list started),
     * without serving a page. `failed` when the upstream could not be asked.
     */
    async refresh(spec: ListSpec, client?: string): Promise<Step> {
      const meta = await engine.read(spec.path);
      if (meta && !headIsStale(meta, now())) return { kind: 'meta', meta, reads: 0 };
      return refreshHead(spec, client);
    },
    /**
     * For the indexer: one upstream page more past the stored frontier, when not complete;
     * `readAhead` asks for the page after it meanwhile (a walk that goes on to the end).
     */
    async deeper(spec: ListSpec, client?: string, readAhead = false): Promise<Step> {
      const meta = await engine.read(spec.path);
      if (!meta) return refreshHead(spec, client);
      if (meta.complete) return { kind: 'meta', meta, reads: 0 };
      return extend(spec, meta.generation, meta.next, client, readAhead);
    },
    stats: () => engine.stats(),
    close: () => engine.close(),
  };
}

export type EventStore<F> = ReturnType<typeof createEventStore<F>>;
