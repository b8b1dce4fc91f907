import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachAtOnce } from '../../../src/server/each-at-once';

/**
 * `eachAtOnce` (what `npm run index -- --at-once N` reads contracts with): whatever order
 * the tasks end in, every item runs once, never more than N at a time, and a freed place
 * takes the next item at once (as many run as there are places and items left).
 */
describe('eachAtOnce', () => {
  it('runs every item once, at most N at a time, a freed place taken at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (count, atOnce, picks) => {
          const items = Array.from({ length: count }, (_, index) => `item ${index}`);
          const started: number[] = [];
          const running = new Map<number, () => void>();
          let mostAtOnce = 0;
          const done = eachAtOnce(items, atOnce, (item, index) => {
            expect(item).toBe(items[index]);
            started.push(index);
            mostAtOnce = Math.max(mostAtOnce, running.size + 1);
            return new Promise<void>((end) => running.set(index, end));
          });
          let pick = 0;
          for (let ended = 0; ended < count; ended++) {
            // Each place freed is taken before the next task ends: let the workers move on.
            await Promise.resolve();
            expect(running.size).toBe(Math.min(atOnce, count - ended));
            const keys = [...running.keys()];
            const index = keys[(picks[pick++] ?? 0) % keys.length]!;
            running.get(index)!();
            running.delete(index);
            await Promise.resolve();
          }
          await done;
          expect(started).toEqual(items.map((_, index) => index));
          expect(mostAtOnce).toBeLessThanOrEqual(atOnce);
        },
      ),
    );
  });
});
