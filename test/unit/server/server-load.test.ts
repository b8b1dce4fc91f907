import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLoadMeter } from '../../../src/server/http/server-load';

describe('a request’s share of the server', () => {
  it('is its duration when it runs alone', () => {
    let clock = 0;
    const load = createLoadMeter(() => clock);
    const end = load.start();
    clock += 40;
    expect(end()).toBe(40);
    expect(load.running()).toBe(0);
  });

  it('is a sixteenth of its duration beside fifteen others running all along', () => {
    let clock = 0;
    const load = createLoadMeter(() => clock);
    const others = Array.from({ length: 15 }, () => load.start());
    clock += 100;
    const page = load.start();
    clock += 1_600;
    expect(page()).toBe(100);
    for (const end of others) end();
  });

  it('counts the others only for the time they ran beside it, and ends once', () => {
    let clock = 0;
    const load = createLoadMeter(() => clock);
    const report = load.start();
    const page = load.start();
    clock += 100;
    expect(report()).toBe(50);
    clock += 100;
    // Half of 100 ms beside the report, then 100 ms alone.
    expect(page()).toBe(150);
    clock += 500;
    expect(page()).toBe(150);
    expect(load.running()).toBe(0);
  });

  it('adds up to the time the server was busy, however requests overlap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(1_000), fc.integer({ min: 1, max: 1_000 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (spans) => {
          // Each request [start, start + length): replayed in time order, then the shares
          // summed against the time at least one was running.
          const moments = spans
            .flatMap(([start, length], i) => [
              { t: start, i, starts: true },
              { t: start + length, i, starts: false },
            ])
            .sort((a, b) => a.t - b.t || Number(a.starts) - Number(b.starts));
          let clock = 0;
          const load = createLoadMeter(() => clock);
          const ends = new Map<number, () => number>();
          let total = 0;
          let busy = 0;
          let running = 0;
          let last = 0;
          for (const moment of moments) {
            if (running > 0) busy += moment.t - last;
            last = moment.t;
            clock = moment.t;
            if (moment.starts) {
              ends.set(moment.i, load.start());
              running += 1;
            } else {
              total += ends.get(moment.i)!();
              running -= 1;
            }
          }
          expect(total).toBeCloseTo(busy, 6);
        },
      ),
    );
  });
});
