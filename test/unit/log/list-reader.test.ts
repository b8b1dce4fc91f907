import { describe, expect, it } from 'vitest';
import type { ListSpec } from '../../../src/server/log/list-reader';
import { openRecordLog } from '../../../src/server/log/record-log';
import { createFakeList, type FakeList } from './fake-lists';
import {
  eventsSpec,
  loggedIds,
  readerOver,
  readToCompletion,
  served,
  sortedIds,
  START_MS,
  tokenSpec,
  useRecordLog,
  walk,
  type Reader,
} from './log-harness';

/**
 * The list reader on the record log, against a fake of the service: each list is read
 * once (its head when due, its depth from the frontier, never again for its age or after
 * a restart), a head read cut short leaves a gap the next one closes, a dead cursor is
 * recovered from the head, several servers sharing the database read each page once, and
 * a verification pass finds what the service removed, added or changed deep in history.
 */
const { log, url } = useRecordLog();

const HEAD_MS = 5_000;
const DAY_MS = 86_400_000;

/** `count` distinct times, newest first, from `from` down. */
const times = (count: number, from: number) =>
  Array.from({ length: count }, (_, index) => from - index);

/** Upstream requests `work` made of `fake`. */
async function requestsOf(fake: FakeList, work: () => Promise<unknown>): Promise<number> {
  const before = fake.requests();
  await work();
  return fake.requests() - before;
}

