import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLagClock, lsnValue } from '../../../src/server/database/replica-lag';

/**
 * A replica's lag from WAL positions alone: against a primary writing at random moments
 * and checked at a fixed interval, the estimate of a replica that has replayed up to any
 * point is never more than the true lag (the time since the primary first went past that
 * point) and less by at most one interval; a replica that has everything lags 0, however
 * long the primary has been idle.
 */
const INTERVAL = 1_000;

const history = fc.record({
  writes: fc.array(
    fc.record({
      gap: fc.integer({ min: 1, max: 20_000 }),
      bytes: fc.integer({ min: 1, max: 1e7 }),
    }),
    { minLength: 1, maxLength: 40 },
  ),
  checks: fc.integer({ min: 1, max: 200 }),
  replayedAt: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('replica lag from WAL positions', () => {
  it('reads PostgreSQL positions in order', () => {
    expect(lsnValue('0/30008A0')).toBe(0x30008a0n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });

  it('is within one check of the true lag, never over it', () => {
    fc.assert(
      fc.property(history, ({ writes, checks, replayedAt }) => {
        const base = 0x3000000n;
        let time = 0;
        const steps = writes.map(({ gap, bytes }) => ({ at: (time += gap), bytes: BigInt(bytes) }));
        const primaryAt = (t: number) =>
          steps.filter((step) => step.at <= t).reduce((lsn, step) => lsn + step.bytes, base);
        const now = checks * INTERVAL;
        const clock = createLagClock(Infinity);
        for (let check = 0; check <= checks; check++) {
          clock.primaryAt(check * INTERVAL, primaryAt(check * INTERVAL));
        }
        const replay = primaryAt(Math.floor(replayedAt * now));
        const past = steps.find((step) => step.at <= now && primaryAt(step.at) > replay);
        const trueLag = past ? now - past.at : 0;
        const estimate = clock.lagMs(replay, now);
        expect(estimate).toBeLessThanOrEqual(trueLag);
        expect(estimate).toBeGreaterThan(trueLag - INTERVAL);
      }),
    );
  });

  it('counts nothing for a replica that has everything from an idle primary', () => {
    const clock = createLagClock(60_000);
    for (let check = 0; check <= 3_600; check++) clock.primaryAt(check * INTERVAL, 0x5000n);
    expect(clock.lagMs(0x5000n, 3_600 * INTERVAL)).toBe(0);
    // One new commit after the idle hour: behind by the time since it was seen, not the hour.
    clock.primaryAt(3_601 * INTERVAL, 0x5100n);
    expect(clock.lagMs(0x5000n, 3_603 * INTERVAL)).toBe(2 * INTERVAL);
  });

  it('still reads a lag past what it keeps as past it', () => {
    const clock = createLagClock(10_000);
    for (let check = 0; check <= 100; check++) clock.primaryAt(check * INTERVAL, BigInt(check));
    expect(clock.lagMs(0n, 100 * INTERVAL)).toBeGreaterThanOrEqual(10_000);
  });
});
