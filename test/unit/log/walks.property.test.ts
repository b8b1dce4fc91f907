import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListSpec } from '../../../src/server/log/list-reader';
import { createFakeList, type FakeList } from './fake-lists';
import {
  eventsSpec,
  loggedIds,
  readerOver,
  readToCompletion,
  served,
  sortedIds,
  tokenSpec,
  useRecordLog,
  type Reader,
} from './log-harness';

/**
 * A list read into the log and walked through `reader.serve`, interleaved with what the
 * real service does (../shared/upstream-notes.md): new records at the head (often with
 * the stored head's own time), its cursors forgotten, pages cut by bytes, short and empty
 * pages with a cursor, a full page without a cursor that is not the end. Whatever
 * happened, once the head and the depth are read to completion the log holds every
 * record of the list exactly once, and every walk returns each record that existed when
 * it started exactly once, in the list's order: a contract's events newest first (the
 * service sets no order among records of equal time), a stable list in the order its
 * records arrived in the log. `RUNS=N` sets the runs of each property (default 10).
 */
const { log } = useRecordLog();
const RUNS = Number(process.env.RUNS ?? 10);

const step = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('walk' as const), walker: fc.nat(2) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('arrive' as const),
      count: fc.integer({ min: 1, max: 6 }),
      sameTime: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('head' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deeper' as const) }) },
);

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const scenario = (maxInitial: number) =>
  fc.record({
    initial: fc.integer({ min: 0, max: maxInitial }),
    /** Few distinct times, so equal timestamps are common. */
    spread: fc.integer({ min: 1, max: 60 }),
    limit: fc.integer({ min: 3, max: 40 }),
    byteCap: fc.option(fc.integer({ min: 600, max: 4_000 }), { nil: undefined }),
    emptyEvery: fc.constantFrom(0, 3, 5),
    shortEvery: fc.constantFrom(0, 2, 4),
    walkers: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 3, maxLength: 3 }),
    steps: fc.array(step, { minLength: 10, maxLength: 60 }),
  });

type Scenario = ReturnType<typeof scenario> extends fc.Arbitrary<infer T> ? T : never;

interface Walker {
  limit: number;
  cursor: string | null;
  started: boolean;
  /** What the list held when the walk started. */
  expected: number[];
  ids: number[];
}

/** The ids of the list's records in the list's order in the log (newest first: by time). */
async function logOrder(fake: FakeList, spec: ListSpec) {
  const { rows } = await log().pool.query<{ body: Buffer }>(
    `SELECT r.body FROM log_records r JOIN log_lists l ON l.id = r.list_id
      WHERE l.path = $1 ORDER BY ${spec.order === 'stable' ? 'r.seq' : 'r.ts DESC, r.seq'}`,
    [spec.path],
  );
  return rows.map((row) => fake.idOf(row.body.toString()));
}

/** Runs a scenario's steps on a list, then reads it to completion and ends every walk. */
async function run(
  plan: Scenario,
  fake: FakeList,
  spec: ListSpec,
  reader: Reader,
  arrive: (count: number, sameTime: boolean) => void,
  clock: { now: number },
) {
  const walkers: Walker[] = plan.walkers.map((limit) => ({
    limit,
    cursor: null,
    started: false,
    expected: [],
    ids: [],
  }));

  /** One page of a walk; checks the walk once it ends. */
  async function walkOn(walker: Walker) {
    if (!walker.started) {
      walker.started = true;
      walker.expected = fake.ids();
    }
    const page = served(fake, await reader.serve(spec, walker.cursor, walker.limit));
    walker.ids.push(...page.ids);
    walker.cursor = page.next;
    if (walker.cursor !== null) return;
    expect(new Set(walker.ids).size, 'a record served twice').toBe(walker.ids.length);
    // Every record that existed at the start; newer arrivals met on the way may come too.
    const walked = new Set(walker.ids);
    expect(
      walker.expected.filter((id) => !walked.has(id)),
      'records missed',
    ).toEqual([]);
    const known = new Set(fake.ids());
    expect(
      walker.ids.filter((id) => !known.has(id)),
      'records never listed',
    ).toEqual([]);
    // In the list's order: the log's, which is by time for a contract's events.
    const order = await logOrder(fake, spec);
    expect(walker.ids).toEqual(order.filter((id) => walked.has(id)));
    Object.assign(walker, { started: false, ids: [], expected: [] });
  }

  const steps: Step[] = plan.steps;
  for (const action of steps) {
    clock.now += 1_000;
    if (action.kind === 'arrive') arrive(action.count, action.sameTime);
    else if (action.kind === 'forget') fake.forget();
    else if (action.kind === 'drop') fake.dropNextCursor();
    else if (action.kind === 'head') expect((await reader.head(spec)).kind).toBe('state');
    else if (action.kind === 'deeper') expect((await reader.deeper(spec)).kind).toBe('state');
    else await walkOn(walkers[action.walker]!);
  }

  clock.now += 1_000;
  await readToCompletion(reader, spec);
  const logged = await loggedIds(log(), fake, spec.path);
  expect(sortedIds(logged), 'the log holds every record once').toEqual(sortedIds(fake.ids()));
  expect((await reader.state(spec.path))?.records).toBe(logged.length);

  for (const walker of walkers) {
    for (let pages = 0; walker.started; pages++) {
      if (pages > 2_000) throw new Error('the walk does not end');
      await walkOn(walker);
    }
  }
  // A walk from the head now returns the whole list.
  const last = walkers[0]!;
  do await walkOn(last);
  while (last.started);
}

describe('a list read into the log and walked', () => {
  it('of a contract’s events: every record once, newest first, whatever the service does', async () => {
    await fc.assert(
      fc.asyncProperty(scenario(200), async (plan) => {
        const fake = createFakeList({ order: 'newest-first', ...plan });
        let newest = 10_000;
        fake.add(
          Array.from(
            { length: plan.initial },
            (_, n) => newest - Math.floor((n * plan.spread) / 10),
          ),
        );
        const spec = eventsSpec();
        // Every walk from the head reads the head first.
        const { reader, clock } = readerOver(log(), fake, { headIntervalMs: 0 });
        await run(
          plan,
          fake,
          spec,
          reader,
          (count, sameTime) => {
            newest += sameTime ? 0 : 1;
            fake.add(Array.from({ length: count }, () => newest));
          },
          clock,
        );
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('of a token’s events (no time order): every record once, in the order they arrived', async () => {
    await fc.assert(
      // A token's list is short; each walk from its start reads it whole.
      fc.asyncProperty(scenario(60), async (plan) => {
        const fake = createFakeList({ order: 'by-id', ...plan });
        fake.add(Array.from({ length: plan.initial }, () => 500));
        const spec = tokenSpec();
        const { reader, clock } = readerOver(log(), fake, { headIntervalMs: 0 });
        await run(
          plan,
          fake,
          spec,
          reader,
          (count) => fake.add(Array.from({ length: count }, () => 500)),
          clock,
        );
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