describe('a contract’s list in the log', () => {
  it('is read once: walks and depth cost the service nothing once it is complete', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 40 });
    fake.add(times(300, 5_000));
    const spec = eventsSpec();
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS });

    expect(await walk(reader, fake, spec, 25)).toEqual(fake.ids());
    // 8 pages: its first, then its depth page by page.
    expect(fake.requests()).toBe(8);
    expect(await requestsOf(fake, () => walk(reader, fake, spec, 7))).toBe(0);
    for (let n = 0; n < 3; n++) {
      const step = await reader.deeper(spec);
      expect(step).toMatchObject({ kind: 'state', reads: 0, state: { complete: true } });
    }
    expect(fake.requests()).toBe(8);
    expect(sortedIds(await loggedIds(log(), fake, spec.path))).toEqual(sortedIds(fake.ids()));
  });

  it('reads its head, when due, only until past the newest record it held: after a restart, and a day later', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(100, 5_000));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    await readToCompletion(reader, spec);
    expect(fake.requests()).toBe(11);

    // Not due: nothing read.
    expect(await reader.head(spec)).toMatchObject({ kind: 'state', reads: 0 });
    // 25 new records: two pages of them, and a third that reaches the old ones.
    fake.add(times(25, 5_100));
    clock.now += HEAD_MS;
    expect(await reader.head(spec)).toMatchObject({ reads: 3, added: 25 });
    // 30 new: three pages of them, then one of old records only.
    fake.add(times(30, 5_200));
    clock.now += HEAD_MS;
    expect(await reader.head(spec)).toMatchObject({ reads: 4, added: 30 });
    // Nothing new: its first page.
    clock.now += HEAD_MS;
    expect(await reader.head(spec)).toMatchObject({ reads: 1, added: 0 });

    // Another server on the same database (a restart): its depth is not read again.
    const again = await openRecordLog({ connectionString: url() });
    try {
      const restarted = readerOver(again, fake, { headIntervalMs: HEAD_MS }, clock).reader;
      expect(await restarted.deeper(spec)).toMatchObject({ reads: 0 });
      fake.add(times(5, 5_300));
      clock.now += HEAD_MS;
      expect(await restarted.head(spec)).toMatchObject({ reads: 1, added: 5 });
      expect(await requestsOf(fake, () => walk(restarted, fake, spec, 50))).toBe(0);

      // A day later: its head once; its depth is not read again for its age.
      clock.now += DAY_MS;
      let walked: number[] = [];
      expect(
        await requestsOf(fake, async () => {
          walked = await walk(restarted, fake, spec, 50);
          await restarted.deeper(spec);
        }),
      ).toBe(1);
      expect(walked).toEqual(fake.ids());
    } finally {
      await again.close();
    }
    expect(sortedIds(await loggedIds(log(), fake, spec.path))).toEqual(sortedIds(fake.ids()));
  });

  it('is never stopped as faulty for being read again and again with nothing new', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(30, 5_000));
    const spec = eventsSpec();
    const token = tokenSpec();
    const clock = { now: START_MS };
    // A fault after 10 pages in a row without a new record, for a shorter test.
    const { reader, faulted } = readerOver(
      log(),
      fake,
      { headIntervalMs: HEAD_MS, maxIdlePages: 10 },
      clock,
    );
    await readToCompletion(reader, spec);
    await readToCompletion(reader, token);
    // More reads than the fault limit, none of them a fault.
    for (let n = 0; n < 12; n++) {
      clock.now += HEAD_MS;
      expect(await reader.head(spec)).toMatchObject({ reads: 1, state: { fault: null } });
      // A stable list is read whole: four pages (the last one empty).
      expect(await reader.head(token)).toMatchObject({ reads: 4, state: { fault: null } });
    }
    expect(faulted).toEqual([]);
  });

  it('leaves a gap when a head read fails after some pages; the next closes it from there', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(100, 5_000));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    await readToCompletion(reader, spec);

    fake.add(times(45, 5_100));
    fake.failAfter(2);
    clock.now += HEAD_MS;
    const cut = await reader.head(spec);
    expect(cut).toMatchObject({ kind: 'failed', failure: 'down', reads: 3 });
    const gap = await reader.state(spec.path);
    expect(gap).toMatchObject({ gapTs: 5_000, records: 120 });
    expect(gap?.gapCursor).toEqual(expect.any(String));

    fake.setDown(false);
    // Due at once while the gap is open; read from the gap's cursor: pages 3, 4 and 5.
    const closed = await reader.head(spec);
    expect(closed).toMatchObject({ kind: 'state', reads: 3, added: 25 });
    expect(closed.kind === 'state' && closed.state).toMatchObject({ gapTs: null, gapCursor: null });
    expect(await loggedIds(log(), fake, spec.path)).toHaveLength(145);
    expect(await walk(reader, fake, spec, 40)).toEqual(fake.ids());
  });

  it('reads a gap whose cursor died again from the head, losing nothing', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(100, 5_000));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    await readToCompletion(reader, spec);

    fake.add(times(45, 5_100));
    fake.failAfter(2);
    clock.now += HEAD_MS;
    expect((await reader.head(spec)).kind).toBe('failed');
    fake.setDown(false);
    fake.forget();
    // The gap's cursor refused once, then pages 1 to 5 from the head.
    const closed = await reader.head(spec);
    expect(closed).toMatchObject({ kind: 'state', reads: 6, added: 25, state: { gapTs: null } });
    expect(sortedIds(await loggedIds(log(), fake, spec.path))).toEqual(sortedIds(fake.ids()));
    expect(await walk(reader, fake, spec, 40)).toEqual(fake.ids());
  });

  it('puts new records at the head; a walk under way neither repeats nor skips any', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 20 });
    fake.add(times(100, 5_000));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    const before = fake.ids();
    const first = served(fake, await reader.serve(spec, null, 30));
    // Equal times across the boundary: two new records share the stored head's time.
    fake.add([5_000, 5_000, 5_001, 5_002]);
    clock.now += HEAD_MS;
    const fresh = served(fake, await reader.serve(spec, null, 10));
    expect(fresh.ts).toEqual([
      5_002, 5_001, 5_000, 5_000, 5_000, 4_999, 4_998, 4_997, 4_996, 4_995,
    ]);
    expect(sortedIds(fresh.ids.slice(0, 5))).toEqual(sortedIds(fake.ids().slice(0, 5)));
    // The walk that started before goes on from where it was.
    const rest: number[] = [];
    let cursor = first.next;
    while (cursor !== null) {
      const page = served(fake, await reader.serve(spec, cursor, 30));
      rest.push(...page.ids);
      cursor = page.next;
    }
    expect([...first.ids, ...rest]).toEqual(before);
    expect(sortedIds(await walk(reader, fake, spec, 50))).toEqual(sortedIds(fake.ids()));
  });

  it('recovers a dead frontier cursor by walking from the head, and says what it cost', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 30 });
    fake.add(times(200, 9_000));
    const spec = eventsSpec();
    const { reader, recovered } = readerOver(log(), fake);
    const first = served(fake, await reader.serve(spec, null, 30));
    const second = served(fake, await reader.serve(spec, first.next, 30));
    fake.forget();
    const rest: number[] = [];
    let cursor = second.next;
    while (cursor !== null) {
      const page = served(fake, await reader.serve(spec, cursor, 30));
      rest.push(...page.ids);
      cursor = page.next;
    }
    expect([...first.ids, ...second.ids, ...rest]).toEqual(fake.ids());
    // Two pages were logged; the third read (refused twice) was redone from the head.
    expect(recovered).toEqual([3]);
  });

  it('takes a full page without a cursor for no end, in its first read and in its head', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(60, 9_000));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    fake.dropNextCursor();
    expect(await walk(reader, fake, spec, 25)).toEqual(fake.ids());

    // Its head: 25 new records, the first page's cursor left out; a walk meets them all.
    fake.add(times(25, 9_100));
    fake.dropNextCursor();
    clock.now += HEAD_MS;
    expect(await walk(reader, fake, spec, 25)).toEqual(fake.ids());
  });

  it('takes a full page without a cursor for no end in a recovery from the head', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(60, 9_000));
    const { reader } = readerOver(log(), fake);
    // Two pages logged, then the frontier's cursor forgotten, and the first page read
    // again from the head comes without its cursor.
    const spec = eventsSpec();
    await reader.deeper(spec);
    await reader.deeper(spec);
    fake.forget();
    fake.dropNextCursor();
    await readToCompletion(reader, spec);
    expect(sortedIds(await loggedIds(log(), fake, spec.path))).toEqual(sortedIds(fake.ids()));
  });

  it('answers a cursor it never issued, or one of another list, as foreign', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 10 });
    fake.add(times(35, 100));
    const spec = eventsSpec();
    const { reader } = readerOver(log(), fake);
    const first = served(fake, await reader.serve(spec, null, 10));
    expect(await reader.serve(spec, 'not-a-log-cursor', 10)).toEqual({ kind: 'foreign_cursor' });
    expect(await reader.serve(eventsSpec(), first.next, 10)).toEqual({ kind: 'foreign_cursor' });
    // The same cursor, from a reader with the same secret, reads on.
    const other = readerOver(log(), fake).reader;
    expect(served(fake, await other.serve(spec, first.next, 10)).ids).toEqual(
      fake.ids().slice(10, 20),
    );
  });

  it('serves what it holds while the service is down; a list it holds nothing of fails', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 50 });
    fake.add(times(40, 100));
    const spec = eventsSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    const before = served(fake, await reader.serve(spec, null, 50));
    fake.setDown(true);
    clock.now += HEAD_MS;
    expect(served(fake, await reader.serve(spec, null, 50)).ids).toEqual(before.ids);
    expect(await reader.serve(eventsSpec(), null, 50)).toEqual({
      kind: 'failed',
      failure: 'down',
      upstreamReads: 1,
    });
  });
});

