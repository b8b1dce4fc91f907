import { randomUUID } from 'node:crypto';
import { readPageEnvelope } from '../../../src/lib/page';
import { readListPage } from '../../../src/server/log/list-page';
import type { UpstreamRead } from '../../../src/server/log/list-reader';

/**
 * A stand-in for one of the service's lists with the behaviour the log must survive
 * (../shared/upstream-notes.md): a random cursor for every page served, kept until
 * forgotten (then refused with the service's 502, for ever), pages cut by count and by
 * bytes, short and empty pages that still carry a cursor, a full page without a cursor
 * (its cursor cache failing) that is not the end, equal timestamps, new records arriving
 * at the head while walks go on, and records removed or changed deep in history.
 */
export interface FakeRecord {
  id: number;
  ts: number;
  /** Bumped when the service sends the record changed (a fixed price). */
  version: number;
}

export interface FakeOptions {
  /** Newest first by time (a contract's events), or by a hash of the id (a token's events). */
  order: 'newest-first' | 'by-id';
  /** Records per page at most (the service's limit). */
  limit: number;
  /** Page cap in bytes of record text (the service's 1MB, scaled down). */
  byteCap?: number | undefined;
  /** Every nth page is served empty (still with a cursor); 0: never. */
  emptyEvery?: number;
  /** Every nth page holds half the limit; 0: never. */
  shortEvery?: number;
}

export type Failure = 'refused' | 'down';

export function createFakeList(options: FakeOptions) {
  const records: FakeRecord[] = [];
  const cursors = new Map<string, FakeRecord | null>();
  let requests = 0;
  let served = 0;
  let nextId = 1;
  let down = false;
  /** Pages still served before the service goes down (Infinity: it stays up). */
  let pagesBeforeDown = Infinity;
  /** Leaves the cursor out of the next full page (the service's cursor cache failing). */
  let dropCursorOnce = false;

  // By id means by a hash of it, as the service orders a token's events: new ones land anywhere.
  const rank = (record: FakeRecord) => Math.imul(record.id, 2654435761) >>> 0;
  const compare = (a: FakeRecord, b: FakeRecord) =>
    options.order === 'newest-first' ? b.ts - a.ts || b.id - a.id : rank(a) - rank(b);
  const sorted = () => [...records].sort(compare);
  const text = (record: FakeRecord) =>
    JSON.stringify({
      event_id: `0x${record.id.toString(16)}`,
      event_type: 'transfer',
      timestamp: String(record.ts),
      transaction_hash: `0x${(record.id * 7919).toString(16)}`,
      token_id: String(record.id % 97),
      from_address: '0x1',
      to_address: '0x2',
      ...(record.version > 0 && { price: String(record.version) }),
    });
  const find = (id: number) => {
    const record = records.find((candidate) => candidate.id === id);
    if (!record) throw new Error(`no record ${id}`);
    return record;
  };

  return {
    /** Adds records with the given times (at the head when they are newest); their ids. */
    add(times: readonly number[]): number[] {
      return times.map((ts) => {
        records.push({ id: nextId, ts, version: 0 });
        return nextId++;
      });
    },
    /** The service no longer lists it (its block re-indexed). */
    remove(id: number) {
      records.splice(records.indexOf(find(id)), 1);
    },
    /** The service sends it changed from now on (same identity, another body). */
    change(id: number) {
      find(id).version += 1;
    },
    /** The records listed now, in the list's order. */
    all: () => sorted(),
    ids: () => sorted().map((record) => record.id),
    /** The record's text as the service sends it now. */
    text: (id: number) => text(find(id)),
    forget: () => cursors.clear(),
    setDown: (value: boolean) => {
      down = value;
      pagesBeforeDown = Infinity;
    },
    /** Serves `pages` more pages, then fails every read until `setDown(false)`. */
    failAfter: (pages: number) => {
      pagesBeforeDown = pages;
    },
    dropNextCursor: () => {
      dropCursorOnce = true;
    },
    /** Requests made of it, failed ones included. */
    requests: () => requests,
    /** Pages it served. */
    pagesServed: () => served,
    idOf: (recordText: string) =>
      Number.parseInt((JSON.parse(recordText) as { event_id: string }).event_id.slice(2), 16),

    async read(cursor: string | null): Promise<UpstreamRead<Failure>> {
      requests += 1;
      if (pagesBeforeDown <= 0) down = true;
      if (down) return { kind: 'failed', failure: 'down', cursorRefused: false };
      let after: FakeRecord | null = null;
      if (cursor !== null) {
        if (!cursors.has(cursor)) {
          return { kind: 'failed', failure: 'refused', cursorRefused: true };
        }
        after = cursors.get(cursor) ?? null;
      }
      served += 1;
      pagesBeforeDown -= 1;
      const list = sorted();
      // The cursor names a position: the first record after the last one it served, even
      // when that one has since been removed.
      const start = after === null ? 0 : list.findIndex((record) => compare(record, after!) > 0);
      const from = start === -1 ? list.length : start;
      let limit = options.limit;
      if (options.emptyEvery && served % options.emptyEvery === 0) limit = 0;
      else if (options.shortEvery && served % options.shortEvery === 0) {
        limit = Math.ceil(limit / 2);
      }
      const page: FakeRecord[] = [];
      let bytes = 0;
      for (const record of list.slice(from)) {
        const size = text(record).length;
        if (
          page.length >= limit ||
          (options.byteCap && page.length > 0 && bytes + size > options.byteCap)
        ) {
          break;
        }
        page.push(record);
        bytes += size;
      }
      const last = page.at(-1) ?? after;
      const more = from + page.length < list.length;
      const full =
        page.length === options.limit ||
        (options.byteCap !== undefined && bytes > options.byteCap * 0.9);
      // As the service's DynamoDB queries: a page that reached its limit carries a cursor
      // even when nothing follows (the next page is then empty, without one).
      let next: string | null = null;
      if (more && dropCursorOnce && full) {
        dropCursorOnce = false;
      } else if (more || full) {
        next = randomUUID();
        cursors.set(next, last ? { ...last } : null);
      }
      const envelope = {
        result: page.map((record) => JSON.parse(text(record)) as unknown),
        cursor: next,
      };
      return { kind: 'page', page: readListPage(readPageEnvelope(envelope)!, 'event'), full };
    },
  };
}

export type FakeList = ReturnType<typeof createFakeList>;
