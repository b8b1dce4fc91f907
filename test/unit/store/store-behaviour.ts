import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreEngine } from '../../../src/server/store/engine';
import { createFakeLists } from './fake-lists';
import { EVENTS, served, storeOver, TOKEN, type EngineFactory } from './store-harness';

const times = (count: number, from: number, step = -1) =>
  Array.from({ length: count }, (_, index) => from + index * step);

/** The same behaviour is required of every engine; postgres.test.ts runs this too. */
export function storeBehaviour(engines: EngineFactory) {
  describe(`the event store (${engines.name})`, () => {
    let engine: StoreEngine;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ engine, dispose } = await engines.open());
    });
    afterEach(async () => dispose());

    async function walk(
      store: Awaited<ReturnType<typeof storeOver>>['store'],
      fake: ReturnType<typeof createFakeLists>,
      limit: number,
      spec = EVENTS,
    ) {
      const ids: number[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 1000; pages++) {
        const page = served(fake, await store.serve(spec, cursor, limit));
        ids.push(...page.ids);
        cursor = page.next;
        if (cursor === null) return ids;
      }
      throw new Error('the walk did not end');
    }

    it('serves a walk from stored records once read, whatever page size the walker asks', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 40 });
      fake.add(times(300, 5_000));
      const { store, clock } = await storeOver(engine, fake);
      const expected = fake.all().map((record) => record.id);

      expect(await walk(store, fake, 25)).toEqual(expected);
      const firstWalk = fake.pagesServed();
      // Within the head interval, a second walk costs the upstream nothing.
      expect(await walk(store, fake, 7)).toEqual(expected);
      expect(fake.pagesServed()).toBe(firstWalk);
      // Later, one read of the head, which finds nothing new.
      clock.now += 10_000;
      expect(await walk(store, fake, 100)).toEqual(expected);
      expect(fake.pagesServed()).toBe(firstWalk + 1);
    });

    it('puts new records at the head; a walk under way neither repeats nor skips any', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 20 });
      fake.add(times(100, 5_000));
      const { store, clock } = await storeOver(engine, fake);
      const before = fake.all().map((record) => record.id);
      const first = served(fake, await store.serve(EVENTS, null, 30));
      // Equal times across the boundary: two new records share the stored head's time.
      fake.add([5_000, 5_000, 5_001, 5_002]);
      clock.now += 10_000;
      const fresh = served(fake, await store.serve(EVENTS, null, 10));
      expect(fresh.ids.slice(0, 4).sort()).toEqual(
        fake
          .all()
          .slice(0, 4)
          .map((r) => r.id)
          .sort(),
      );
      expect(new Set(fresh.ids).size).toBe(fresh.ids.length);
      // The walk that started before goes on from where it was.
      const rest: number[] = [];
      let cursor = first.next;
      while (cursor !== null) {
        const page = served(fake, await store.serve(EVENTS, cursor, 30));
        rest.push(...page.ids);
        cursor = page.next;
      }
      expect([...first.ids, ...rest]).toEqual(before);
      expect(await walk(store, fake, 50)).toEqual(fake.all().map((record) => record.id));
    });

    it('recovers a dead frontier cursor by walking from the head, and says what it cost', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 30 });
      fake.add(times(200, 9_000));
      const { store, recovered } = await storeOver(engine, fake);
      const first = served(fake, await store.serve(EVENTS, null, 30));
      const second = served(fake, await store.serve(EVENTS, first.next, 30));
      fake.forget();
      const rest: number[] = [];
      let cursor = second.next;
      while (cursor !== null) {
        const page = served(fake, await store.serve(EVENTS, cursor, 30));
        rest.push(...page.ids);
        cursor = page.next;
      }
      expect([...first.ids, ...second.ids, ...rest]).toEqual(fake.all().map((r) => r.id));
      // Two pages were stored; the third read (refused twice) was redone from the head.
      expect(recovered).toEqual([3]);
    });

    it('does not take a full page without a cursor for the end', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 25 });
      fake.add(times(120, 9_000));
      const { store } = await storeOver(engine, fake);
      fake.dropNextCursor();
      expect(await walk(store, fake, 25)).toEqual(fake.all().map((record) => record.id));
    });

    it('answers a cursor of a dropped copy as expired, and one it never issued as foreign', async () => {
      const fake = createFakeLists({ order: 'by-id', limit: 10 });
      fake.add(times(35, 100));
      const { store, clock } = await storeOver(engine, fake);
      const first = served(fake, await store.serve(TOKEN, null, 10));
      expect(await store.serve(TOKEN, 'not-a-store-cursor', 10)).toEqual({
        kind: 'foreign_cursor',
      });
      expect(await store.serve(EVENTS, first.next, 10)).toEqual({ kind: 'foreign_cursor' });
      // A token's first page changed: its stored copy starts again; old cursors expire.
      // (The service orders a token's events by a hash: a new one may land anywhere.)
      const head = fake.all()[0];
      while (fake.all()[0] === head) fake.add([50]);
      clock.now += 10_000;
      served(fake, await store.serve(TOKEN, null, 10));
      expect(await store.serve(TOKEN, first.next, 10)).toEqual({ kind: 'expired_cursor' });
    });

    it('starts a new copy when more arrived at the head than it reads to join them', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 10 });
      fake.add(times(30, 100));
      const { store, clock } = await storeOver(engine, fake, { maxHeadPages: 3 });
      const first = served(fake, await store.serve(EVENTS, null, 10));
      fake.add(times(41, 1_000));
      clock.now += 10_000;
      const before = fake.pagesServed();
      const fresh = served(fake, await store.serve(EVENTS, null, 10));
      expect(fresh.ids).toEqual(fake.all().slice(0, 10).map((record) => record.id));
      // Three head pages read, kept as the new copy's start: none is read twice.
      expect(fake.pagesServed() - before).toBe(3);
      expect(await store.serve(EVENTS, first.next, 10)).toEqual({ kind: 'expired_cursor' });
      expect(await walk(store, fake, 25)).toEqual(fake.all().map((record) => record.id));
      // Then the rest of the 71 records, once.
      expect(fake.pagesServed() - before).toBe(8);
    });

    it('serves the stored head while the upstream is down', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 50 });
      fake.add(times(40, 100));
      const { store, clock } = await storeOver(engine, fake);
      const before = served(fake, await store.serve(EVENTS, null, 50));
      fake.setDown(true);
      clock.now += 10_000;
      expect(served(fake, await store.serve(EVENTS, null, 50)).ids).toEqual(before.ids);
      const other = { ...EVENTS, path: '/v1/events/0xdef' };
      expect(await store.serve(other, null, 50)).toEqual({
        kind: 'failed',
        failure: 'down',
        upstreamReads: 1,
      });
    });

    it('keeps within its byte bound by dropping the least recently used lists', async () => {
      const fake = createFakeLists({ order: 'newest-first', limit: 100 });
      fake.add(times(100, 100));
      const { store, clock } = await storeOver(engine, fake, { maxBytes: 40_000 });
      for (const n of [1, 2, 3, 4]) {
        clock.now += 120_000;
        served(fake, await store.serve({ ...EVENTS, path: `/v1/events/0x${n}` }, null, 100));
      }
      const { lists, bytes } = await store.stats();
      expect(bytes).toBeLessThanOrEqual(40_000);
      expect(lists).toBeLessThan(4);
      // The list used last is kept.
      expect(await engine.read('/v1/events/0x4')).toBeDefined();
      expect(await engine.read('/v1/events/0x1')).toBeUndefined();
    });
  });
}