describe('a token’s list (stable) in the log', () => {
  it('is read whole, a full page without a cursor being no end; new records come last', async () => {
    const fake = createFakeList({ order: 'by-id', limit: 10 });
    fake.add(Array.from({ length: 25 }, () => 500));
    const spec = tokenSpec();
    const clock = { now: START_MS };
    const { reader } = readerOver(log(), fake, { headIntervalMs: HEAD_MS }, clock);
    fake.dropNextCursor();
    const first = await walk(reader, fake, spec, 10);
    expect(sortedIds(first)).toEqual(sortedIds(fake.ids()));
    // The service orders a token's events by a hash: new ones land anywhere in its pages,
    // and come after the others in the log's order.
    const added = fake.add([500, 500, 500]);
    clock.now += HEAD_MS;
    const again = await walk(reader, fake, spec, 10);
    expect(again.slice(0, 25)).toEqual(first);
    expect(sortedIds(again.slice(25))).toEqual(added);
  });
});

describe('several servers on one database', () => {
  it('read each page of a list from the service once, however many walk it at once', async () => {
    const fake = createFakeList({ order: 'newest-first', limit: 25 });
    fake.add(times(410, 50_000));
    const spec = eventsSpec();
    // Each read takes a moment, as the real service's do, so walks overlap.
    const slow = {
      ...fake,
      read: async (cursor: string | null) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return fake.read(cursor);
      },
    };
    const logs = await Promise.all([1, 2, 3].map(() => openRecordLog({ connectionString: url() })));
    try {
      const walks = logs.flatMap((server) => {
        const { reader } = readerOver(server, slow);
        return [10, 33].map((limit) => walk(reader, fake, spec, limit));
      });
      for (const ids of await Promise.all(walks)) expect(ids).toEqual(fake.ids());
      // 17 pages of 25 or fewer; six walks on three servers started together read each once.
      expect(fake.pagesServed()).toBe(17);
    } finally {
      await Promise.all(logs.map((server) => server.close()));
    }
  });
});

/**
 * The verification pass (../shared/upstream-notes.md: the service's indexer deletes and
 * rewrites blocks deep in history). A contract's list read again whole, one upstream read
 * per page: a record no longer listed is marked removed (kept, left out of every page
 * and count), one added deep in history is logged, one sent changed replaces its body.
 */
