import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activityTransform,
  bucketName,
  createActivityBuilder,
  MAX_BUCKETS,
} from '../../../src/lib/activity';
import { EVENT_KINDS, type TokenEvent } from '../../../src/lib/token-event';

type ChartEvent = Pick<TokenEvent, 'kind' | 'timestamp'>;

/** A list counted by a builder that has seen nothing before it. */
const afresh = (list: readonly ChartEvent[]) => createActivityBuilder()(list);

const WIDTH = 800;
const HEIGHT = 120;
const DAY = 86_400;

const events = fc.array(
  fc.record({
    kind: fc.constantFrom(...EVENT_KINDS),
    // Around mid-2025, spans from minutes (hour buckets) to years (merged day buckets).
    timestamp: fc.integer({ min: 1_750_000_000 - 900 * DAY, max: 1_750_000_000 }),
  }),
  { minLength: 1, maxLength: 300 },
);

/** `matrix(a b c d e f)` applied to a point. */
function apply(transform: string, x: number, y: number): [number, number] {
  const [a, , , d, e, f] = transform.slice(7, -1).split(' ').map(Number) as number[];
  return [a! * x + e!, d! * y + f!];
}

describe('activity chart geometry', () => {
  it('puts each bar where the chart box says: its bucket slot across, its counts up', () => {
    fc.assert(
      fc.property(events, (list) => {
        const activity = afresh(list)!;
        const transform = activityTransform(activity, WIDTH, HEIGHT);
        const slot = WIDTH / activity.buckets.length;
        activity.buckets.forEach((bucket, index) => {
          // The bar's left edge in its own units (start / size) lands on its slot.
          const [left, base] = apply(transform, bucket.start / activity.size, 0);
          const [right, top] = apply(transform, bucket.start / activity.size + 1, bucket.total);
          expect(left).toBeCloseTo(index * slot, 6);
          expect(right).toBeCloseTo((index + 1) * slot, 6);
          expect(base).toBeCloseTo(HEIGHT, 6);
          expect(top).toBeCloseTo(HEIGHT - (bucket.total / activity.max) * (HEIGHT - 4), 6);
        });
      }),
    );
  });

  it('counts every event once, in the bucket that holds its time', () => {
    fc.assert(
      fc.property(events, (list) => {
        const activity = afresh(list)!;
        expect(activity.buckets.reduce((sum, bucket) => sum + bucket.total, 0)).toBe(list.length);
        for (const event of list) {
          const bucket = activity.buckets.find(
            (candidate) =>
              candidate.start <= event.timestamp &&
              event.timestamp < candidate.start + activity.size,
          );
          expect(bucket?.counts[event.kind]).toBeGreaterThan(0);
        }
        expect(activity.max).toBe(Math.max(...activity.buckets.map((bucket) => bucket.total)));
      }),
    );
  });
});

describe('bucket sizes', () => {
  it('never make more bars than the chart has room for, and count every event', () => {
    fc.assert(
      fc.property(events, fc.integer({ min: 1, max: 600 }), (list, room) => {
        const activity = createActivityBuilder()(list, room)!;
        expect(activity.buckets.length).toBeLessThanOrEqual(Math.min(room, MAX_BUCKETS));
        expect(activity.buckets.reduce((sum, bucket) => sum + bucket.total, 0)).toBe(list.length);
        // Every bucket starts on a whole multiple of its size: growing lists keep their bars.
        for (const bucket of activity.buckets) expect(bucket.start % activity.size).toBe(0);
      }),
    );
  });

  it('687 days in a phone’s chart are two-week bars, not 687 slivers', () => {
    const list = Array.from({ length: 687 }, (_, day) => ({
      kind: 'transfer' as const,
      timestamp: 1_750_000_000 - day * DAY,
    }));
    const activity = createActivityBuilder()(list, 58)!;
    expect(bucketName(activity.size)).toBe('2 weeks');
    expect(activity.buckets.length).toBeLessThanOrEqual(58);
    expect(createActivityBuilder()(list)!.size).toBe(2 * DAY);
  });

  it.each([
    [3600, 'hour'],
    [6 * 3600, '6 hours'],
    [DAY, 'day'],
    [2 * DAY, '2 days'],
    [7 * DAY, 'week'],
    [28 * DAY, '4 weeks'],
    [91 * DAY, '91 days'],
  ])('a bucket of %i s is a %s', (size, name) => {
    expect(bucketName(size)).toBe(name);
  });
});

describe('the growing chart', () => {
  it('counting only what a grown list adds gives what counting it all gives', () => {
    // Steps: grow the list by some events, or replace it (a refetch, a filter, a reset).
    const step = fc.oneof(
      fc.record({ grow: events }),
      fc.record({
        replace: fc.oneof(events, fc.constant<ChartEvent[]>([])),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const build = createActivityBuilder();
        let list: ChartEvent[] = [];
        for (const next of steps) {
          list = 'grow' in next ? [...list, ...next.grow] : next.replace;
          expect(build(list)).toEqual(afresh(list));
        }
      }),
    );
  });

  it('a list that is not the last one grown is counted afresh, not on top', () => {
    const build = createActivityBuilder();
    const older: ChartEvent = { kind: 'mint', timestamp: 1_750_000_000 };
    build([older, { kind: 'sale', timestamp: 1_750_000_100 }]);
    // Same length and first event, another second event: nothing of the last count stays.
    const activity = build([older, { kind: 'burn', timestamp: 1_750_000_200 }]);
    expect(activity?.buckets.flatMap((bucket) => Object.keys(bucket.counts)).sort()).toEqual([
      'burn',
      'mint',
    ]);
  });
});
