import { createLogCursors } from './log-cursor';
import type { ListPage, RecordIdentity, StoredRecord } from './list-page';
import type { ListState, LogPosition, RecordLog } from './record-log';

/**
 * How lists are read from the service into the record log, and served from it. Each list
 * is read once: its head when due (new records arrive there), its depth from the cursor
 * kept at its frontier, once for every server; nothing stored is ever dropped, so nothing
 * is read again because of its age, its size or other lists.
 * - A contract's events go newest first. A head read goes on from the head until it
 *   passes a record older than the newest stored before it; if it stops short (a failure,
 *   a restart), the gap is remembered and closed first by the next head read.
 * - Depth goes on from the frontier cursor. The service forgets cursors: a refused one is
 *   asked once more, then the list is walked from its head until past the oldest stored
 *   record, and reading goes on from there (a recovery).
 * - A stable list (the contracts list, a token's events: their order says nothing about
 *   age) is read whole when its head is due; new records take the next places.
 * - A verification pass re-reads a contract's whole list, page by page within its budget,
 *   and reconciles: records added or changed, records no longer listed (marked, kept).
 * A list whose pages bring no new record `maxIdlePages` times in a row (a cursor that
 * loops, pages empty for ever) is stopped as faulty: reading it again would only spend
 * the budget. The /api/v1 walk ends there too, saying why.
 */
export interface ListSpec {
  /** The upstream path without query (`/v1/events/0x…`): the list's name in the log. */
  path: string;
  order: 'newest-first' | 'stable';
  identity: RecordIdentity;
}

/** One upstream page read, or why not. `F` is the server's failure vocabulary. */
export type UpstreamRead<F> =
  | {
      kind: 'page';
      page: ListPage;
      /** As long as asked for or cut at the byte cap: a missing cursor is then no proof of the end. */
      full: boolean;
    }
  | { kind: 'failed'; failure: F; cursorRefused: boolean };

export type ReadList<F> = (
  spec: ListSpec,
  cursor: string | null,
  client: string | undefined,
) => Promise<UpstreamRead<F>>;

export type Step<F> =
  | { kind: 'state'; state: ListState; reads: number; added: number }
  | { kind: 'failed'; failure: F; reads: number };

export type ServeOutcome<F> =
  | {
      kind: 'page';
      body: Buffer;
      next: string | null;
      /** Why the list ends here though the service may hold more (a faulty list). */
      fault: string | null;
      upstreamReads: number;
    }
  | { kind: 'failed'; failure: F; upstreamReads: number }
  /** Not a cursor of this server for this list. */
  | { kind: 'foreign_cursor' };

export interface ListReaderSettings {
  headIntervalMs: number;
  pageByteCap: number;
  /** Upstream pages without a new record read for one /api/v1 request before it is answered. */
  maxEmptyReads: number;
  /** Pages in a row without a new record before a list is stopped as faulty. */
  maxIdlePages: number;
}

export const DEFAULT_READER_SETTINGS: ListReaderSettings = {
  headIntervalMs: 5_000,
  pageByteCap: 1_048_576,
  maxEmptyReads: 25,
  maxIdlePages: 50,
};

export interface ListReaderOptions<F> {
  log: RecordLog;
  /** Signs the log's cursors; every server sharing the database uses the same one. */
  secret: string;
  read: ReadList<F>;
  settings?: Partial<ListReaderSettings>;
  now?: () => number;
  /** A dead frontier cursor was replaced by walking from the head: what it cost. */
  recovered?: (path: string, upstreamPages: number) => void;
  /** A list was stopped as faulty (said once, in the log). */
  faulted?: (path: string, fault: string) => void;
}

// Pages a walk to the end reads ahead of the one it stores (1 MB each at most).
const READ_AHEAD_PAGES = 3;
const PREFIX = Buffer.from('{"result":[');
// Before a list's first record, in either order.
const START: LogPosition = { ts: Number.MAX_SAFE_INTEGER, seq: 0 };
const COMMA = Buffer.from(',');

