import { randomUUID } from 'node:crypto';
import { readPageEnvelope } from '../../../src/lib/page';
import { readListPage } from '../../../src/server/store/list-page';
import type { UpstreamRead } from '../../../src/server/store/event-store';

/**
 * A stand-in for the service's list endpoints with the behaviour the store must survive:
 * a random cursor for every page served, kept until forgotten (then refused with the
 * service's 502), pages cut by count and by bytes, short and empty pages that still carry
 * a cursor, equal timestamps, and new records arriving at the head while walks go on.
 */
export interface FakeRecord {
  id: number;
  ts: number;
}

export interface FakeOptions {
  /** Newest first by time (a contract's events), or by id (a token's events, contracts). */
  order: 'newest-first' | 'by-id';
  /** Records per page at most (the service's limit). */
  limit: number;
  /** Page cap in bytes of record text (the service's 1MB, scaled down). */
  byteCap?: number;
  /** Every nth page is served empty (still with a cursor); 0: never. */
  emptyEvery?: number;
  /** Every nth page holds half the limit; 0: never. */
  shortEvery?: number;
}

export type Failure = 'refused' | 'down';

export function createFakeLists(options: FakeOptions) {
  const records: FakeRecord[] = [];
  const cursors = new Map<string, FakeRecord | null>();
  let served = 0;
  let nextId = 1;
  let down = false;
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
    });

  return {
    /** Adds records with the given times (at the head when they are newest). */
    add(times: readonly number[]) {
      for (const ts of times) records.push({ id: nextId++, ts });
    },
    all: () => sorted(),
    forget: () => cursors.clear(),
    setDown: (value: boolean) => {
      down = value;
    },
    dropNextCursor: () => {
      dropCursorOnce = true;
    },
    pagesServed: () => served,
    idOf: (recordText: string) =>
      Number.parseInt((JSON.parse(recordText) as { event_id: string }).event_id.slice(2), 16),

    async read(_path: string, cursor: string | null): Promise<UpstreamRead<Failure>> {
      if (down) return { kind: 'failed', failure: 'down', cursorRefused: false };
      let after: FakeRecord | null = null;
      if (cursor !== null) {
        if (!cursors.has(cursor))
          return { kind: 'failed', failure: 'refused', cursorRefused: true };
        after = cursors.get(cursor) ?? null;
      }
      served += 1;
      const list = sorted();
      const start = after === null ? 0 : list.findIndex((record) => compare(record, after!) > 0);
      const from = start === -1 ? list.length : start;
      let limit = options.limit;
      if (options.emptyEvery && served % options.emptyEvery === 0) limit = 0;
      else if (options.shortEvery && served % options.shortEvery === 0)
        limit = Math.ceil(limit / 2);
      const page: FakeRecord[] = [];
      let bytes = 0;
      for (const record of list.slice(from)) {
        const size = text(record).length;
        if (
          page.length >= limit ||
          (options.byteCap && page.length > 0 && bytes + size > options.byteCap)
        )
          break;
        page.push(record);
        bytes += size;
      }
      const last = page.at(-1) ?? after;
      const more = from + page.length < list.length;
      const full =
        page.length === options.limit ||
        (options.byteCap !== undefined && bytes > options.byteCap * 0.9);
      let next: string | null = null;
      if (more && !(dropCursorOnce && full)) {
        next = randomUUID();
        cursors.set(next, last);
      } else if (more) {
        dropCursorOnce = false;
      }
      const envelope = {
        result: page.map((record) => JSON.parse(text(record)) as unknown),
        cursor: next,
      };
      return { kind: 'page', page: readListPage(readPageEnvelope(envelope)!, 'event'), full };
    },
  };
}

export type FakeLists = ReturnType<typeof createFakeLists>;
