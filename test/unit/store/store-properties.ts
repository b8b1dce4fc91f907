import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeLists } from './fake-lists';
import { EVENTS, served, storeOver, TOKEN, type EngineFactory } from './store-harness';

/**
 * Walks of a list through the store, interleaved with what the real service does to
 * them: new records at the head (often with the stored head's own time), its cursors
 * forgotten, pages cut by bytes, short and empty pages with a cursor. Every walk returns
 * each record that existed when it started exactly once, in the list's order (newest
 * first; the service sets no order among records of equal time).
 */
const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('walk' as const), walker: fc.nat(2) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('arrive' as const),
      count: fc.integer({ min: 1, max: 6 }),
      sameTime: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const) }) },
);

const scenario = fc.record({
  initial: fc.integer({ min: 0, max: 250 }),
  /** Few distinct times, so equal timestamps are common. */
  spread: fc.integer({ min: 1, max: 60 }),
  limit: fc.integer({ min: 3, max: 40 }),
  byteCap: fc.option(fc.integer({ min: 600, max: 4_000 }), { nil: undefined }),
  /** Chunks of one record up to several pages' worth, so walks start and end mid-chunk. */
  chunkBytes: fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
  emptyEvery: fc.constantFrom(0, 3, 5),
  shortEvery: fc.constantFrom(0, 2, 4),
  walkers: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 3, maxLength: 3 }),
  steps: fc.array(step, { minLength: 20, maxLength: 120 }),
});

export function storeProperties(engines: EngineFactory, runs: number) {
  describe(`walks through the event store (${engines.name})`, () => {
    it('return every record once and in order, whatever happens upstream meanwhile', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (plan) => {
          const { engine, dispose } = await engines.open();
          try {
            const fake = createFakeLists({ order: 'newest-first', ...plan });
            let newest = 10_000;
            fake.add(
              Array.from(
                { length: plan.initial },
                (_, n) => newest - Math.floor((n * plan.spread) / 10),
              ),
            );
            // However much arrives, the head is read until it joins the stored records (the
            // fallback of starting a new copy past `maxHeadPages` is for real page sizes).
            const { store, clock } = await storeOver(engine, fake, {
              headIntervalMs: 0,
              maxHeadPages: Infinity,
              ...(plan.chunkBytes && { chunkBytes: plan.chunkBytes }),
            });
            const walkers = plan.walkers.map((limit) => ({
              limit,
              cursor: null as string | null,
              started: false,
              expected: [] as number[],
              ids: [] as number[],
              ts: [] as number[],
            }));
            for (const action of [
              ...plan.steps,
              ...walkers.map((_w, walker) => ({ kind: 'finish' as const, walker })),
            ]) {
              clock.now += 1_000;
              if (action.kind === 'arrive') {
                newest += action.sameTime ? 0 : 1;
                fake.add(Array.from({ length: action.count }, () => newest));
              } else if (action.kind === 'forget') {
                fake.forget();
              } else {
                const walker = walkers[action.walker]!;
                let guard = 0;
                do {
                  if (++guard > 5_000) throw new Error('the walk does not end');
                  if (!walker.started) {
                    walker.started = true;
                    walker.expected = fake.all().map((record) => record.id);
                  }
                  const page = served(fake, await store.serve(EVENTS, walker.cursor, walker.limit));
                  walker.ids.push(...page.ids);
                  walker.ts.push(...page.ts);
                  walker.cursor = page.next;
                  if (walker.cursor === null) {
                    expect(new Set(walker.ids).size).toBe(walker.ids.length);
                    expect(walker.ts).toEqual([...walker.ts].sort((a, b) => b - a));
                    // What existed at the start is there (newer arrivals the walk met at
                    // its head may come too), newest first; records of equal time come in
                    // no set order, as the service serves them.
                    const startedWith = new Set(walker.expected);
                    const byId = (a: number, b: number) => a - b;
                    expect(walker.ids.filter((id) => startedWith.has(id)).sort(byId)).toEqual(
                      [...walker.expected].sort(byId),
                    );
                    const known = new Set(fake.all().map((record) => record.id));
                    expect(walker.ids.every((id) => known.has(id))).toBe(true);
                    Object.assign(walker, { started: false, ids: [], ts: [] });
                  }
                } while (action.kind === 'finish' && walker.started);
              }
            }
          } finally {
            await dispose();
          }
        }),
        { numRuns: runs },
      );
    }, 120_000);

    it('of a token list return every record once, or expire when the list changed', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (plan) => {
          const { engine, dispose } = await engines.open();
          try {
            const fake = createFakeLists({ order: 'by-id', ...plan });
            fake.add(Array.from({ length: plan.initial }, () => 500));
            // Read again whole at every walk's start (a token's history is usually a page).
            const { store, clock } = await storeOver(engine, fake, {
              headIntervalMs: 0,
              stablePages: Infinity,
              ...(plan.chunkBytes && { chunkBytes: plan.chunkBytes }),
            });
            let cursor: string | null = null;
            let ids: number[] = [];
            let expected: number[] = [];
            for (const action of plan.steps) {
              clock.now += 1_000;
              if (action.kind === 'arrive')
                fake.add(Array.from({ length: action.count }, () => 500));
              else if (action.kind === 'forget') fake.forget();
              else {
                if (cursor === null) expected = fake.all().map((record) => record.id);
                const outcome = await store.serve(TOKEN, cursor, plan.walkers[0]!);
                if (outcome.kind === 'expired_cursor') {
                  // The first page changed under the walk: the reader starts again.
                  cursor = null;
                  ids = [];
                  continue;
                }
                const page = served(fake, outcome);
                ids.push(...page.ids);
                cursor = page.next;
                expect(new Set(ids).size).toBe(ids.length);
                if (cursor === null) {
                  const startedWith = new Set(expected);
                  expect(ids.filter((id) => startedWith.has(id)).sort()).toEqual(
                    [...expected].sort(),
                  );
                  ids = [];
                }
              }
            }
          } finally {
            await dispose();
          }
        }),
        { numRuns: runs },
      );
    }, 120_000);
  });
}