export function createListReader<F>(options: ListReaderOptions<F>) {
  const { log, read, now = Date.now } = options;
  const settings = { ...DEFAULT_READER_SETTINGS, ...options.settings };
  const cursors = createLogCursors(options.secret);
  // Pages in a row without a new record, per list (this server's reads of its depth).
  const idle = new Map<string, number>();

  // A tenth of the interval early counts as due: a reader asking every interval (live
  // pages' hub) meets a head checked a few milliseconds less than an interval ago as
  // often as not, and would read every other interval.
  const due = (list: ListState) =>
    list.gapTs !== null ||
    now() - list.headCheckedAt >= settings.headIntervalMs - settings.headIntervalMs / 10;

  /** Nothing of the list was ever read. */
  const fresh = (list: ListState) =>
    list.records === 0 && !list.complete && list.frontier === null && list.headCheckedAt === 0;

  /**
   * Counts a page that brought nothing new; stops the list once it is faulty. A head read
   * or a whole read counts its own pages (`counts`), and what is new to it (`newToRead`):
   * that a list read again brings nothing new to the log is no fault, only a read that
   * goes on without end.
   */
  async function noteIdle(
    list: ListState,
    added: number,
    reads: number,
    counts = idle,
  ): Promise<ListState> {
    if (added > 0) {
      counts.delete(list.path);
      return list;
    }
    const count = (counts.get(list.path) ?? 0) + reads;
    counts.set(list.path, count);
    if (count < settings.maxIdlePages) return list;
    counts.delete(list.path);
    const fault =
      `The Token Events Service sent ${count} pages in a row without a new record; reading ` +
      'this list was stopped so as not to spend the request budget on it.';
    options.faulted?.(list.path, fault);
    return log.update(list, { fault });
  }

  /** How many of a page's records a read had not met before (a read that loops meets none). */
  const newToRead = (met: Set<string>, records: readonly StoredRecord[]) =>
    records.filter((record) => !met.has(record.key) && met.add(record.key)).length;

  /** A list's first page: its head and the start of its depth. */
  async function readFirst(spec: ListSpec, list: ListState, client?: string): Promise<Step<F>> {
    const outcome = await read(spec, null, client);
    if (outcome.kind === 'failed') return { ...outcome, reads: 1 };
    const { records, cursor } = outcome.page;
    const end = cursor === null && !outcome.full;
    const { state, added } = await log.commit(list, records, {
      frontier: cursor,
      complete: end,
      headCheckedAt: now(),
    });
    return { kind: 'state', state, reads: 1, added };
  }

  /**
   * A contract's head: from the open gap's cursor, or from the head, until past a record
   * older than the newest stored before (`gapTs`). Each page is committed with the gap's
   * state, so a read cut short is taken up where it stopped.
   */
  async function readHead(spec: ListSpec, start: ListState, client?: string): Promise<Step<F>> {
    let list = start;
    const passTs = list.gapTs ?? (await log.edge(list, 'newest')) ?? -1;
    let cursor = list.gapCursor;
    let reads = 0;
    let added = 0;
    let restarted = false;
    const idlePages = new Map<string, number>();
    const met = new Set<string>();
    // The head as of when it was asked: the next is due an interval after this read
    // started, not after it ended.
    const asked = now();
    for (;;) {
      const outcome = await read(spec, cursor, client);
      reads += 1;
      if (outcome.kind === 'failed') {
        if (outcome.cursorRefused && !restarted) {
          // The gap's cursor was forgotten: from the head again, past what is stored.
          restarted = true;
          cursor = null;
          continue;
        }
        return { ...outcome, reads };
      }
      const { records, cursor: next } = outcome.page;
      const passed =
        records.some((record) => record.ts < passTs) || (next === null && !outcome.full);
      const committed = await log.commit(
        list,
        records,
        passed
          ? { gapCursor: null, gapTs: null, headCheckedAt: asked }
          : { gapCursor: next, gapTs: passTs, headCheckedAt: asked },
      );
      added += committed.added;
      list = await noteIdle(committed.state, newToRead(met, records), 1, idlePages);
      if (passed || list.fault) return { kind: 'state', state: list, reads, added };
      if (next === null) {
        // A full page without a cursor is no proof of the end: from the head once more.
        if (restarted) return { kind: 'state', state: list, reads, added };
        restarted = true;
      }
      cursor = next;
    }
  }

  /** A stable list read from its start to its end; new records take the next places. */
  async function readWhole(spec: ListSpec, start: ListState, client?: string): Promise<Step<F>> {
    let list = start;
    let cursor: string | null = null;
    let reads = 0;
    let added = 0;
    const idlePages = new Map<string, number>();
    const met = new Set<string>();
    let restarted = false;
    for (;;) {
      const outcome = await read(spec, cursor, client);
      reads += 1;
      if (outcome.kind === 'failed') return { ...outcome, reads };
      const { records, cursor: next } = outcome.page;
      // A full page without a cursor is no proof of the end (the service's cursor cache
      // failed): the list is read from its start once more.
      const end = next === null && !outcome.full;
      const committed = await log.commit(list, records, {
        frontier: next,
        ...(end && { complete: true, headCheckedAt: now() }),
      });
      added += committed.added;
      list = end
        ? committed.state
        : await noteIdle(committed.state, newToRead(met, records), 1, idlePages);
      if (end || list.fault) return { kind: 'state', state: list, reads, added };
      if (next === null) {
        if (restarted) return { kind: 'state', state: list, reads, added };
        restarted = true;
      }
      cursor = next;
    }
  }

  function head(spec: ListSpec, client?: string): Promise<Step<F>> {
    return log.exclusive(spec.path, async () => {
      const list = await log.list(spec.path, spec.order === 'stable');
      // A contract's head is still read when its depth was stopped as faulty: new records
      // arrive there, and a head read that loops is stopped by itself.
      const stopped = list.fault !== null && spec.order === 'stable';
      if (stopped || (!due(list) && !fresh(list))) {
        return { kind: 'state', state: list, reads: 0, added: 0 };
      }
      if (spec.order === 'stable') return readWhole(spec, list, client);
      return fresh(list) ? readFirst(spec, list, client) : readHead(spec, list, client);
    });
  }

  /** Pages read ahead for walks to the end, per list, by the cursor each follows. */
  const readAhead = new Map<string, Map<string, Promise<UpstreamRead<F>>>>();

  function readOnAhead(spec: ListSpec, cursor: string, client?: string) {
    let pages = readAhead.get(spec.path);
    if (!pages) readAhead.set(spec.path, (pages = new Map()));
    if (pages.has(cursor) || pages.size >= READ_AHEAD_PAGES) return;
    const page = read(spec, cursor, client);
    pages.set(cursor, page);
    page.then(
      (outcome) => {
        const next = outcome.kind === 'page' ? outcome.page.cursor : null;
        if (next !== null && readAhead.get(spec.path) === pages) readOnAhead(spec, next, client);
      },
      () => undefined,
    );
  }

  const readFrontier = (spec: ListSpec, cursor: string, client?: string) => {
    const pages = readAhead.get(spec.path);
    const page = pages?.get(cursor);
    if (page) {
      pages!.delete(cursor);
      return page;
    }
    // Read ahead along another path (another server moved the list on): dropped.
    readAhead.delete(spec.path);
    return read(spec, cursor, client);
  };

  /**
   * The service forgot the frontier's cursor (or a last page's end was uncertain): the
   * list from its head until past the oldest stored record; reading goes on from there.
   */
  async function recover(spec: ListSpec, start: ListState, client?: string): Promise<Step<F>> {
    let list = start;
    const oldest = (await log.edge(list, 'oldest')) ?? Number.MAX_SAFE_INTEGER;
    let cursor: string | null = null;
    let reads = 0;
    let added = 0;
    const idlePages = new Map<string, number>();
    const met = new Set<string>();
    for (;;) {
      const outcome = await read(spec, cursor, client);
      reads += 1;
      if (outcome.kind === 'failed') return { ...outcome, reads };
      const { records, cursor: next } = outcome.page;
      const end = next === null && !outcome.full;
      const past = records.some((record) => record.ts < oldest) || end;
      // A full page without a cursor is no proof of the end: the next read recovers again.
      const stop = past || next === null;
      const committed = await log.commit(
        list,
        records,
        stop ? { frontier: next, complete: end } : {},
      );
      added += committed.added;
      list = stop
        ? committed.state
        : await noteIdle(committed.state, newToRead(met, records), 1, idlePages);
      if (stop || list.fault) {
        if (past) options.recovered?.(spec.path, reads);
        return { kind: 'state', state: list, reads, added };
      }
      cursor = next;
    }
  }

  /** One upstream page more of a list's depth (a stable list: read whole when unfinished). */
  function deeper(spec: ListSpec, client?: string, ahead = false): Promise<Step<F>> {
    return log.exclusive(spec.path, async (): Promise<Step<F>> => {
      const list = await log.list(spec.path, spec.order === 'stable');
      if (list.complete || list.fault) return { kind: 'state', state: list, reads: 0, added: 0 };
      if (spec.order === 'stable') return readWhole(spec, list, client);
      if (fresh(list)) return readFirst(spec, list, client);
      let reads = 0;
      if (list.frontier !== null) {
        for (let attempt = 0; attempt < 2; attempt++) {
          const outcome = await (attempt === 0
            ? readFrontier(spec, list.frontier, client)
            : read(spec, list.frontier, client));
          reads += 1;
          if (outcome.kind === 'failed') {
            if (outcome.cursorRefused) continue;
            return { ...outcome, reads };
          }
          const { records, cursor } = outcome.page;
          // A full page without cursor is kept but does not end the list: reading on
          // from it walks from the head to see whether anything follows.
          if (ahead && cursor !== null) readOnAhead(spec, cursor, client);
          const committed = await log.commit(list, records, {
            frontier: cursor,
            complete: cursor === null && !outcome.full,
          });
          const state = await noteIdle(committed.state, committed.added, 1);
          return { kind: 'state', state, reads, added: committed.added };
        }
      }
      const recovered = await recover(spec, list, client);
      return { ...recovered, reads: reads + recovered.reads };
    });
  }

  /**
   * One page of a contract's verification pass, started when none is under way; `done`
   * once the pass has read the list to its end and marked what it no longer lists.
   */
  function verify(
    spec: ListSpec,
    client?: string,
  ): Promise<Step<F> & { done?: boolean; removed?: number }> {
    return log.exclusive(spec.path, async () => {
      let list = await log.list(spec.path, spec.order === 'stable');
      if (list.verifyRun === null) {
        list = await log.update(list, {
          verifyRun: now(),
          verifySeq: await log.lastSeq(),
          verifyCursor: null,
          verifyPages: 0,
          verifyAdded: 0,
          verifyChanged: 0,
        });
      }
      const outcome = await read(spec, list.verifyCursor, client);
      if (outcome.kind === 'failed') {
        // A forgotten cursor: the pass reads on from the head; what it met stays met.
        if (outcome.cursorRefused) await log.update(list, { verifyCursor: null });
        return { kind: 'failed', failure: outcome.failure, reads: 1 };
      }
      const { records, cursor } = outcome.page;
      const committed = await log.commit(
        list,
        records,
        { verifyCursor: cursor, verifyPages: list.verifyPages + 1 },
        list.verifyRun!,
      );
      list = await log.update(committed.state, {
        verifyAdded: list.verifyAdded + committed.added,
        verifyChanged: list.verifyChanged + committed.changed,
      });
      if (cursor !== null || outcome.full) {
        // Each page of a list that does not loop holds a record of its own: a pass past
        // that many pages is given up (it starts again when next due).
        if (list.verifyPages > list.records + list.removed + settings.maxIdlePages) {
          await log.update(list, { verifyRun: null, verifyCursor: null, verifiedAt: now() });
          options.faulted?.(spec.path, 'its verification read more pages than it has records');
        }
        return { kind: 'state', state: list, reads: 1, added: committed.added };
      }
      const ended = await log.endVerification(list, now());
      return {
        kind: 'state',
        state: ended.state,
        reads: 1,
        added: committed.added,
        done: true,
        removed: ended.removed,
      };
    });
  }

  /** A page in the service's envelope. */
  function envelope(records: readonly { body: Buffer }[], next: string | null): Buffer {
    const parts: Buffer[] = [PREFIX];
    records.forEach((record, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(record.body);
    });
    parts.push(Buffer.from(`],"cursor":${JSON.stringify(next)}}`));
    return Buffer.concat(parts);
  }

  return {
    head,
    deeper,
    verify,
    state: (path: string) => log.state(path),
    /** Reads a list stopped as faulty again (the operator asks for it). */
    async clearFault(path: string) {
      const list = await log.state(path);
      if (list?.fault) await log.update(list, { fault: null });
    },

    /**
     * One page of a list for /api/v1: from its start (after reading its head when due)
     * or after the position a cursor of ours names, reading on from the service only
     * where the log lacks records. It ends where the list ends, or where it was stopped
     * as faulty (then `fault` says why).
     */
    async serve(
      spec: ListSpec,
      cursor: string | null,
      limit: number,
      client?: string,
    ): Promise<ServeOutcome<F>> {
      let after: LogPosition | null = null;
      let reads = 0;
      let list = await log.state(spec.path);
      if (cursor !== null) {
        after = cursors.decode(spec.path, cursor);
        if (!after || !list) return { kind: 'foreign_cursor' };
      } else if (!list || due(list) || fresh(list)) {
        const step = await head(spec, client);
        reads += step.reads;
        if (step.kind === 'failed') {
          // What is stored still answers while the service cannot: stale beats nothing.
          if (!list || list.records === 0) {
            return { kind: 'failed', failure: step.failure, upstreamReads: reads };
          }
        } else list = step.state;
      }
      let emptyReads = 0;
      const cursorAfter = (position: LogPosition) => cursors.encode(spec.path, position);
      for (;;) {
        const page = await log.page(list!, after, limit, settings.pageByteCap - 64);
        const last = page.records.at(-1);
        const ended = list!.complete || list!.fault !== null;
        if (page.more || ended || page.records.length >= limit) {
          const next = last && (page.more || !ended) ? cursorAfter(last) : null;
          const fault = next === null ? list!.fault : null;
          return {
            kind: 'page',
            body: envelope(page.records, next),
            next,
            fault,
            upstreamReads: reads,
          };
        }
        const step = await deeper(spec, client);
        reads += step.reads;
        if (step.kind === 'failed' && page.records.length === 0) {
          return { kind: 'failed', failure: step.failure, upstreamReads: reads };
        }
        if (step.kind === 'state' && step.added === 0) emptyReads += step.reads;
        if (step.kind === 'failed' || emptyReads >= settings.maxEmptyReads) {
          // What was found is served; the next request reads on from the same place.
          const next = cursorAfter(last ?? after ?? START);
          return {
            kind: 'page',
            body: envelope(page.records, next),
            next,
            fault: null,
            upstreamReads: reads,
          };
        }
        list = step.state;
      }
    },
  };
}

export type ListReader<F> = ReturnType<typeof createListReader<F>>;