/** `count` times two seconds apart, newest first, from `from` down. */
const everyOtherSecond = (count: number, from: number) =>
  Array.from({ length: count }, (_, index) => from - index * 2);

/** Verification steps until the pass is done; the steps it took. */
async function verifyToEnd(reader: Reader, spec: ListSpec) {
  const steps: Awaited<ReturnType<Reader['verify']>>[] = [];
  for (let n = 0; n < 1_000; n++) {
    const step = await reader.verify(spec);
    steps.push(step);
    if (step.kind === 'state' && step.done) return steps;
  }
  throw new Error('the verification never ended');
}

async function recordOf(spec: ListSpec, fake: FakeList, id: number) {
  const { rows } = await log().pool.query<{ body: Buffer; removed_at: string | null }>(
    `SELECT r.body, r.removed_at FROM log_records r JOIN log_lists l ON l.id = r.list_id
      WHERE l.path = $1`,
    [spec.path],
  );
  return rows.find((row) => fake.idOf(row.body.toString()) === id);
}

/** A complete list of 95 records in pages of 10, and what the service then changed. */
async function correctedList() {
  const fake = createFakeList({ order: 'newest-first', limit: 10 });
  fake.add(everyOtherSecond(95, 5_000));
  const spec = eventsSpec();
  const clock = { now: START_MS };
  const { reader } = readerOver(log(), fake, {}, clock);
  await readToCompletion(reader, spec);
  // Deep in history: one record gone, one new between two old ones, one sent changed.
  const removed = fake.ids()[80]!;
  fake.remove(removed);
  const [added] = fake.add([5_000 - 61 * 2 + 1]);
  const changed = fake.ids()[70]!;
  fake.change(changed);
  clock.now += 86_400_000;
  return { fake, spec, reader, clock, removed, added: added!, changed };
}

describe('the verification pass', () => {
  it('marks a record no longer listed, logs one added and one changed, one read per page', async () => {
    const { fake, spec, reader, removed, added, changed } = await correctedList();
    const before = fake.requests();
    const steps = await verifyToEnd(reader, spec);
    // 95 records: nine full pages and one of five.
    expect(fake.requests() - before).toBe(10);
    expect(steps).toHaveLength(10);
    expect(steps.every((step) => step.kind === 'state' && step.reads === 1)).toBe(true);
    expect(steps.at(-1)).toMatchObject({ done: true, removed: 1 });
    expect(await reader.state(spec.path)).toMatchObject({
      records: 95,
      removed: 1,
      verifyPages: 10,
      verifyAdded: 1,
      verifyChanged: 1,
      verifyRun: null,
      verifiedAt: expect.any(Number),
    });

    // Kept, marked; left out of pages and counts.
    expect((await recordOf(spec, fake, removed))?.removed_at).not.toBeNull();
    expect((await recordOf(spec, fake, changed))?.body.toString()).toBe(fake.text(changed));
    expect(sortedIds(await loggedIds(log(), fake, spec.path))).toEqual(sortedIds(fake.ids()));
    const walked = await walk(reader, fake, spec, 30);
    expect(walked).toEqual(fake.ids());
    expect(walked).toContain(added);
    expect(walked).not.toContain(removed);
    const { rows } = await log().pool.query<{ records: string }>(
      'SELECT records FROM log_lists WHERE path = $1',
      [spec.path],
    );
    expect(Number(rows[0]?.records)).toBe(95);
  });

  it('goes on from the head when its cursor dies, and never marks what arrived meanwhile', async () => {
    const { fake, spec, reader, clock, removed } = await correctedList();
    for (let n = 0; n < 4; n++) expect(await reader.verify(spec)).toMatchObject({ reads: 1 });
    fake.forget();
    expect(await reader.verify(spec)).toMatchObject({ kind: 'failed', failure: 'refused' });
    // From the head again: what it met stays met.
    for (let n = 0; n < 2; n++) expect(await reader.verify(spec)).toMatchObject({ reads: 1 });
    // New records at the head, logged by a head read while the pass reads on past them.
    const arrivals = fake.add([6_000, 6_001]);
    clock.now += 60_000;
    expect(await reader.head(spec)).toMatchObject({ added: 2 });
    const steps = await verifyToEnd(reader, spec);
    expect(steps.at(-1)).toMatchObject({ done: true, removed: 1 });
    expect((await recordOf(spec, fake, removed))?.removed_at).not.toBeNull();
    const walked = await walk(reader, fake, spec, 100);
    expect(walked).toEqual(fake.ids());
    expect(walked.slice(0, 2)).toEqual(arrivals.reverse());
  });
});
